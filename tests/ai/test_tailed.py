"""Tailed playouts (``evaluation="tailed"``, docs/AI.md §Learned evaluation, Fourth pass):
normal plays a sampled deal until ``TAIL_CARDS`` cards are left in all hands, then the
exact solver finishes it; the search stays a function of the position."""

from __future__ import annotations

import math
import random

import pytest

from benchmarks.search_regret import positions
from bot.ai import search
from bot.ai.endgame import Solver, ranks_of
from bot.ai.view import View


def _late_view() -> View:
    """The first peasant (seat 1) answering the landlord's pair of tens, with 11, 13 and 6
    cards left (a seeded normal game: ``search_regret``'s 63rd position of 6 games)."""
    view = list(positions(6))[62]
    assert view.cards_left == (11, 13, 6) and view.seat == 1 and view.landlord == 0
    assert view.last_seat == 0 and view.to_beat is not None
    assert [c.rank.symbol for c in view.to_beat.cards] == ["T", "T"]
    return view


def _tail_position(world: list[list], view: View, first: object) -> tuple:
    """Play ``first`` and then normal until ``TAIL_CARDS`` or fewer cards are left: the
    hands, the seat to move and the play to beat there (the helper repeats ``advance``'s
    walk one ply at a time)."""
    plies = 0
    while True:
        hands = [list(h) for h in world]
        after = search.advance(hands, view, first, plies)  # type: ignore[arg-type]
        assert not isinstance(after, bool)
        if sum(len(h) for h in hands) <= search.TAIL_CARDS:
            return hands, after[0], after[1]
        plies += 1


def test_a_tailed_playout_is_the_exact_solve_where_the_cards_fall_to_the_tail() -> None:
    view = _late_view()
    world = search.sample_world(view, random.Random(1))
    steps = [0]
    # normal's first choice is the pair of queens; on this deal normal's playout of it
    # loses for the landlord, while best play from the tail on wins: the tail changes the value
    first = search.normal_ranked(view)[0][1].combo
    assert first is not None and [c.rank.symbol for c in first.cards] == ["Q", "Q"]
    assert search.rollout([list(h) for h in world], view, first, [0]) is False
    tailed = search.rollout([list(h) for h in world], view, first, steps,
                            Solver(view.landlord, view.rules, search.TAIL_NODES))
    assert tailed is True
    hands, turn, last = _tail_position(world, view, first)
    assert [len(h) for h in hands] == [5, 5, 6]  # after the queens, 5-T and the landlord's 6-J
    fresh = Solver(view.landlord, view.rules, search.TAIL_NODES)
    assert fresh.solve((ranks_of(hands[0]), ranks_of(hands[1]), ranks_of(hands[2])),
                       turn, last) is True
    # the solve is charged by its nodes, not as the plies it replaced
    assert steps[0] >= search.TAIL_STEPS


SEARCHED = 4
"""Of the five positions, those the search really searches (the fifth has an obvious play)."""


def test_the_tailed_search_is_a_function_of_the_position(
        monkeypatch: pytest.MonkeyPatch) -> None:
    views = [v for v in list(positions(4))[:40:8] if sum(v.cards_left) > search.ENDGAME_CARDS]
    assert len(views) == 5
    first = [search.hard_search(v, random.Random(3), 1_000, time_cap=math.inf,
                                evaluation="tailed") for v in views]
    monkeypatch.setattr(search, "TIME_CAP", 0.0)  # a clock that has always run out
    again = [search.hard_search(v, random.Random(3), 1_000, time_cap=math.inf,
                                evaluation="tailed") for v in views]
    assert [s.rates for s in again] == [s.rates for s in first]
    searched = [(v, s) for v, s in zip(views, first, strict=True) if s.rates]
    assert len(searched) == SEARCHED
    for view, sampled in searched:
        assert sampled.decision.action in sampled.rates
        assert sampled.decision.combo is None or set(sampled.decision.combo.cards) <= set(view.hand)


def test_an_exhausted_tail_solve_lets_normal_play_on(monkeypatch: pytest.MonkeyPatch) -> None:
    view = _late_view()
    world = search.sample_world(view, random.Random(1))
    first = search.normal_ranked(view)[0][1].combo
    starved = Solver(view.landlord, view.rules, 0)  # no node at all: every solve gives up
    steps = [0]
    assert search.rollout([list(h) for h in world], view, first, steps, starved) is False
    plain = [0]
    search.rollout([list(h) for h in world], view, first, plain)
    assert steps[0] == plain[0] + search.TAIL_STEPS  # one attempt, then normal to the end
