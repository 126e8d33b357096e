"""Bidding from an estimate of the hand's value (bot.ai.bidding, issue 16)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.ai import REASONS, Decision, Observation, bidding, choose_bid
from bot.ai.bidding import (
    MIN_WORLDS,
    hand_win_rate,
    hard_bid,
    hard_values,
    next_bidder,
    normal_bid,
    outcome,
)
from bot.ai.bidding_features import FEATURES, hand_features
from bot.ai.evaluate import counts_of
from bot.game.hand import Hand
from bot.i18n import t
from bot.rules import RuleSet, parse_cards
from tests.support.ai_builders import nth_hint
from tests.support.properties import examples

STRONG = "3 4 5 7 8 9 T J Q K A 2 2 2 2 X D"
WEAK = "3 3 4 4 5 6 7 8 8 9 T J J Q 5 9 K"


@pytest.fixture(autouse=True)
def uncapped(monkeypatch: pytest.MonkeyPatch) -> None:
    """Seeded hard bids are equal only when the wall-clock cap never cuts the sampling
    short; on a loaded machine it may (then fewer deals change the percentages)."""
    monkeypatch.setattr(bidding, "TIME_CAP", float("inf"))


def _bidding(hand: str, bids: tuple[tuple[int, int], ...] = (), seat: int = 0,
             variant: str = "once") -> Observation:
    return Observation(
        seat=seat, hand=tuple(parse_cards(hand)), phase="bidding",
        rules=RuleSet(bidding=variant), bids=bids,
        highest_bid=max((a for _, a in bids), default=0),
    )


def _features(hand: str) -> dict[str, float]:
    return dict(zip(FEATURES, hand_features(counts_of(parse_cards(hand))), strict=True))


def test_features_count_a_straight_as_one_play() -> None:
    features = _features("3 4 5 6 7 9 9")
    assert features["chain_saving"] == 4
    assert features["turns"] == 2


def test_features_count_the_rocket_as_a_bomb_and_trios_take_kickers() -> None:
    features = _features("3 3 3 4 4 4 5 6 2 2 X D")
    assert features["bombs"] == 1
    assert (features["trios"], features["pairs"], features["singles"]) == (2, 1, 2)
    assert features["turns"] == 3


@settings(max_examples=examples(60), deadline=None)
@given(
    first=st.integers(0, 2),
    amounts=st.lists(st.integers(0, 3), min_size=1, max_size=12),
    variant=st.sampled_from(["once", "until_two_passes"]),
)
def test_bidding_order_agrees_with_the_game_engine(
    first: int, amounts: list[int], variant: str
) -> None:
    hand = Hand.deal(RuleSet(bidding=variant), seed=first, first_bidder=first)
    bids: list[tuple[int, int]] = []
    for amount in amounts:
        if hand.phase != "bidding":
            break
        seat = hand.turn
        amount = amount if amount > hand.winning_bid else 0
        hand.bid(seat, amount)
        bids.append((seat, amount))
        expected = hand.turn if hand.phase == "bidding" else None
        assert next_bidder(bids, variant) == expected
    if hand.phase == "playing":
        assert outcome(bids) == (hand.landlord, hand.winning_bid)
    elif hand.phase == "redeal":
        assert outcome(bids) is None


def test_strong_hand_bids_three_at_every_level() -> None:
    for level in ("easy", "normal", "hard"):
        assert choose_bid(_bidding(STRONG), level, random.Random(1)).action == 3


def test_the_easy_levels_strong_hand_reason_names_no_missing_count() -> None:
    # It said "Strong hand ({n} control cards)" with no n among its params.
    decision = choose_bid(_bidding(STRONG), "easy", random.Random(1))
    assert decision.reason == "bid_strong_hand" and decision.params == {"bid": 3}
    assert decision.message() == "Strong hand: bid 3."
    assert t("reason.bid_strong_hand", "es", **decision.params) == "Mano fuerte: apuesta 3."


def test_weak_hand_has_a_low_estimated_win_rate_and_hard_passes() -> None:
    assert hand_win_rate(counts_of(parse_cards(WEAK))) < 0.35
    decision = hard_bid(_bidding(WEAK), random.Random(1))
    assert decision.action == 0
    assert decision.reason == "bid_pass_expected"
    assert set(decision.params) == {"n", "bid", "gain", "passing"}
    assert float(str(decision.params["passing"])) >= float(str(decision.params["gain"]))


def test_the_bid_hint_gives_the_expected_points_of_the_bid_and_of_passing() -> None:
    # Issue 48: "As landlord this hand should win about 42% of the time: bid 3" gave a
    # newcomer no reason to bid on a hand that loses more often than not. The search
    # compares expected points: here bidding 3 is (just) better than passing.
    decision = hard_bid(_bidding("33445556679TTJQAD"), random.Random(0))
    assert decision == Decision(3, "bid_expected", {"bid": 3, "n": 42, "gain": "-1.0",
                                                    "passing": "-1.0"})
    assert decision.message() == ("Bid 3: as landlord this hand should win about 42% of the"
                                  " time; expected points a hand: -1.0 if you bid 3, -1.0 if"
                                  " you pass.")


def test_hard_values_cover_exactly_the_allowed_bids() -> None:
    values, rate = hard_values(_bidding(STRONG, ((2, 1),)), random.Random(3), worlds=50)
    assert set(values) == {0, 2, 3}
    assert 0.8 < rate <= 1.0
    assert values[3] > values[2] > values[0]


def test_hard_bid_is_reproducible_with_a_seed() -> None:
    obs = _bidding("3 4 5 6 6 7 8 9 T J Q Q K A 2 2 X", ((1, 0),), seat=2)
    first = hard_values(obs, random.Random(9), worlds=80, time_cap=60.0)
    again = hard_values(obs, random.Random(9), worlds=80, time_cap=60.0)
    assert first == again


def test_the_time_cap_is_read_at_each_call(monkeypatch: pytest.MonkeyPatch) -> None:
    # It was bound as a default argument when the module loaded, so lifting it in a
    # test (or the hint's hard bid) changed nothing: no cap stops at MIN_WORLDS deals.
    obs = _bidding("3 4 5 6 6 7 8 9 T J Q Q K A 2 2 X", ((1, 0),), seat=2)
    monkeypatch.setattr(bidding, "TIME_CAP", 0.0)
    cut = hard_values(obs, random.Random(4))
    assert cut == hard_values(obs, random.Random(4), worlds=MIN_WORLDS, time_cap=60.0)
    assert cut != hard_values(obs, random.Random(4), worlds=MIN_WORLDS + 1, time_cap=60.0)
    assert hard_bid(obs, random.Random(4)) == hard_bid(obs, random.Random(4), MIN_WORLDS, 60.0)


def test_an_opponents_bid_lowers_the_estimate_of_our_hand() -> None:
    hand = "3 4 5 6 6 7 8 9 T J Q Q K A 2 2 X"
    _, after_pass = hard_values(_bidding(hand, ((1, 0),), seat=2), random.Random(5), 150, 60.0)
    _, after_bid = hard_values(_bidding(hand, ((1, 2),), seat=2), random.Random(5), 150, 60.0)
    assert after_bid < after_pass - 0.01


def test_until_two_passes_lets_a_seat_that_passed_raise_later() -> None:
    # Seat 0 passed, seat 1 bid 1, seat 2 bid 2: seat 0 may still bid 3.
    obs = _bidding(STRONG, ((0, 0), (1, 1), (2, 2)), seat=0, variant="until_two_passes")
    assert hard_bid(obs, random.Random(2)).action == 3


def test_normal_bid_names_its_estimated_win_rate() -> None:
    decision = normal_bid(_bidding(STRONG))
    assert decision.reason == "bid_win_rate"
    assert decision.params["bid"] == 3
    assert 80 <= int(decision.params["n"]) <= 100


def test_the_bidding_hint_is_the_hard_bid_with_its_reason() -> None:
    obs = _bidding("3 4 5 6 6 7 8 9 T J Q Q K A 2 2 X", ((1, 0),), seat=2)
    advice = nth_hint(obs, 0)
    assert advice == hard_bid(obs, random.Random(0))
    assert advice.reason in REASONS
    assert advice.action in (0, 1, 2, 3)
