"""Deciders: run a computer player's decision off the event loop.

``bot.game.computer.decide`` is the pure decision; a Decider awaits it in a
thread (``thread_decide``, the service's default) or, for the hard level, in the
AI worker pool (``pooled_decider(pool)``, what the bot uses).
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable

from bot.game.computer import AutoAction, decide, decide_from_json, seat_level
from bot.game.table import Table
from bot.service.pool import WorkerPool

Decider = Callable[[Table, random.Random], Awaitable[AutoAction]]
"""Computes the computer's action for the seat to act of a (read-only) table with an
rng seeded for this move; ``thread_decide`` (the default) or ``pooled_decider(pool)``."""


async def thread_decide(table: Table, rng: random.Random) -> AutoAction:
    """The default Decider: ``decide`` in a thread of this process."""
    return await asyncio.to_thread(decide, table, rng)


def pooled_decider(pool: WorkerPool) -> Decider:
    """The bot's Decider: a hard decision (0.1–0.6 s of CPU) runs in ``pool`` (the AI
    worker pool, ``bot.service.worker.ai_pool``, shared with Hint; thread fallback) so
    that it does not hold the event loop's GIL; easy / normal ones (< 2 ms) stay in a
    thread."""

    async def pooled_decide(table: Table, rng: random.Random) -> AutoAction:
        if seat_level(table) == "hard":
            return await pool.run(decide_from_json, table.model_dump_json(), rng)
        return await thread_decide(table, rng)

    pooled_decide.pool = pool  # type: ignore[attr-defined]  # which pool (tests)
    return pooled_decide
