"""Per-position memo of the ranked choices (``bot.ai.choices``) of each seat.

A position (table id, ``seq``, seat) is drawn many times: the refresh of every
open hand view after each move, then each click of the seat to act (ranks,
Clear, the menu, Hint) until it moves. The legal-play menu and the Hint's quick
suggestions come from one ranking, computed here once per position, on the event
loop (well under a millisecond for most positions: cheaper than a thread hop).
"""

from __future__ import annotations

import logging
from collections import OrderedDict

from bot.ai import MENU_SIZE
from bot.ai.choices import Choices, choices
from bot.game.table import Table

log = logging.getLogger(__name__)

CHOICES_CACHE_SIZE = 1024
"""Positions kept (least recently used dropped first): 3 seats of a few hundred tables."""

_NONE = Choices((), 0, ())


class ChoicesCache:
    """``get(table, seat)`` → ``Choices`` of that seat now, computed once per position."""

    def __init__(self, size: int = CHOICES_CACHE_SIZE) -> None:
        self.size = size
        self._memo: OrderedDict[tuple[str, int, int], Choices] = OrderedDict()
        self.computed = 0
        """Positions ranked so far (cache misses), for tests and benchmarks."""

    def get(self, table: Table, seat: int) -> Choices:
        """The ranked choices of ``seat`` (empty without a hand in bidding or play)."""
        hand = table.hand
        if hand is None or hand.phase not in ("bidding", "playing"):
            return _NONE
        key = (table.id, table.seq, seat)
        found = self._memo.get(key)
        if found is not None:
            self._memo.move_to_end(key)
            return found
        try:
            found = choices(hand.observation(seat))
        except Exception:  # the ranking is a nicety: the menu must still show
            log.exception("ranking the choices failed (table=%s seat=%s)", table.id, seat)
            legal = hand.legal_plays(seat)
            found = Choices(tuple(legal[:MENU_SIZE]), len(legal), ())
        self.computed += 1
        self._memo[key] = found
        while len(self._memo) > self.size:
            self._memo.popitem(last=False)
        return found

    def clear(self) -> None:
        """Forget every position."""
        self._memo.clear()
