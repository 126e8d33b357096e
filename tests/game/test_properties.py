"""Property: random legal self-play always ends, conserves the 54 cards, scores to zero."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.game import Hand
from bot.rules import DECK, RuleSet
from tests.support.properties import examples


def all_cards(hand: Hand) -> list:
    played = [card for action in hand.history for card in action.cards]
    held = [card for cards in hand.holdings for card in cards]
    kitty = hand.kitty if hand.landlord is None else []
    return held + played + kitty


def self_play(seed: int, rules: RuleSet) -> Hand:
    rng = random.Random(seed)
    hand = Hand.deal(rules, seed=seed)
    for _ in range(200):
        if hand.phase == "redeal":
            hand = hand.redeal()
        elif hand.phase == "bidding":
            hand.bid(hand.turn, rng.choice(hand.allowed_bids(hand.turn)))
        elif hand.phase == "playing":
            seat = hand.turn
            plays = hand.legal_plays(seat)
            if hand.to_beat is not None and (not plays or rng.random() < 0.3):
                hand.pass_turn(seat)
            else:
                hand.play(seat, rng.choice(plays))
        else:
            return hand
        cards = all_cards(hand)
        assert len(cards) == 54 and set(cards) == set(DECK)
    raise AssertionError("the hand did not end")


@settings(max_examples=examples(150), deadline=None)
@given(
    seed=st.integers(0, 2**32),
    bidding=st.sampled_from(["once", "until_two_passes"]),
    kickers=st.sampled_from(["default", "distinct"]),
)
def test_random_legal_self_play_ends_conserves_cards_and_sums_to_zero(seed, bidding, kickers):
    hand = self_play(seed, RuleSet(bidding=bidding, kickers=kickers))
    result = hand.result
    assert hand.phase == "finished"
    assert sum(result.points) == 0
    assert result.p == result.base * 2**result.doublings
    assert result.doublings == result.bombs + result.rockets + result.spring + result.anti_spring
    out = result.out_seat
    assert hand.cards_left(out) == 0
    assert all(hand.cards_left(s) > 0 for s in range(3) if s != out)
    assert Hand.model_validate_json(hand.model_dump_json()) == hand
