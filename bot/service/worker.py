"""One worker process for pure-Python AI work, so long searches never hold the bot's GIL.

The hard search (a Hint's first suggestion, a hard computer's move: 0.1–0.6 s of
CPU) competes with the event loop for the GIL when run in a thread and delays
every other interaction's first response (docs/PERFORMANCE.md). ``run`` sends
such work to one lazily spawned worker process; when the pool cannot be used
(it broke, could not start, could not pickle the arguments, or was shut down
under a waiting call) the same function runs in a thread instead; a worker that
ended (kill -9, a crash) is replaced at the next call, unless ``MAX_REPLACED`` were
within ``RETRY_AFTER_SECONDS``: then the pool is not tried again for that long. Imports no discord: a spawned
worker only loads the modules of the functions it is given (``bot.game.computer``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import pickle
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any, TypeVar

log = logging.getLogger(__name__)

T = TypeVar("T")

RETRY_AFTER_SECONDS = 60.0
"""After the pool failed, work runs in threads for this long before a new worker is spawned."""

PARENT_CHECK_SECONDS = 1.0
"""How often a worker checks that the bot process that started it is still alive."""

NICENESS = 5
"""The worker's scheduling niceness (Unix): its searches (most of them Hints searched
ahead of the click, whose quick answer is already shown) yield the cores to the event
loop and the render workers, which members wait for, when the machine is busy
(about a quarter of a contended core at 5), and use them fully when it is idle."""

MAX_REPLACED = 3
"""Worker processes replaced after they ended within RETRY_AFTER_SECONDS (a kill -9, a
crash); one more ending in that time rests the pool (threads) for RETRY_AFTER_SECONDS."""

_pool: ProcessPoolExecutor | None = None
_broken_until = 0.0
_replaced: list[float] = []


def _executor() -> ProcessPoolExecutor | None:
    """The worker pool (started on first use), or None while it is considered broken."""
    global _pool
    if _pool is None and time.monotonic() >= _broken_until:
        _pool = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"),
                                    initializer=_start_worker, initargs=(os.getpid(),))
    return _pool


def _start_worker(parent: int) -> None:
    """Worker initializer: lower the worker's priority (``NICENESS``), end it with ``parent``."""
    if hasattr(os, "nice"):
        with contextlib.suppress(OSError):  # not allowed here: run at the normal priority
            os.nice(NICENESS)
    exit_with_parent(parent)


def exit_with_parent(parent: int) -> None:
    """Worker initializer: end this process once ``parent`` (a pid) is gone.

    A pool worker waits on a queue whose pipe it holds both ends of, so it never
    sees the bot process die (kill -9, a crash) and would sleep on forever; a
    daemon thread checks the parent every ``PARENT_CHECK_SECONDS`` instead.
    """

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK_SECONDS)
        os._exit(0)

    threading.Thread(target=watch, name="ddz-parent-watch", daemon=True).start()


async def run(fn: Callable[..., T], *args: Any) -> T:
    """``fn(*args)`` in the worker process, else in a thread (same result either way).

    ``fn`` must be a module-level function; ``args`` and its result must pickle.
    Exceptions raised by ``fn`` itself propagate unchanged. Cancelling the caller
    cancels the wait (a started computation finishes in the worker and is dropped).
    """
    global _broken_until
    loop = asyncio.get_running_loop()
    try:
        pool = _executor()
        if pool is not None:
            return await loop.run_in_executor(pool, fn, *args)
    except asyncio.CancelledError:
        task = asyncio.current_task()
        if task is not None and task.cancelling():
            raise
        log.info("AI worker was shut down during a call; computing in a thread")
    except (OSError, RuntimeError, pickle.PicklingError) as error:
        # BrokenProcessPool is a RuntimeError (a worker died or could not start)
        shutdown()
        now = time.monotonic()
        _replaced[:] = [t for t in _replaced if now - t < RETRY_AFTER_SECONDS]
        if len(_replaced) < MAX_REPLACED:  # the next call starts another worker
            _replaced.append(now)
            log.warning("AI worker ended (%s); computing this in a thread, another worker"
                        " takes the next call", error)
        else:
            log.warning("AI worker unavailable (%s); computing in threads for %.0f s",
                        error, RETRY_AFTER_SECONDS)
            _broken_until = now + RETRY_AFTER_SECONDS
    return await asyncio.to_thread(fn, *args)


def shutdown() -> None:
    """Stop the worker process without waiting (the next ``run`` starts a new one)."""
    global _pool
    pool, _pool = _pool, None
    if pool is not None:
        pool.shutdown(wait=False, cancel_futures=True)


def reset() -> None:
    """Stop the worker and forget past failures (tests; a clean restart)."""
    global _broken_until
    shutdown()
    _broken_until = 0.0
    _replaced.clear()
