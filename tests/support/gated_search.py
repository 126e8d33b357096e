"""A stand-in for the Hint's hard search (``bot.service.hints.compute``) that a test opens
by hand: shared by the Hint cache's tests and the click counts' (docs/PERFORMANCE.md
§What a click causes)."""

from __future__ import annotations

import asyncio

from bot.ai import Decision
from bot.ai.choices import choices
from bot.game.table import Table


def searched(table: Table, seat: int) -> list[Decision]:
    """A stand-in for the hard search's list (the real one has a wall-clock cap, so two
    runs on a loaded machine may differ): the normal ranking, last first."""
    normal = list(choices(table.hand.observation(seat)).suggestions)
    return normal[-1:] + normal[:-1]


class GatedSearch:
    """Stands in for ``hints.compute``: each search waits until the test opens the gate."""

    def __init__(self) -> None:
        self.gate = asyncio.Event()
        self.calls: list[tuple[str, int, int]] = []

    async def __call__(self, table: Table, seat: int, pool: object = None) -> list[Decision]:
        self.calls.append((table.id, table.seq, seat))
        await self.gate.wait()
        return searched(table, seat)
