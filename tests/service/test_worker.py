"""The AI worker pool (``ai_pool``): same seeded decisions as the thread path; a worker
that ends is replaced; a pool that keeps failing falls back to threads for a while."""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import random
import signal
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.ai import bidding, search
from bot.game.computer import decide
from bot.game.seat import computer_seat
from bot.game.table import Table
from bot.service import deciders, pooled_decider, worker
from bot.service.pool import MAX_REPLACED, WorkerPool
from tests.support.ai_builders import uncapped_decide_from_json
from tests.support.pool_jobs import logged_step


@pytest.fixture
async def ai() -> AsyncIterator[WorkerPool]:
    pool = worker.ai_pool()
    assert await pool.wait_ready()
    yield pool
    pool.shutdown()


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


@pytest.mark.processes
async def test_hard_moves_in_the_worker_equal_the_thread_path_for_the_same_seed(
    monkeypatch: pytest.MonkeyPatch, ai: WorkerPool
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
        in_worker = await ai.run(uncapped_decide_from_json, table.model_dump_json(),
                                 random.Random(seed))
        assert in_worker == expected, move
        assert await pooled_decider(ai)(table, random.Random(seed)) == expected
        table.auto_act(expected, 0.0)
    assert ai.started and await ai.run(os.getpid) in ai.pids  # the process was really used


async def test_easy_and_normal_moves_stay_on_the_thread_path(monkeypatch: pytest.MonkeyPatch) -> None:
    table = hard_table_in_play()
    turn = table.turn_seat
    assert turn is not None
    pool = WorkerPool("ai", 1)

    async def no_worker(*args: object) -> object:
        raise AssertionError("the worker is for hard moves only")

    monkeypatch.setattr(pool, "run", no_worker)
    for level in ("easy", "normal"):
        table.seats[turn] = computer_seat(turn, level)  # type: ignore[arg-type]
        assert await pooled_decider(pool)(table, random.Random(5)) == decide(table, random.Random(5))


@pytest.mark.processes
async def test_a_worker_that_ends_is_replaced_and_one_ending_again_and_again_rests_the_pool(
    ai: WorkerPool,
) -> None:
    for _ in range(MAX_REPLACED):
        assert await ai.run(crash_in_a_worker, 21) == 42  # the worker died: thread answer
        assert await ai.wait_ready()  # another one took its place
        assert await ai.run(os.getpid) != os.getpid()
    assert await ai.run(crash_in_a_worker, 21) == 42  # the fourth end within a minute
    assert not ai.started
    assert await ai.run(crash_in_a_worker, 5) == 10  # no new worker spawned yet
    assert not ai.started


@pytest.mark.processes
async def test_the_ai_worker_killed_mid_call_answers_from_a_thread_once_and_is_replaced(
    tmp_path: Path, ai: WorkerPool
) -> None:
    """kill -9 of the AI worker during a call (issue 25): the caller gets its answer,
    computed once more in a thread and never twice; the next call runs in a new worker."""
    log = tmp_path / "calls.log"
    first = await ai.run(os.getpid)
    call = asyncio.create_task(ai.run(logged_step, str(log), 1.0))
    for _ in range(500):
        if log.exists() and log.read_text():
            break
        await asyncio.sleep(0.01)
    os.kill(first, signal.SIGKILL)
    assert await asyncio.wait_for(call, 10) == os.getpid()
    assert log.read_text().splitlines() == [f"start {first}", f"start {os.getpid()}",
                                            f"end {os.getpid()}"]
    assert await ai.wait_ready()
    assert await ai.run(os.getpid) not in (first, os.getpid())


@pytest.mark.processes
async def test_errors_of_the_function_itself_propagate_from_the_worker(ai: WorkerPool) -> None:
    with pytest.raises(ZeroDivisionError):
        await ai.run(divmod, 1, 0)


def niceness() -> int:
    """The scheduling niceness of the process that runs the call."""
    return os.nice(0)


@pytest.mark.skipif(not hasattr(os, "nice"), reason="Unix niceness")
@pytest.mark.processes
async def test_the_worker_runs_at_a_lower_priority_than_the_bot(ai: WorkerPool) -> None:
    mine = os.nice(0)
    assert await ai.run(niceness) == min(19, mine + worker.NICENESS)
    assert os.nice(0) == mine  # the bot process itself keeps its priority
