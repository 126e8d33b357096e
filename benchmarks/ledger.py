"""CPU of the benchmark's own harness, apart from the bot's, in one process.

``benchmarks/interaction.py`` runs the simulated members and the fake of Discord on the
bot's event loop, in the bot's process, so the process's CPU time counts both. The
ledger charges the event-loop thread's CPU time (``time.thread_time``) to the harness
while harness code runs: every step of a harness coroutine (the members' tasks, the
lag ticker), and the fake's handling of each HTTP request; bot code called from inside
the harness (discord.py parsing a dispatched interaction) is charged back to the bot.
Bot CPU = process CPU − harness CPU (the bot's threads, e.g. aiosqlite's, count for
the bot). Each switch costs one ``thread_time`` call (≈ 1 µs).
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Coroutine, Generator
from typing import Any, TypeVar

T = TypeVar("T")


class CpuLedger:
    """Seconds of the loop thread's CPU spent in harness code (``harness``)."""

    def __init__(self) -> None:
        self.harness = 0.0
        self._stack: list[bool] = []  # True = harness code runs; empty = the bot
        self._mark = time.thread_time()

    def _charge(self) -> None:
        now = time.thread_time()
        if self._stack and self._stack[-1]:
            self.harness += now - self._mark
        self._mark = now

    def enter(self, harness: bool) -> None:
        """Code of the given side starts running (nested in whatever runs now)."""
        self._charge()
        self._stack.append(harness)

    def leave(self) -> None:
        """The innermost ``enter`` ends."""
        self._charge()
        self._stack.pop()

    def call(self, fn: Callable[..., T], harness: bool = True) -> Callable[..., T]:
        """``fn`` (synchronous) charged to the harness (or, nested, back to the bot)."""

        def wrapper(*args: Any, **kwargs: Any) -> T:
            self.enter(harness)
            try:
                return fn(*args, **kwargs)
            finally:
                self.leave()

        return wrapper

    async def run(self, awaitable: Awaitable[T], harness: bool = True) -> T:
        """Await ``awaitable`` with each of its steps charged to the harness."""
        return await _Stepped(self, awaitable.__await__(), harness)

    def coroutine(self, fn: Callable[..., Coroutine[Any, Any, T]], harness: bool = True
                  ) -> Callable[..., Coroutine[Any, Any, T]]:
        """The coroutine function ``fn`` with every step charged to the harness."""

        async def wrapper(*args: Any, **kwargs: Any) -> T:
            return await self.run(fn(*args, **kwargs), harness)

        return wrapper


class _Stepped:
    """An awaitable that runs ``inner`` one step at a time inside ``ledger.enter``."""

    def __init__(self, ledger: CpuLedger, inner: Generator[Any, Any, Any], harness: bool) -> None:
        self.ledger, self.inner, self.harness = ledger, inner, harness

    def __await__(self) -> Generator[Any, Any, Any]:
        return self

    def __iter__(self) -> _Stepped:
        return self

    def __next__(self) -> Any:
        return self.send(None)

    def send(self, value: Any) -> Any:
        self.ledger.enter(self.harness)
        try:
            return self.inner.send(value)
        finally:
            self.ledger.leave()

    def throw(self, *exc: Any) -> Any:
        self.ledger.enter(self.harness)
        try:
            return self.inner.throw(*exc)
        finally:
            self.ledger.leave()

    def close(self) -> None:
        self.inner.close()
