"""Glicko-2 (bot.features.puzzles.glicko2) on Glickman's example and on puzzle attempts."""

from __future__ import annotations

import pytest

from bot.features.puzzles.glicko2 import (
    DEFAULT_RATING,
    MAX_RD,
    MIN_RD,
    Glicko2Rating,
    age,
    expected_score,
    idle_periods,
    rate_attempt,
    update,
)


def test_glickmans_reference_example() -> None:
    # "Example of the Glicko-2 system" (Glickman, 2013): r' = 1464.06, RD' = 151.52,
    # sigma' = 0.05999 (the paper rounds its intermediate values; exact arithmetic
    # gives 1464.05).
    player = Glicko2Rating(1500.0, 200.0, 0.06)
    results = [
        (Glicko2Rating(1400.0, 30.0), 1.0),
        (Glicko2Rating(1550.0, 100.0), 0.0),
        (Glicko2Rating(1700.0, 300.0), 0.0),
    ]
    after = update(player, results)
    assert after.rating == pytest.approx(1464.06, abs=0.02)
    assert after.rd == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_no_game_only_widens_the_deviation() -> None:
    after = update(Glicko2Rating(1500.0, 200.0, 0.06), [])
    assert after.rating == 1500.0
    assert after.rd == pytest.approx(200.2714, abs=0.001)  # sqrt(200² + (0.06 × 173.7178)²)


def test_expected_score_is_a_half_between_equals() -> None:
    assert expected_score(DEFAULT_RATING, DEFAULT_RATING) == pytest.approx(0.5)
    assert expected_score(Glicko2Rating(1700.0, 50.0), Glicko2Rating(1500.0, 50.0)) > 0.7


def test_a_solved_puzzle_raises_the_member_and_lowers_the_puzzle() -> None:
    member, puzzle = DEFAULT_RATING, Glicko2Rating(1600.0, 100.0)
    new_member, new_puzzle = rate_attempt(member, puzzle, solved=True)
    assert new_member.rating > member.rating
    assert new_puzzle.rating < puzzle.rating
    assert new_member.rd < member.rd


def test_a_failed_puzzle_lowers_the_member_and_raises_the_puzzle() -> None:
    member, puzzle = Glicko2Rating(1500.0, 80.0), Glicko2Rating(1400.0, 100.0)
    new_member, new_puzzle = rate_attempt(member, puzzle, solved=False)
    assert new_member.rating < member.rating
    assert new_puzzle.rating > puzzle.rating


def test_deviation_never_falls_below_the_floor() -> None:
    member, puzzle = Glicko2Rating(1500.0, 50.0), Glicko2Rating(1500.0, 50.0)
    for _ in range(30):
        member, puzzle = rate_attempt(member, puzzle, solved=True)
    assert member.rd >= MIN_RD and puzzle.rd >= MIN_RD


def test_a_year_away_widens_the_deviation_as_glickos_periods_do() -> None:
    # Issue 48: a member at RD 118.6 away for a year came back at 118.6, so her next solve
    # moved her 2.5 points. Her next attempt falls in the 366th period after her last:
    # 364 periods without games, then Glickman's update adds the 365th sigma^2 itself.
    away = Glicko2Rating(1600.0, 118.6, 0.06)
    day = 86_400.0
    last, back = 1_764_590_400.0, 1_764_590_400.0 + 365 * day  # 2025-12-01 12:00, a year on
    assert idle_periods(last, back) == 364
    aged = age(away, idle_periods(last, back))
    assert aged.rd == pytest.approx(231.54, abs=0.01)  # sqrt(118.6² + 364 (0.06 × 173.7178)²)
    assert (aged.rating, aged.volatility) == (away.rating, away.volatility)
    puzzle = Glicko2Rating(1600.0, 100.0)
    stale, _ = rate_attempt(away, puzzle, solved=True)
    fresh, _ = rate_attempt(aged, puzzle, solved=True)
    # a solve against an equal puzzle: +35.1 at the stale deviation, +104.9 once aged
    assert stale.rating - away.rating == pytest.approx(35.14, abs=0.01)
    assert fresh.rating - away.rating == pytest.approx(104.94, abs=0.01)
    assert fresh.rd == pytest.approx(195.59, abs=0.01)


def test_idle_periods_are_whole_utc_days_between_the_two_days() -> None:
    noon = 1_764_590_400.0  # 2025-12-01 12:00 UTC
    assert idle_periods(noon, noon + 3600) == 0  # same day
    assert idle_periods(noon, noon + 13 * 3600) == 0  # 01:00 the next day: no day between
    assert idle_periods(noon, noon + 2 * 86_400) == 1
    assert idle_periods(noon + 5, noon) == 0  # a clock that went back ages nothing


def test_aging_keeps_the_floor_and_the_ceiling() -> None:
    settled = Glicko2Rating(1500.0, 30.0, 0.001)
    assert age(settled, 0) == settled
    assert age(settled, 1, min_rd=MIN_RD).rd == MIN_RD
    assert age(Glicko2Rating(1500.0, 200.0, 0.06), 100_000).rd == MAX_RD
