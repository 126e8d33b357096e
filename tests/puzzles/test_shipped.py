"""Every shipped puzzle proved again (issue 39; docs/AI.md §Puzzles).

For each puzzle of ``bot/features/puzzles/data/puzzles.json``, with solvers of this test's own
(empty tables, not the process's shared ones): the side to move has a forced win; its
shortest forced win takes exactly ``depth`` plies; every legal first move is proved
one by one and only the stored solution's cards (or the pass, for ``""``) win; the
stored line is the game under best play, move by move. The puzzles of up to 10 cards
(more than half) are proved a second time by a plain full minimax that shares no code
with the solver beyond the rules (tests/support/puzzle_reference.py).
"""

from __future__ import annotations

from collections import Counter

import pytest

from bot.features.puzzles.generate import MAX_CARDS, MAX_DEPTH, MIN_CARDS
from bot.features.puzzles.model import (
    GENERATOR_VERSION,
    Puzzle,
    load_puzzles,
    puzzle_by_id,
    puzzle_id,
)
from bot.features.puzzles.position import apply, is_over, legal_moves, team_of, winner
from bot.features.puzzles.solver import INF, Solver
from tests.support.puzzle_reference import Reference

PUZZLES = load_puzzles()
REFERENCE_CARDS = 10
"""Puzzles of up to this many cards are also proved by the plain minimax (about 6 s)."""


@pytest.fixture(scope="module")
def solvers() -> dict[tuple[int, int], Solver]:
    return {}


def _solver(solvers: dict[tuple[int, int], Solver], puzzle: Puzzle) -> Solver:
    key = (len(puzzle.hands), puzzle.landlord)
    if key not in solvers:
        solvers[key] = Solver(*key)
    return solvers[key]


def test_at_least_500_puzzles_over_every_depth_from_1_to_9() -> None:
    assert len(PUZZLES) >= 500
    counts = Counter(p.depth for p in PUZZLES)
    assert sorted(counts) == list(range(1, MAX_DEPTH + 1))
    assert len({p.id for p in PUZZLES}) == len(PUZZLES)


def test_records_are_consistent() -> None:
    for p in PUZZLES:
        pos = p.position()
        assert p.generator == GENERATOR_VERSION
        assert p.id == puzzle_id(p.hands, p.landlord, p.turn, p.to_beat)
        assert puzzle_by_id(p.id) == p
        assert MIN_CARDS <= pos.cards_in_play() <= MAX_CARDS and all(pos.hands)
        assert p.member_seat == p.turn
        assert p.member_role == pos.role(p.turn)
        assert len(p.line) == p.depth and p.line[0] == p.solution
        assert ("" if p.solution_move() is None else p.solution_move().notation) == p.solution


@pytest.mark.parametrize("puzzle", PUZZLES, ids=[p.id for p in PUZZLES])
def test_puzzle_is_sound_unique_and_as_deep_as_stored(
    puzzle: Puzzle, solvers: dict[tuple[int, int], Solver]
) -> None:
    solver = _solver(solvers, puzzle)
    pos = puzzle.position()
    mover = solver.team[pos.turn]
    state = solver.state_of(pos)
    # A forced win, in exactly ``depth`` plies and not one fewer.
    assert solver.wins(state, mover, puzzle.depth)
    assert not solver.wins(state, mover, puzzle.depth - 1)
    # Every first move proved: only the solution's cards (or the pass) win.
    for move in legal_moves(pos):
        child = apply(pos, move)
        won = is_over(child) or solver.wins(solver.state_of(child), mover, INF)
        cards = "" if move is None else move.notation
        assert won == (cards == puzzle.solution), (puzzle.id, cards)
    # The stored line: legal, each move keeps the value (winner fastest, loser longest).
    for ply, cards in enumerate(puzzle.line):
        remaining = puzzle.depth - ply
        options = [m for m in legal_moves(pos) if ("" if m is None else m.notation) == cards]
        assert options, (puzzle.id, ply, cards)
        pos = apply(pos, options[0])
        if is_over(pos):
            assert remaining == 1
            assert winner(pos) == ("landlord" if mover == 0 else "peasants")
        else:
            after = solver.state_of(pos)
            assert solver.wins(after, mover, remaining - 1)
            assert not solver.wins(after, mover, remaining - 2)
    assert is_over(pos)


SMALL = [p for p in PUZZLES if p.cards_in_play() <= REFERENCE_CARDS]


def test_the_reference_checks_most_puzzles() -> None:
    assert len(SMALL) >= 250


@pytest.mark.parametrize("puzzle", SMALL, ids=[p.id for p in SMALL])
def test_plain_minimax_agrees(puzzle: Puzzle) -> None:
    """A second, independent proof: full minimax with no bounds and no shared table
    (tests/support/puzzle_reference.py), for every puzzle of up to REFERENCE_CARDS cards."""
    ref = Reference()
    pos = puzzle.position()
    mover = team_of(pos, pos.turn)
    assert ref.value(pos) == (mover, puzzle.depth)
    winning = {"" if m is None else m.notation for m, v in ref.move_values(pos) if v[0] == mover}
    assert winning == {puzzle.solution}
    for cards in puzzle.line:
        before = ref.value(pos)
        move = next(m for m in legal_moves(pos) if ("" if m is None else m.notation) == cards)
        pos = apply(pos, move)
        assert ref.value(pos) == (before[0], before[1] - 1)
