"""Per-position memo of the ranked choices (``bot.ai.choices``) and the card counter of
each seat.

A position (table id, ``seq``, seat) is drawn many times: the refresh of every
open hand view after each move, then each click of the seat to act (ranks,
Clear, the menu, Hint) until it moves. The legal-play menu and the Hint's quick
suggestions come from one ranking, computed here once per position. ``ranked``
computes it in a worker process when a pool is given and ready (a ranking costs
2.5 ms of CPU at the median, up to ~40 ms for a 20-card lead; the observation and
the answer pickle in ≈ 0.2 ms on the bot's side), else on the event loop, as
``get`` always does. Both give the same ``Choices`` (``bot.ai.choices`` is
deterministic).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TypeVar

from bot.ai import PLAYS_RANKED
from bot.ai.choices import Choices, choices
from bot.ai.happy import KINDS as HAPPY_KINDS
from bot.ai.observation import Observation
from bot.game.table import Table
from bot.service.lru import Lru, SingleFlight
from bot.service.pool import WorkerPool

log = logging.getLogger(__name__)
T = TypeVar("T")

CHOICES_CACHE_SIZE = 1024
"""Positions kept (least recently used dropped first): 3 seats of a few hundred tables."""

_NONE = Choices((), 0, ())


@dataclass(frozen=True)
class HandPosition:
    """What the hand screen of one seat needs at one position of a table
    (``TableService.hand_position``).

    ``counter``: the server shows the card counter (``/ddz config counter``);
    ``counts``: the seat's card counter (15 counts by rank, docs/RULES.md §Card counter),
    None when it is off or there is no hand; ``known``: the ranked choices when they
    are computed already, else None; ``choices()`` returns them, computing them (in the
    render workers) when not known.
    """

    counter: bool
    counts: tuple[int, ...] | None
    known: Choices | None
    rank: Callable[[], Awaitable[Choices]] = field(repr=False)

    async def choices(self) -> Choices:
        """The ranked choices of the position: ``known``, or computed once now."""
        return self.known if self.known is not None else await self.rank()


class ChoicesCache:
    """``get(table, seat)`` → ``Choices`` of that seat now, computed once per position."""

    def __init__(self, size: int = CHOICES_CACHE_SIZE) -> None:
        self.size = size
        self._memo: Lru[tuple[str, int, int], Choices] = Lru(size)
        self._pending: SingleFlight[tuple[str, int, int], Choices] = SingleFlight()
        self._counts: Lru[tuple[str, int, int], tuple[int, ...]] = Lru(size)
        self._seen: Lru[tuple[str, int, int], Observation] = Lru(size)
        """The seat's observation at the position: the ranking and the counter both start
        from it, so it is built once."""
        self._keys: dict[str, set[tuple[str, int, int]]] = {}
        """The positions kept of each table (in ``_memo``, ``_counts`` or ``_seen``)."""
        self.computed = 0
        """Positions ranked so far (cache misses), for tests and benchmarks."""

    def get(self, table: Table, seat: int) -> Choices:
        """The ranked choices of ``seat`` (empty without a hand in bidding or play)."""
        found = self.known(table, seat)
        if found is not None:
            return found
        hand = table.hand
        assert hand is not None  # ``known`` answers without a hand
        key = (table.id, table.seq, seat)
        try:
            found = choices(self._observation(table, seat, key), happy_asked(table, seat))
        except Exception:  # the ranking is a nicety: the menu must still show
            log.exception("ranking the choices failed (table=%s seat=%s)", table.id, seat)
            legal = hand.legal_plays(seat)
            found = Choices(tuple(legal[:PLAYS_RANKED]), len(legal), ())
        return self._keep(key, found)

    def known(self, table: Table, seat: int) -> Choices | None:
        """The ranked choices of ``seat`` at ``table``'s position when they are computed
        already (or there are none: no hand in bidding or play), else None; never
        computes. A caller with the answer at hand needs no task to wait for it."""
        hand = table.hand
        if hand is None or (hand.phase not in ("bidding", "playing")
                            and happy_asked(table, seat) is None):
            return _NONE
        key = (table.id, table.seq, seat)
        return self._memo.get(key)

    async def ranked(self, table: Table, seat: int, pool: WorkerPool | None = None,
                     urgent: bool = False) -> Choices:
        """``get(table, seat)``, computed in ``pool``'s worker processes when it has a
        ready one (once per position however many callers wait; ``urgent``: a member
        waits for it, ``WorkerPool.run``); on the loop otherwise, or when the worker fails."""
        hand = table.hand
        key = (table.id, table.seq, seat)
        if (pool is None or not pool.ready or hand is None
                or hand.phase not in ("bidding", "playing") or key in self._memo):
            return self.get(table, seat)
        pending = self._pending.running(key)
        if pending is None:
            pending = self._pending.start(
                key, pool.run(_rank, self._observation(table, seat, key),
                              happy_asked(table, seat), urgent=urgent))
            pending.add_done_callback(_retrieved)
        try:
            found = await asyncio.shield(pending)
        except Exception:  # a worker that died or failed: rank here (``get`` logs errors)
            return self.get(table, seat)
        if key in self._memo:
            return self.get(table, seat)
        return self._keep(key, found)

    def _keep(self, key: tuple[str, int, int], found: Choices) -> Choices:
        self.computed += 1
        return self._store(self._memo, key, found)

    def still_out(self, table: Table, seat: int) -> tuple[int, ...]:
        """``seat``'s card counter now (``Observation.still_out``: 15 counts, only what
        the seat has seen), once per position: every redraw of the seat's view at that
        position needs it. Raises ValueError without a hand."""
        if table.hand is None:
            raise ValueError("no hand dealt")
        key = (table.id, table.seq, seat)
        found = self._counts.peek(key)
        if found is None:
            found = self._store(self._counts, key, self._observation(table, seat, key).still_out())
        return found

    def _observation(self, table: Table, seat: int, key: tuple[str, int, int]) -> Observation:
        """``table.hand.observation(seat)`` (a hand is dealt), once per position ``key``."""
        found = self._seen.peek(key)
        if found is None:
            assert table.hand is not None
            found = self._store(self._seen, key, table.hand.observation(seat))
        return found

    def _store(self, memo: Lru[tuple[str, int, int], T], key: tuple[str, int, int],
               value: T) -> T:
        """Keep ``value`` at ``key`` in ``memo`` (``_memo``, ``_counts`` or ``_seen``), indexed by table;
        the least recently kept are dropped past ``size``."""
        self._keys.setdefault(key[0], set()).add(key)
        for dropped in memo.put(key, value):
            self._unindex(dropped)
        return value

    def forget_before(self, table_id: str, seq: int) -> None:
        """The table moved on to ``seq``: drop its older positions, which nobody asks
        for again (a long-lived heap is what every full garbage collection scans)."""
        for key in [k for k in self._keys.get(table_id, ()) if k[1] < seq]:
            self._memo.pop(key)
            self._counts.pop(key)
            self._seen.pop(key)
            self._unindex(key)

    def _unindex(self, key: tuple[str, int, int]) -> None:
        if key in self._memo or key in self._counts or key in self._seen:
            return
        keys = self._keys.get(key[0])
        if keys is not None:
            keys.discard(key)
            if not keys:
                del self._keys[key[0]]

    def clear(self) -> None:
        """Forget every position."""
        self._memo.clear()
        self._counts.clear()
        self._seen.clear()
        self._keys.clear()


def _retrieved(done: asyncio.Task[Choices]) -> None:
    """Mark a ranking's failure retrieved: whoever awaited it handled it."""
    if not done.cancelled():
        done.exception()


def _rank(obs: Observation, happy: str | None = None) -> Choices:
    """``bot.ai.choices`` as a worker process runs it (module level: it pickles)."""
    return choices(obs, happy)


def happy_asked(table: Table, seat: int) -> str | None:
    """The Happy rules' decision ``seat`` is asked now (``Hand.asked``: ``"call"``,
    ``"grab"``, ``"show"``, ``"double"``), None otherwise (the play, a classic bid, nothing)."""
    asked = table.hand.asked(seat) if table.hand is not None else None
    return asked if asked in HAPPY_KINDS else None
