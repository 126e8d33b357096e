"""Every refused action raises its stable code and changes nothing (compared as JSON)."""

from collections.abc import Callable

import pytest

from bot.game import CODES, GameError, Hand
from bot.rules import parse_cards
from tests.support.deals import make_deal


def bidding() -> Hand:
    hand = Hand.deal(seed=11, first_bidder=0)
    hand.bid(0, 2)
    return hand


def playing() -> Hand:
    """Landlord 0 led a single 4; seat 1 (holding X and 33) must beat it."""
    hand = make_deal("45 6789TJQKA 2222 78", "X 33")
    hand.bid(0, 1), hand.bid(1, 0), hand.bid(2, 0)
    hand.play(0, "4")
    return hand


def leading() -> Hand:
    hand = make_deal("45 6789TJQKA 2222 78")
    hand.bid(0, 3)
    return hand


CASES: list[tuple[str, Callable[[], Hand], Callable[[Hand], object], str]] = [
    ("bid out of turn", bidding, lambda h: h.bid(2, 3), "not_your_turn"),
    ("bid equal to highest", bidding, lambda h: h.bid(1, 2), "bid_too_low"),
    ("bid below highest", bidding, lambda h: h.bid(1, 1), "bid_too_low"),
    ("bid of 4", bidding, lambda h: h.bid(1, 4), "invalid_bid"),
    ("negative bid", bidding, lambda h: h.bid(1, -1), "invalid_bid"),
    ("bid from seat 3", bidding, lambda h: h.bid(3, 3), "bad_seat"),
    ("play while bidding", bidding, lambda h: h.play(1, "3"), "wrong_phase"),
    ("bid while playing", playing, lambda h: h.bid(1, 3), "wrong_phase"),
    ("play out of turn", playing, lambda h: h.play(2, "5"), "not_your_turn"),
    ("pass out of turn", playing, lambda h: h.pass_turn(0), "not_your_turn"),
    ("cards not in hand", playing, lambda h: h.play(1, "D"), "cards_not_in_hand"),
    ("foreign Card objects", playing, lambda h: h.play(1, parse_cards("D")), "cards_not_in_hand"),
    ("bad token", playing, lambda h: h.play(1, "3Z"), "bad_cards"),
    ("empty selection", playing, lambda h: h.play(1, ""), "no_cards"),
    ("not a combination", leading, lambda h: h.play(0, "47"), "not_a_combination"),
    ("does not beat", playing, lambda h: h.play(1, "3"), "does_not_beat"),
    ("wrong kind", playing, lambda h: h.play(1, "33"), "does_not_beat"),
    ("bad reading index", playing, lambda h: h.play(1, "X", reading=1), "bad_reading"),
    ("pass on a free lead", leading, lambda h: h.pass_turn(0), "cannot_pass_lead"),
    ("redeal while playing", playing, lambda h: h.redeal(), "wrong_phase"),
]


@pytest.mark.parametrize(("name", "make", "action", "code"), CASES, ids=[c[0] for c in CASES])
def test_refused_action_raises_its_code_and_changes_nothing(name, make, action, code):
    hand = make()
    before = hand.model_dump_json()
    with pytest.raises(GameError) as error:
        action(hand)
    assert error.value.code == code
    assert code in CODES
    assert hand.model_dump_json() == before


def test_playing_after_the_hand_finished_is_wrong_phase():
    hand = make_deal("3", "2 56789TJQKA 666777")
    hand.bid(0, 1), hand.bid(1, 0), hand.bid(2, 0)
    for move in ("3", "2", None, None, "56789TJQKA", None, None, "666777"):
        hand.pass_turn(hand.turn) if move is None else hand.play(hand.turn, move)
    before = hand.model_dump_json()
    with pytest.raises(GameError) as error:
        hand.pass_turn(0)
    assert error.value.code == "wrong_phase"
    assert hand.model_dump_json() == before


def test_errors_carry_params_for_messages():
    with pytest.raises(GameError) as error:
        bidding().bid(1, 1)
    assert error.value.params == {"amount": 1, "highest": 2}
