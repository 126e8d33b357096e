"""The hard search bounded by its budget alone (docs/AI.md §Fixed budget): the clock
changes nothing, so a daily table's computers answer a position the same way always."""

from __future__ import annotations

import math
import random

import pytest

from bot.ai import choose_play
from bot.ai.observation import Observation
from bot.ai.search import hard_play
from bot.ai.view import view_of
from bot.game.daily import daily_table
from bot.rules import DEFAULT_RULES


def positions(count: int) -> list:
    """Peasant seats' views after the landlord's lead, on ``count`` daily deals."""
    views = []
    for seed in range(count):
        table, _ = daily_table(1, 101, "Ana", "en", day="2026-12-01", seed=seed, level="hard",
                               rules=DEFAULT_RULES, turn_seconds=60, now=0.0)
        hand = table.hand
        assert hand is not None
        table.play(101, hand.legal_plays(0)[0].cards, 0.0)
        views.append(view_of(hand.observation(1)))
    return views


def test_a_fixed_budget_search_ignores_the_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    from bot.ai import search

    views = positions(6)
    unlimited = [hard_play(v, random.Random(5), time_cap=math.inf).action for v in views]
    monkeypatch.setattr(search, "TIME_CAP", 0.0)  # a clock that has always run out
    assert [hard_play(v, random.Random(5), time_cap=math.inf).action for v in views] == unlimited
    # the capped search does stop at once: without the fixed budget the answers differ
    cut = [hard_play(v, random.Random(5)).action for v in views]
    assert cut != unlimited


def test_choose_play_with_a_fixed_budget_is_the_uncapped_hard_play(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from bot.ai import search

    observations: list[Observation] = []
    for seed in range(3):
        table, _ = daily_table(1, 101, "Ana", "en", day="2026-12-01", seed=seed, level="hard",
                               rules=DEFAULT_RULES, turn_seconds=60, now=0.0)
        assert table.hand is not None
        table.play(101, table.hand.legal_plays(0)[0].cards, 0.0)
        observations.append(table.hand.observation(1))
    expected = [hard_play(view_of(o), random.Random(9), time_cap=math.inf).action
                for o in observations]
    monkeypatch.setattr(search, "TIME_CAP", 0.0)
    fixed = [choose_play(o, "hard", random.Random(9), fixed_budget=True).action
             for o in observations]
    assert fixed == expected
