"""The shipped puzzles: ``Puzzle`` records and the data file they load from.

``bot/features/puzzles/data/puzzles.json`` is written by ``python -m bot.features.puzzles build``
(``bot.features.puzzles.generate``) and re-proved by tests/puzzles/test_shipped.py
(docs/AI.md §Puzzles). What a puzzle is: docs/RULES.md §Puzzles.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict

from bot.features.puzzles.position import Move, Position, Role, legal_moves

GENERATOR_VERSION = "1"
"""Version of the generator (``bot.features.puzzles.generate``) that wrote the data file; a
change of the selection or of the depth rule bumps it."""
DATA_FILE = Path(__file__).resolve().parent / "data" / "puzzles.json"
"""The shipped puzzles (package data, pyproject.toml)."""


class Puzzle(BaseModel):
    """One sound puzzle (docs/RULES.md §Puzzles).

    * ``id``: stable (``puzzle_id`` of the position), e.g. ``"p3f9a01c2d4"``.
    * ``hands``: 2 or 3 hands in seat order, docs/RULES.md notation (``"334XD"``).
    * ``landlord``: the landlord's seat; ``turn``: the seat to move, the member's.
    * ``to_beat``: (seat that made it, cards) of the play to beat, or None (free lead).
    * ``member_seat`` (= ``turn``) and ``member_role``: a peasant member has the
      other peasant as a computer partner.
    * ``depth``: plies of the shortest forced win (every turn, a pass too, is a ply).
    * ``solution``: the cards of the only winning first move (every reading of them
      wins), or ``""`` when the only winning first move is the pass.
    * ``line``: the game under best play from the start, one entry per ply (cards,
      ``""`` for a pass); ``len(line) == depth``, ``line[0] == solution``.
    * ``rating``: the puzzle's initial rating (Glicko scale); ``generator``: version.
    """

    model_config = ConfigDict(frozen=True)

    id: str
    hands: tuple[str, ...]
    landlord: int
    turn: int
    to_beat: tuple[int, str] | None
    member_seat: int
    member_role: Role
    depth: int
    solution: str
    line: tuple[str, ...]
    rating: int
    generator: str

    def position(self) -> Position:
        """The starting position (canonical suits)."""
        return Position.from_text(self.hands, self.landlord, self.turn, self.to_beat)

    def solution_move(self) -> Move:
        """The winning first move: a play of ``position()`` (its first reading), or None
        when it is the pass (``solution == ""``)."""
        if self.solution == "":
            return None
        for move in legal_moves(self.position()):
            if move is not None and move.notation == self.solution:
                return move
        raise ValueError(f"puzzle {self.id}: its solution is not a legal play")

    def cards_in_play(self) -> int:
        """The number of cards in all hands."""
        return sum(len(hand) for hand in self.hands)


def puzzle_id(hands: Sequence[str], landlord: int, turn: int,
              to_beat: tuple[int, str] | None) -> str:
    """The stable id of a position: ``"p"`` + 10 hex digits of its SHA-1."""
    beat = "-" if to_beat is None else f"{to_beat[0]}:{to_beat[1]}"
    text = f"{'/'.join(hands)}|{landlord}|{turn}|{beat}"
    return "p" + hashlib.sha1(text.encode()).hexdigest()[:10]


def read_puzzles(path: Path) -> list[Puzzle]:
    """The puzzles of a data file (``{"generator": …, "puzzles": [...]}``), by id.
    Raises ValueError (pydantic's ValidationError) for a malformed file."""
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    puzzles = [Puzzle.model_validate(item) for item in data["puzzles"]]
    return sorted(puzzles, key=lambda p: p.id)


@functools.cache
def _shipped() -> tuple[Puzzle, ...]:
    return tuple(read_puzzles(DATA_FILE))


def load_puzzles() -> list[Puzzle]:
    """Every shipped puzzle, ordered by id (read once per process)."""
    return list(_shipped())


@functools.cache
def _by_id() -> dict[str, Puzzle]:
    return {p.id: p for p in _shipped()}


def puzzle_by_id(puzzle_id: str) -> Puzzle | None:
    """The shipped puzzle with this id, or None."""
    return _by_id().get(puzzle_id)


def write_puzzles(path: Path, puzzles: Sequence[Puzzle]) -> None:
    """Write a data file: the generator version and the puzzles by id, one per line."""
    rows = [json.dumps(p.model_dump(mode="json"), ensure_ascii=False, separators=(",", ":"))
            for p in sorted(puzzles, key=lambda p: p.id)]
    body = ",\n".join(rows)
    text = f'{{"generator": "{GENERATOR_VERSION}", "puzzles": [\n{body}\n]}}\n'
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


