"""Every decision is legal, over random seeded self-play games (issue 5 §Tests)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bot.ai.search as search
from bot.ai import REASONS, choose_bid, choose_play
from bot.ai.observation import Observation
from bot.ai.selfplay import deal, play_hand
from bot.rules import RuleSet, parse_cards
from tests.support.ai_builders import nth_hint
from tests.support.properties import examples


@pytest.fixture(autouse=True)
def small_search_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(search, "STEP_BUDGET", 150)


def _agent(level: str):
    return lambda obs, rng: choose_play(obs, level, rng)


@settings(max_examples=examples(25), deadline=None)
@given(
    seed=st.integers(0, 10**6),
    levels=st.tuples(*[st.sampled_from(["easy", "normal"])] * 3),
    landlord=st.integers(0, 2),
    distinct=st.booleans(),
)
def test_every_play_decision_is_legal(
    seed: int, levels: tuple[str, str, str], landlord: int, distinct: bool
) -> None:
    rules = RuleSet(kickers="distinct" if distinct else "default")
    hands, kitty = deal(random.Random(seed))
    outcome = play_hand(
        [_agent(lv) for lv in levels], hands, landlord, kitty, random.Random(seed), rules=rules
    )
    assert sum(outcome.points) == 0
    assert all(d.reason in REASONS for _, d in outcome.decisions)


@settings(max_examples=examples(3), deadline=None)
@given(seed=st.integers(0, 10**6))
def test_every_hard_decision_is_legal(seed: int) -> None:
    hands, kitty = deal(random.Random(seed))
    agents = [_agent("hard"), _agent("normal"), _agent("hard")]
    outcome = play_hand(agents, hands, seed % 3, kitty, random.Random(seed))
    assert sum(outcome.points) == 0


@settings(max_examples=examples(10), deadline=None)
@given(seed=st.integers(0, 10**6), n=st.integers(0, 5))
def test_hints_are_legal_plays_of_the_hand(seed: int, n: int) -> None:
    hands, kitty = deal(random.Random(seed))
    seen: list[Observation] = []

    def record(obs: Observation, rng: random.Random):
        seen.append(obs)
        return choose_play(obs, "normal", rng)

    play_hand([record, record, record], hands, 0, kitty, random.Random(seed))
    from bot.rules import legal_plays

    for obs in seen[:: max(1, len(seen) // 4)]:
        decision = nth_hint(obs, n)
        if decision.action is None:
            assert obs.last_play is not None
        else:
            assert decision.action in legal_plays(obs.hand, obs.to_beat, obs.rules)


@settings(max_examples=examples(50), deadline=None)
@given(
    seed=st.integers(0, 10**6),
    highest=st.integers(0, 2),
    level=st.sampled_from(["easy", "normal", "hard"]),
)
def test_bids_are_pass_or_above_the_highest(seed: int, highest: int, level: str) -> None:
    hand, _ = deal(random.Random(seed))
    obs = Observation(seat=0, hand=tuple(hand[0]), phase="bidding", highest_bid=highest)
    decision = choose_bid(obs, level, random.Random(seed))
    assert decision.action == 0 or highest < decision.action <= 3  # type: ignore[operator]


def test_same_seed_gives_same_game() -> None:
    hands, kitty = deal(random.Random(11))
    runs = [
        play_hand([_agent("easy")] * 3, hands, 1, kitty, random.Random(11)).history
        for _ in range(2)
    ]
    assert runs[0] == runs[1]


def test_rocket_and_twos_hand_bids_three() -> None:
    obs = Observation(
        seat=1,
        hand=tuple(parse_cards("3 4 5 7 8 9 T J Q K A 2 2 2 2 X D")),
        phase="bidding",
        cards_left=(17, 17, 17),
    )
    assert choose_bid(obs, "normal").action == 3


def test_weak_hand_passes() -> None:
    obs = Observation(
        seat=1,
        hand=tuple(parse_cards("3 3 4 5 6 8 8 9 T J J Q 4 5 7 9 K")),
        phase="bidding",
        cards_left=(17, 17, 17),
    )
    assert choose_bid(obs, "normal").action == 0
