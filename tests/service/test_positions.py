"""The per-position ranking memo, on the loop or in worker processes (bot.service.positions)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

import bot.service.positions as positions
from bot.ai.choices import Choices, choices
from bot.game.table import Table
from bot.service.pool import WorkerPool
from bot.service.positions import ChoicesCache
from tests.support.fake_game import leading_table


@pytest.fixture
async def pool() -> AsyncIterator[WorkerPool]:
    made = WorkerPool("ranking", 1)
    assert await made.wait_ready()
    yield made
    made.shutdown()


def no_ranking_here(*_: object) -> Choices:
    raise AssertionError("ranked on the event loop")


@pytest.mark.processes
async def test_a_ready_pool_ranks_in_the_worker_once_for_every_caller(
    pool: WorkerPool, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = leading_table()
    expected = [choices(table.hand.observation(seat)) for seat in range(3)]
    # The spawned worker imports its own bot.service.positions: only this process fails.
    monkeypatch.setattr(positions, "choices", no_ranking_here)
    cache = ChoicesCache()
    first = await asyncio.gather(*(cache.ranked(table, 0, pool) for _ in range(3)))
    assert first == [expected[0]] * 3
    assert cache.computed == 1
    assert [await cache.ranked(table, seat, pool) for seat in (1, 2)] == expected[1:]
    assert cache.get(table, 0) == expected[0]  # kept: the menu and Hint read it at once
    assert cache.computed == 3


async def test_without_a_ready_pool_the_ranking_is_the_same_on_the_loop() -> None:
    table = leading_table()
    stopped = WorkerPool("ranking", 0)  # threads only: never "ready"
    cache = ChoicesCache()
    assert await cache.ranked(table, 1, stopped) == choices(table.hand.observation(1))
    assert await cache.ranked(table, 2) == choices(table.hand.observation(2))
    assert cache.computed == 2


@pytest.mark.processes
async def test_a_new_position_is_ranked_again(pool: WorkerPool) -> None:
    table = leading_table(seq=5)
    cache = ChoicesCache()
    await cache.ranked(table, 0, pool)
    assert table.hand is not None
    moved_hand = table.hand.model_copy(deep=True)
    moved_hand.play(0, [moved_hand.hand_of(0)[0]])
    moved = Table.model_validate({**table.model_dump(), "seq": 6, "hand": moved_hand.model_dump()})
    assert await cache.ranked(moved, 1, pool) == choices(moved_hand.observation(1))
    assert cache.computed == 2


def test_the_card_counter_is_the_seats_own_and_computed_once_per_position(
    monkeypatch: pytest.MonkeyPatch
) -> None:
    table = leading_table()
    cache = ChoicesCache()
    counts = [cache.still_out(table, seat) for seat in range(3)]
    assert counts == [table.hand.observation(seat).still_out() for seat in range(3)]
    # 54 cards less the seat's own (20 for the landlord, 17) less the kitty turned up
    assert [sum(c) for c in counts] == [54 - 20, 54 - 17 - 3, 54 - 17 - 3]
    monkeypatch.setattr(type(table.hand), "observation", no_ranking_here)
    assert cache.still_out(table, 1) is counts[1]  # the same position: not computed again
    moved = table.model_copy(update={"seq": table.seq + 1})
    with pytest.raises(AssertionError):
        cache.still_out(moved, 1)  # a new position is computed anew


def test_positions_a_table_moved_past_are_dropped_and_other_tables_kept() -> None:
    cache = ChoicesCache()
    old, other = leading_table("t1", seq=5), leading_table("t2", seq=5)
    for seat in range(3):
        cache.get(old, seat)
        cache.still_out(old, seat)
    cache.get(other, 0)
    new = leading_table("t1", seq=6)
    cache.get(new, 1)
    cache.forget_before("t1", 6)
    assert cache.computed == 5
    cache.get(old, 0)  # computed anew: the old position was dropped
    assert cache.computed == 6
    cache.get(other, 0)
    cache.get(new, 1)  # kept: t2's position, and t1's current one
    assert cache.computed == 6
    cache.forget_before("t1", 99)  # the table closed
    cache.forget_before("t2", 99)
    assert cache._keys == {} and not cache._memo and not cache._counts  # noqa: SLF001


def test_the_ranking_and_the_counter_share_one_observation_per_position(
    monkeypatch: pytest.MonkeyPatch
) -> None:
    table = leading_table()
    hand_type = type(table.hand)
    built: list[int] = []
    real = hand_type.observation

    def counted(hand: object, seat: int) -> object:
        built.append(seat)
        return real(hand, seat)  # type: ignore[arg-type]

    monkeypatch.setattr(hand_type, "observation", counted)
    cache = ChoicesCache()
    counts = cache.still_out(table, 2)
    ranked = cache.get(table, 2)
    assert built == [2]
    assert counts == real(table.hand, 2).still_out()
    assert ranked == choices(real(table.hand, 2))
    cache.forget_before(table.id, table.seq + 1)
    assert cache._keys == {} and not cache._seen  # noqa: SLF001


@pytest.mark.processes
async def test_known_answers_only_what_is_computed_and_never_computes(
    pool: WorkerPool, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = leading_table()
    expected = choices(table.hand.observation(1))
    monkeypatch.setattr(positions, "choices", no_ranking_here)
    cache = ChoicesCache()
    assert cache.known(table, 1) is None
    assert cache.computed == 0
    assert await cache.ranked(table, 1, pool) == expected
    assert cache.known(table, 1) == expected
    assert cache.known(table, 2) is None  # another seat's position is its own
    no_hand = table.model_copy(update={"hand": None})
    assert cache.known(no_hand, 1) == Choices((), 0, ())  # no choices, nothing to wait for
