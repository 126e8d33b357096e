"""SQLite reads go to the connection's thread with the group commit's writes, after their
COMMIT, instead of taking the storage lock each (docs/PERFORMANCE.md §Saves queued behind
reads).

Found in issue 54: at 1,000 tables the first turn pings read each member's ``/ddz
notify`` choice (1,406 reads in 30 s) and wrote each ping sent, one storage-lock turn and
one thread round trip each; the group commit waited for the lock behind all of them, so
saved bids and plays waited p50 58 ms, p99 1.7 s while the bot used a third of a core.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import aiosqlite
import pytest

from bot.storage.sqlite import SqliteStorage
from bot.values import GuildSettings, SentPing
from tests.support.storage_fakes import FakeTable, finished_table

GUILD = 77


@pytest.fixture
async def sqlite(tmp_path: Path) -> Any:
    store = await SqliteStorage.open(tmp_path / "ddz.sqlite3")
    yield store
    await store.close()


def count_hand_offs(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Every call into aiosqlite's thread from now on, counted (one item per call)."""
    calls: list[int] = []
    execute = aiosqlite.Connection._execute

    async def counted(self: Any, fn: Any, *args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return await execute(self, fn, *args, **kwargs)

    monkeypatch.setattr(aiosqlite.Connection, "_execute", counted)
    return calls


async def test_reads_and_saves_queued_together_take_one_hand_off(
    sqlite: SqliteStorage, monkeypatch: pytest.MonkeyPatch,
) -> None:
    await sqlite.save_notify(GUILD, 5, False)
    calls = count_hand_offs(monkeypatch)
    saves = [sqlite.save_table(finished_table(table_id=f"t{n}", seq=n)) for n in range(20)]
    reads = [sqlite.notify(GUILD, user) for user in range(40)]
    pings = [sqlite.save_sent_ping(SentPing(table_id=f"t{n}", guild_id=GUILD, channel_id=9,
                                            user_id=n, move_seq=1, message_id=1000 + n))
             for n in range(10)]
    results = await asyncio.gather(*saves, *reads, *pings)
    assert len(calls) == 1  # was 1 + 40 + 10 × 3 (BEGIN, INSERT, COMMIT)
    assert results[20:60] == [user != 5 for user in range(40)]
    states = [FakeTable.model_validate_json(s) for s in await sqlite.load_table_states()]
    assert sorted((t.id, t.seq) for t in states) == sorted((f"t{n}", n) for n in range(20))
    assert [p.message_id for p in await sqlite.sent_pings()] == [1000, 1001] + list(
        range(1002, 1010))


async def test_a_read_queued_with_a_write_sees_it_committed(sqlite: SqliteStorage) -> None:
    wrote = sqlite.save_settings(GUILD, GuildSettings(turn_seconds_play=51))
    read = sqlite.get_settings(GUILD)
    wrote_notify = sqlite.save_notify(GUILD, 8, False)
    read_notify = sqlite.notify(GUILD, 8)
    _, settings, _, notify = await asyncio.gather(wrote, read, wrote_notify, read_notify)
    assert settings.turn_seconds_play == 51
    assert notify is False


async def test_a_failing_write_leaves_the_reads_queued_with_it_their_answers(
    sqlite: SqliteStorage,
) -> None:
    await sqlite.save_notify(GUILD, 3, False)

    async def broken(db: Any) -> None:
        await db.execute("INSERT INTO no_such_table VALUES (1)")

    failing = sqlite._transaction(broken)
    read = sqlite.notify(GUILD, 3)
    saved = sqlite.save_table(finished_table(table_id="kept", seq=4))
    outcome = await asyncio.gather(failing, read, saved, return_exceptions=True)
    assert "no_such_table" in str(outcome[0])
    assert outcome[1:] == [False, None]
    states = [FakeTable.model_validate_json(s) for s in await sqlite.load_table_states()]
    assert [(t.id, t.seq) for t in states] == [("kept", 4)]


async def test_a_failing_read_fails_alone(sqlite: SqliteStorage) -> None:
    async def broken(db: Any) -> Any:
        return await db.fetch("SELECT * FROM no_such_table", ())

    outcome = await asyncio.gather(
        sqlite._fetch(broken), sqlite.save_notify(GUILD, 4, False), sqlite.notify(GUILD, 4),
        return_exceptions=True)
    assert "no_such_table" in str(outcome[0])
    assert outcome[1:] == [None, False]


async def test_a_save_is_not_held_behind_slow_reads(
    sqlite: SqliteStorage, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A deliberately slow connection thread (each hand-off takes 20 ms more): 30 reads
    queued before a save; the save is committed after one or two hand-offs, not 31."""
    execute = aiosqlite.Connection._execute
    ran: list[int] = []

    async def slow(self: Any, fn: Any, *args: Any, **kwargs: Any) -> Any:
        def slowed(*a: Any, **k: Any) -> Any:
            time.sleep(0.02)
            ran.append(1)
            return fn(*a, **k)

        return await execute(self, slowed, *args, **kwargs)

    monkeypatch.setattr(aiosqlite.Connection, "_execute", slow)
    reads = [asyncio.ensure_future(sqlite.notify(GUILD, user)) for user in range(30)]
    await asyncio.sleep(0)  # the reads queued first
    await sqlite.save_table(finished_table(table_id="soon", seq=1))
    assert len(ran) <= 2  # was 31: each read's own turn of the storage lock first
    assert await asyncio.gather(*reads) == [True] * 30
    states = [FakeTable.model_validate_json(s) for s in await sqlite.load_table_states()]
    assert [(t.id, t.seq) for t in states] == [("soon", 1)]
