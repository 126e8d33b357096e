"""Hands serialize to JSON and load back to an equal state (issue 3)."""

from bot.game import Hand
from bot.rules import ComboKind
from tests.support.deals import make_deal


def roundtrip(hand: Hand) -> Hand:
    return Hand.model_validate_json(hand.model_dump_json())


def test_a_fresh_deal_round_trips():
    hand = Hand.deal(seed=42)
    assert roundtrip(hand) == hand


def test_a_hand_in_play_round_trips_with_combos_rebuilt():
    hand = make_deal("333444555666")
    hand.bid(0, 3)
    hand.play(0, "333444555666", reading=2)
    again = roundtrip(hand)
    assert again == hand
    assert again.to_beat.kind is ComboKind.AIRPLANE_SINGLES
    assert again.to_beat.reading == hand.to_beat.reading
    assert again.history[-1].cards == hand.history[-1].cards
    assert again.model_dump_json() == hand.model_dump_json()


def test_a_finished_hand_round_trips_with_its_result():
    hand = make_deal("3", "2 56789TJQKA 666777")
    hand.bid(0, 1), hand.bid(1, 0), hand.bid(2, 0)
    for move in ("3", "2", None, None, "56789TJQKA", None, None, "666777"):
        hand.pass_turn(hand.turn) if move is None else hand.play(hand.turn, move)
    again = roundtrip(hand)
    assert again == hand
    assert again.result.points == (-4, 2, 2)


def test_cards_are_stored_as_codes():
    hands = ["3333444455556666X", "777788889999TTTTD", "JJJJQQQQKKKKAAAA2"]
    hand = Hand.deal(hands=hands, first_bidder=0)
    data = hand.model_dump(mode="json")
    assert data["holdings"][0][:4] == ["3s", "3h", "3d", "3c"]
    assert data["holdings"][0][-1] == "X"
