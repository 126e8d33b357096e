"""The computers' Happy decisions (docs/AI.md §Happy rules): from the hand's strength and,
at the hard level, from what the seat has seen (shown hands, the kitty, the grabs)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from bot.ai.bidding import landlord_win_rate
from bot.ai.bidding_features import hand_features, hand_features_batch
from bot.ai.evaluate import counts_of
from bot.ai.happy import NORMAL, choose_happy, estimate, happy_decision, strength
from bot.ai.search import sample_world
from bot.ai.view import view_of
from bot.game.computer import decide
from bot.game.hand import Hand
from bot.game.happy import HappyHand
from bot.game.models import ShowThen
from bot.game.table import Table
from bot.rules import DECK, DEFAULT_RULES, RuleSet, parse_cards

STRONG = parse_cards("3333 5555 789TJQKA 2 X D".replace(" ", ""))
WEAK = parse_cards("34456789TJQ345678")
MONSTER = parse_cards("333355557777222XD")


def test_a_strong_hand_calls_grabs_and_super_doubles_and_only_a_monster_shows() -> None:
    assert 0.85 < strength(STRONG) < NORMAL.show_deal
    assert [happy_decision(kind, STRONG, False) for kind in ("call", "grab", "show", "double")] \
        == [1, 1, 0, 4]
    assert happy_decision("show", STRONG, True) == 0
    assert happy_decision("double", STRONG, True) == 4
    assert strength(MONSTER) > NORMAL.show_deal  # four bombs and the rocket's half
    assert happy_decision("show", MONSTER, False) == 4
    assert happy_decision("show", MONSTER, True) == 2


def test_a_weak_hand_declines_everything() -> None:
    assert strength(WEAK) < 0.3
    assert [happy_decision(kind, WEAK, False) for kind in ("call", "grab", "show", "double")] \
        == [0, 0, 0, 1]
    assert happy_decision("show", WEAK, True) == 0


def test_no_other_decision() -> None:
    with pytest.raises(ValueError):
        happy_decision("bid", WEAK, False)


# ----- what the computers see: shown hands, the kitty, the grabs (issue 52) -----------

HAPPY = RuleSet(variant="happy")
HANDS = ["45TTJQQKKKAA222XD", "3333444555666789J", "6777888999TTJJQQK"]
KITTY = "AA2"


def dealt(first: int = 0, rules: RuleSet = HAPPY) -> HappyHand:
    hand = HappyHand.deal(rules, hands=HANDS, kitty=KITTY, first_bidder=first)
    assert isinstance(hand, HappyHand)
    return hand


def test_the_batch_features_are_the_scalar_ones() -> None:
    rng = random.Random(52)
    rows = [counts_of(rng.sample(list(DECK), rng.choice([5, 12, 17, 20]))) for _ in range(3000)]
    batch = hand_features_batch(np.array(rows))
    assert batch.tolist() == [hand_features(row) for row in rows]


def test_the_sampler_deals_the_unseen_cards_around_a_shown_hand() -> None:
    hand = dealt()
    hand.show(2)  # at the deal, ×4: seat 2 speaks first
    hand.call(2, False)
    hand.call(0, True)
    hand.grab(1, False)  # seat 0 is the landlord; S = 4: no show after the kitty
    for seat in range(3):
        hand.double(seat, 1)
    hand.play(0, "4")
    obs = hand.observation(1)
    assert obs.happy is not None and obs.happy.face_up == ((2, tuple(hand.holdings[2])),)
    view = view_of(obs)
    assert view.face_up == ((2, tuple(hand.holdings[2])),)
    rng = random.Random(1)
    landlord_cards = set(hand.holdings[0])
    for _ in range(50):
        world = sample_world(view, rng)
        assert sorted(world[2]) == sorted(hand.holdings[2])  # known, never dealt elsewhere
        assert sorted(world[0]) == sorted(landlord_cards)  # the only cards left for it
    # the landlord's view: seat 2 known, seat 1's 17 cards the only ones left to deal
    view0 = view_of(hand.observation(0))
    world = sample_world(view0, random.Random(2))
    assert sorted(world[2]) == sorted(hand.holdings[2])
    assert sorted(world[1]) == sorted(hand.holdings[1])


def test_a_classic_view_has_no_hand_face_up() -> None:
    hand = Hand.deal(DEFAULT_RULES, hands=HANDS, kitty=KITTY, first_bidder=0)
    hand.bid(0, 3)
    obs = hand.observation(1)
    assert obs.happy is None and view_of(obs).face_up == ()
    assert view_of(obs).landlord_known == tuple(sorted(hand.kitty))


def test_with_every_other_hand_face_up_the_estimate_is_the_exact_deal() -> None:
    hand = dealt()
    hand.show(1)
    hand.show(2)
    hand.call(1, False)
    hand.call(2, True)
    hand.grab(0, False)  # seat 2 is the landlord; S = 4
    obs = hand.observation(0)
    assert obs.happy is not None and [s for s, _ in obs.happy.face_up] == [1, 2]
    exact = 1.0 - landlord_win_rate(*(hand_features(counts_of(hand.holdings[s]))
                                      for s in (2, 0, 1)))
    for seed in (1, 2):
        assert estimate(obs, random.Random(seed)) == pytest.approx(exact)


def test_a_regrab_makes_a_peasant_expect_a_stronger_landlord() -> None:
    for seed in range(1, 6):
        called = HappyHand.deal(HAPPY, seed=seed, first_bidder=1)
        called.call(1, True)
        called.grab(2, False)
        called.grab(0, False)  # seat 1 called, nobody grabbed
        grabbed = HappyHand.deal(HAPPY, seed=seed, first_bidder=1)
        grabbed.call(1, True)
        grabbed.grab(2, True)
        grabbed.grab(0, False)
        grabbed.grab(1, True)  # seat 1 called and grabbed back from seat 2: G = 4
        assert (called.landlord, grabbed.landlord, grabbed.grab_factor) == (1, 1, 4)
        quiet = estimate(called.observation(2), random.Random(7))
        loud = estimate(grabbed.observation(2), random.Random(7))
        assert loud < quiet - 0.01, (seed, quiet, loud)


def test_hard_decides_from_what_it_has_seen_and_never_doubles_past_the_cap() -> None:
    capped = dealt(rules=RuleSet(variant="happy", cap=32))
    capped.show(0)  # S = 4
    capped.call(0, True)
    capped.grab(1, True)
    capped.grab(2, True)
    capped.grab(0, True)  # G = 8: G·S = 32 = the cap
    assert capped.phase == "doubling" and capped.multiplier == 32
    for seat in range(3):
        obs = capped.observation(seat)
        assert choose_happy(obs, "double", "hard") == 1
        assert choose_happy(obs, "double", "normal") == 1
    strong = dealt()
    obs = strong.observation(0)
    assert choose_happy(obs, "call", "hard") == 1 and choose_happy(obs, "show", "hard") == 0
    assert choose_happy(strong.observation(1), "grab", "hard") == 0
    # the same position, the same answer (a function of the position: the daily deal)
    assert len({choose_happy(obs, "call", "hard", random.Random(3)) for _ in range(3)}) == 1


def test_a_computer_first_to_speak_starts_with_its_hand_face_up() -> None:
    table = Table.open(1, 2, 10, "Ana", computers=2, level="hard", rules=HAPPY)
    table.start(10, 0.0, hands=["4444666688889999T", "333355557777222XD", "TTTJJJJQQQQKKKKAA"],
                kitty=KITTY, first_bidder=1)
    action = decide(table, random.Random(1))
    assert action == ShowThen(1)
    events = table.auto_act(action, 1.0)
    assert [e.kind for e in events][:2] == ["show", "call"]
    hand = table.hand
    assert isinstance(hand, HappyHand)
    assert (hand.shows, hand.opener, hand.auction.caller) == ((0, 4, 0), 1, 1)
