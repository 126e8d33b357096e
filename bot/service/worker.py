"""The AI worker pool: pure-Python AI work off the bot's GIL (hard moves, Hints, reviews).

The hard search (a Hint's first suggestion, a hard computer's move: 0.1–0.6 s of
CPU) competes with the event loop for the GIL when run in a thread and delays
every other interaction's first response (docs/PERFORMANCE.md). ``ai_pool()``
builds the ``WorkerPool`` named ``ai`` that the Bot owns and hands to the table
service (decider, Hints) and the replay service (reviews): the same mechanism,
retry and shutdown policy as the render pool (``bot.service.pool``: a worker that
ends is replaced, its call computed in a thread; a pool that keeps failing rests
in threads for a while; a worker ends when its pipe closes, so it never outlives a
killed bot). Imports no discord: a spawned worker only loads the modules of the
functions it is given (``bot.game.computer``).
"""

from __future__ import annotations

import contextlib
import os

from bot.service.pool import WorkerPool

NICENESS = 5
"""The worker's scheduling niceness (Unix): its searches (most of them Hints searched
ahead of the click, whose quick answer is already shown) yield the cores to the event
loop and the render workers, which members wait for, when the machine is busy
(about a quarter of a contended core at 5), and use them fully when it is idle."""


def lower_priority() -> None:
    """Worker initializer: lower the worker's priority by ``NICENESS`` (Unix)."""
    if hasattr(os, "nice"):
        with contextlib.suppress(OSError):  # not allowed here: run at the normal priority
            os.nice(NICENESS)


def ai_pool(workers: int = 1) -> WorkerPool:
    """The ``ai`` WorkerPool: ``workers`` processes at a lower priority, started by
    ``start`` or the first ``run`` (calls run in threads until one is ready)."""
    return WorkerPool("ai", workers, initializer=lower_priority)
