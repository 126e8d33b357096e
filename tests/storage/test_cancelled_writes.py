"""A write whose caller is cancelled (a timed-out click, a shutdown) leaves no
transaction open and no half-written row; the next write works (docs/RELIABILITY.md).

Found in issue 11's review: SQLite's ``BEGIN IMMEDIATE`` runs in aiosqlite's thread
even when the awaiting task is cancelled, so a cancel at that await left the
connection inside a transaction and every later write failed with "cannot start a
transaction within a transaction".
"""

from __future__ import annotations

import asyncio
import contextlib

from bot.storage.base import SqlRepository
from bot.values import GuildSettings

GUILD = 4242


async def test_a_write_cancelled_at_any_await_leaves_the_store_usable(
    store: SqlRepository,
) -> None:
    before = GuildSettings(turn_seconds_play=45)
    await store.save_settings(GUILD, before)
    outcomes = set()
    for steps in range(12):  # cancel after 0..11 loop turns: BEGIN, the body, COMMIT, done
        wanted = GuildSettings(turn_seconds_play=100 + steps)
        task = asyncio.create_task(store.save_settings(GUILD, wanted))
        for _ in range(steps):
            await asyncio.sleep(0)
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        saved = (await store.get_settings(GUILD)).turn_seconds_play
        assert saved in (before.turn_seconds_play, wanted.turn_seconds_play), (steps, saved)
        outcomes.add(saved == wanted.turn_seconds_play)
        after = GuildSettings(turn_seconds_play=45 + steps)
        await store.save_settings(GUILD, after)  # raised on SQLite before the fix
        assert (await store.get_settings(GUILD)).turn_seconds_play == 45 + steps
        before = after
    assert False in outcomes  # at least one cancel landed before the write was done


async def test_a_table_save_cancelled_at_any_await_leaves_the_store_usable(
    store: SqlRepository,
) -> None:
    """Same for ``save_table``, which SQLite runs as a queued step of a group commit."""
    from tests.support.storage_fakes import FakeTable, finished_table

    for steps in range(8):
        task = asyncio.create_task(store.save_table(finished_table(table_id="t", seq=steps)))
        for _ in range(steps):
            await asyncio.sleep(0)
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        await store.save_table(finished_table(table_id="t", seq=100 + steps))
        states = [FakeTable.model_validate_json(s) for s in await store.load_table_states()]
        assert [(t.id, t.seq) for t in states] == [("t", 100 + steps)]
