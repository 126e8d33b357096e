"""Worker processes over pipes, answered on the event loop (bot.service.pool)."""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.service.pool import MAX_IN_FLIGHT, MAX_REPLACED, WorkerPool
from tests.support.pool_jobs import logged_step


def crash_in_a_worker(value: int) -> int:
    """Kills a worker process (breaking its pool); in the main process just answers."""
    if multiprocessing.parent_process() is not None:
        os._exit(3)
    return value * 2


def worker_pid() -> int:
    """The id of the process that runs the call."""
    return os.getpid()


def slow_echo(value: int, seconds: float) -> tuple[int, int]:
    """``value`` after ``seconds``, with the id of the process that ran it."""
    time.sleep(seconds)
    return value, os.getpid()


def big_answer(size: int) -> tuple[int, bytes]:
    """``size`` bytes (more than a pipe holds at once), with the id of the process."""
    return os.getpid(), b"x" * size


def echo_size(data: bytes) -> tuple[int, int]:
    """The length of ``data`` (a big call), with the id of the process."""
    return os.getpid(), len(data)


def refuse(code: str) -> None:
    """Always raises ValueError(code)."""
    raise ValueError(code)


@pytest.fixture
async def pool() -> AsyncIterator[WorkerPool]:
    made = WorkerPool("test", 2)
    assert await made.wait_ready()
    yield made
    made.shutdown()


@pytest.mark.processes
async def test_calls_run_in_other_processes_spread_over_the_workers(pool: WorkerPool) -> None:
    answers = await asyncio.gather(*(pool.run(slow_echo, n, 0.2) for n in range(4)))
    assert [value for value, _ in answers] == [0, 1, 2, 3]
    pids = {pid for _, pid in answers}
    assert len(pids) == 2 and os.getpid() not in pids
    assert pool.pending == 0


def _keys() -> tuple[tuple[int], tuple[int]]:
    """An affinity of the pool's first worker, one of its second (``hash % 2``)."""
    first = next((k,) for k in range(100) if hash((k,)) % 2 == 0)
    second = next((k,) for k in range(100) if hash((k,)) % 2 == 1)
    return first, second


@pytest.mark.processes
async def test_calls_of_one_affinity_go_to_one_worker(pool: WorkerPool) -> None:
    """The same cards' hand images go to the worker that keeps their fan
    (docs/PERFORMANCE.md §Images from kept bands): one call at a time, every call of an
    affinity lands on its worker, and another affinity's on the other."""
    assert await pool.wait_ready(60)
    first, second = _keys()
    ones = {pid for _, pid in [await pool.run(slow_echo, n, 0.0, affinity=first) for n in range(6)]}
    twos = {pid for _, pid in [await pool.run(slow_echo, n, 0.0, affinity=second)
                               for n in range(6)]}
    assert ones == {pool.pids[0]} and twos == {pool.pids[1]}


@pytest.mark.processes
async def test_an_affinity_never_waits_while_another_worker_has_room(pool: WorkerPool) -> None:
    assert await pool.wait_ready(60)
    first, _ = _keys()
    answers = await asyncio.gather(*(pool.run(slow_echo, n, 0.3, affinity=first)
                                     for n in range(MAX_IN_FLIGHT + 1)))
    assert [value for value, _ in answers] == list(range(MAX_IN_FLIGHT + 1))
    assert [pid for _, pid in answers] == [pool.pids[0]] * MAX_IN_FLIGHT + [pool.pids[1]]


@pytest.mark.processes
async def test_a_worker_with_room_takes_its_own_affinity_from_the_backlog_first(
        pool: WorkerPool) -> None:
    """Both workers full: the first to have room takes the call of its affinity, though
    another worker's call waits longer."""
    assert await pool.wait_ready(60)
    first, second = _keys()
    # the first worker's two calls end apart, so that it has room for one call at a time
    # (with both ending at once, under load it took both waiting calls together, and
    # the two finished in either order: clean-clone CI at c25b74e)
    busy = [asyncio.create_task(pool.run(slow_echo, n, wait, affinity=first))
            for n, wait in enumerate((0.3, 1.0))]
    busy += [asyncio.create_task(pool.run(slow_echo, n, 1.5, affinity=second)) for n in range(2)]
    await asyncio.sleep(0.05)
    older = asyncio.create_task(pool.run(slow_echo, "second's", 0.0, affinity=second))
    await asyncio.sleep(0.05)
    newer = asyncio.create_task(pool.run(slow_echo, "first's", 0.0, affinity=first))
    finished: list[str] = []  # in the order the answers came back
    for task in (older, newer):
        task.add_done_callback(lambda done: finished.append(done.result()[0]))
    await asyncio.gather(older, newer)
    assert finished == ["first's", "second's"], finished
    assert newer.result() == ("first's", pool.pids[0])
    await asyncio.gather(*busy)


@pytest.mark.processes
async def test_an_exception_of_the_function_propagates_unchanged(pool: WorkerPool) -> None:
    with pytest.raises(ValueError, match="no-such-card"):
        await pool.run(refuse, "no-such-card")
    assert pool.started and await pool.run(worker_pid) != os.getpid()


@pytest.mark.processes
async def test_arguments_that_do_not_pickle_run_in_a_thread(pool: WorkerPool) -> None:
    assert await pool.run(worker_pid) != os.getpid()
    assert await pool.run(lambda: os.getpid()) == os.getpid()  # a lambda does not pickle
    assert pool.started


@pytest.mark.processes
async def test_a_cancelled_call_is_dropped_and_the_pool_keeps_working(pool: WorkerPool) -> None:
    task = asyncio.create_task(pool.run(slow_echo, 1, 0.5))
    await asyncio.sleep(0.1)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert (await pool.run(slow_echo, 2, 0.0))[0] == 2


async def test_without_workers_no_process_is_started() -> None:
    pool = WorkerPool("test", 0)
    assert await pool.run(worker_pid) == os.getpid()
    pool.start()
    assert not pool.started


@pytest.mark.processes
async def test_calls_run_in_threads_until_a_worker_is_ready() -> None:
    pool = WorkerPool("test", 1)
    try:
        pool.start()
        assert await pool.run(worker_pid) == os.getpid()  # still starting: a thread answers
        assert await pool.wait_ready()
        assert await pool.run(worker_pid) != os.getpid()
    finally:
        pool.shutdown()


@pytest.mark.processes
async def test_a_worker_that_dies_is_replaced_and_one_dying_again_and_again_rests_the_pool(
) -> None:
    pool = WorkerPool("test", 1)
    try:
        pids = []
        for _ in range(MAX_REPLACED):
            assert await pool.wait_ready()
            pids.append(pool.pids[0])
            assert await pool.run(crash_in_a_worker, 21) == 42  # the worker died: thread answer
            assert pool.started  # another one is starting
        assert await pool.wait_ready()
        assert await pool.run(worker_pid) not in (os.getpid(), *pids)  # a new process
        assert await pool.run(crash_in_a_worker, 21) == 42  # the fourth death in a minute
        assert not pool.started
        assert await pool.run(worker_pid) == os.getpid()  # rests: not retried at once
        assert not pool.started
    finally:
        pool.shutdown()


@pytest.mark.processes
async def test_a_worker_killed_mid_call_answers_from_a_thread_once_and_is_replaced(
    tmp_path: Path,
) -> None:
    """kill -9 of a worker during a call (issue 25): the caller still gets its answer,
    computed once more in a thread, never twice; a new worker takes the old one's place."""
    log = tmp_path / "calls.log"
    pool = WorkerPool("test", 1)
    try:
        assert await pool.wait_ready()
        [victim] = pool.pids
        call = asyncio.create_task(pool.run(logged_step, str(log), 1.0))
        for _ in range(500):
            if log.exists() and log.read_text():
                break
            await asyncio.sleep(0.01)
        os.kill(victim, signal.SIGKILL)
        assert await asyncio.wait_for(call, 10) == os.getpid()
        assert log.read_text().splitlines() == [f"start {victim}", f"start {os.getpid()}",
                                                f"end {os.getpid()}"]
        assert await pool.wait_ready()
        assert pool.pids != [victim] and await pool.run(worker_pid) == pool.pids[0]
    finally:
        pool.shutdown()


@pytest.mark.processes
async def test_calls_beyond_the_pipes_room_wait_in_the_backlog_and_all_run_in_the_worker() -> None:
    pool = WorkerPool("test", 1)
    try:
        assert await pool.wait_ready()
        calls = [asyncio.create_task(pool.run(slow_echo, n, 0.05)) for n in range(6)]
        await asyncio.sleep(0)
        assert pool.pending == 6
        assert max(len(w.pending) for w in pool._procs) == MAX_IN_FLIGHT  # the rest wait here
        answers = await asyncio.gather(*calls)
        assert [value for value, _ in answers] == list(range(6))
        assert len({pid for _, pid in answers}) == 1 and answers[0][1] != os.getpid()
        assert pool.pending == 0
    finally:
        pool.shutdown()


@pytest.mark.processes
async def test_calls_still_in_the_backlog_at_shutdown_run_in_threads() -> None:
    pool = WorkerPool("test", 1)
    try:
        assert await pool.wait_ready()
        calls = [asyncio.create_task(pool.run(slow_echo, n, 0.2)) for n in range(4)]
        await asyncio.sleep(0)
        pool.shutdown()
        answers = await asyncio.gather(*calls)
        assert [value for value, _ in answers] == [0, 1, 2, 3]
        assert [pid == os.getpid() for _, pid in answers] == [True] * 4
    finally:
        pool.shutdown()


def stamped(value: int, seconds: float) -> tuple[int, float]:
    """``value`` and the moment (``time.monotonic``) the worker started it."""
    started = time.monotonic()
    time.sleep(seconds)
    return value, started


@pytest.mark.processes
async def test_urgent_calls_leave_the_backlog_before_the_others() -> None:
    pool = WorkerPool("test", 1)
    try:
        assert await pool.wait_ready()
        busy = [asyncio.create_task(pool.run(stamped, n, 0.1)) for n in range(MAX_IN_FLIGHT)]
        await asyncio.sleep(0)
        later = [asyncio.create_task(pool.run(stamped, n, 0.0)) for n in (10, 11)]
        await asyncio.sleep(0)
        first = asyncio.create_task(pool.run(stamped, 99, 0.0, urgent=True))
        answers = dict(await asyncio.gather(*busy, *later, first))
        assert sorted(answers, key=answers.__getitem__) == [0, 1, 99, 10, 11]
    finally:
        pool.shutdown()


@pytest.mark.processes
async def test_room_waits_while_the_backlog_is_full_and_lets_callers_go_oldest_first() -> None:
    """A board waits for room before it reads its table (``Renderer.board_room``): with
    one worker busy on 2 calls and 3 waiting, ``room(3)`` waits until a call leaves the
    backlog; waiting callers count in ``queued``; they go in the order they came."""
    pool = WorkerPool("test", 1)
    try:
        assert await pool.wait_ready()
        await pool.room(3)  # nothing queued: at once
        calls = [asyncio.create_task(pool.run(slow_echo, n, 0.1)) for n in range(5)]
        await asyncio.sleep(0)
        assert pool.queued == 3
        order: list[str] = []

        async def board(name: str) -> None:
            await pool.room(3)
            order.append(name)
            order.append(f"{name} saw {len(pool._backlog[1])} queued")

        boards = [asyncio.create_task(board(name)) for name in ("a", "b")]
        await asyncio.sleep(0.05)
        assert order == [] and pool.queued == 5  # 3 calls and the 2 boards
        await asyncio.gather(*calls, *boards)
        assert order == ["a", "a saw 2 queued", "b", "b saw 1 queued"], order
        assert pool.queued == 0
    finally:
        pool.shutdown()


@pytest.mark.processes
async def test_callers_waiting_for_room_go_on_when_the_pool_shuts_down() -> None:
    pool = WorkerPool("test", 1)
    try:
        assert await pool.wait_ready()
        calls = [asyncio.create_task(pool.run(slow_echo, n, 0.3)) for n in range(4)]
        await asyncio.sleep(0)
        waiting = asyncio.create_task(pool.room(1))
        await asyncio.sleep(0.02)
        assert not waiting.done()
        pool.shutdown()  # the backlog's calls run in threads; nobody waits for room
        await asyncio.wait_for(waiting, 1.0)
        await asyncio.gather(*calls)
    finally:
        pool.shutdown()


@pytest.mark.processes
def test_answers_larger_than_the_pipe_arrive_whole_on_uvloop() -> None:
    """uvloop makes the descriptor it watches non-blocking: an answer bigger than the
    pipe's buffer (a hand PNG can be) was then read in part, the pool took it for a
    dead worker and every call ran in threads (BlockingIOError, 2026-12-01)."""
    uvloop = pytest.importorskip("uvloop")  # not built for Windows

    async def calls() -> list[tuple[bool, int]]:
        pool = WorkerPool("test", 2)
        try:
            assert await pool.wait_ready()
            answers = await asyncio.gather(*(pool.run(big_answer, 2_000_000) for _ in range(4)))
            sizes = await asyncio.gather(*(pool.run(echo_size, b"y" * 3_000_000) for _ in range(4)))
            assert pool.started and len(pool.pids) == 2
            return [(pid in pool.pids, len(data)) for pid, data in answers] + \
                [(pid in pool.pids, size) for pid, size in sizes]
        finally:
            pool.shutdown()

    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        assert runner.run(calls()) == [(True, 2_000_000)] * 4 + [(True, 3_000_000)] * 4


@pytest.mark.processes
async def test_a_readiness_report_without_data_reads_nothing_and_returns(pool: WorkerPool) -> None:
    """A watched descriptor reported readable with nothing to read (libuv allows it): the
    reader callback returns at once instead of blocking the loop in a read, and the
    pool goes on answering."""
    worker = pool._procs[0]  # noqa: SLF001 (the loop's reader callback, called by hand)
    done = threading.Event()
    reader = threading.Thread(target=lambda: (pool._on_answer(worker), done.set()),  # noqa: SLF001
                              daemon=True)
    reader.start()
    assert done.wait(5), "the reader callback blocked on an empty pipe"
    assert (await pool.run(slow_echo, 7, 0.0))[0] == 7 and pool.started


BIG_BOTH_WAYS = """
import asyncio, sys
from bot.__main__ import loop_factory
from bot.service.pool import WorkerPool
from tests.support.pool_jobs import echo_back

async def main():
    pool = WorkerPool("test", 1)
    try:
        assert await pool.wait_ready()
        sizes = [256 * 1024, 1024 * 1024, 300 * 1024, 4 * 1024 * 1024, 256 * 1024, 10]
        answers = await asyncio.gather(*(pool.run(echo_back, bytes([n]) * size)
                                         for n, size in enumerate(sizes)))
        assert [len(a) for a in answers] == sizes
        assert [a[:1] for a in answers] == [bytes([n]) for n in range(len(sizes))]
        assert pool.started and pool.pending == 0
        print("ok", len(pool.pids))
    finally:
        pool.shutdown()

with asyncio.Runner(loop_factory=loop_factory(sys.argv[1])) as runner:
    runner.run(main())
"""


@pytest.mark.parametrize("loop", ["asyncio", "uvloop"])
@pytest.mark.processes
def test_calls_and_answers_of_256_kib_and_more_on_one_worker_never_freeze_the_loop(
    loop: str,
) -> None:
    """Before (issue 25 item 6): the bot wrote a call into the worker's pipe while the
    worker wrote its answer into the other direction; both pipes full, both blocked,
    and the event loop froze for good. Run in a child process, so a freeze fails the
    test (after 60 s) instead of hanging it."""
    if loop == "uvloop":
        pytest.importorskip("uvloop")
    proc = subprocess.run([sys.executable, "-c", BIG_BOTH_WAYS, loop], capture_output=True,
                          text=True, timeout=60, cwd=Path(__file__).parents[2])
    assert (proc.returncode, proc.stdout.strip()) == (0, "ok 1"), proc.stderr[-2000:]
