"""A pool of spawned worker processes for pure CPU work, with a thread fallback.

The bot process has one GIL: CPU work in its threads (drawing and encoding PNGs,
searches) delays every interaction's answer and leaves the second core idle
(docs/PERFORMANCE.md). ``WorkerPool.run`` sends a module-level function and its
arguments (pickled) to the least busy of ``workers`` spawned processes over a
pipe, and the event loop reads the answer when the answer pipe is readable: no helper
thread in the bot process (``concurrent.futures.ProcessPoolExecutor`` wakes two
per call, and each wake-up makes the event loop wait for the GIL). Calls go down a
pipe of their own, written without blocking: what the pipe cannot take yet is
written when it has room again (the loop's writer callback), so a call and an answer
of any size never wait for each other (with one pipe for both, a call and an answer
of 256 KiB each blocked the bot and the worker in ``write`` for good). At most
``MAX_IN_FLIGHT`` calls are sent to a worker at a time; the others wait
in the pool's backlog, in this process, for the first worker that answers, so a
call never queues behind a slow one while another worker is free. ``urgent`` calls
(what a member who clicked waits for) leave the backlog before the others (redraws
nobody waits for). Calls of the same ``affinity`` go to one worker when it has room, and
that worker takes them first from the backlog (among the calls of the same urgency), so
that what it kept from the last one serves the next: the bands of a member's fan of
cards, of a table's seats (docs/PERFORMANCE.md §What a click causes). A call is never
held back for its affinity's worker while another has room; a worker taking its own
calls first from the backlog may leave an older one of the other's a little longer.

When a worker ends (killed, crashed), the calls it had run in threads of this process
(the click is still answered, each call computed once more, never applied twice: the
functions are pure) and another worker takes its place at once. When the pool cannot
be used (workers keep ending: more than ``MAX_REPLACED`` in ``RETRY_AFTER_SECONDS``,
or one could not start, or the arguments do not pickle), or ``workers`` is 0, the
same function runs in a thread of this process, and a broken pool is not tried again
for ``RETRY_AFTER_SECONDS``. A
worker takes calls once its ``initializer`` is done (it says so on its pipe);
until the first one is ready, calls run in threads too (``threads_until_ready``),
so that a busy machine starting the workers slowly never delays an answer.
Imports no discord: a spawned worker only loads the modules of the functions it
is given.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import multiprocessing
import os
import pickle
import struct
import time
from collections import deque
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any, TypeVar

log = logging.getLogger(__name__)

T = TypeVar("T")

RETRY_AFTER_SECONDS = 60.0
"""After the pool failed, work runs in threads for this long before new workers are spawned."""


class WorkerDied(RuntimeError):
    """A worker process ended (or its pipe broke) before answering."""


READY = -1
"""The job id of a worker's first message: its initializer is done."""

MAX_REPLACED = 3
"""Workers replaced at once after they ended within RETRY_AFTER_SECONDS; one more
ending in that time rests the pool (threads) for RETRY_AFTER_SECONDS."""

MAX_IN_FLIGHT = 2
"""Calls written to one worker's pipe and not answered yet (the next one is ready to
read as soon as the worker is done with the current one); the rest wait in the backlog."""


AFFINITY_SCAN = 8
"""Backlog calls a worker with room looks through for one of its own affinity
(``WorkerPool._feed``) before it takes the oldest."""

_Call = tuple[int, bytes, "asyncio.Future[Any]", int | None]
"""A call waiting in the backlog: job id, pickled (job, fn, args), the caller's future,
the hash of its affinity (None: any worker)."""


@dataclass
class _Worker:
    process: Any
    conn: Connection
    """The answers, read here (blocking, once ``poll`` finds data)."""
    calls: Connection
    """The calls, written here without blocking (``WorkerPool._send``)."""
    pending: dict[int, asyncio.Future[Any]] = field(default_factory=dict)
    ready: bool = False
    unsent: deque[memoryview] = field(default_factory=deque)
    """Framed calls (or their tails) the pipe had no room for yet, oldest first."""


def framed(data: bytes) -> list[memoryview]:
    """``data`` as ``multiprocessing.connection.Connection.send_bytes`` puts it on the
    wire (a 4-byte big-endian length, or -1 and an 8-byte one past 2 GiB), so the worker
    reads it with ``recv_bytes``."""
    size = len(data)
    head = struct.pack("!i", size) if size <= 0x7FFFFFFF else struct.pack("!iQ", -1, size)
    return [memoryview(head), memoryview(data)]


class WorkerPool:
    """``workers`` spawned processes (0: threads only), each set up by ``initializer``
    (a module-level function, e.g. drawing the card faces once), started by ``start``
    or by the first ``run``."""

    def __init__(self, name: str, workers: int,
                 initializer: Callable[[], object] | None = None,
                 threads_until_ready: bool = True) -> None:
        self.name = name
        self.workers = max(0, workers)
        self.initializer = initializer
        self.threads_until_ready = threads_until_ready
        self._procs: list[_Worker] = []
        self._loop: asyncio.AbstractEventLoop | None = None
        self._ids = itertools.count()
        self._broken_until = 0.0
        self._replaced: list[float] = []
        """When workers were last replaced (``_replace``), within RETRY_AFTER_SECONDS."""
        self._backlog: tuple[deque[_Call], deque[_Call]] = (deque(), deque())
        """Calls waiting for room in a worker's pipe: urgent ones, then the others."""
        self._room: deque[tuple[asyncio.Future[None], int]] = deque()
        """Callers of ``room`` waiting, oldest first, with their limit."""

    @property
    def started(self) -> bool:
        """Whether worker processes are running (or starting)."""
        return bool(self._procs)

    @property
    def ready(self) -> int:
        """How many workers have finished their initializer and take calls."""
        return sum(1 for w in self._procs if w.ready)

    @property
    def pids(self) -> list[int]:
        """Process ids of the running workers (for benchmarks and monitoring)."""
        return [w.process.pid for w in self._procs if w.process.pid is not None]

    @property
    def pending(self) -> int:
        """Calls sent to the worker processes, or waiting for one, and not answered yet."""
        return sum(len(w.pending) for w in self._procs) + sum(map(len, self._backlog))

    @property
    def queued(self) -> int:
        """Calls waiting in the backlog for room in a worker's pipe (none sent yet), urgent
        or not, and callers waiting in ``room``: how far behind the workers are
        (``Renderer.board_interval``)."""
        return sum(map(len, self._backlog)) + len(self._room)

    async def room(self, limit: int) -> None:
        """Until fewer than ``limit`` non-urgent calls wait in the backlog, callers served
        oldest first: a caller that can wait reads its newest input only then, so the
        call it makes is not queued with stale arguments (a table's board:
        docs/PERFORMANCE.md §Fewer table images while the render backlog is long). Returns
        at once while the workers keep up, and for threads (no backlog)."""
        self._admit()
        if not self._room and len(self._backlog[1]) < limit:
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._room.append((future, limit))
        await future

    def _admit(self) -> None:
        """Let the oldest callers of ``room`` go while the non-urgent backlog is below
        their limit (each will add a call: at most ``limit`` at a time; all of them when
        the pool is not started or shut down, which has no backlog)."""
        waiting = len(self._backlog[1])
        while self._room:
            future, limit = self._room[0]
            if future.done():  # cancelled (the caller is gone)
                self._room.popleft()
                continue
            if self._procs and waiting >= limit:
                return
            self._room.popleft()
            future.set_result(None)
            waiting += 1

    def start(self) -> None:
        """Spawn the workers now (from the event loop's thread) rather than at the first
        call, so that the first answers do not wait for a process to start. Never raises:
        a pool that cannot start is logged, and threads are used for a while."""
        if self._procs or not self.workers or time.monotonic() < self._broken_until:
            return
        self._loop = asyncio.get_running_loop()
        try:
            for _ in range(self.workers):
                self._spawn()
        except Exception as error:
            self._broken(f"could not start ({error})")

    def _spawn(self) -> None:
        """Start one worker process and watch its answer pipe (OSError: it could not)."""
        assert self._loop is not None
        context = multiprocessing.get_context("spawn")
        answers, their_answers = context.Pipe(duplex=False)
        their_calls, calls = context.Pipe(duplex=False)
        process = context.Process(
            target=_serve, args=(their_calls, their_answers, self.initializer),
            name=f"ddz-{self.name}", daemon=True)
        process.start()
        their_calls.close()
        their_answers.close()
        worker = _Worker(process, answers, calls)
        self._procs.append(worker)
        self._loop.add_reader(answers.fileno(), self._on_answer, worker)
        # uvloop (libuv) makes a watched descriptor non-blocking, asyncio's own loop
        # leaves it as it is: answers are read whole once the pipe is readable
        # (``recv_bytes``), so it must block until an answer is all there.
        os.set_blocking(answers.fileno(), True)
        os.set_blocking(calls.fileno(), False)  # never blocks the loop (``_send``)

    def _replace(self, worker: _Worker, reason: str) -> None:
        """``worker`` ended (killed, crashed): its calls run in threads (``run``), a new
        worker takes its place at once, unless it never got ready or ``MAX_REPLACED``
        workers were replaced within ``RETRY_AFTER_SECONDS`` (then the whole pool rests:
        ``_broken``)."""
        now = time.monotonic()
        self._replaced = [t for t in self._replaced if now - t < RETRY_AFTER_SECONDS]
        if not worker.ready or len(self._replaced) >= MAX_REPLACED or worker not in self._procs:
            self._broken(reason)
            return
        self._replaced.append(now)
        log.warning("%s worker %s ended (%s); starting another", self.name,
                    worker.process.pid, reason)
        self._procs.remove(worker)
        self._drop(worker)
        worker.process.join(0.5)
        try:
            self._spawn()
        except Exception as error:
            self._broken(f"could not start another worker ({error})")

    def _drop(self, worker: _Worker) -> None:
        """Stop watching ``worker``'s pipes, close them, fail its calls (WorkerDied)."""
        if self._loop is not None and not self._loop.is_closed():
            self._loop.remove_reader(worker.conn.fileno())
            self._loop.remove_writer(worker.calls.fileno())
        worker.conn.close()
        worker.calls.close()  # the worker reads EOF and exits
        worker.unsent.clear()
        for future in worker.pending.values():
            if not future.done():
                future.set_exception(WorkerDied(f"{self.name} worker ended"))
        worker.pending.clear()

    async def wait_ready(self, timeout: float = 60.0) -> bool:
        """Start the workers and wait until every one is ready (or ``timeout`` s):
        True when they are. For tests and benchmarks; the bot never waits."""
        self.start()
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while self._procs and self.ready < len(self._procs) and loop.time() < end:
            await asyncio.sleep(0.01)
        return bool(self._procs) and self.ready == len(self._procs)

    async def run(self, fn: Callable[..., T], *args: Any, urgent: bool = False,
                  affinity: Hashable = None) -> T:
        """``fn(*args)`` in a worker process, else in a thread (same result either way);
        ``urgent``: ahead of the others in the backlog; ``affinity`` (not None): calls
        with an equal one go to the same worker when it has room, else to the least busy
        one with room, else to the backlog, where that worker takes them first.

        ``fn`` must be a module-level function; ``args`` and its result must pickle.
        Exceptions raised by ``fn`` itself propagate unchanged. Cancelling the caller
        cancels the wait (a started computation finishes in the worker and is dropped).
        """
        self.start()
        ready = [w for w in self._procs if w.ready or not self.threads_until_ready]
        if ready:
            worker = min(ready, key=lambda w: len(w.pending))
            home = None if affinity is None else hash(affinity)
            if home is not None and len(ready[home % len(ready)].pending) < MAX_IN_FLIGHT:
                worker = ready[home % len(ready)]
            job = next(self._ids)
            future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
            try:
                data = pickle.dumps((job, fn, args), protocol=pickle.HIGHEST_PROTOCOL)
                if len(worker.pending) < MAX_IN_FLIGHT:
                    self._send(worker, job, data, future)
                else:
                    self._backlog[0 if urgent else 1].append((job, data, future, home))
            except (pickle.PicklingError, TypeError, AttributeError) as error:
                log.warning("%s call does not pickle (%s); computing in a thread", self.name, error)
            except OSError as error:
                self._broken(f"pipe broke ({error})")
            else:
                try:
                    return await future
                except WorkerDied as error:
                    log.warning("%s worker died (%s); computing in a thread", self.name, error)
        return await asyncio.to_thread(fn, *args)

    def _send(self, worker: _Worker, job: int, data: bytes, future: asyncio.Future[Any]) -> None:
        """Send one call to ``worker``: what its pipe takes now, the rest when it has room
        (``_write_unsent``). Never blocks. OSError: the pipe broke (nothing pending)."""
        worker.pending[job] = future
        queued = bool(worker.unsent)
        worker.unsent.extend(framed(data))
        if queued:
            return  # the writer callback is on already
        try:
            done = self._write_some(worker)
        except OSError:
            worker.pending.pop(job, None)
            worker.unsent.clear()
            raise
        if not done:
            assert self._loop is not None
            self._loop.add_writer(worker.calls.fileno(), self._write_unsent, worker)

    @staticmethod
    def _write_some(worker: _Worker) -> bool:
        """Write ``worker.unsent`` until the pipe is full; True when all is written."""
        fd = worker.calls.fileno()
        while worker.unsent:
            view = worker.unsent[0]
            try:
                written = os.write(fd, view)
            except BlockingIOError:
                return False
            if written < len(view):
                worker.unsent[0] = view[written:]
                return False
            worker.unsent.popleft()
        return True

    def _write_unsent(self, worker: _Worker) -> None:
        """The loop's writer callback: the call pipe has room for more."""
        try:
            if not self._write_some(worker):
                return
        except OSError as error:
            self._replace(worker, f"pipe broke ({error!r})")
            return
        if self._loop is not None:
            self._loop.remove_writer(worker.calls.fileno())

    def _feed(self, worker: _Worker) -> None:
        """Hand the backlog's oldest calls to ``worker`` while it has room."""
        while worker.ready and len(worker.pending) < MAX_IN_FLIGHT:
            backlog = next((b for b in self._backlog if b), None)
            if backlog is None:
                return
            call = self._take(backlog, worker)
            job, data, future, _ = call
            if future.cancelled():
                continue
            try:
                self._send(worker, job, data, future)
            except OSError as error:
                backlog.appendleft(call)
                self._broken(f"pipe broke ({error})")
                return

    def _take(self, backlog: deque[_Call], worker: _Worker) -> _Call:
        """The call of ``backlog`` that ``worker`` takes: the first of the oldest
        ``AFFINITY_SCAN`` whose affinity is ``worker``'s, else the oldest."""
        ready = [w for w in self._procs if w.ready or not self.threads_until_ready]
        if worker in ready:
            mine = ready.index(worker)
            for i, call in enumerate(itertools.islice(backlog, AFFINITY_SCAN)):
                if call[3] is not None and call[3] % len(ready) == mine:
                    del backlog[i]
                    return call
        return backlog.popleft()

    def _on_answer(self, worker: _Worker) -> None:
        """The loop's reader callback: one answer from ``worker``'s pipe (the loop calls
        again while more wait). The pipe blocks (``start``), so it is read only when
        ``poll`` finds data: uvloop's watch of a descriptor may report it readable when
        it is not (libuv's ``uv_poll_t``), and a blocking read would then stop the loop."""
        try:
            if not worker.conn.poll(0):
                return
            job, ok, value = pickle.loads(worker.conn.recv_bytes())
            if job == READY:
                worker.ready = True
            else:
                future = worker.pending.pop(job, None)
                if future is not None and not future.done():
                    if ok:
                        future.set_result(value)
                    else:
                        future.set_exception(value)
            self._feed(worker)
            if self._room:
                self._admit()
        except (EOFError, OSError) as error:
            self._replace(worker, f"{error!r}")
        except Exception as error:  # an answer that does not unpickle: fail that worker's calls
            log.exception("%s worker answered garbage", self.name)
            self._broken(f"bad answer ({error!r})")

    def _broken(self, reason: str) -> None:
        log.warning("%s workers unavailable: %s; threads for %.0f s", self.name, reason,
                    RETRY_AFTER_SECONDS)
        self._broken_until = time.monotonic() + RETRY_AFTER_SECONDS
        self.shutdown()

    def shutdown(self) -> None:
        """Stop the worker processes; calls still waiting fall back to threads."""
        workers, self._procs = self._procs, []
        backlog, self._backlog = self._backlog, (deque(), deque())
        self._admit()  # no workers: every caller of ``room`` goes on (threads)
        for _, _, future, _ in (*backlog[0], *backlog[1]):
            if not future.done():
                future.set_exception(WorkerDied(f"{self.name} pool shut down"))
        for worker in workers:
            self._drop(worker)
        for worker in workers:
            worker.process.join(0.5)
            if worker.process.is_alive():
                worker.process.terminate()


def _serve(calls: Connection, conn: Connection,
           initializer: Callable[[], object] | None) -> None:
    """A worker process's loop: answer each ``(job, fn, args)`` read from ``calls`` with
    ``(job, ok, value)`` on ``conn``, until ``calls`` closes."""
    if initializer is not None:
        initializer()
    try:
        conn.send_bytes(pickle.dumps((READY, True, None)))
    except OSError:  # the parent died before we started (kill -9, a crash): leave quietly
        return
    while True:
        try:
            job, fn, args = pickle.loads(calls.recv_bytes())
        except (EOFError, OSError):
            return
        try:
            answer = (job, True, fn(*args))
        except Exception as error:
            answer = (job, False, error)
        try:
            data = pickle.dumps(answer, protocol=pickle.HIGHEST_PROTOCOL)
        except Exception as error:
            data = pickle.dumps((job, False, RuntimeError(f"answer does not pickle: {error!r}")))
        try:
            conn.send_bytes(data)
        except OSError:  # the parent is gone
            return
