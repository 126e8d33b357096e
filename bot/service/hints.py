"""The Hint button's suggestions, computed once per position in the AI worker process.

The hard search behind a Hint is pure Python (tens to hundreds of ms of CPU); in
a thread it competes with the event loop for the GIL and delays every other
interaction's first response (docs/PERFORMANCE.md). The AI worker process of
``bot.service.worker`` (lazy, shared with hard computer moves) computes them
instead (thread fallback). ``HintCache`` keeps the suggestions of the latest
positions, keyed by (table id, seq, seat), so cycling through them costs nothing.
"""

from __future__ import annotations

from collections import OrderedDict

from bot.ai import Decision
from bot.game.computer import hint_options_from_json
from bot.game.table import Table
from bot.service import worker

HINT_CACHE_SIZE = 256
"""Positions whose suggestions are kept (least recently used dropped first)."""


async def compute(table: Table, seat: int) -> list[Decision]:
    """``bot.ai.hint_options`` for ``seat`` of ``table``, in the AI worker process
    (thread fallback). Raises GameError("wrong_phase") without a hand."""
    return await worker.run(hint_options_from_json, table.model_dump_json(), seat)


class HintCache:
    """Hint suggestions per position (table id, seq, seat), an LRU of ``size`` entries."""

    def __init__(self, size: int = HINT_CACHE_SIZE) -> None:
        self.size = size
        self._options: OrderedDict[tuple[str, int, int], list[Decision]] = OrderedDict()

    async def options(self, table: Table, seat: int) -> list[Decision]:
        """The suggestions of ``seat`` at ``table``'s current position (``compute`` once)."""
        key = (table.id, table.seq, seat)
        options = self._options.get(key)
        if options is not None:
            self._options.move_to_end(key)
            return options
        options = await compute(table, seat)
        self._options[key] = options
        while len(self._options) > self.size:
            self._options.popitem(last=False)
        return options

    def clear(self) -> None:
        """Forget every cached position."""
        self._options.clear()
