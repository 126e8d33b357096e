"""A hand under the Happy rules, action by action (docs/RULES.md §Happy rules)."""

from __future__ import annotations

import pickle

import pytest

from bot.game import GameError, Table
from bot.game.happy import HappyHand, HappyResult
from bot.game.replay import replay
from bot.game.variants import hand_type, load_hand
from bot.rules import DEFAULT_RULES, RuleSet

HAPPY = RuleSet(variant="happy")
HANDS = ["45TTJQQKKKAA222XD", "3333444555666789J", "6777888999TTJJQQK"]
KITTY = "AA2"


def dealt(rules: RuleSet = HAPPY, first: int = 0) -> HappyHand:
    hand = HappyHand.deal(rules, hands=HANDS, kitty=KITTY, first_bidder=first)
    assert isinstance(hand, HappyHand)
    return hand


def test_the_registry_gives_each_rule_set_its_hand_class() -> None:
    assert hand_type(DEFAULT_RULES).__name__ == "Hand"
    assert hand_type(HAPPY) is HappyHand
    assert pickle.loads(pickle.dumps(HAPPY)) == HAPPY
    assert RuleSet.model_validate_json(HAPPY.model_dump_json()) == HAPPY
    with pytest.raises(ValueError):
        RuleSet(variant="happy", cap=50)
    assert RuleSet(variant="happy", cap=None).cap is None


def test_docs_example_whole_hand_grabs_show_doubles_bomb_anti_spring_and_cap() -> None:
    hand = dealt()
    hand.call(0, True)
    hand.grab(1, True)
    hand.grab(2, False)
    hand.grab(0, True)
    assert (hand.phase, hand.landlord, hand.grab_factor, hand.turn) == ("showing", 0, 4, 0)
    assert len(hand.holdings[0]) == 20 and hand.winning_bid == 1
    hand.show(0)
    assert (hand.phase, hand.show_factor, hand.shown, hand.turn) == ("doubling", 2, [0], None)
    hand.double(1, 1)
    hand.double(0, 2)
    hand.double(2, 4)
    assert (hand.phase, hand.turn, hand.multiplier) == ("playing", 0, 8)
    hand.play(0, "4")
    hand.play(1, "3333")
    assert hand.multiplier == 16
    hand.pass_turn(2)
    hand.pass_turn(0)
    hand.play(1, "444555666789")
    hand.pass_turn(2)
    hand.pass_turn(0)
    hand.play(1, "J")
    result = hand.result
    assert isinstance(result, HappyResult)
    assert (result.winner, result.anti_spring, result.doublings) == ("peasants", True, 2)
    assert (result.grab, result.show, result.doubles) == (4, 2, (2, 1, 4))
    assert result.raw == (0, 64, 256) and result.stakes == (0, 64, 64)
    assert result.points == (-128, 64, 64)
    assert result.stake(2).capped and not result.stake(1).capped
    assert load_hand(hand.model_dump_json()) == hand
    assert replay(hand)[-1].kind == "result"


def test_without_a_cap_the_same_hand_pays_the_whole_product() -> None:
    hand = dealt(RuleSet(variant="happy", cap=None))
    for act in (lambda: hand.call(0, True), lambda: hand.grab(1, True),
                lambda: hand.grab(2, False), lambda: hand.grab(0, True),
                lambda: hand.show(0), lambda: hand.double(0, 2), lambda: hand.double(1, 1),
                lambda: hand.double(2, 4)):
        act()
    for seat, cards in ((0, "4"), (1, "3333"), (2, None), (0, None), (1, "444555666789"),
                        (2, None), (0, None), (1, "J")):
        hand.play(seat, cards) if cards else hand.pass_turn(seat)
    assert hand.result is not None and hand.result.points == (-320, 64, 256)


def test_a_show_at_the_deal_is_x4_and_its_seat_speaks_first() -> None:
    hand = dealt(first=0)
    hand.show(2)
    assert (hand.turn, hand.opener, hand.show_factor, hand.shown) == (2, 2, 4, [2])
    hand.show(0)  # a second show at the deal: S stays 4, seat 2 still speaks first
    assert (hand.turn, hand.show_factor, hand.shown) == (2, 4, [0, 2])
    with pytest.raises(GameError) as refused:
        hand.show(2)
    assert refused.value.code == "wrong_phase"
    hand.call(2, True)
    with pytest.raises(GameError):  # no show at the deal once someone spoke
        hand.show(1)
    hand.grab(0, False)
    hand.grab(1, False)
    # The landlord's hand is already shown (and S is 4): straight to doubling.
    assert (hand.phase, hand.landlord, hand.grab_factor) == ("doubling", 2, 1)


def test_a_peasant_cannot_show_after_the_kitty_nor_anyone_once_doubling() -> None:
    hand = dealt()
    hand.call(0, True)
    hand.grab(1, False)
    hand.grab(2, False)
    assert (hand.phase, hand.turn) == ("showing", 0)
    with pytest.raises(GameError) as refused:
        hand.show(1)
    assert refused.value.code == "not_your_turn"
    assert hand.may_show(0) and not hand.may_show(1)
    hand.keep_hidden(0)
    assert (hand.phase, hand.show_factor, hand.shown) == ("doubling", 1, [])
    with pytest.raises(GameError) as refused:
        hand.show(0)
    assert refused.value.code == "wrong_phase"


def test_grab_out_of_turn_and_by_a_seat_that_declined_is_refused() -> None:
    hand = dealt(first=0)
    with pytest.raises(GameError) as refused:
        hand.grab(0, True)  # nobody called yet
    assert refused.value.code == "wrong_phase"
    hand.call(0, False)
    hand.call(1, True)
    before = hand.model_dump_json()
    with pytest.raises(GameError) as refused:
        hand.grab(0, True)  # said Don't call: never grabs
    assert refused.value.code == "not_your_turn"
    with pytest.raises(GameError):
        hand.call(2, True)  # a call once someone called
    assert hand.model_dump_json() == before
    hand.bid(2, 1)  # the bid button: a grab now
    assert [a.kind for a in hand.history] == ["call", "call", "grab"]
    with pytest.raises(GameError) as refused:
        hand.bid(1, 2)
    assert refused.value.code == "invalid_bid"


def test_doubling_is_simultaneous_once_each_and_the_timer_counts_x1() -> None:
    hand = dealt()
    hand.call(0, True)
    hand.grab(1, False)
    hand.grab(2, False)
    hand.pass_turn(0)  # does not show
    hand.double(2, 4)
    with pytest.raises(GameError) as refused:
        hand.double(2, 2)  # a second choice
    assert refused.value.code == "wrong_phase"
    with pytest.raises(GameError) as refused:
        hand.double(1, 3)
    assert refused.value.code == "invalid_bid"
    timed_out = hand.end_doubling()
    assert [(a.seat, a.amount, a.auto) for a in timed_out] == [(0, 1, True), (1, 1, True)]
    assert (hand.phase, hand.turn, hand.doubles) == ("playing", 0, (1, 1, 4))
    with pytest.raises(GameError) as refused:
        hand.double(0, 2)  # after the timer
    assert refused.value.code == "wrong_phase"


def test_nobody_calls_redeals_and_the_next_seat_starts() -> None:
    hand = dealt(first=1)
    for seat in (1, 2, 0):
        hand.call(seat, False)
    assert hand.phase == "redeal"
    again = hand.redeal()
    assert isinstance(again, HappyHand)
    assert (again.first_bidder, again.turn, again.redeals) == (2, 2, 1)


def test_a_happy_table_deals_happy_hands_and_stores_them_as_such() -> None:
    table = Table.open(1, 2, 10, "Ana", computers=2, rules=HAPPY)
    table.start(10, 0.0, seed=5)
    assert isinstance(table.hand, HappyHand)
    again = Table.model_validate_json(table.model_dump_json())
    assert isinstance(again.hand, HappyHand) and again == table
    classic = Table.open(1, 2, 10, "Ana", computers=2)
    classic.start(10, 0.0, seed=5)
    assert type(Table.model_validate_json(classic.model_dump_json()).hand).__name__ == "Hand"


def test_the_daily_deal_stays_classic_on_a_happy_server() -> None:
    from bot.features.daily.rules import daily_table

    happy = RuleSet(variant="happy", deal="no-shuffle", kickers="distinct")
    table, _ = daily_table(1, 10, "Ana", "en", day="2026-12-06", seed=5, level="normal",
                           rules=happy, turn_seconds=60.0, now=0.0)
    assert type(table.hand).__name__ == "Hand" and table.hand is not None
    assert table.hand.landlord == 0 and table.rules.kickers == "distinct"
    assert (table.rules.variant, table.rules.deal) == ("classic", "shuffled")


def test_a_shown_hand_is_seen_by_the_card_counter_of_the_others() -> None:
    hand = dealt()
    hand.show(2)  # at the deal: 6777888999TTJJQQK face up
    mine = hand.observation(0)
    assert sorted(c.code for c in mine.shown) == sorted(c.code for c in hand.holdings[2])
    assert mine.still_out()[4] == 4 - 3 - 0  # the three 7s of seat 2 are seen: one left
    assert hand.observation(2).shown == ()
    again = pickle.loads(pickle.dumps(mine))
    assert again == mine and again.shown == mine.shown and again.still_out() == mine.still_out()
    assert dealt().observation(0).shown == ()  # nothing shown: the classic observation
