"""docs/RULES.md §Deal, bidding, landlord: both bidding variants, redeal, the kitty."""

import pytest

from bot.game import GameError, Hand
from bot.rules import RuleSet, format_cards

UNTIL = RuleSet(bidding="until_two_passes")


def bids(hand: Hand, *amounts: int) -> Hand:
    for amount in amounts:
        hand.bid(hand.turn, amount)
    return hand


def test_seeded_deal_gives_17_cards_each_and_a_3_card_kitty_of_54_distinct():
    hand = Hand.deal(seed=7)
    cards = [c for h in hand.holdings for c in h] + hand.kitty
    assert [hand.cards_left(s) for s in range(3)] == [17, 17, 17]
    assert len(hand.kitty) == 3
    assert len(set(cards)) == 54


def test_same_seed_deals_the_same_cards_and_first_bidder():
    a, b = Hand.deal(seed=123), Hand.deal(seed=123)
    assert a == b
    assert Hand.deal(seed=124).holdings != a.holdings


def test_unseeded_deal_stores_its_seed_so_it_can_be_replayed():
    hand = Hand.deal()
    assert hand.seed is not None
    assert Hand.deal(seed=hand.seed) == hand


def test_fixed_deal_assigns_distinct_suits_across_hands_and_kitty():
    hand = Hand.deal(
        hands=["33334444555566667", "77788889999TTTTJJ", "JJQQQQKKKKAAAA222"],
        kitty="2XD",
        first_bidder=1,
    )
    assert format_cards(hand.holdings[0]) == "33334444555566667"
    assert format_cards(hand.kitty) == "2XD"
    assert len({c for h in hand.holdings for c in h} | set(hand.kitty)) == 54
    assert hand.turn == 1


def test_fixed_deal_with_too_many_of_a_rank_is_refused():
    with pytest.raises(ValueError):
        Hand.deal(hands=["33333444455556666", "7" * 3, ""], kitty="")


def test_one_pass_pass_makes_the_first_bidder_landlord_with_base_1():
    hand = bids(Hand.deal(seed=1, first_bidder=2), 1, 0, 0)
    assert hand.phase == "playing"
    assert hand.landlord == 2
    assert hand.winning_bid == 1
    assert hand.turn == 2
    assert hand.cards_left(2) == 20
    assert set(hand.kitty) <= set(hand.holdings[2])


def test_pass_then_3_ends_bidding_at_once():
    hand = bids(Hand.deal(seed=1, first_bidder=0), 0, 3)
    assert hand.phase == "playing"
    assert hand.landlord == 1
    assert hand.winning_bid == 3
    assert hand.bids == [(0, 0), (1, 3)]


def test_two_pass_pass_makes_landlord_with_base_2():
    hand = bids(Hand.deal(seed=1, first_bidder=1), 2, 0, 0)
    assert (hand.landlord, hand.winning_bid) == (1, 2)


def test_once_variant_ends_after_three_decisions_with_the_highest_bidder():
    hand = bids(Hand.deal(seed=3, first_bidder=0), 1, 2, 0)
    assert (hand.phase, hand.landlord, hand.winning_bid) == ("playing", 1, 2)


def test_all_pass_asks_for_a_redeal_with_the_next_first_bidder():
    hand = bids(Hand.deal(seed=5, first_bidder=2), 0, 0, 0)
    assert hand.phase == "redeal"
    assert hand.turn is None
    again = hand.redeal()
    assert again.phase == "bidding"
    assert again.first_bidder == 0
    assert again.turn == 0
    assert again.redeals == 1
    assert again.holdings != hand.holdings
    assert hand.redeal() == again  # derived seed: deterministic


def test_redeal_before_all_passed_is_wrong_phase():
    with pytest.raises(GameError) as error:
        Hand.deal(seed=5).redeal()
    assert error.value.code == "wrong_phase"


def test_until_two_passes_lets_a_seat_raise_again():
    hand = bids(Hand.deal(seed=1, first_bidder=0, rules=UNTIL), 1, 2, 0)
    assert hand.phase == "bidding"
    assert hand.turn == 0
    bids(hand, 3)
    assert (hand.landlord, hand.winning_bid) == (0, 3)


def test_until_two_passes_ends_after_two_passes_following_the_last_bid():
    hand = bids(Hand.deal(seed=1, first_bidder=0, rules=UNTIL), 1, 0, 2)
    assert hand.phase == "bidding"
    bids(hand, 0)
    assert hand.phase == "bidding"
    bids(hand, 0)
    assert (hand.phase, hand.landlord, hand.winning_bid) == ("playing", 2, 2)


def test_until_two_passes_one_pass_pass_ends_like_once():
    hand = bids(Hand.deal(seed=1, first_bidder=1, rules=UNTIL), 1, 0, 0)
    assert (hand.landlord, hand.winning_bid) == (1, 1)


def test_until_two_passes_all_pass_redeals():
    hand = bids(Hand.deal(seed=1, first_bidder=1, rules=UNTIL), 0, 0, 0)
    assert hand.phase == "redeal"
    assert hand.redeal().first_bidder == 2


def test_allowed_bids_are_pass_and_amounts_above_the_highest():
    hand = bids(Hand.deal(seed=1, first_bidder=0), 1)
    assert hand.allowed_bids(1) == [0, 2, 3]
    assert hand.allowed_bids(0) == []


def test_pass_turn_while_bidding_is_a_pass_bid():
    hand = Hand.deal(seed=1, first_bidder=0)
    hand.pass_turn(0)
    assert hand.bids == [(0, 0)]


def test_observation_hides_the_kitty_until_the_landlord_takes_it():
    hand = Hand.deal(seed=9, first_bidder=0)
    assert hand.observation(1).kitty is None
    bids(hand, 3)
    obs = hand.observation(1)
    assert obs.kitty == tuple(hand.kitty)
    assert obs.landlord == 0
    assert obs.hand == tuple(hand.holdings[1])
    assert obs.cards_left == (20, 17, 17)
    assert obs.bids == ((0, 3),)
