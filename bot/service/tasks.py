"""The background tasks a helper of the service starts (turn timers, turn pings, Hint
searches): kept while they run, cancelled and awaited together at shutdown."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Coroutine, Iterable
from typing import Any, TypeVar

T = TypeVar("T")


async def cancel_and_wait(tasks: Iterable[asyncio.Task[Any]]) -> None:
    """Cancel every one of ``tasks`` and wait until each has ended (their errors and
    cancellations are swallowed: the owner is shutting down)."""
    pending = list(tasks)
    for task in pending:
        task.cancel()
    await asyncio.gather(*pending, return_exceptions=True)


def _let_go(owner: Any, task: asyncio.Task[Any]) -> None:
    if getattr(owner, "task", None) is task:
        owner.task = None


class TaskSet:
    """The tasks ``spawn`` started that are still running (``tasks``); ``close`` cancels
    them all and waits for them."""

    def __init__(self) -> None:
        self._tasks: set[asyncio.Task[Any]] = set()

    @property
    def tasks(self) -> frozenset[asyncio.Task[Any]]:
        """The tasks still running (for tests and shutdown)."""
        return frozenset(self._tasks)

    def spawn(self, coro: Coroutine[Any, Any, T], name: str,
              owner: Any = None) -> asyncio.Task[T]:
        """Run ``coro`` as a task named ``name``, kept here until it ends. ``owner``: the
        object whose ``task`` attribute the caller sets to this task; it is set back to
        None when the task ends. A cancelled task keeps its CancelledError, whose
        traceback keeps the coroutine's frames and their locals (the owner): with the
        owner's reference back to the task, that is a cycle only a full garbage
        collection frees, where it would otherwise go at once (docs/PERFORMANCE.md
        §Collector)."""
        task = asyncio.create_task(coro, name=name)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        if owner is not None:
            task.add_done_callback(functools.partial(_let_go, owner))
        return task

    async def close(self) -> None:
        """Cancel every task still running and wait for them (``cancel_and_wait``)."""
        await cancel_and_wait(self._tasks)
