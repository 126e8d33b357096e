"""Endgame puzzles (残局): positions with every hand face up, solved exactly.

Pure (no discord, asyncio or storage). docs/RULES.md §Puzzles says what a puzzle
is; docs/AI.md §Puzzles how the solver proves each one.
"""

from bot.puzzles.model import GENERATOR_VERSION, Puzzle, load_puzzles, puzzle_by_id
from bot.puzzles.position import (
    Move,
    Position,
    Role,
    Team,
    apply,
    is_over,
    legal_moves,
    team_of,
    winner,
)
from bot.puzzles.solver import (
    Outcome,
    Solver,
    best_defence,
    best_move,
    is_winning_move,
    principal_line,
    refutation,
    solve,
    winning_moves,
)

__all__ = [
    "GENERATOR_VERSION",
    "Move",
    "Outcome",
    "Position",
    "Puzzle",
    "Role",
    "Solver",
    "Team",
    "apply",
    "best_defence",
    "best_move",
    "is_over",
    "is_winning_move",
    "legal_moves",
    "load_puzzles",
    "principal_line",
    "puzzle_by_id",
    "refutation",
    "solve",
    "team_of",
    "winner",
    "winning_moves",
]
