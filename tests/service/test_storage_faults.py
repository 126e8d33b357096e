"""A database that refuses writes for a while (issue 25: disk full, read-only).

For real, no mock: SQLite on a small tmpfs filled up by the test (root only: the
test mounts it), PostgreSQL on a throwaway cluster of its own switched to
``default_transaction_read_only`` (as a standby after a failover answers). The
member's action fails with StorageUnavailable (the cog answers "try again in a
moment"), the table in memory and in the database is unchanged, reads go on, and
once the disk has room again (the server takes writes again) the same action, and
the turn timer that failed meanwhile, go through by themselves.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sqlite3
import subprocess
import tempfile
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path

import asyncpg
import pytest

from bot.service import StorageUnavailable, TableService
from bot.storage.base import SqlRepository
from bot.storage.postgres import PostgresStorage
from bot.storage.sqlite import SqliteStorage
from tests.support.service_clock import ALICE, FakeClock, G, Recorder, run, saved, three_players

REPO = Path(__file__).parents[2]


@contextlib.contextmanager
def small_disk(size: str = "2m") -> Iterator[Path]:
    """A ``size`` tmpfs mounted for the test (skips where mounting is not allowed)."""
    where = Path(tempfile.mkdtemp(prefix="ddz-disk-"))
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)],
                             capture_output=True)
    if mounted.returncode != 0:
        where.rmdir()
        pytest.skip("mounting a small tmpfs needs root")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)
        where.rmdir()


def fill(disk: Path) -> Path:
    """Fill ``disk`` to the last byte with one file; its path (delete it: room again)."""
    filler = disk / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        for size in (65536, 4096, 1):
            with contextlib.suppress(OSError):
                while os.write(fd, b"\0" * size):
                    pass
    finally:
        os.close(fd)
    assert os.statvfs(disk).f_bavail == 0
    return filler


async def refused_then_recovered(service: TableService, store: SqlRepository, clock: FakeClock,
                                 refuse: Callable[[], Awaitable[None]],
                                 allow: Callable[[], Awaitable[None]]) -> None:
    """The story both backends must tell (``refuse`` / ``allow``: make the database
    refuse writes and take them again)."""
    table = await three_players(service)
    await refuse()
    with pytest.raises(StorageUnavailable):
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


async def test_sqlite_on_a_full_disk_refuses_politely_and_recovers_when_room_returns() -> None:
    with small_disk() as disk:
        store = await SqliteStorage.open(disk / "ddz.sqlite3")
        clock = FakeClock()
        service = TableService(store, clock=clock, listener=Recorder(), ai_delay=0)
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
    service = TableService(store, clock=clock, listener=Recorder(), ai_delay=0)

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
