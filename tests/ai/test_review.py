"""A review sees only what the member saw at each decision (docs/AI.md).

Tested like tests/ai/test_observation.py: every Card reachable from the observation
a review is built from is the member's own, the public kitty, or already played;
and hiding the other seats' cards differently (same counts, same public facts)
changes nothing in the review.
"""

from __future__ import annotations

import random

import pytest

from bot.ai import bidding, choose_bid, choose_play, search
from bot.ai.review import assess, is_choice
from bot.ai.search import hard_play, hard_search
from bot.ai.view import view_of
from bot.game import Hand
from bot.game.replay import position_before
from bot.game.selfplay import seeded_hand
from bot.rules import Card, RuleSet
from bot.service.reviews import own_decisions, review_decision
from tests.support.ai_builders import combo, playing
from tests.support.reachable import _cards_reachable


def _hand(seed: int, rules: RuleSet = RuleSet()) -> Hand:
    rng = random.Random(seed)
    # easy bids rarely open with 3, so every seat usually gets a bid decision
    return seeded_hand(seed, lambda o: choose_bid(o, "easy", rng).action,
                       lambda o: choose_play(o, "normal", rng).action, rules)


def _visible(hand: Hand, index: int, seat: int) -> set[Card]:
    """What ``seat`` could see before history entry ``index``."""
    position = position_before(hand, index)
    seen = set(position.holdings[seat])
    seen |= {c for a in hand.history[:index] for c in a.cards}
    if position.landlord is not None:
        seen |= set(hand.kitty)
    return seen


def _rehidden(hand: Hand, index: int, seat: int, rng: random.Random) -> Hand:
    """``hand`` cut after entry ``index`` with the cards ``seat`` could not see then
    dealt differently between the other seats (and the kitty while still hidden)."""
    position = position_before(hand, index)
    played = [{c for a in hand.history[:index] if a.seat == s for c in a.cards} for s in range(3)]
    revealed = position.landlord is not None
    others = [s for s in range(3) if s != seat]
    kitty = set(hand.kitty)
    unseen = {s: [c for c in position.holdings[s] if not (revealed and c in kitty)]
              for s in others}
    pool = [c for s in others for c in unseen[s]] + ([] if revealed else list(hand.kitty))
    rng.shuffle(pool)
    dealt = [list(h) for h in hand.dealt]
    for s in others:
        keep = set(dealt[s]) - set(unseen[s])  # played already, or kitty cards (not in dealt)
        dealt[s] = sorted(keep | set(pool[: len(unseen[s])]))
        del pool[: len(unseen[s])]
        assert played[s] <= set(dealt[s]) | (kitty if s == position.landlord else set())
    new_kitty = list(hand.kitty) if revealed else sorted(pool)
    return hand.model_copy(update={"dealt": dealt, "kitty": new_kitty,
                                   "history": hand.history[: index + 1]}, deep=True)


@pytest.fixture
def uncapped(monkeypatch: pytest.MonkeyPatch) -> None:
    # Equal seeds give equal reviews only when the wall clock never cuts a search, the
    # bid's included (its own 0.5 s cap cut it under a loaded run: 59 % against 60 %).
    monkeypatch.setattr(search, "TIME_CAP", float("inf"))
    monkeypatch.setattr(bidding, "TIME_CAP", float("inf"))
    monkeypatch.setattr(search, "STEP_BUDGET", 300)


@pytest.mark.parametrize("seed", [4, 11])
def test_review_observations_hold_only_cards_the_member_could_see(seed: int) -> None:
    hand = _hand(seed)
    for seat in range(3):
        for index in own_decisions(hand.model_dump_json(), seat):
            obs = position_before(hand, index).observation(seat)
            assert _cards_reachable(obs) <= _visible(hand, index, seat), (seat, index)


@pytest.mark.parametrize("seed", [4, 11])
def test_review_is_unchanged_when_the_hidden_cards_lie_elsewhere(seed: int, uncapped: None) -> None:
    hand = _hand(seed, RuleSet(kickers="distinct") if seed % 2 else RuleSet())
    rng = random.Random(seed)
    seat = hand.landlord if seed % 2 else (hand.landlord + 1) % 3  # type: ignore[operator]
    decisions = own_decisions(hand.model_dump_json(), seat)
    assert any(hand.history[i].kind == "bid" for i in decisions)
    assert sum(hand.history[i].kind != "bid" for i in decisions) >= 3
    changed = 0
    for index in decisions:
        other = _rehidden(hand, index, seat, rng)
        changed += other.dealt != hand.dealt
        mine = review_decision(hand.model_dump_json(), seat, index, f"h:{index}")
        theirs = review_decision(other.model_dump_json(), seat, index, f"h:{index}")
        assert mine == theirs, index
    assert changed >= len(decisions) - 1  # the hidden cards really moved


def test_member_action_is_sampled_on_the_same_deals_as_the_hard_choice(uncapped: None) -> None:
    # Landlord leads with 3 4 5 5 K K A A 2 against two 5-card peasants.
    obs = playing(0, "3455KKAA2", landlord=0, cards_left=(9, 5, 5))
    best = assess(obs, combo("3"), random.Random(1)).best
    weak = combo("2") if best != combo("2") else combo("A")  # a top single thrown away
    result = assess(obs, weak, random.Random(1))
    assert result.kind == "play" and result.played == weak
    assert result.best == best and not result.agrees
    assert 0.0 <= result.played_win <= 1.0 and 0.0 <= result.best_win <= 1.0  # type: ignore[operator]
    assert result.worlds > 0 and result.loss == max(0.0, result.best_win - result.played_win)  # type: ignore[operator]


def test_forced_pass_is_no_decision_and_a_bid_always_is() -> None:
    forced = playing(1, "34", landlord=0, cards_left=(18, 2, 17), last=(0, "22"))
    assert not is_choice(forced)
    assert is_choice(playing(1, "34", landlord=0, cards_left=(18, 2, 17), last=(0, "3")))
    bidding = position_before(_hand(4), 0).observation(_hand(4).first_bidder)
    assert bidding.phase == "bidding" and is_choice(bidding)
    assessment = assess(bidding, 0, random.Random(0))
    assert assessment.kind == "bid" and assessment.best in (0, 1, 2, 3)
    assert assessment.played_win is None and assessment.loss == 0.0


@pytest.mark.parametrize("seed", [2, 7])
def test_sampling_the_members_action_leaves_the_hard_choice_unchanged(
    seed: int, uncapped: None
) -> None:
    hand = _hand(seed)
    checked = 0
    for index, action in enumerate(hand.history):
        if action.kind == "bid":
            continue
        obs = position_before(hand, index).observation(action.seat)
        if not is_choice(obs):
            continue
        view = view_of(obs)
        alone = hard_play(view, random.Random(index))
        sampled = hard_search(view, random.Random(index), also=action.combo)
        assert sampled.decision == alone, index
        assert action.combo == alone.action or action.combo in sampled.rates
        checked += 1
    assert checked >= 10
