"""Choosing a practice puzzle near a rating (bot.features.puzzles.picker)."""

from __future__ import annotations

import random

from bot.features.puzzles.model import Puzzle
from bot.features.puzzles.picker import pick_near


def _puzzle(pid: str, rating: int) -> Puzzle:
    return Puzzle(id=pid, hands=("33", "4", "5"), landlord=0, turn=0, to_beat=None,
                  member_seat=0, member_role="landlord", depth=1, solution="33",
                  line=("33",), rating=rating, generator="1")


PUZZLES = [_puzzle("a", 1000), _puzzle("b", 1300), _puzzle("c", 1350), _puzzle("d", 1800)]


def test_picks_the_nearest_rating() -> None:
    assert pick_near(PUZZLES, 1790).id == "d"
    assert pick_near(PUZZLES, 900).id == "a"


def test_skips_solved_puzzles_and_gives_none_when_all_are() -> None:
    assert pick_near(PUZZLES, 1790, exclude={"d"}).id in {"b", "c"}
    assert pick_near(PUZZLES, 1500, exclude={"a", "b", "c", "d"}) is None


def test_random_pick_stays_within_the_window_of_the_nearest() -> None:
    rng = random.Random(1)
    picks = {pick_near(PUZZLES, 1320, rng=rng).id for _ in range(50)}
    assert picks == {"b", "c"}


def test_stored_ratings_replace_the_initial_ones() -> None:
    assert pick_near(PUZZLES, 1000, ratings={"a": 2000, "d": 1010}).id == "d"
