"""Drive a ``Hand`` to its end with callables that choose from observations.

Pure (no discord, no I/O) and independent of ``bot.ai`` (the callers pass the
computer players in), so tests and benchmarks can produce finished hands with a
full history — exactly what the bot stores at settlement — from a seed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.game.hand import Hand
from bot.rules import DEFAULT_RULES, Combo, RuleSet

BidChooser = Callable[[Any], int]
"""observation -> bid (0 = pass, 1..3)."""
PlayChooser = Callable[[Any], Combo | None]
"""observation -> a legal Combo, or None for a pass."""


def play_out(
    hand: Hand,
    bid: BidChooser,
    play: PlayChooser,
    *,
    max_redeals: int = 20,
    before_action: Callable[[Hand], None] | None = None,
) -> Hand:
    """Bid and play ``hand`` to the end (redealing when all pass); returns the finished Hand.

    ``before_action(hand)`` is called before every bid, play and pass (tests record
    the live positions with it). Raises GameError when a chooser answers
    illegally, RuntimeError after ``max_redeals`` redeals in a row.
    """
    watch = before_action or (lambda _: None)
    for _ in range(max_redeals + 1):
        while hand.phase == "bidding":
            seat = hand.turn
            assert seat is not None
            watch(hand)
            hand.bid(seat, bid(hand.observation(seat)))
        if hand.phase == "redeal":
            hand = hand.redeal()
            continue
        while hand.phase == "playing":
            seat = hand.turn
            assert seat is not None
            combo = play(hand.observation(seat))
            watch(hand)
            if combo is None:
                hand.pass_turn(seat)
            else:
                hand.play(seat, combo)
        return hand
    raise RuntimeError(f"{max_redeals} redeals in a row")


def seeded_hand(
    seed: int, bid: BidChooser, play: PlayChooser, rules: RuleSet = DEFAULT_RULES
) -> Hand:
    """The finished hand dealt from ``seed`` and played by ``bid`` / ``play``."""
    return play_out(Hand.deal(rules, seed=seed), bid, play)
