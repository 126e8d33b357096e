"""The AI worker process: same seeded decisions as the thread path; a broken pool falls back."""

from __future__ import annotations

import multiprocessing
import os
import random
from collections.abc import Iterator

import pytest

from bot.ai import bidding, search
from bot.game.computer import decide
from bot.game.seat import computer_seat
from bot.game.table import Table
from bot.service import deciders, pooled_decide, worker
from tests.ai.helpers import uncapped_decide_from_json


@pytest.fixture(autouse=True)
def fresh_worker() -> Iterator[None]:
    worker.reset()
    yield
    worker.reset()


def hard_table_in_play(seed: int = 11) -> Table:
    """Three hard computers after the bidding (seat to act leads the first trick)."""
    table = Table.open(1, 2, 100, "Ann", computers=2, level="hard")
    table.start(100, 0.0, seed=seed, first_bidder=0)
    table.seats[0] = computer_seat(0, "hard")
    rng = random.Random(seed)
    while table.hand is not None and table.hand.phase == "bidding":
        table.auto_act(decide(table, rng), 0.0)
    return table


def crash_in_a_worker(value: int) -> int:
    """Kills a worker process (breaking its pool); in the main process just answers."""
    if multiprocessing.parent_process() is not None:
        os._exit(3)
    return value * 2


async def test_hard_moves_in_the_worker_equal_the_thread_path_for_the_same_seed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Seeded moves are equal only when the wall-clock cap never cuts a search short;
    # on a loaded machine it may, so the cap is lifted here and in the worker.
    monkeypatch.setattr(search, "TIME_CAP", float("inf"))
    monkeypatch.setattr(bidding, "TIME_CAP", float("inf"))
    monkeypatch.setattr(deciders, "decide_from_json", uncapped_decide_from_json)
    table = hard_table_in_play()
    for move in range(3):
        seed = 1000 + move
        expected = decide(table, random.Random(seed))
        in_worker = await worker.run(uncapped_decide_from_json, table.model_dump_json(),
                                     random.Random(seed))
        assert in_worker == expected, move
        assert await pooled_decide(table, random.Random(seed)) == expected
        table.auto_act(expected, 0.0)
    assert worker._pool is not None  # noqa: SLF001 - the process pool was really used


async def test_easy_and_normal_moves_stay_on_the_thread_path(monkeypatch: pytest.MonkeyPatch) -> None:
    table = hard_table_in_play()
    turn = table.turn_seat
    assert turn is not None

    async def no_worker(*args: object) -> object:
        raise AssertionError("the worker is for hard moves only")

    monkeypatch.setattr(worker, "run", no_worker)
    for level in ("easy", "normal"):
        table.seats[turn] = computer_seat(turn, level)  # type: ignore[arg-type]
        assert await pooled_decide(table, random.Random(5)) == decide(table, random.Random(5))


async def test_a_broken_pool_falls_back_to_a_thread_and_stays_off_for_a_while() -> None:
    assert await worker.run(crash_in_a_worker, 21) == 42  # the worker died: thread answer
    assert worker._pool is None  # noqa: SLF001
    assert await worker.run(crash_in_a_worker, 5) == 10  # no new worker spawned yet
    assert worker._pool is None  # noqa: SLF001


async def test_errors_of_the_function_itself_propagate_from_the_worker() -> None:
    with pytest.raises(ZeroDivisionError):
        await worker.run(divmod, 1, 0)


def niceness() -> int:
    """The scheduling niceness of the process that runs the call."""
    return os.nice(0)


@pytest.mark.skipif(not hasattr(os, "nice"), reason="Unix niceness")
async def test_the_worker_runs_at_a_lower_priority_than_the_bot() -> None:
    mine = os.nice(0)
    assert await worker.run(niceness) == min(19, mine + worker.NICENESS)
    assert os.nice(0) == mine  # the bot process itself keeps its priority
