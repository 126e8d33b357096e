"""Settled hands get a number per server, found again by number or by member."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from bot.storage.base import SqlRepository
from bot.storage.migrations import MIGRATIONS
from bot.storage.sqlite import SqliteStorage
from tests.support.storage_fakes import finished_table


async def test_hands_are_numbered_per_server_in_order_of_settlement(store: SqlRepository) -> None:
    first = await store.settle_hand(finished_table(), "a")
    other = await store.settle_hand(finished_table(guild_id=2), "b")
    second = await store.settle_hand(finished_table(users=(101, None, 104)), "c")
    again = await store.settle_hand(finished_table(), "a")
    assert (first.hand_no, other.hand_no, second.hand_no) == (1, 1, 2)
    assert again.replayed and again.hand_no == 1
    found = await store.numbered_hand(1, 2)
    assert found is not None and found.hand_id == "c" and found.user_ids == (101, None, 104)
    assert found.settlement.hand_no == 2 and found.seat_of(104) == 2 and found.seat_of(102) is None
    assert await store.numbered_hand(1, 3) is None
    assert (await store.numbered_hand(2, 1)).hand_id == "b"  # type: ignore[union-attr]


async def test_last_hand_of_a_member_is_their_latest_in_that_server(store: SqlRepository) -> None:
    await store.settle_hand(finished_table(), "a")
    await store.settle_hand(finished_table(users=(101, None, 104)), "c")
    await store.settle_hand(finished_table(guild_id=2), "b")
    assert (await store.last_hand_of(1, 102)).hand_no == 1  # type: ignore[union-attr]
    assert (await store.last_hand_of(1, 101)).hand_no == 2  # type: ignore[union-attr]
    assert await store.last_hand_of(1, 999) is None
    stats = await store.player_stats(1, 102)
    assert stats is not None and stats.last_hand_no == 1
    assert (await store.match_standings(1)).last_hand_no == 2
    await store.forget_user(1, 101)
    assert await store.last_hand_of(1, 101) is None  # forgotten: no longer theirs


async def test_migration_numbers_hands_settled_before_numbering(db_path: Path) -> None:
    raw = sqlite3.connect(db_path)
    raw.executescript(MIGRATIONS[0] + "PRAGMA user_version = 1;")
    for hand_id, guild, at in (("x", 1, 20.0), ("y", 1, 10.0), ("z", 2, 5.0), ("w", 1, 10.0)):
        raw.execute("INSERT INTO finished_hands VALUES (?, ?, 't', 1, ?, '{}', '{}')",
                    (hand_id, guild, at))
    raw.commit()
    raw.close()
    await (await SqliteStorage.open(db_path)).close()
    raw = sqlite3.connect(db_path)
    numbered = dict(raw.execute("SELECT hand_id, hand_no FROM finished_hands").fetchall())
    raw.close()
    assert numbered == {"w": 1, "y": 2, "x": 3, "z": 1}
