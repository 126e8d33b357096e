"""The endgame puzzles' values (docs/RULES.md §Puzzles): what its service, store and
Discord side exchange (pure pydantic, no I/O), beside the core's ``bot.values``. Every
model serializes to JSON and loads back equal."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class PuzzleAttempt(BaseModel):
    """A member's attempt at an endgame puzzle (docs/RULES.md §Puzzles).

    ``mode``: ``"daily"`` (the server's puzzle of ``day``, once per member and day) or
    ``"practice"``; ``day``: the server's calendar day it began. ``line``: the actions
    so far (JSON, written by ``bot.features.puzzles.service``); ``plies``: how many; ``moves``: the
    member's own. ``finished_at`` is None while it is played; then ``solved`` tells the
    result. ``rating``: the member's puzzle rating once the attempt was rated. Times in
    clock seconds.
    """

    model_config = ConfigDict(frozen=True)

    attempt_id: str
    guild_id: int
    user_id: int
    name: str | None = None
    puzzle_id: str
    mode: Literal["daily", "practice"]
    day: str
    started_at: float
    finished_at: float | None = None
    solved: bool = False
    line: str = "[]"
    plies: int = 0
    moves: int = 0

    @property
    def finished(self) -> bool:
        return self.finished_at is not None


class PuzzleRating(BaseModel):
    """A Glicko-2 rating on the usual scale (docs/RULES.md §Puzzles): ``rating`` (1500 to
    begin), ``deviation`` (RD, 350 to begin), ``volatility`` (σ, 0.06 to begin), the
    attempts rated so far (``attempts``; ``solved`` of them) and, for a member, when the
    last of them finished (``rated_at``, Unix seconds; None for a puzzle or before the
    first), from which the deviation ages (docs/RATINGS.md §Puzzle ratings)."""

    model_config = ConfigDict(frozen=True)

    rating: float = 1500.0
    deviation: float = 350.0
    volatility: float = 0.06
    attempts: int = 0
    solved: int = 0
    rated_at: float | None = None


class PuzzleRow(BaseModel):
    """One line of a day's puzzle board: place (solved first, then fewer moves, then the
    earlier finish), the attempt and the member's streaks of daily puzzles solved."""

    model_config = ConfigDict(frozen=True)

    place: int
    attempt: PuzzleAttempt
    streak: int = 0
    best_streak: int = 0


class PuzzleBoard(BaseModel):
    """The board of one day's puzzle (``/ddz puzzle`` board), best first."""

    model_config = ConfigDict(frozen=True)

    day: str
    puzzle_id: str | None = None
    rows: list[PuzzleRow] = Field(default_factory=list)


class PuzzleSummary(BaseModel):
    """A member's puzzles in a server (``/ddz stats``): their puzzle rating (None before
    any rated attempt), daily puzzles solved and the current and best streaks of them."""

    model_config = ConfigDict(frozen=True)

    rating: PuzzleRating | None = None
    daily_solved: int = 0
    streak: int = 0
    best_streak: int = 0
