"""Skill ratings in settle_hand: same transaction, exactly once; leaderboard, history, forget."""

from __future__ import annotations

import pytest

from bot.game.rating import RatedSeat, SkillRating, computer_key, member_key, rate_hand
from bot.storage.base import SqlRepository
from tests.support.storage_fakes import finished_table

M1, M2, M3 = member_key(101), member_key(102), member_key(103)


def expected_after(
    landlord: str, peasants: tuple[str, str], landlord_won: bool, current: dict[str, SkillRating]
) -> dict[str, SkillRating]:
    seats = [RatedSeat(landlord, True), *(RatedSeat(p, False) for p in peasants)]
    return rate_hand(seats, landlord_won, current)


async def ratings_of(store: SqlRepository, guild_id: int = 1) -> dict[str, SkillRating]:
    rows = await store.rating_board(guild_id)
    return {
        member_key(r.user_id) if r.user_id is not None else computer_key(str(r.computer)): r.rating
        for r in rows
    }


async def test_settlement_rates_the_three_members(store: SqlRepository) -> None:
    await store.settle_hand(finished_table(), "h1")  # 101 landlord wins
    first = expected_after(M1, (M2, M3), True, {})
    assert await ratings_of(store) == first
    await store.settle_hand(finished_table(landlord=1, winner="peasants"), "h2")
    second = expected_after(M2, (M1, M3), False, first)
    assert await ratings_of(store) == second
    assert second[M1].hands == 2 and second[M1].mu > first[M1].mu > 25.0
    stats = await store.player_stats(1, 101)
    assert stats is not None and stats.rating == second[M1]


async def test_computers_are_rated_per_level_and_per_guild(store: SqlRepository) -> None:
    # Seats 0 and 2 are computers of level "normal" (fakes.finished_table), 102 landlord loses.
    await store.settle_hand(
        finished_table(users=(None, 102, None), landlord=1, winner="peasants"), "c1"
    )
    normal = computer_key("normal")
    after = expected_after(M2, (normal, normal), False, {})
    assert await ratings_of(store) == after
    assert after[normal].hands == 1
    board = await store.rating_board(1)
    assert [(r.user_id, r.computer, r.name) for r in board] == [
        (None, "normal", None),
        (102, None, "user102"),
    ]
    assert await store.rating_board(2) == []


async def test_settling_a_hand_twice_rates_it_once(store: SqlRepository) -> None:
    await store.settle_hand(finished_table(), "h1")
    once = await ratings_of(store)
    replay = await store.settle_hand(finished_table(), "h1")
    assert replay.replayed
    assert await ratings_of(store) == once
    assert [r.rating.hands for r in await store.rating_board(1)] == [1, 1, 1]


async def test_hand_history_keeps_totals_and_ratings_after_each_hand(
    store: SqlRepository,
) -> None:
    await store.settle_hand(finished_table(), "h1")
    await store.settle_hand(finished_table(landlord=1), "h2")
    await store.settle_hand(finished_table(landlord=1, winner="peasants", base=3), "h3")
    ratings = await ratings_of(store)
    history = await store.hand_history(1, 101)
    assert [(h.hand_id, h.role, h.points, h.total, h.won) for h in history] == [
        ("h1", "landlord", 2, 2, True),
        ("h2", "peasant", -1, 1, False),
        ("h3", "peasant", 3, 4, True),
    ]
    assert (history[-1].mu, history[-1].sigma) == (ratings[M1].mu, ratings[M1].sigma)
    assert history[-1].ordinal == pytest.approx(ratings[M1].ordinal)
    assert [h.hand_id for h in await store.hand_history(1, 101, limit=2)] == ["h2", "h3"]
    assert await store.hand_history(2, 101) == []


async def test_rating_board_is_sorted_by_ordinal(store: SqlRepository) -> None:
    for n in range(3):
        await store.settle_hand(finished_table(landlord=2, table_id=f"t{n}"), f"h{n}")
    board = await store.rating_board(1)
    assert [r.user_id for r in board][0] == 103
    ordinals = [r.rating.ordinal for r in board]
    assert ordinals == sorted(ordinals, reverse=True)


async def test_forget_removes_the_members_rating_and_their_history(
    store: SqlRepository,
) -> None:
    await store.settle_hand(finished_table(), "h1")
    await store.settle_hand(finished_table(guild_id=2), "g2")
    others = (await ratings_of(store))[M2]
    await store.forget_user(1, 101)
    assert M1 not in await ratings_of(store)
    assert (await ratings_of(store))[M2] == others  # the others keep theirs
    assert await store.hand_history(1, 101) == []
    assert M1 in await ratings_of(store, 2)  # another guild is untouched
    async with store._read() as db:
        rows = await db.fetch(
            "SELECT user_id, points, total, mu, sigma FROM hand_players"
            " WHERE hand_id = 'h1' AND seat = 0"
        )
    assert [tuple(r) for r in rows] == [(None, 2, None, None, None)]


async def test_hand_history_follows_settlement_order_even_if_the_clock_goes_back(
    store: SqlRepository, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = iter([3000.0, 2000.0, 1000.0])  # e.g. two processes whose clocks disagree
    monkeypatch.setattr("bot.storage.base.time.time", lambda: next(clock))
    for hand_id in ("z-first", "m-second", "a-third"):
        await store.settle_hand(finished_table(table_id=hand_id), hand_id)
    history = await store.hand_history(1, 101)
    assert [h.hand_id for h in history] == ["z-first", "m-second", "a-third"]
    assert [h.total for h in history] == [2, 4, 6]
