"""A Happy hand played to its end (docs/RULES.md §Happy rules): the docs' whole-hand
example, with Cy's double left to the timer. Shared by the rendering and review tests."""

from __future__ import annotations

from bot.game.happy import HappyHand
from bot.rules import RuleSet

HANDS = ["45TTJQQKKKAA222XD", "3333444555666789J", "6777888999TTJJQQK"]


def played() -> HappyHand:
    hand = HappyHand.deal(RuleSet(variant="happy"), hands=HANDS, kitty="AA2", first_bidder=0)
    hand.call(0, True)
    hand.grab(1, True)
    hand.grab(2, False)
    hand.grab(0, True)
    hand.show(0)
    hand.double(1, 1)
    hand.double(0, 2)
    hand.end_doubling()
    for seat, cards in ((0, "4"), (1, "3333"), (2, None), (0, None), (1, "444555666789"),
                        (2, None), (0, None), (1, "J")):
        hand.play(seat, cards) if cards else hand.pass_turn(seat)
    return hand
