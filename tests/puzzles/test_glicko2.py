"""Glicko-2 (bot.puzzles.glicko2) on Glickman's example and on puzzle attempts."""

from __future__ import annotations

import pytest

from bot.puzzles.glicko2 import (
    DEFAULT_RATING,
    MIN_RD,
    Glicko2Rating,
    expected_score,
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
