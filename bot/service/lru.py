"""The service's memos: ``Lru``, at most ``size`` values by key (least recently used
dropped first), and ``SingleFlight``, one computation per key at a time that every
caller asking for that key meanwhile shares (hand images, Hint searches, the ranked
choices of a position, replays, reviews, animations)."""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Callable, Coroutine, Hashable
from typing import Any, Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Lru(Generic[K, V]):
    """At most ``size`` values by key; ``get`` counts as a use, ``peek`` does not."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[K, V] = OrderedDict()

    def get(self, key: K) -> V | None:
        """The value of ``key`` (now the most recently used), or None."""
        found = self._items.get(key)
        if found is not None:
            self._items.move_to_end(key)
        return found

    def peek(self, key: K) -> V | None:
        """The value of ``key``, or None, its place unchanged."""
        return self._items.get(key)

    def put(self, key: K, value: V) -> list[K]:
        """Keep ``value`` as the most recently used; the oldest go past ``size``: their keys
        (usually none)."""
        self._items[key] = value
        self._items.move_to_end(key)
        dropped = []
        while len(self._items) > self.size:
            dropped.append(self._items.popitem(last=False)[0])
        return dropped

    def pop(self, key: K) -> V | None:
        """Forget ``key``; its value, or None."""
        return self._items.pop(key, None)

    def items(self) -> list[tuple[K, V]]:
        """Every (key, value), least recently used first (a copy: safe to change the Lru
        while going through it)."""
        return list(self._items.items())

    def clear(self) -> None:
        """Forget every value."""
        self._items.clear()

    def __len__(self) -> int:
        return len(self._items)

    def __contains__(self, key: object) -> bool:
        return key in self._items


class SingleFlight(Generic[K, V]):
    """The computations running, one task per key, each dropped when it ends."""

    def __init__(self) -> None:
        self._running: dict[K, asyncio.Task[V]] = {}

    def running(self, key: K) -> asyncio.Task[V] | None:
        """The task computing ``key``, if one runs."""
        return self._running.get(key)

    def tasks(self) -> list[asyncio.Task[V]]:
        """Every task running (to cancel at shutdown)."""
        return list(self._running.values())

    def start(self, key: K, work: Coroutine[Any, Any, V], name: str | None = None,
              ) -> asyncio.Task[V]:
        """Run ``work`` as the task of ``key`` (none may be running)."""
        task = asyncio.create_task(work, name=name)
        self._running[key] = task
        task.add_done_callback(lambda done: self._ended(key, done))
        return task

    def drop(self, key: K) -> None:
        """Forget ``key``'s task now (it runs on; a new one may start for ``key``): for a
        computation that says it is over from inside, before its task has ended."""
        self._running.pop(key, None)

    def _ended(self, key: K, task: asyncio.Task[V]) -> None:
        if self._running.get(key) is task:  # not a newer task of the same key
            del self._running[key]

    async def run(self, key: K, make: Callable[[], Coroutine[Any, Any, V]]) -> V:
        """The result of ``key``'s running task, else of ``make()`` started now; a caller
        cancelled leaves the task to the others (``asyncio.shield``)."""
        task = self._running.get(key)
        if task is None:
            task = self.start(key, make())
        return await asyncio.shield(task)

    def __len__(self) -> int:
        return len(self._running)

    def __contains__(self, key: object) -> bool:
        return key in self._running
