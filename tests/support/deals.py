"""Fixed deals for game-flow tests, written in docs/RULES.md notation."""

from __future__ import annotations

from bot.game import Hand
from bot.rules import DEFAULT_RULES, RuleSet, parse_ranks

FULL = "3333444455556666777788889999TTTTJJJJQQQQKKKKAAAA2222XD"


def make_deal(
    h0: str = "",
    h1: str = "",
    h2: str = "",
    kitty: str = "",
    *,
    first_bidder: int = 0,
    rules: RuleSet = DEFAULT_RULES,
) -> Hand:
    """A Hand whose hands and kitty start with the given ranks.

    Each part is completed (hands to 17 cards, kitty to 3) with the lowest
    ranks not used elsewhere, in the order h0, h1, h2, kitty.
    """
    left = list(FULL)
    for part in (h0, h1, h2, kitty):
        for rank in parse_ranks(part):
            left.remove(rank.symbol)
    parts = []
    for part, size in ((h0, 17), (h1, 17), (h2, 17), (kitty, 3)):
        text = "".join(r.symbol for r in parse_ranks(part))
        need = size - len(text)
        parts.append(text + "".join(left[:need]))
        del left[:need]
    return Hand.deal(rules, hands=parts[:3], kitty=parts[3], first_bidder=first_bidder)
