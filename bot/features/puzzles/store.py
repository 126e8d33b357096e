"""The puzzles wing's store: the endgame puzzles' rows (docs/RULES.md §Puzzles): attempts, ratings, marks, over the repository's transactions
(``Repository.transaction``, ``reading``, ``writing``; bot/features/contract.py). Its SQL
steps are ``queries.py``'s (beside it); its tables are still created by the core's migrations.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.features.puzzles import queries as puzzles
from bot.features.puzzles.values import PuzzleAttempt, PuzzleRating
from bot.storage.repository import ForgetStep, Repository
from bot.storage.sql import Sql


class PuzzleStore:
    """The endgame puzzles' rows (docs/RULES.md §Puzzles): attempts, ratings, marks. Each method commits on return (the writes) or reads."""

    def __init__(self, storage: Repository) -> None:
        self.storage = storage

    async def begin_puzzle(self, attempt: PuzzleAttempt) -> bool:
        """Store a new attempt (committed); False when it is a daily one and the member
        has an attempt of that day already."""
        return await self.storage.transaction(lambda db: puzzles.begin(db, attempt))

    async def puzzle_attempt(self, attempt_id: str) -> PuzzleAttempt | None:
        """The attempt with this id, or None."""
        async with self.storage.reading() as db:
            return await puzzles.attempt(db, attempt_id)

    async def open_puzzle_attempt(self, guild_id: int, user_id: int, mode: str
                                  ) -> PuzzleAttempt | None:
        """The member's unfinished attempt of ``mode`` (``daily``, ``practice``), or None."""
        async with self.storage.reading() as db:
            return await puzzles.open_attempt(db, guild_id, user_id, mode)

    async def daily_puzzle_attempt(self, guild_id: int, day: str, user_id: int
                                   ) -> PuzzleAttempt | None:
        """The member's attempt at the daily puzzle of ``day`` (or its mark), or None."""
        async with self.storage.reading() as db:
            return await puzzles.daily_attempt(db, guild_id, day, user_id)

    async def advance_puzzle(self, attempt_id: str, plies: int, line: str, new_plies: int,
                             moves: int) -> bool:
        """Write an attempt's longer line over the one of ``plies`` actions (committed);
        False when another action came first or it is finished."""
        return await self.storage.transaction(
            lambda db: puzzles.advance(db, attempt_id, plies, line, new_plies, moves))

    async def finish_puzzle(self, before: PuzzleAttempt, after: PuzzleAttempt,
                            member: PuzzleRating, puzzle: PuzzleRating) -> bool:
        """Record an attempt's result and both new ratings in one commit, once; False when
        the attempt moved on or was finished meanwhile (nothing written)."""
        return await self.storage.transaction(
            lambda db: puzzles.finish(db, before, after, member, puzzle))

    async def puzzle_member_rating(self, guild_id: int, user_id: int) -> PuzzleRating | None:
        """The member's puzzle rating in the server, or None before any rated attempt."""
        async with self.storage.reading() as db:
            return await puzzles.member_rating(db, guild_id, user_id)

    async def puzzle_ratings(self) -> dict[str, PuzzleRating]:
        """Every attempted puzzle's stored rating, by puzzle id."""
        async with self.storage.reading() as db:
            return await puzzles.puzzle_ratings(db)

    async def solved_puzzles(self, guild_id: int, user_id: int) -> set[str]:
        """The ids of the puzzles the member solved in the server."""
        async with self.storage.reading() as db:
            return await puzzles.solved_ids(db, guild_id, user_id)

    async def daily_puzzle_finished(self, guild_id: int, day: str) -> list[PuzzleAttempt]:
        """Every finished attempt at the daily puzzle of ``day``."""
        async with self.storage.reading() as db:
            return await puzzles.daily_finished(db, guild_id, day)

    async def puzzle_solved_days(self, guild_id: int, user_ids: list[int]
                                 ) -> dict[int, list[str]]:
        """The days each member solved the daily puzzle."""
        async with self.storage.reading() as db:
            return await puzzles.solved_days(db, guild_id, user_ids)

    async def drop_puzzle_marks(self, guild_id: int, before: str) -> int:
        """Delete the daily-puzzle marks ``forget_user`` kept of days before ``before``."""
        return await self.storage.transaction(lambda db: puzzles.drop_marks(db, guild_id, before))

    def forget_step(self, guild_id: int | None, user_id: int,
                    marks: Sequence[tuple[str, int]] = ()) -> ForgetStep:
        """Its part of ``/ddz forget`` (``Repository.forget_user``): each (day, mark) kept as
        an attempt at that day's puzzle with no member (``guild_id`` only): no second
        attempt, after deleting the member's attempts and rating (``puzzles.forget_rows``)."""
        async def step(db: Sql, now: float) -> int:
            touched = await puzzles.forget_rows(db, guild_id, user_id)
            if guild_id is not None:
                for day, mark in marks:
                    await puzzles.mark_forgotten(db, guild_id, day, mark, now)
            return touched

        return step
