"""The work of a review, run in the AI worker process (pure: no asyncio, no I/O).

These module-level functions take and return picklable values so that
the AI worker pool (``WorkerPool.run``) can send them to the worker. They join the game (a position rebuilt
from the stored history, ``bot.game.replay``) and the AI (``bot.ai.review``): the
only thing the AI gets is ``Hand.observation(seat)`` of that position, i.e. what
the member could see when deciding.
"""

from __future__ import annotations

import random
from typing import cast

from bot.ai.happy import KINDS as HAPPY_KINDS
from bot.ai.review import Assessment, HappyKind, assess, is_choice
from bot.game.replay import position_before
from bot.game.variants import load_hand

REVIEWED = ("bid", "play", "pass", *HAPPY_KINDS)
"""The decisions a review assesses: bids, plays and passes, and the Happy rules' calls,
grabs, shows and doubles (docs/AI.md §Happy rules)."""


def own_decisions(hand_json: str, seat: int) -> list[int]:
    """History indices of ``seat``'s own decisions: its bids, Happy decisions and
    plays/passes that were real choices (more than one option), not made by the computer
    for it (a double the timer made is the computer's)."""
    hand = load_hand(hand_json)
    out = []
    for index, action in enumerate(hand.history):
        if action.seat != seat or action.auto or action.kind not in REVIEWED:
            continue
        if action.kind == "bid" or action.kind in HAPPY_KINDS or is_choice(position_before(hand, index).observation(seat)):
            out.append(index)
    return out


def review_decision(hand_json: str, seat: int, index: int, seed: str | None = None
                    ) -> Assessment:
    """The hard player's view of ``hand.history[index]`` (a decision of ``seat``),
    from ``seat``'s observation just before it. Without ``seed``: the Hint's evaluation
    of that position (``bot.ai.review.assess``), so the Hint's move is never a costly
    decision; ``seed``: a hard search seeded by it instead. Reproducible either way."""
    hand = load_hand(hand_json)
    action = hand.history[index]
    if action.seat != seat:
        raise ValueError(f"history entry {index} is not seat {seat}'s")
    obs = position_before(hand, index).observation(seat)
    rng = None if seed is None else random.Random(seed)
    if action.kind in HAPPY_KINDS:  # call, grab, show, double: the amount the seat chose
        kind = cast(HappyKind, action.kind)
        return assess(obs, action.amount or 0, rng, happy=kind)
    played = (action.amount or 0) if action.kind == "bid" else action.combo
    return assess(obs, played, rng)
