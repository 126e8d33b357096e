"""Inference of the unseen cards from the passes (bot/ai/inference.py, docs/AI.md §Inference)."""

from __future__ import annotations

import random

from bot.ai.inference import can_beat, follow_events, likelihood, weighted_world
from bot.ai.inference_weights import PASS_RATE
from bot.ai.search import sample_world
from bot.ai.view import view_of
from bot.rules import parse_cards
from fitting.fit_inference import FIRST_SEED, calibration
from tests.support.ai_builders import combo, playing


def counts(text: str) -> list[int]:
    out = [0] * 15
    for card in parse_cards(text):
        out[card.rank_index] += 1
    return out


def test_can_beat_grades_the_answer() -> None:
    assert can_beat(counts("3 4 5"), combo("9")) == 0
    assert can_beat(counts("3 4 2"), combo("9")) == 1  # only the 2: kept for control
    assert can_beat(counts("3 4 X"), combo("A")) == 1
    assert can_beat(counts("3 4 J"), combo("9")) == 2
    assert can_beat(counts("9 9 J"), combo("9 9")) == 0
    assert can_beat(counts("T T 2 2"), combo("9 9")) == 2
    assert can_beat(counts("2 2"), combo("9 9")) == 1
    assert can_beat(counts("8 9 T J Q K"), combo("3 4 5 6 7")) == 2
    assert can_beat(counts("8 9 T J Q"), combo("8 9 T J Q")) == 0
    assert can_beat(counts("Q K A 2"), combo("9 T J Q K")) == 0  # no chain reaches the 2


def test_only_passes_on_an_opponent_play_count() -> None:
    # Seat 0 is the landlord. Seat 1 passes on the landlord's 5 (informative); seat 2
    # passes on its partner's 9 (the partnership's pass: not counted); seat 0 passes on 9.
    history = ((0, "5"), (1, None), (2, "9"), (0, None), (1, None), (2, "3"), (0, "6"))
    obs = playing(1, "4 4", landlord=0, cards_left=(10, 2, 10), history=history)
    events = follow_events(obs.history, 0, me=2)
    assert [(seat, kind, is_landlord) for seat, kind, is_landlord, _, _ in events] == [
        (1, "single", False), (0, "single", True)]
    # The landlord's later 6 is given back to its hand at the time of its pass.
    assert events[1][4][combo("6").ranks[0]] == 1
    assert follow_events(obs.history, 0, me=1)[0][0] == 0  # our own passes say nothing new


def test_likelihood_prefers_deals_where_the_passer_could_not_beat() -> None:
    history = ((0, "K"), (1, None))
    events = follow_events(tuple((s, None if c is None else combo(c)) for s, c in history),
                           0, me=2)
    low = [list(parse_cards("3 4 5")), list(parse_cards("6 7 8")), []]
    high = [list(parse_cards("3 4 5")), list(parse_cards("6 7 A")), []]
    assert likelihood(low, events) == PASS_RATE[(False, "single", 0)]
    assert likelihood(high, events) == PASS_RATE[(False, "single", 2)]
    assert PASS_RATE[(False, "single", 2)] < 0.2 < 0.9 < PASS_RATE[(False, "single", 0)]


def test_weighted_world_is_consistent_and_seeded() -> None:
    obs = playing(2, "3 3 4 5 6", landlord=0, cards_left=(6, 5, 5),
                  history=((0, "K"), (1, None), (2, "A"), (0, None), (1, None)))
    view = view_of(obs)
    events = follow_events(obs.history, 0, me=2)
    worlds = [weighted_world(view, random.Random(7), sample_world, events) for _ in range(2)]
    assert worlds[0] == worlds[1]
    world = worlds[0]
    assert [len(h) for h in world] == [6, 5, 5]
    dealt = world[0] + world[1]
    assert len(set(dealt)) == 11 and set(dealt) <= set(view.pool)
    assert world[2] == list(view.hand)


def test_inferred_deals_are_calibrated_better_than_uniform() -> None:
    # Held-out games (after the fitting's training seeds): "does the next seat hold this
    # card", estimated over the search's inferred deals against uniform consistent deals.
    uniform, inferred, n = calibration(FIRST_SEED + 5_000, 12, worlds=40)
    assert n > 500
    assert inferred < uniform - 0.002
