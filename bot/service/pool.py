"""A pool of spawned worker processes for pure CPU work, with a thread fallback.

The bot process has one GIL: CPU work in its threads (drawing and encoding PNGs,
searches) delays every interaction's answer and leaves the second core idle
(docs/PERFORMANCE.md). ``WorkerPool.run`` sends a module-level function to one
of ``workers`` spawned processes instead. When the pool cannot be used (it broke,
could not start, could not pickle the arguments, or was shut down under a waiting
call), or ``workers`` is 0, the same function runs in a thread of this process, and
a broken pool is not tried again for ``RETRY_AFTER_SECONDS``. Imports no discord:
a spawned worker only loads the modules of the functions it is given.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import pickle
import time
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any, TypeVar

log = logging.getLogger(__name__)

T = TypeVar("T")

RETRY_AFTER_SECONDS = 60.0
"""After the pool failed, work runs in threads for this long before new workers are spawned."""


class WorkerPool:
    """``workers`` lazily spawned processes (0: threads only), each set up by
    ``initializer`` (a module-level function, e.g. drawing card faces once)."""

    def __init__(self, name: str, workers: int,
                 initializer: Callable[[], object] | None = None) -> None:
        self.name = name
        self.workers = max(0, workers)
        self.initializer = initializer
        self.pending = 0
        """Calls sent to the processes and not answered yet."""
        self._executor: ProcessPoolExecutor | None = None
        self._broken_until = 0.0

    @property
    def started(self) -> bool:
        """Whether worker processes are running (or starting)."""
        return self._executor is not None

    def _pool(self) -> ProcessPoolExecutor | None:
        if self._executor is None and self.workers and time.monotonic() >= self._broken_until:
            self._executor = ProcessPoolExecutor(
                max_workers=self.workers, mp_context=multiprocessing.get_context("spawn"),
                initializer=self.initializer)
        return self._executor

    def start(self) -> None:
        """Spawn every worker now (each runs ``initializer``) instead of at the first call,
        so the first answers do not wait for a process to start. Never raises."""
        try:
            pool = self._pool()
            if pool is not None:
                for _ in range(self.workers):
                    pool.submit(_nothing).add_done_callback(_ignore)
        except Exception as error:  # a pool that cannot start: threads are used instead
            log.warning("%s workers could not start (%s)", self.name, error)

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in a worker process, else in a thread (same result either way).

        ``fn`` must be a module-level function; ``args`` and its result must pickle.
        Exceptions raised by ``fn`` itself propagate unchanged. Cancelling the caller
        cancels the wait (a started computation finishes in the worker and is dropped).
        """
        loop = asyncio.get_running_loop()
        try:
            pool = self._pool()
            if pool is not None:
                self.pending += 1
                try:
                    return await loop.run_in_executor(pool, fn, *args)
                finally:
                    self.pending -= 1
        except asyncio.CancelledError:
            task = asyncio.current_task()
            if task is not None and task.cancelling():
                raise
            log.info("%s workers were shut down during a call; computing in a thread", self.name)
        except (OSError, RuntimeError, pickle.PicklingError) as error:
            # BrokenProcessPool is a RuntimeError (a worker died or could not start)
            log.warning("%s workers unavailable (%s); computing in threads for %.0f s",
                        self.name, error, RETRY_AFTER_SECONDS)
            self.shutdown()
            self._broken_until = time.monotonic() + RETRY_AFTER_SECONDS
        return await asyncio.to_thread(fn, *args)

    def shutdown(self) -> None:
        """Stop the worker processes without waiting (the next ``run`` starts new ones)."""
        pool, self._executor = self._executor, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)


def _nothing() -> None:
    """A call that only makes a worker process start (and run the initializer)."""


def _ignore(future: Future[Any]) -> None:
    if not future.cancelled():
        future.exception()  # retrieve it, so a failed start is not logged as unhandled
