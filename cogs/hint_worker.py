"""Hint suggestions computed in a worker process, so the search never holds the bot's GIL.

The hard search behind a Hint is pure Python (tens to hundreds of ms of CPU); in
a thread it competes with the event loop for the GIL and delays every other
interaction's first response (docs/PERFORMANCE.md). The AI worker process of
``bot.ai.worker`` (lazy, shared with hard computer moves) computes them instead;
when it cannot be used (broken pool, pickling trouble) the same function runs in
a thread. This module imports no discord: the worker only loads bot.game and bot.ai.
"""

from __future__ import annotations

import random
from typing import Any

from bot.ai import worker
from bot.game.table import Table
from bot.rules import Combo

HINT_STEP_BUDGET = 1_000
"""Simulated decisions of the hard search behind a Hint's first suggestion (the
computer seats use ``bot.ai.search.STEP_BUDGET``, 2 500): about 5× less CPU,
mostly the same first play."""

Suggestion = tuple[int | tuple[int, ...] | None, str, dict[str, str | int]]
"""(action, reason code, reason params): action = a bid (int) while bidding, the
``Card.index`` values of a play (tuple), or None for a pass."""


def hint_options(table: Table, seat: int) -> list[Any]:
    """Every Hint suggestion for ``seat`` now, as ``bot.ai`` Decisions, in the
    order ``bot.ai.hint`` cycles them: while bidding the normal level's bid; in
    play the hard search's pick (budget ``HINT_STEP_BUDGET``), then the normal
    level's ranking of the other distinct actions (with a pass when the lead is
    not free). Pure CPU. Raises AssertionError without a hand."""
    from bot.ai import choose_bid
    from bot.ai.policy import normal_ranked
    from bot.ai.search import hard_play
    from bot.ai.view import view_of

    hand = table.hand
    assert hand is not None
    obs = hand.observation(seat)
    if hand.phase == "bidding":
        return [choose_bid(obs, "normal")]
    view = view_of(obs)
    first = hard_play(view, random.Random(0), step_budget=HINT_STEP_BUDGET)
    options = [first]
    seen = [first.action]
    for _, decision in normal_ranked(view):
        if decision.action not in seen:
            seen.append(decision.action)
            options.append(decision)
    return options


def suggestions(table_json: str, seat: int) -> list[Suggestion]:
    """``hint_options`` of a serialized Table as plain, picklable tuples."""
    table = Table.model_validate_json(table_json)
    out: list[Suggestion] = []
    for decision in hint_options(table, seat):
        action = decision.action
        plain = tuple(c.index for c in action.cards) if isinstance(action, Combo) else action
        out.append((plain, decision.reason, dict(decision.params)))
    return out


async def compute(table: Table, seat: int) -> list[Suggestion]:
    """``suggestions`` for ``seat`` of ``table``, in the AI worker process (thread fallback)."""
    return await worker.run(suggestions, table.model_dump_json(), seat)


def shutdown() -> None:
    """Stop the AI worker process (the next Hint or hard move starts a new one)."""
    worker.shutdown()
