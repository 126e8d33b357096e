"""The puzzle generator (bot.features.puzzles.generate): what it keeps, and that it is reproducible."""

from __future__ import annotations

import itertools

from bot.features.puzzles.generate import build, initial_rating, prove, select, selfplay_positions
from bot.features.puzzles.position import Position


def test_a_sound_position_becomes_a_puzzle_with_its_solution_line_and_depth() -> None:
    puzzle = prove(Position.from_text(["3D", "K", "A"], landlord=0, turn=0))
    assert puzzle is not None
    assert (puzzle.solution, puzzle.depth, puzzle.line) == ("D", 4, ("D", "", "", "3"))
    assert puzzle.member_role == "landlord" and puzzle.member_seat == 0
    assert puzzle.to_beat is None
    assert puzzle.rating == initial_rating(4, 2) == 1320


def test_a_pass_can_be_the_only_winning_move() -> None:
    puzzle = prove(Position.from_text(["QQ", "3", "246"], landlord=0, turn=2, last=(1, "A")))
    assert puzzle is not None
    assert (puzzle.solution, puzzle.depth, puzzle.member_role) == ("", 3, "peasant")
    assert puzzle.to_beat == (1, "A")
    assert puzzle.solution_move() is None


def test_positions_with_two_winning_first_moves_are_not_puzzles() -> None:
    # The peasants hold a 3 each and can beat nothing: leading 4 or 5 first both win.
    assert prove(Position.from_text(["45", "3", "3"], landlord=0, turn=0)) is None


def test_a_lost_position_is_not_a_puzzle() -> None:
    # Whatever the landlord leads, seat 1 beats it with 7 and goes out.
    assert prove(Position.from_text(["35", "7", "6"], landlord=0, turn=0)) is None


def test_selection_spreads_over_depths_and_prefers_plays_to_passes() -> None:
    a = prove(Position.from_text(["3D", "K", "A"], landlord=0, turn=0))
    b = prove(Position.from_text(["QQ", "3", "246"], landlord=0, turn=2, last=(1, "A")))
    c = prove(Position.from_text(["33", "4", "5"], landlord=0, turn=0))
    assert a and b and c
    assert [p.id for p in select({1: [c], 3: [b], 4: [a]}, 2)] == [c.id, b.id]


def test_selfplay_positions_are_in_range_and_reproducible() -> None:
    first = [p.text() for p in itertools.islice(selfplay_positions(5), 40)]
    again = [p.text() for p in itertools.islice(selfplay_positions(5), 40)]
    assert first == again
    for pos in itertools.islice(selfplay_positions(5), 40):
        assert 4 <= pos.cards_in_play() <= 14 and all(pos.hands)


def test_build_is_reproducible() -> None:
    one = build(6, seed=7, max_positions=300)
    two = build(6, seed=7, max_positions=300)
    assert [p.model_dump() for p in one] == [p.model_dump() for p in two]
    assert one


def test_a_forced_move_is_no_puzzle() -> None:
    # Seat 0 cannot beat its partner's A: the pass is its only move.
    assert prove(Position.from_text(["569JQ", "6", "89TT2"], landlord=2, turn=0,
                                    last=(1, "A"))) is None
