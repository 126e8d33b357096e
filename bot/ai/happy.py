"""Computer decisions under the Happy rules (docs/RULES.md §Happy rules): call, grab,
show and double, from the hand's strength.

Strength is ``bot.ai.bidding.hand_win_rate``, the bidding model's estimate of P(the
landlord wins) for a hand's rank counts (fitted on 17-card hands; on 20 cards it reads
lower, which the landlord's thresholds allow for). The thresholds are a first cut
chosen from the model's spread (on shuffled hands: 17 cards median 0.51, top decile
0.72, top 3 % 0.80; 20 cards median 0.45, top decile 0.68, top 3 % 0.77), not yet
fitted by an arena (docs/AI.md §Happy rules).
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.ai.bidding import hand_win_rate
from bot.ai.evaluate import counts_of
from bot.rules import Card

CALL = 0.45
"""Call with a 17-card hand at least this strong."""
GRAB = 0.60
"""Grab (each grab doubles every stake) at least this strong."""
SHOW_AT_DEAL = 0.80
"""Start with the hand face up (×4) at least this strong: about 3 % of deals."""
SHOW_AFTER_KITTY = 0.76
"""The landlord shows its 20 cards (×2) at least this strong."""
LANDLORD_DOUBLE = (0.58, 0.74)
"""The landlord's 20 cards: double ×2 from the first, ×4 from the second."""
PEASANT_DOUBLE = (0.62, 0.78)
"""A peasant's 17 cards: double ×2 from the first, ×4 from the second."""


def strength(cards: Sequence[Card]) -> float:
    """``hand_win_rate`` of ``cards``' rank counts (0..1)."""
    return hand_win_rate(counts_of(cards))


def happy_decision(kind: str, cards: Sequence[Card], landlord: bool) -> int:
    """The computer's answer to ``kind`` (``"call"``, ``"grab"``, ``"show"`` at the deal
    or, as ``landlord``, after the kitty, ``"double"``) for a seat holding ``cards``: 1/0
    for call and grab, the show factor or 0, the doubling factor 1, 2 or 4.
    Raises ValueError for another kind."""
    rate = strength(cards)
    if kind == "call":
        return int(rate >= CALL)
    if kind == "grab":
        return int(rate >= GRAB)
    if kind == "show":
        if landlord:
            return 2 if rate >= SHOW_AFTER_KITTY else 0
        return 4 if rate >= SHOW_AT_DEAL else 0
    if kind == "double":
        low, high = LANDLORD_DOUBLE if landlord else PEASANT_DOUBLE
        return 4 if rate >= high else 2 if rate >= low else 1
    raise ValueError(f"no Happy decision {kind!r}")
