"""A database that refuses writes for a while (issue 25: disk full, read-only).

For real, no mock: SQLite on a small tmpfs filled up by the test (root only: the
test mounts it); PostgreSQL on a throwaway cluster of its own, once with its tables in
a tablespace on such a tmpfs, filled up (the server answers ``53100 disk_full``), once
switched to ``default_transaction_read_only`` (as a standby after a failover answers). The
member's action fails with StorageUnavailable (the cog answers "try again in a
moment"), the table in memory and in the database is unchanged, reads go on, and
once the disk has room again (the server takes writes again) the same action, and
the turn timer that failed meanwhile, go through by themselves.
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
import subprocess
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path

import asyncpg
import pytest

from bot.service import StorageUnavailable, TableService
from bot.storage.base import SqlRepository
from bot.storage.postgres import PostgresStorage
from bot.storage.sqlite import SqliteStorage
from tests.support.disks import fill, small_disk
from tests.support.service_clock import (
    ALICE,
    FakeClock,
    G,
    Recorder,
    featured_service,
    run,
    saved,
    three_players,
)

REPO = Path(__file__).parents[2]


async def refused_then_recovered(service: TableService, store: SqlRepository, clock: FakeClock,
                                 refuse: Callable[[], Awaitable[None]],
                                 allow: Callable[[], Awaitable[None]]) -> BaseException | None:
    """The story both backends must tell (``refuse`` / ``allow``: make the database
    refuse writes and take them again); the driver's error behind the refusal."""
    table = await three_players(service)
    await refuse()
    with pytest.raises(StorageUnavailable) as refused:
        await service.bid(table.id, ALICE, 1, seq=table.seq)
    assert service.get(table.id) == table  # the table in memory is unchanged
    assert await saved(store, table.id) == table  # nothing half-saved
    assert (await store.match_standings(G)).hands_played == 0  # reads keep working
    await run(service, clock, 30)  # the bid timer fires meanwhile and fails: retried later
    assert service.get(table.id) == table
    await allow()
    await run(service, clock, 5)  # the retry goes through by itself: seat 0 passed
    after = service.get(table.id)
    assert after is not None and after.hand is not None and after.hand.bids == [(0, 0)]
    assert await saved(store, table.id) == after
    bidder = after.seats[after.hand.turn or 0].user_id
    assert bidder is not None
    done = await service.bid(table.id, bidder, 1, seq=after.seq)  # and so do members' clicks
    assert done.hand is not None and done.hand.bids == [(0, 0), (after.hand.turn, 1)]
    return refused.value.__cause__


async def test_sqlite_on_a_full_disk_refuses_politely_and_recovers_when_room_returns() -> None:
    with small_disk() as disk:
        store = await SqliteStorage.open(disk / "ddz.sqlite3")
        clock = FakeClock()
        service = featured_service(store, clock=clock, listener=Recorder(), ai_delay=0)
        filler: list[Path] = []

        async def refuse() -> None:
            raw = sqlite3.connect(disk / "ddz.sqlite3")  # the WAL emptied: the next write
            raw.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # must grow it
            raw.close()
            filler.append(fill(disk))

        async def allow() -> None:
            os.remove(filler[0])

        try:
            await refused_then_recovered(service, store, clock, refuse, allow)
        finally:
            await service.close()
            await store.close()


@pytest.fixture(scope="module")
def own_cluster() -> Iterator[str]:
    """A throwaway PostgreSQL cluster of this test's own (``.ci/postgres``): it is switched
    to read-only, which must never touch the cluster other tests share."""
    if os.geteuid() != 0 or not list(Path("/usr/lib/postgresql").glob("*/bin")):
        pytest.skip("a cluster of its own needs root and the postgresql package")
    started = subprocess.run([str(REPO / ".ci/postgres"), "start"], capture_output=True,
                             text=True, timeout=120)
    assert started.returncode == 0, started.stderr
    env = dict(line.removeprefix("export ").split("=", 1) for line in started.stdout.split("\n")
               if line.startswith("export "))
    try:
        yield env["DDZ_TEST_DATABASE_URL"]
    finally:
        subprocess.run([str(REPO / ".ci/postgres"), "stop", env["DDZ_PG_DIR"]], timeout=120)


@pytest.fixture
async def admin(own_cluster: str) -> AsyncIterator[asyncpg.Connection]:
    conn = await asyncpg.connect(own_cluster)
    yield conn
    await conn.execute("ALTER SYSTEM RESET default_transaction_read_only")
    await conn.execute("SELECT pg_reload_conf()")
    await conn.execute("DROP SCHEMA IF EXISTS public CASCADE; CREATE SCHEMA public")
    await conn.close()


async def test_postgresql_refusing_writes_refuses_politely_and_recovers(
    own_cluster: str, admin: asyncpg.Connection
) -> None:
    store = await PostgresStorage.open(own_cluster, pool_size=2)
    clock = FakeClock()
    service = featured_service(store, clock=clock, listener=Recorder(), ai_delay=0)

    async def switch(read_only: bool) -> None:
        """Every session, the pool's too, takes the new default once it has read the
        reloaded configuration (a signal: a moment later)."""
        await admin.execute("ALTER SYSTEM SET default_transaction_read_only = "
                            + ("on" if read_only else "DEFAULT"))
        await admin.execute("SELECT pg_reload_conf()")
        wanted = "on" if read_only else "off"
        for _ in range(200):
            await asyncio.sleep(0.05)
            sessions = [await admin.fetchval("SHOW default_transaction_read_only")]
            async with store._read() as db:
                sessions.append((await db.fetch("SHOW default_transaction_read_only"))[0][0])
            if sessions == [wanted, wanted]:
                return
        raise AssertionError(f"the sessions still show {sessions}")

    async def refuse() -> None:
        await switch(True)

    async def allow() -> None:
        await switch(False)

    try:
        await refused_then_recovered(service, store, clock, refuse, allow)
    finally:
        await service.close()
        await store.close()


async def fill_table_pages(admin: asyncpg.Connection, table_id: str) -> int:
    """Once the disk is full: add rows the size of ``table_id``'s to ``open_tables``
    until one needs a new page and the server answers disk full, as a database that grew
    until its disk filled; the number of rows added. (Rows of another id and guild.)"""
    row = await admin.fetchrow("SELECT * FROM open_tables WHERE table_id = $1", table_id)
    for n in range(10_000):
        pad = f"{n:0{len(table_id)}d}"[-len(table_id):]
        try:
            await admin.execute("INSERT INTO open_tables VALUES ($1, $2, $3, $4, $5, $6)",
                                pad, row["guild_id"] + 1, row["channel_id"],
                                row["state"].replace(table_id, pad), row["created_at"],
                                row["updated_at"])
        except asyncpg.DiskFullError:
            return n
    raise AssertionError("10,000 rows and still room")


async def test_postgresql_on_a_full_disk_refuses_politely_and_recovers_when_room_returns(
    own_cluster: str, admin: asyncpg.Connection
) -> None:
    database = own_cluster.rsplit("/", 1)[1]
    with small_disk("4m", owner="postgres") as disk:
        await admin.execute(f"CREATE TABLESPACE ddz_small LOCATION '{disk}'")
        await admin.execute(f"ALTER DATABASE {database} SET default_tablespace = ddz_small")
        store = await PostgresStorage.open(own_cluster, pool_size=2)
        assert await admin.fetchval("SELECT tablespace FROM pg_tables"
                                    " WHERE tablename = 'open_tables'") == "ddz_small"
        # No vacuum behind the test's back: the room it makes would be taken by chance.
        await admin.execute("ALTER TABLE open_tables SET (autovacuum_enabled = off,"
                            " toast.autovacuum_enabled = off)")
        clock = FakeClock()
        service = featured_service(store, clock=clock, listener=Recorder(), ai_delay=0)
        filler: list[Path] = []

        async def refuse() -> None:
            await admin.execute("VACUUM open_tables")  # the older versions of the row: gone
            filler.append(fill(disk))
            await fill_table_pages(admin, service.tables()[0].id)

        async def allow() -> None:
            os.remove(filler[0])

        try:
            cause = await refused_then_recovered(service, store, clock, refuse, allow)
            assert isinstance(cause, asyncpg.DiskFullError)  # 53100, "No space left on device"
        finally:
            await service.close()
            await store.close()
            await admin.execute("DROP SCHEMA public CASCADE; CREATE SCHEMA public")
            await admin.execute(f"ALTER DATABASE {database} RESET default_tablespace")
            await admin.execute("DROP TABLESPACE ddz_small")
