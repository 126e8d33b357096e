"""The background tasks a helper of the service starts (turn timers, turn pings, Hint
searches): kept while they run, cancelled and awaited together at shutdown."""

from __future__ import annotations

import asyncio
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


class TaskSet:
    """The tasks ``spawn`` started that are still running (``tasks``); ``close`` cancels
    them all and waits for them."""

    def __init__(self) -> None:
        self._tasks: set[asyncio.Task[Any]] = set()

    @property
    def tasks(self) -> frozenset[asyncio.Task[Any]]:
        """The tasks still running (for tests and shutdown)."""
        return frozenset(self._tasks)

    def spawn(self, coro: Coroutine[Any, Any, T], name: str) -> asyncio.Task[T]:
        """Run ``coro`` as a task named ``name``, kept here until it ends."""
        task = asyncio.create_task(coro, name=name)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def close(self) -> None:
        """Cancel every task still running and wait for them (``cancel_and_wait``)."""
        await cancel_and_wait(self._tasks)
