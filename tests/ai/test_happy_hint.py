"""The Hint on the Happy rules' decisions (docs/AI.md §Happy rules): the hard computer's
answer to the call, grab, show or double the seat is asked, with its estimated win
chance against the threshold it decides by; the review judges those decisions by it."""

from __future__ import annotations

import random

import pytest

from bot.ai.happy import HARD, NORMAL, advise, answer, choose_happy, estimate
from bot.ai.players import HINT_SEED, hint_options
from bot.game.computer import table_hint_options
from bot.game.happy import HappyHand
from bot.game.table import Table
from bot.i18n import t
from bot.rules import RuleSet
from cogs.hand_actions import hint_reason

HAPPY = RuleSet(variant="happy")
STRONG = "6789TJQKAA2222XD3"
"""Seat 0's 17 cards: four 2s, the rocket, a straight to the ace."""
HANDS = [STRONG, "33344455566677788", "8999TTTJJJQQQKKK4"]
KITTY = "5AA"
WEAK = "34567899TJJQ34579"
"""Seat 0's 17 cards in the second deal: nothing above the queen, no trio."""
WEAK_HANDS = [WEAK, "34566789TJQQKKAA2", "3456788TTJQKKAA22"]
WEAK_KITTY = "2XD"


def dealt(hands: list[str] = HANDS, kitty: str = KITTY, first: int = 0,
          rules: RuleSet = HAPPY) -> HappyHand:
    hand = HappyHand.deal(rules, hands=hands, kitty=kitty, first_bidder=first)
    assert isinstance(hand, HappyHand)
    return hand


def hint(hand: HappyHand, seat: int) -> list[tuple[int, str, dict[str, str | int]]]:
    kind = hand.asked(seat)
    assert kind in ("call", "grab", "show", "double"), kind
    return [(d.bid, d.reason, d.params) for d in hint_options(hand.observation(seat), happy=kind)]


def test_a_strong_hand_is_told_to_show_call_grab_and_super_double() -> None:
    hand = dealt()
    # the first to speak, with 96 %: start face up (×4) as the hard computer would, then call
    assert hint(hand, 0) == [(4, "happy_show_deal", {"n": 96, "need": 94}),
                             (1, "happy_call", {"n": 96, "need": 26})]
    hand = dealt(first=1)
    hand.call(1, True)
    hand.grab(2, False)
    assert hint(hand, 0) == [(1, "happy_grab", {"n": 96, "need": 46})]
    hand.grab(0, True)
    hand.grab(1, False)
    assert hint(hand, 0) == [(2, "happy_show", {"n": 99, "need": 94})]  # with the kitty
    hand.keep_hidden(0)
    assert hint(hand, 0) == [(4, "happy_super_double", {"n": 99, "need": 58})]
    # the peasants, against that hand: no double
    assert hint(hand, 1) == [(1, "happy_no_double", {"n": 24, "need": 54})]


def test_a_weak_hand_is_told_not_to_call_grab_show_or_double() -> None:
    hand = dealt(WEAK_HANDS, WEAK_KITTY)
    (call,) = hint(hand, 0)
    assert call[:2] == (0, "happy_no_call") and call[2]["need"] == 26
    assert isinstance(call[2]["n"], int) and call[2]["n"] < 26
    hand = dealt(WEAK_HANDS, WEAK_KITTY, first=2)
    hand.call(2, True)
    assert hand.asked(0) == "grab"
    (grab,) = hint(hand, 0)
    assert grab[:2] == (0, "happy_no_grab") and grab[2]["need"] == 46
    hand.grab(0, False)
    hand.grab(1, False)  # seat 2 is the landlord, G = 1
    hand.keep_hidden(2)
    (double,) = hint(hand, 0)
    assert double[:2] == (1, "happy_no_double") and double[2]["need"] == 54


@pytest.mark.parametrize("first", [0, 1, 2])
def test_the_hint_is_what_the_hard_computer_decides(first: int) -> None:
    hand = dealt(first=first)
    for _ in range(8):
        seats = hand.pending()
        if hand.phase == "playing" or not seats:
            break
        seat = seats[0]
        kind = hand.asked(seat)
        assert kind is not None
        obs = hand.observation(seat)
        options = hint_options(obs, happy=kind)
        chosen = choose_happy(obs, kind, "hard", random.Random(HINT_SEED))
        assert options[-1].bid == chosen  # the decision asked (after a show at the deal)
        assert hint_options(obs, happy=kind) == options  # seeded: the same every time
        hand.decide(kind, seat, chosen)


def test_the_table_hint_answers_the_decision_asked_and_nothing_while_waiting() -> None:
    table = Table.open(1, 2, 10, "Ana", computers=2, level="hard", rules=HAPPY)
    table.start(10, 0.0, hands=HANDS, kitty=KITTY, first_bidder=1)
    assert table_hint_options(table, 1)[0].reason in ("happy_call", "happy_no_call",
                                                      "happy_show_deal")
    assert table_hint_options(table, 0) == []  # seat 0 is asked nothing yet: no classic bid


def test_a_double_that_the_cap_makes_worthless_is_not_advised() -> None:
    hand = dealt(first=1, rules=RuleSet(variant="happy", cap=32))
    hand.show(2)  # at the deal, S = 4: seat 2 speaks first
    hand.call(2, True)
    hand.grab(0, True)
    hand.grab(1, True)
    hand.grab(2, True)  # three grabs: G = 8, seat 2 the landlord; G × S = 32, the cap
    assert (hand.landlord, hand.multiplier, hand.phase) == (2, 32, "doubling")
    obs = hand.observation(0)
    assert answer("double", estimate(obs, random.Random(HINT_SEED)), False, HARD) == 4
    decision = hint_options(obs, happy="double")[0]
    assert (decision.bid, decision.reason, decision.params) == (1, "happy_no_double_cap", {})
    assert hint_reason(decision, "en") == "No double: every stake it would raise is at the cap already."


def test_the_normal_level_uses_its_own_thresholds() -> None:
    hand = dealt()
    decision = advise(hand.observation(1), "call", "normal")
    assert decision.params["need"] == round(100 * NORMAL.call) != round(100 * HARD.call)


@pytest.mark.parametrize("lang", ["en", "es", "zh_CN", "zh_TW"])
def test_the_reason_reads_in_the_members_language(lang: str) -> None:
    hand = dealt()
    call = hint_options(hand.observation(0), happy="call")[1]
    text = hint_reason(call, lang)
    assert "96" in text and "26" in text
    assert text == t("reason.happy_call", lang, n=96, need=26)
    assert "{" not in text
    expected = {"en": "Call the landlord", "es": "Canta el terrateniente", "zh_CN": "叫地主",
                "zh_TW": "叫地主"}[lang]
    assert text.startswith(expected), text
