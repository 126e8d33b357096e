"""The hard search's fifth-pass options (docs/AI.md §Learned evaluation, Fifth pass): an
opponent model in the playouts (``opponent_error``: the searching side's opponents play one
of normal's next-best actions at that rate) and a wider root (``width``); both keep the
fixed-budget search a function of the position."""

from __future__ import annotations

import math
import random

import pytest

from benchmarks.search_regret import positions
from bot.ai import search
from bot.ai.policy import scored_actions
from bot.ai.view import View


def _views(games: int) -> list[View]:
    return [v for v in positions(games) if sum(v.cards_left) > search.ENDGAME_CARDS]


def test_an_erring_opponent_plays_one_of_normals_next_best_actions_never_its_best() -> None:
    view = next(v for v in _views(4) if len({c for _, c in scored_actions(v)}) >= 4)
    ranked = sorted(scored_actions(view), key=lambda sc: -sc[0])
    best = ranked[0][1]
    assert ranked[0][0] < 100
    assert search.normal_action(view) == best
    drawn = {search.erring_action(view, random.Random(seed)) for seed in range(40)}
    distinct = list(dict.fromkeys(c for _, c in ranked[1:] if c != best))
    assert drawn == set(distinct[:search.OPPONENT_CHOICES - 1])  # both next-best, each drawn
    assert best not in drawn


def test_no_opponent_misses_a_finish_or_a_certain_win() -> None:
    view = next(v for v in _views(8) if max(s for s, _ in scored_actions(v)) >= 100)
    best = search.normal_action(view)
    assert {search.erring_action(view, random.Random(seed)) for seed in range(10)} == {best}


def test_a_playout_with_no_erring_seat_is_normals_playout() -> None:
    view = _views(4)[3]
    world = search.sample_world(view, random.Random(5))
    first = search.normal_action(view)
    plain, quiet = [0], [0]
    won = search.rollout([list(h) for h in world], view, first, plain)
    none_err = search.Errors(random.Random(1), 1.0, frozenset())
    assert search.rollout([list(h) for h in world], view, first, quiet, None, none_err) is won
    assert quiet == plain


def test_erring_opponents_change_some_playouts() -> None:
    view = _views(4)[3]
    first = search.normal_action(view)
    changed = 0
    for seed in range(20):
        world = search.sample_world(view, random.Random(seed))
        plain = search.rollout([list(h) for h in world], view, first, [0])
        errors = search.Errors(random.Random(seed), 1.0, frozenset(view.opponents()))
        changed += search.rollout([list(h) for h in world], view, first, [0], None,
                                  errors) is not plain
    assert changed > 0


@pytest.mark.parametrize("options", [{"opponent_error": 0.15}, {"width": 8},
                                     {"width": 8, "opponent_error": 0.15}])
def test_the_fifth_pass_searches_are_a_function_of_the_position(
        monkeypatch: pytest.MonkeyPatch, options: dict) -> None:
    views = _views(4)[:40:8]
    first = [search.hard_search(v, random.Random(3), 1_000, time_cap=math.inf, **options)
             for v in views]
    monkeypatch.setattr(search, "TIME_CAP", 0.0)  # a clock that has always run out
    again = [search.hard_search(v, random.Random(3), 1_000, time_cap=math.inf, **options)
             for v in views]
    assert [s.rates for s in again] == [s.rates for s in first]
    assert [s.decision for s in again] == [s.decision for s in first]
    assert any(s.rates for s in first)


def test_a_wider_root_samples_more_of_normals_actions() -> None:
    view = next(v for v in _views(4)
                if len({c for _, c in scored_actions(v)}) >= 10 and v.to_beat is None)
    narrow = search.hard_search(view, random.Random(3), 1_000, time_cap=math.inf)
    wide = search.hard_search(view, random.Random(3), 1_000, time_cap=math.inf, width=8)
    assert len(narrow.rates) == search.CANDIDATES
    assert len(wide.rates) == 8


def test_the_arena_names_the_fifth_pass_searches() -> None:
    from benchmarks.arena import make_agent

    for name in ("hardwidefixed", "hardoppfixed", "hardwideoppfixed", "hardopp30fixed",
                 "hardoppfixed@500"):
        assert make_agent(name) is not None
