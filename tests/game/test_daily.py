"""The daily deal's pure parts: days and zones, the seed, the table, move seeds,
the standings' order and the streaks (docs/RULES.md §Daily deal)."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from bot.features.daily.rules import (
    DAILY_BID,
    DAILY_CHANNEL,
    DAILY_SEAT,
    daily_seed,
    daily_table,
    table_day,
)
from bot.game.private import (
    day_before,
    day_of,
    move_rng,
    moves_of,
    next_day_start,
    standing_order,
    streaks,
)
from bot.rules import DEFAULT_RULES

KEY = bytes(range(32))
NOON = 1_796_126_400.0  # 2026-12-01 12:00 UTC


def make(user: int = 101, seed: int = 7, level: str = "hard"):
    return daily_table(1, user, "Ana", "en", day="2026-12-01", seed=seed, level=level,
                       rules=DEFAULT_RULES, turn_seconds=60, now=NOON)


def test_the_day_is_the_calendar_day_of_the_servers_zone() -> None:
    late = 1_796_166_000.0  # 2026-12-01 23:00 UTC
    assert day_of(late) == "2026-12-01"
    assert day_of(late, "Asia/Tokyo") == "2026-12-02"  # UTC+9
    assert day_of(late, "America/Mexico_City") == "2026-12-01"
    assert day_of(NOON, "Pacific/Kiritimati") == "2026-12-02"  # UTC+14
    with pytest.raises(ValueError):
        day_of(NOON, "Mars/Olympus_Mons")


def test_the_next_day_starts_at_local_midnight() -> None:
    assert next_day_start(NOON) == 1_796_169_600.0  # 2026-12-02 00:00 UTC
    assert next_day_start(NOON, "Europe/Madrid") == 1_796_169_600.0 - 3600
    assert day_before("2026-03-01") == "2026-02-28"
    assert day_before("2026-01-01") == "2025-12-31"


def test_the_seed_depends_on_the_key_the_server_and_the_day() -> None:
    seed = daily_seed(KEY, 1, "2026-12-01")
    assert seed == daily_seed(KEY, 1, "2026-12-01")
    assert 0 <= seed < 2**63
    others = {daily_seed(KEY, 2, "2026-12-01"), daily_seed(KEY, 1, "2026-12-02"),
              daily_seed(bytes(32), 1, "2026-12-01")}
    assert seed not in others and len(others) == 3


def test_the_member_is_landlord_at_bid_3_with_the_kitty_and_leads() -> None:
    table, events = make()
    hand = table.hand
    assert hand is not None
    assert table_day(table) == "2026-12-01" and table.channel_id == DAILY_CHANNEL
    assert hand.phase == "playing" and hand.landlord == DAILY_SEAT == 0
    assert hand.winning_bid == DAILY_BID == 3 and hand.turn == 0
    assert len(hand.holdings[0]) == 20 and set(hand.kitty) <= set(hand.holdings[0])
    assert [s.computer for s in table.seats] == [None, "hard", "hard"]
    assert [e.kind for e in events][-2:] == ["bid", "landlord"]


def test_every_member_gets_the_same_cards() -> None:
    ana, _ = make(101)
    ben, _ = make(202)
    assert ana.id != ben.id
    assert ana.hand is not None and ben.hand is not None
    assert ana.hand.dealt == ben.hand.dealt and ana.hand.kitty == ben.hand.kitty
    other, _ = make(101, seed=8)
    assert other.hand is not None and other.hand.dealt != ana.hand.dealt


def test_a_moves_seed_depends_on_the_position_only() -> None:
    ana, _ = make(101)
    ben, _ = make(202)
    assert move_rng(ana).random() == move_rng(ben).random()
    lead = ana.hand.legal_plays(0)[0]  # type: ignore[union-attr]
    ana.play(101, lead.cards, NOON)
    ben.play(202, lead.cards, NOON + 99)  # another member, later: the same position
    assert move_rng(ana).random() == move_rng(ben).random()
    fresh, _ = make(101)
    assert move_rng(fresh).random() != move_rng(ana).random()
    assert moves_of(ana) == 1 and moves_of(fresh) == 0


@dataclass
class Row:
    name: str
    points: int
    moves: int
    finished_at: float


def test_standings_order_points_then_fewer_moves_then_earlier_finish() -> None:
    rows = [Row("a", 12, 9, 5.0), Row("b", 24, 12, 9.0), Row("c", 12, 7, 8.0),
            Row("d", 12, 7, 6.0), Row("e", -12, 2, 1.0)]
    assert [r.name for r in standing_order(rows)] == ["b", "d", "c", "a", "e"]


def test_streaks_count_days_in_a_row_with_a_win() -> None:
    won = ["2026-11-20", "2026-11-21", "2026-11-22", "2026-11-28", "2026-11-29", "2026-11-30"]
    assert streaks(won, "2026-11-30") == (3, 3)
    assert streaks(won, "2026-12-01") == (3, 3)  # today still to play: the streak stands
    assert streaks(won, "2026-12-01", played_today=True) == (0, 3)  # today played, lost
    assert streaks(won, "2026-11-30", played_today=True) == (3, 3)  # today played, won
    assert streaks(won, "2026-12-02") == (0, 3)  # a day missed
    assert streaks([*won, "2026-11-23"], "2026-11-24") == (4, 4)
    assert streaks([], "2026-12-01") == (0, 0)
    assert streaks(["2026-12-01", "2026-12-01"], "2026-12-01") == (1, 1)
