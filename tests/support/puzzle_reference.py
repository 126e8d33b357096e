"""A plain reference for the puzzle solver's tests: full minimax, no pruning, no bounds.

Computes every position's exact value (winning team, plies under best play: the
winner shortest, the loser longest) straight from ``legal_moves``/``apply``, so the
solver's bounded proofs and transposition table are checked against the definition
(docs/AI.md §Puzzles). Exponential: small positions only.
"""

from __future__ import annotations

from bot.features.puzzles.position import (
    Move,
    Position,
    Team,
    apply,
    is_over,
    legal_moves,
    team_of,
    winner,
)

Key = tuple[object, ...]


def _key(pos: Position) -> Key:
    last = None if pos.last is None else (pos.last[0], pos.last[1].reading, len(pos.last[1].ranks))
    return (tuple(tuple(c.rank_index for c in h) for h in pos.hands), pos.turn, last)


class Reference:
    """Memoized full minimax over positions."""

    def __init__(self) -> None:
        self.memo: dict[Key, tuple[Team, int]] = {}

    def value(self, pos: Position) -> tuple[Team, int]:
        """(winning team, plies) with best play."""
        key = _key(pos)
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        if is_over(pos):
            won = winner(pos)
            assert won is not None
            result: tuple[Team, int] = (won, 0)
        else:
            result = max((self._child(pos, m) for m in legal_moves(pos)),
                         key=lambda v: self._score(pos, v))
            result = (result[0], result[1] + 1)
        self.memo[key] = result
        return result

    def _child(self, pos: Position, move: Move) -> tuple[Team, int]:
        return self.value(apply(pos, move))

    @staticmethod
    def _score(pos: Position, value: tuple[Team, int]) -> tuple[int, int]:
        """How much the mover likes a child's value: a win (shorter better), else a
        loss (longer better)."""
        team, plies = value
        return (1, -plies) if team == team_of(pos, pos.turn) else (0, plies)

    def move_values(self, pos: Position) -> list[tuple[Move, tuple[Team, int]]]:
        """Each legal move with the value of the position after it."""
        return [(m, self._child(pos, m)) for m in legal_moves(pos)]
