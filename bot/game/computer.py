"""Computer players' decisions for a table's seat to act (auto-play, timeouts, computers).

Pure (no discord, no I/O): ``decide`` asks ``bot.ai`` at the seat's level; a
Decider runs it off the event loop — in a thread (``thread_decide``, the
service's default) or, for the hard level, in the AI worker process
(``pooled_decide``, what the bot uses).
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable

from bot.ai import choose_bid, choose_play, worker
from bot.game.errors import GameError
from bot.game.seat import Level
from bot.game.table import Table
from bot.rules import Combo

AutoAction = int | Combo | None
"""A computer's action: a bid (0 = pass, 1..3) while bidding, a Combo, or None = pass."""

Decider = Callable[[Table, random.Random], Awaitable[AutoAction]]
"""Computes the computer's action for the seat to act of a (read-only) table with an
rng seeded for this move; ``thread_decide`` (the default) or ``pooled_decide``."""



def fallback_action(table: Table) -> int | Combo | None:
    """A safe action for the seat to act: open the bidding with 1 (else pass); in play,
    the first legal play on a free lead, else pass. Raises GameError("wrong_phase")."""
    hand, seat = table.hand, table.turn_seat
    if hand is None or seat is None:
        raise GameError("wrong_phase", phase=table.phase)
    if hand.phase == "bidding":
        return 1 if hand.winning_bid == 0 else 0
    if hand.to_beat_for(seat) is None:
        return hand.legal_plays(seat)[0]
    return None


def seat_level(table: Table) -> Level:
    """The level the computer plays at for the seat to act: a computer seat's own
    level; "normal" for a member's seat on auto-play (and when nobody is to act)."""
    seat = table.turn_seat
    level = table.seats[seat].computer if seat is not None else None
    return level or "normal"


def decide(table: Table, rng: random.Random) -> AutoAction:
    """The computer's action for the seat to act (``bot.ai`` at ``seat_level``).

    Pure and synchronous (run it in a thread or the worker). Raises GameError("wrong_phase").
    """
    hand, seat = table.hand, table.turn_seat
    if hand is None or seat is None:
        raise GameError("wrong_phase", phase=table.phase)
    level = seat_level(table)
    obs = hand.observation(seat)
    if hand.phase == "bidding":
        return choose_bid(obs, level, rng).action
    return choose_play(obs, level, rng).action


def decide_from_json(table_json: str, rng: random.Random) -> AutoAction:
    """``decide`` on a serialized Table (the worker process's entry point; the action
    and the rng pickle, so the result equals ``decide`` on the same table and rng)."""
    return decide(Table.model_validate_json(table_json), rng)


async def thread_decide(table: Table, rng: random.Random) -> AutoAction:
    """The default Decider: ``decide`` in a thread of this process."""
    return await asyncio.to_thread(decide, table, rng)


async def pooled_decide(table: Table, rng: random.Random) -> AutoAction:
    """A Decider for the bot: a hard decision (0.1–0.6 s of CPU) runs in the AI worker
    process (``bot.ai.worker``, shared with Hint; thread fallback) so that it does not
    hold the event loop's GIL; easy / normal ones (< 2 ms) stay in a thread."""
    if seat_level(table) == "hard":
        return await worker.run(decide_from_json, table.model_dump_json(), rng)
    return await thread_decide(table, rng)
