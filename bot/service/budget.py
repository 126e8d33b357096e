"""One budget for the requests Discord counts against the bot token's global rate limit.

Discord lets one bot token make 50 requests per second in all, shared by every
shard and every process; interaction callbacks and interaction webhooks (the
public table message while a token lives, every hand view) are exempt
(docs/SCALING.md §Discord's global rate limit). ``GlobalBudget`` is a token bucket
for the rest (channel message posts and edits): ``rate`` requests per second,
bursts up to ``burst``; a request waits for a token, higher priorities first
(``RESULT`` before ``TURN`` before ``COSMETIC``), first come first served within a
priority.

Where the tokens come from:

* one process (SQLite, or a process serving every shard): the process's own bucket
  at the whole ``rate``;
* several processes of one bot token on PostgreSQL: a ``SharedBucket`` (one row per
  bot application, ``bot/storage/shared_budget.py``) refilled at ``rate`` on the
  database server's clock, from which each process leases the tokens its waiters need,
  a few at a time, only while some wait (no round-trip when nothing waits); each
  process holds one reservation at a time, sized by how many requests wait in it
  against the busiest other process, so busy processes share the rate by their
  demand; priorities stay local. A lease that fails or does not answer within its timeout
  (a frozen or unreachable server) switches the process to its static share
  (``share_of``: the shards it serves over the shard count, the behaviour before the
  shared bucket) for ``FALLBACK_SECONDS`` (doubling while it keeps failing, up to
  ``FALLBACK_MAX``): a board never waits on the database longer than one lease's
  timeout, and never loops.
"""

from __future__ import annotations

import asyncio
import collections
import heapq
import itertools
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Protocol

log = logging.getLogger(__name__)

RESULT = 0
"""A result, a new board (lobby, deal), a match announcement: waits least."""
TURN = 1
"""A board edit that changes whose turn it is (the member is mentioned)."""
COSMETIC = 2
"""Any other redraw (a computer's play between two turns): waits most; the board
coalesces the states it skips while it waits."""
DISCORD_GLOBAL_LIMIT = 50.0
"""Requests per second Discord allows one bot token (all processes together)."""
LEASE_GAP = 0.05
"""Seconds at least between two leases of one process: at most 20 round-trips a second
to the shared bucket while requests wait, none while nothing waits."""
LEASE_TIMEOUT = 1.0
"""Seconds a lease may take at most (less when ``DDZ_DATABASE_TIMEOUT`` is shorter):
how long a board can wait on a slow or frozen database before the static share."""
FALLBACK_SECONDS = 1.0
"""Seconds on the static share after the shared bucket failed, doubling while it keeps
failing, up to ``FALLBACK_MAX``."""
FALLBACK_MAX = 30.0


class SharedBucket(Protocol):
    """A token bucket shared by every process of one bot token (``rate`` tokens a second
    on one clock, at most ``burst`` banked), e.g. ``bot.storage.shared_budget.PgBucket``."""

    async def lease(self, wanted: int, waiting: int) -> tuple[int, float, int]:
        """Reserve up to ``wanted`` tokens for this process, where ``waiting`` requests
        wait: ``(granted, ready_in, busiest)``, granted 0..wanted. The granted tokens may
        be spent ``ready_in`` seconds from now (0: at once); with none granted,
        ``ready_in`` says when to ask again; ``busiest``: the most requests waiting in any
        other process lately. Raises within its own timeout when it cannot answer."""
        ...

    async def close(self) -> None:
        """Release what it holds (a connection), within a bounded time."""
        ...


def share_of(rate: float, shard_ids: list[int] | None, shard_count: int | None) -> float:
    """This process's part of ``rate`` (requests per second for the whole bot token):
    all of it unsharded, else ``rate × len(shard_ids) / shard_count`` (a process
    serving every shard gets all of it). Raises nothing; ``shard_ids`` None = all."""
    if not shard_count or shard_ids is None:
        return rate
    return rate * min(len(set(shard_ids)), shard_count) / shard_count


def bucket_name(application_id: int) -> str:
    """The shared bucket's name for one bot application (never its token)."""
    return f"bot:{application_id}"


class GlobalBudget:
    """A token bucket of ``rate`` requests per second (``burst`` at most banked, default a
    quarter of a second's worth: at most ``rate + burst`` requests in any one second),
    served by priority. ``clock`` (seconds, monotonic) defaults to the event loop's.

    ``shared``: the bucket all processes of the bot token lease from (then ``rate`` and
    ``burst`` are the bot token's, and this process's ``fallback_rate``, its static share,
    is used while the shared bucket fails); None: the tokens are this process's own.

    ``await take(priority)`` returns once a token is spent for the caller; a cancelled
    waiter spends nothing. ``waiting`` counts callers queued now, ``taken`` / ``waited``
    count the tokens spent and how many of them had to wait; ``leases`` / ``lease_failures``
    the shared bucket's round-trips and those that failed, ``fallbacks`` the times this
    process fell back to its static share; ``on_lease(ok)`` is called after each lease
    (``/metrics``).
    """

    def __init__(self, rate: float, burst: float | None = None,
                 clock: Callable[[], float] | None = None, *,
                 shared: SharedBucket | None = None,
                 fallback_rate: float | None = None,
                 on_lease: Callable[[bool], None] | None = None) -> None:
        if rate <= 0:
            raise ValueError("rate must be > 0 requests per second")
        self.rate = rate
        self.burst = max(1.0, burst if burst is not None else rate / 4)
        self.shared = shared
        self.fallback_rate = min(rate, fallback_rate) if fallback_rate else rate
        self.on_lease = on_lease
        self._clock = clock
        self._tokens = 0.0 if shared is not None else self.burst
        self._stamp: float | None = None
        self._queue: list[tuple[int, int, asyncio.Future[None]]] = []
        self._order = itertools.count()
        self._timer: asyncio.TimerHandle | None = None
        self._lease_task: asyncio.Task[None] | None = None
        self._fallback_until = 0.0
        self._last_lease = float("-inf")
        self._busiest = 0
        """The most requests waiting in another process, as the last lease said."""
        self._fallback_for = FALLBACK_SECONDS
        self._local = shared is None
        self.taken = 0
        self.waited = 0
        self.leases = 0
        self.lease_failures = 0
        self.fallbacks = 0
        self._waiting = 0

    def _now(self) -> float:
        return self._clock() if self._clock is not None else asyncio.get_running_loop().time()

    @property
    def on_own_tokens(self) -> bool:
        """True when tokens come from this process's own bucket now (no shared bucket, or
        falling back to the static share)."""
        return self.shared is None or self._now() < self._fallback_until

    def _refill(self) -> None:
        now = self._now()
        local = self.on_own_tokens
        if local != self._local:  # switched source: what one banked is not the other's
            self._local = local
            self._tokens = 0.0
            self._stamp = now
        if local:
            rate = self.rate if self.shared is None else self.fallback_rate
            if self._stamp is not None:
                self._tokens = min(self.burst, self._tokens + (now - self._stamp) * rate)
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
        """Hand banked tokens to the waiters, best priority first; then, while some wait,
        arm a timer for the next own token or start leasing from the shared bucket."""
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
        if not self._waiting:
            return
        if not self._local:
            if self._lease_task is None:
                self._lease_task = asyncio.get_running_loop().create_task(
                    self._lease_while_waiting(), name="ddz-global-budget")
        elif self._timer is None:
            rate = self.rate if self.shared is None else self.fallback_rate
            delay = (1.0 - self._tokens) / rate
            if self.shared is not None:  # back to the shared bucket when the fallback ends
                delay = min(delay, max(self._fallback_until - self._now(), 0.0))
            self._timer = asyncio.get_running_loop().call_later(max(delay, 0.001), self._serve)

    async def _lease_while_waiting(self) -> None:
        """While callers wait, reserve tokens for them in the shared bucket (at most
        ``burst`` a lease, fewer when another process has more waiting: ``_reservation``;
        one lease per ``LEASE_GAP`` at most), wait until the bucket says
        they may be spent, hand them out by priority; a token whose caller left meanwhile is
        dropped, never kept for later (so the bucket's bound holds for what is spent)."""
        assert self.shared is not None
        try:
            while self._waiting and not self.on_own_tokens:
                gap = self._last_lease + LEASE_GAP - self._now()
                if gap > 0:
                    await asyncio.sleep(gap)
                wanted = self._reservation()
                self._last_lease = self._now()
                try:
                    granted, ready_in, self._busiest = await self.shared.lease(
                        wanted, self._waiting)
                except asyncio.CancelledError:
                    raise
                except Exception as error:  # a failed lease: the static share, bounded
                    self._fall_back(error)
                    if self.on_lease is not None:
                        self.on_lease(False)
                    break
                self.leases += 1
                if self.on_lease is not None:
                    self.on_lease(True)
                self._fallback_for = FALLBACK_SECONDS
                if ready_in > 0:  # reserved (granted) or none yet: the bucket's own time
                    await asyncio.sleep(ready_in)
                self._tokens = float(granted)
                self._serve(False)  # (this task is still _lease_task: no second one starts)
                self._tokens = 0.0
        finally:
            self._lease_task = None
        if self._waiting:
            self._serve(False)  # a timer on the static share, or another lease

    def _reservation(self) -> int:
        """Tokens to reserve: what waits, at most ``burst``; less when another process has
        more waiting (``burst × mine / busiest``, at least 1), so that processes holding
        one reservation each share the rate by what waits in each."""
        mine, cap = self._waiting, int(self.burst)
        if self._busiest > mine:
            cap = max(1, round(self.burst * mine / self._busiest))
        return max(1, min(mine, cap))

    def _fall_back(self, error: BaseException) -> None:
        """The shared bucket failed: the static share for a while (longer each time)."""
        self.lease_failures += 1
        self.fallbacks += 1
        seconds = self._fallback_for
        self._fallback_for = min(FALLBACK_MAX, seconds * 2)
        self._fallback_until = self._now() + seconds
        log.warning("the shared global budget did not answer (%s); using this process's"
                    " share, %.3g requests/s, for %.3g s", type(error).__name__,
                    self.fallback_rate, seconds)

    async def close(self) -> None:
        """Stop leasing and close the shared bucket (bounded by its own timeout); callers
        still coming get the static share, never a new connection."""
        self._fallback_until = float("inf")
        task, self._lease_task = self._lease_task, None
        if task is not None:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self.shared is not None:
            await self.shared.close()


INTERACTION_RATE = 45.0
"""Requests per second one process makes at most on interaction routes once the cap is
on (``DDZ_INTERACTION_RATE`` unset): Discord's 50 a second for requests without an
Authorization header, per IP (docs/DISCORD.md, docs/SCALING.md §Exempt traffic), with
head-room as ``DDZ_GLOBAL_RATE``'s 40."""


class InteractionGuard:
    """Meter and cap of one process's requests on interaction routes: callbacks,
    follow-ups, ``@original`` and token edits (Discord's webhook routes, sent without an
    Authorization header and exempt from the bot token's global limit).

    ``rate``: requests per second once capped; ``capped``: whether the cap is on now
    (``DDZ_INTERACTION_RATE`` set), else it is armed and :meth:`global_429` switches it
    on. ``rate`` 0 never caps. ``await take()`` counts one request and, capped, waits
    for its turn (a token bucket of ``rate``, bursts of a quarter second, first come
    first served). ``sent`` counts requests, ``waited`` those that had to wait,
    ``per_second()`` is the rate over the last ``window`` seconds. ``clock``: seconds,
    monotonic (``time.monotonic`` by default: ``per_second`` is read from the /metrics
    thread); ``sleep``: how it waits (asyncio's).
    """

    def __init__(self, rate: float = INTERACTION_RATE, *, capped: bool = False,
                 window: float = 10.0, clock: Callable[[], float] | None = None,
                 sleep: Callable[[float], Awaitable[None]] = asyncio.sleep) -> None:
        if rate < 0:
            raise ValueError("rate must be >= 0 requests per second")
        self.rate = rate
        self.capped = capped and rate > 0
        self.window = window
        self.sent = 0
        self.waited = 0
        self.switched_on = 0
        self._clock = clock
        self._sleep = sleep
        self._recent: collections.deque[float] = collections.deque()
        self._next_free = float("-inf")

    def _now(self) -> float:
        # time.monotonic, not the running loop's time: per_second is read by /metrics in
        # a thread, where there is no running loop (asyncio's loop time is monotonic's).
        return self._clock() if self._clock is not None else time.monotonic()

    def per_second(self) -> float:
        """Requests per second over the last ``window`` seconds (less at the start).
        Safe from another thread (``/metrics`` is rendered in one): reads a copy."""
        now = self._now()
        return sum(1 for t in list(self._recent) if now - t <= self.window) / self.window

    def _trim(self, now: float) -> None:
        while self._recent and now - self._recent[0] > self.window:
            self._recent.popleft()

    async def take(self) -> None:
        """Count one request; when capped, return once the cap lets it go."""
        now = self._now()
        if self.capped:
            tolerance = (max(1.0, self.rate / 4) - 1.0) / self.rate  # a burst's head start
            due = max(self._next_free, now)  # GCRA: when this one is due at the rate
            start = max(now, due - tolerance)
            self._next_free = due + 1.0 / self.rate
            if start > now + 1e-9:  # (sums of 1/rate are not exact)
                self.waited += 1
                await self._sleep(start - now)
                now = self._now()
        self.sent += 1
        self._recent.append(now)
        self._trim(now)

    def global_429(self, route: str) -> bool:
        """Discord answered a global 429 on an interaction route (``route``, e.g.
        ``PATCH /webhooks/{id}/{token}/messages/@original``): switch the cap on (one
        warning, the first time). True when this switched it on."""
        if self.capped or self.rate <= 0:
            return False
        self.capped = True
        self.switched_on += 1
        log.warning("Discord answered a global 429 on an interaction route (%s): capping this"
                    " process's interaction requests at %.3g per second (DDZ_INTERACTION_RATE,"
                    " docs/SCALING.md §Exempt traffic)", route, self.rate)
        return True
