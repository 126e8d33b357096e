"""One budget for the requests Discord counts against the bot token's global rate limit.

Discord lets one bot token make 50 requests per second in all, shared by every
shard and every process; interaction callbacks and interaction webhooks (the
public table message while a token lives, every hand view) are exempt
(docs/SCALING.md §Discord's global rate limit). ``GlobalBudget`` is a token bucket
for the rest (channel message posts and edits): ``rate`` requests per second,
bursts up to ``burst``; a request waits for a token, higher priorities first
(``RESULT`` before ``TURN`` before ``COSMETIC``), first come first served within a
priority. A process's share of the bot's rate is set by ``share_of``: the shards it
serves over the shard count, so that several processes of one token stay within
the limit together without talking to each other.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
from collections.abc import Callable

RESULT = 0
"""A result, a new board (lobby, deal), a match announcement: waits least."""
TURN = 1
"""A board edit that changes whose turn it is (the member is mentioned)."""
COSMETIC = 2
"""Any other redraw (a computer's play between two turns): waits most; the board
coalesces the states it skips while it waits."""
DISCORD_GLOBAL_LIMIT = 50.0
"""Requests per second Discord allows one bot token (all processes together)."""


def share_of(rate: float, shard_ids: list[int] | None, shard_count: int | None) -> float:
    """This process's part of ``rate`` (requests per second for the whole bot token):
    all of it unsharded, else ``rate × len(shard_ids) / shard_count`` (a process
    serving every shard gets all of it). Raises nothing; ``shard_ids`` None = all."""
    if not shard_count or shard_ids is None:
        return rate
    return rate * min(len(set(shard_ids)), shard_count) / shard_count


class GlobalBudget:
    """A token bucket of ``rate`` requests per second (``burst`` at most banked, default a
    quarter of a second's worth: at most ``rate + burst`` requests in any one second),
    served by priority. ``clock`` (seconds, monotonic) defaults to the event loop's.

    ``await take(priority)`` returns once a token is spent for the caller; a cancelled
    waiter spends nothing. ``waiting`` counts callers queued now, ``taken`` / ``waited``
    count the tokens spent and how many of them had to wait.
    """

    def __init__(self, rate: float, burst: float | None = None,
                 clock: Callable[[], float] | None = None) -> None:
        if rate <= 0:
            raise ValueError("rate must be > 0 requests per second")
        self.rate = rate
        self.burst = max(1.0, burst if burst is not None else rate / 4)
        self._clock = clock
        self._tokens = self.burst
        self._stamp: float | None = None
        self._queue: list[tuple[int, int, asyncio.Future[None]]] = []
        self._order = itertools.count()
        self._timer: asyncio.TimerHandle | None = None
        self.taken = 0
        self.waited = 0
        self._waiting = 0

    def _now(self) -> float:
        return self._clock() if self._clock is not None else asyncio.get_running_loop().time()

    def _refill(self) -> None:
        now = self._now()
        if self._stamp is not None:
            self._tokens = min(self.burst, self._tokens + (now - self._stamp) * self.rate)
        self._stamp = now

    @property
    def waiting(self) -> int:
        return self._waiting

    def try_take(self) -> bool:
        """Spend a token now if one is banked and nobody waits; False otherwise."""
        self._refill()
        if self._tokens >= 1.0 and not self.waiting:
            self._tokens -= 1.0
            self.taken += 1
            return True
        return False

    async def take(self, priority: int = TURN) -> None:
        """Wait for a token (``priority``: ``RESULT``, ``TURN`` or ``COSMETIC``)."""
        if self.try_take():
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._queue, (priority, next(self._order), future))
        self._waiting += 1
        self._serve(False)
        try:
            await future
        except asyncio.CancelledError:
            if future.cancelled():  # not served: it leaves the queue's count now
                self._waiting -= 1
            raise
        self.waited += 1

    def _serve(self, from_timer: bool = True) -> None:
        """Hand banked tokens to the waiters, best priority first; arm a timer for the next."""
        if from_timer:
            self._timer = None
        self._refill()
        while self._queue:
            _, _, future = self._queue[0]
            if future.done():  # cancelled while waiting: spends nothing
                heapq.heappop(self._queue)
                continue
            if self._tokens < 1.0:
                break
            heapq.heappop(self._queue)
            self._tokens -= 1.0
            self.taken += 1
            self._waiting -= 1
            future.set_result(None)
        if self._queue and self._timer is None:
            delay = (1.0 - self._tokens) / self.rate
            self._timer = asyncio.get_running_loop().call_later(max(delay, 0.001), self._serve)
