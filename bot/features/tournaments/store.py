"""The tournaments wing's store: the tournaments' rows (docs/RULES.md §Tournaments): tournaments, entrants, rounds, tables, hands, and their claims, over the repository's transactions
(``Repository.transaction``, ``reading``, ``writing``; bot/features/contract.py). Its SQL
steps are ``queries.py``'s (beside it); its tables are still created by the core's migrations.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.features.tournaments import queries as tournaments
from bot.features.tournaments.seating import TableSeats
from bot.features.tournaments.values import (
    JoinAnswer,
    LeaveAnswer,
    TournamentEntrant,
    TournamentHand,
    TournamentInfo,
    TournamentTable,
)
from bot.storage.repository import ForgetStep, Repository
from bot.storage.sql import Sql


class TournamentStore:
    """The tournaments' rows (docs/RULES.md §Tournaments): tournaments, entrants, rounds, tables, hands, and their claims. Each method commits on return (the writes) or reads."""

    def __init__(self, storage: Repository) -> None:
        self.storage = storage

    # Each method commits on return. The ones answering "True once" are the claims of
    # queries.py: True for exactly one caller, across restarts and
    # processes; a second call changes nothing.

    async def create_tournament(self, tournament: TournamentInfo) -> TournamentInfo | None:
        """Store a new tournament with the server's next number (returned as stored);
        None (nothing written) while the server has an open or running one."""
        return await self.storage.transaction(lambda db: tournaments.create(db, tournament))

    async def tournament(self, tournament_id: str) -> TournamentInfo | None:
        """The tournament with this id, or None."""
        async with self.storage.reading() as db:
            return await tournaments.get(db, tournament_id)

    async def tournament_by_number(self, guild_id: int, number: int) -> TournamentInfo | None:
        """The server's tournament number ``number`` (its web page), or None."""
        async with self.storage.reading() as db:
            return await tournaments.by_number(db, guild_id, number)

    async def current_tournament(self, guild_id: int) -> TournamentInfo | None:
        """The server's open or running tournament, else its latest, else None."""
        async with self.storage.reading() as db:
            return await tournaments.current(db, guild_id)

    async def live_tournaments(self) -> list[TournamentInfo]:
        """Every open or running tournament of every server, oldest first."""
        async with self.storage.reading() as db:
            return await tournaments.live(db)

    async def set_tournament_signup(self, tournament_id: str, message_id: int) -> None:
        """Remember the tournament's sign-up message."""
        await self.storage.transaction(lambda db: tournaments.set_signup(db, tournament_id,
                                                                  message_id))

    async def join_tournament(self, tournament_id: str, user_id: int, name: str,
                              now: float) -> JoinAnswer:
        """Enter the member: ``"joined"``, ``"already"``, ``"full"`` (``MAX_ENTRANTS``)
        or ``"closed"`` (not open)."""
        return await self.storage.transaction(
            lambda db: tournaments.join(db, tournament_id, user_id, name, now))

    async def leave_tournament(self, tournament_id: str, user_id: int, now: float
                               ) -> LeaveAnswer:
        """The member leaves: ``"left"`` (before the start: entry deleted),
        ``"withdrawn"`` (running: not seated again), ``"absent"`` or ``"closed"``."""
        return await self.storage.transaction(
            lambda db: tournaments.leave(db, tournament_id, user_id, now, "withdrawn"))

    async def drop_tournament_entrant(self, tournament_id: str, user_id: int, now: float
                                      ) -> LeaveAnswer:
        """The organiser takes the member out: as ``leave_tournament`` but ``"dropped"``
        while running."""
        return await self.storage.transaction(
            lambda db: tournaments.leave(db, tournament_id, user_id, now, "dropped"))

    async def tournament_entrants(self, tournament_id: str) -> list[TournamentEntrant]:
        """Every entrant (withdrawn and dropped too), in join order."""
        async with self.storage.reading() as db:
            return await tournaments.entrants(db, tournament_id)

    async def start_tournament(self, tournament_id: str, now: float) -> bool:
        """Open → running with at least ``MIN_ENTRANTS`` entrants; True once."""
        return await self.storage.transaction(lambda db: tournaments.start(db, tournament_id, now))

    async def seat_tournament_round(self, tournament_id: str, round_no: int,
                                    tables: Sequence[TableSeats], now: float) -> bool:
        """Store round ``round_no`` and its tables (``current_round`` becomes
        ``round_no``) while running, when round ``round_no - 1`` is the last seated;
        True once."""
        return await self.storage.transaction(
            lambda db: tournaments.seat_round(db, tournament_id, round_no, tables, now))

    async def claim_tournament_table(self, tournament_id: str, round_no: int, table_no: int,
                                     now: float) -> bool:
        """Mark the table opened (its thread made and its hand dealt by the caller);
        True once."""
        return await self.storage.transaction(
            lambda db: tournaments.claim_table(db, tournament_id, round_no, table_no, now))

    async def set_tournament_table(self, tournament_id: str, round_no: int, table_no: int,
                                   thread_id: int, table_id: str) -> None:
        """Remember the table's thread and game table."""
        await self.storage.transaction(lambda db: tournaments.set_table(
            db, tournament_id, round_no, table_no, thread_id, table_id))

    async def record_tournament_hand(self, tournament_id: str, hand: TournamentHand) -> bool:
        """Keep a settled hand of a tournament table; True once per (round, table, hand)."""
        return await self.storage.transaction(lambda db: tournaments.record_hand(db, tournament_id,
                                                                          hand))

    async def tournament_hands(self, tournament_id: str) -> list[TournamentHand]:
        """Every recorded hand of the tournament, by round, table and hand."""
        async with self.storage.reading() as db:
            return await tournaments.hands(db, tournament_id)

    async def finish_tournament_table(self, tournament_id: str, round_no: int,
                                      table_no: int, points: tuple[int, int, int],
                                      now: float) -> bool:
        """Record the table's result (points won per seat over the round); True once."""
        return await self.storage.transaction(lambda db: tournaments.finish_table(
            db, tournament_id, round_no, table_no, points, now))

    async def finish_tournament_round(self, tournament_id: str, round_no: int,
                                      now: float) -> bool:
        """Mark the round finished when every table of it is; True once."""
        return await self.storage.transaction(
            lambda db: tournaments.finish_round(db, tournament_id, round_no, now))

    async def tournament_rounds_finished(self, tournament_id: str) -> list[int]:
        """The rounds marked finished, in order."""
        async with self.storage.reading() as db:
            return await tournaments.rounds_finished(db, tournament_id)

    async def tournament_tables(self, tournament_id: str, round_no: int | None = None
                                ) -> list[TournamentTable]:
        """The tables of round ``round_no`` (None: every round), by round and table."""
        async with self.storage.reading() as db:
            return await tournaments.tables(db, tournament_id, round_no)

    async def tournament_table_of(self, table_id: str) -> TournamentTable | None:
        """The tournament table played by the game table ``table_id``, or None."""
        async with self.storage.reading() as db:
            return await tournaments.table_of(db, table_id)

    async def finish_tournament(self, tournament_id: str, now: float) -> bool:
        """Running → finished; True once."""
        return await self.storage.transaction(lambda db: tournaments.finish(db, tournament_id, now))

    async def cancel_tournament(self, tournament_id: str, now: float) -> bool:
        """Open or running → cancelled (what was played is kept); True once."""
        return await self.storage.transaction(lambda db: tournaments.cancel(db, tournament_id, now))

    async def claim_tournament_post(self, tournament_id: str, now: float) -> bool:
        """Claim the final post (standings, or the cancellation) of a finished or
        cancelled tournament, right before sending it; True once."""
        return await self.storage.transaction(
            lambda db: tournaments.claim_post(db, tournament_id, now))

    async def tournaments_of_user(self, guild_id: int, user_id: int) -> list[TournamentInfo]:
        """The server's finished or cancelled tournaments the member entered, oldest
        first (``/ddz stats``)."""
        async with self.storage.reading() as db:
            return await tournaments.of_user(db, guild_id, user_id)

    def forget_step(self, guild_id: int | None, user_id: int,
                    marks: Sequence[tuple[str, int]] = ()) -> ForgetStep:
        """Its part of ``/ddz forget`` (``Repository.forget_user``): an open tournament's
        entry goes, any other keeps the member's line under a stand-in id below 0 with no
        name (withdrawn first from a running one; ``queries.forget``); the
        tournaments the member organised keep ``NO_ORGANISER``."""
        async def step(db: Sql, now: float) -> int:
            return await tournaments.forget(db, guild_id, user_id, now)

        return step
