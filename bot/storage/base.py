"""The Repository methods common to every SQL backend, over ``ops`` (shared SQL).

A backend subclasses ``SqlRepository`` and provides ``_read()`` (a connection for
reads) and ``_write()`` (one transaction: committed on exit, rolled back on error),
both async context managers yielding a ``Sql``; ``_transaction(step)`` runs one
``step(db)`` in one such transaction (a backend may run it faster: SQLite runs the
whole transaction in one hand-off to its connection thread). Spec:
docs/ARCHITECTURE.md §Where state lives, docs/RULES.md §Match.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from typing import TypeVar

from bot.game.outcome import outcome_of
from bot.game.table import Table
from bot.storage import daily, events, matches, ops, pings, puzzles, ratings, tournaments
from bot.storage.sql import Sql, scalar
from bot.tournament import TableSeats
from bot.values import (
    DailyEntry,
    EventInfo,
    EventPlay,
    FinishedHand,
    GuildSettings,
    HandPoint,
    JoinAnswer,
    LeaderRow,
    LeaveAnswer,
    MatchStandings,
    NewMatch,
    PlayerStats,
    PuzzleAttempt,
    PuzzleRating,
    RatingRow,
    SentPing,
    Settlement,
    ShardSet,
    TournamentEntrant,
    TournamentHand,
    TournamentInfo,
    TournamentTable,
)

T = TypeVar("T")


class SqlRepository:
    """The Repository protocol implemented once over ``_read()`` / ``_write()``."""

    _fault: Callable[[str], None]
    """Test hook called at named points inside settle_hand ("ledger", "stats", "ratings",
    "commit")."""

    def _read(self) -> AbstractAsyncContextManager[Sql]:
        raise NotImplementedError

    def _write(self) -> AbstractAsyncContextManager[Sql]:
        raise NotImplementedError

    async def _transaction(self, step: Callable[[Sql], Awaitable[T]]) -> T:
        """``await step(db)`` inside one ``_write()`` transaction; its value. ``step``
        awaits only ``db``'s calls (it may run on another thread, see SqliteStorage)."""
        async with self._write() as db:
            return await step(db)

    async def schema_version(self) -> int:
        """The applied schema version (number of migrations)."""
        raise NotImplementedError

    # ----- a feature's own store (bot/features/contract.py) ------------------------

    backend = "sqlite"
    """Which SQL the database speaks: ``"sqlite"`` or ``"postgres"`` (a feature's
    migrations are written for each)."""

    def _migration_lock(self) -> str | None:
        """A statement that serializes the feature migrations of several processes inside
        a transaction (PostgreSQL's advisory lock); None: the backend's own write lock."""
        return None

    async def transaction(self, step: Callable[[Sql], Awaitable[T]]) -> T:
        """``await step(db)`` in one committed transaction: a feature store's writes (its
        steps await nothing but ``db``'s calls, as ``_transaction``'s)."""
        return await self._transaction(step)

    def reading(self) -> AbstractAsyncContextManager[Sql]:
        """A connection for a feature store's reads (``async with storage.reading() as db``)."""
        return self._read()

    async def migrate_feature(self, name: str, migrations: Mapping[str, Sequence[str]]) -> int:
        """Apply the pending migrations of feature ``name``: ``migrations[self.backend]``,
        one statement each, in order; the number applied so far is kept per feature in
        ``feature_schema``. All in one transaction (a failure applies none). Returns the
        feature's schema version."""
        statements = list(migrations.get(self.backend, ()))
        lock = self._migration_lock()

        async def step(db: Sql) -> int:
            if lock is not None:
                await db.execute(lock)
            await db.execute("CREATE TABLE IF NOT EXISTS feature_schema"
                             " (feature TEXT PRIMARY KEY, version INTEGER NOT NULL)")
            done = int(await scalar(db, "SELECT version FROM feature_schema WHERE feature = ?",
                                    (name,)) or 0)
            for statement in statements[done:]:
                await db.execute(statement)
            if len(statements) > done:
                await db.execute(
                    "INSERT INTO feature_schema (feature, version) VALUES (?, ?)"
                    " ON CONFLICT (feature) DO UPDATE SET version = excluded.version",
                    (name, len(statements)))
            return max(done, len(statements))

        return await self._transaction(step)

    # ----- settings ----------------------------------------------------------

    async def get_settings(self, guild_id: int) -> GuildSettings:
        """The guild's settings; defaults when never saved."""
        async with self._read() as db:
            return await ops.read_settings(db, guild_id)

    async def save_settings(self, guild_id: int, settings: GuildSettings) -> None:
        """Upsert the guild's settings (committed on return)."""
        async with self._write() as db:
            await ops.write_settings(db, guild_id, settings)

    # ----- open tables -------------------------------------------------------

    async def save_table(self, table: Table) -> None:
        """Upsert the serialized Table (committed on return)."""
        args = ops.save_table_args(table, time.time())
        await self._transaction(lambda db: db.execute(ops.SAVE_TABLE, args))

    async def delete_table(self, table_id: str) -> None:
        """Remove an open table; unknown ids are ignored."""
        await self._transaction(
            lambda db: db.execute("DELETE FROM open_tables WHERE table_id = ?", (table_id,)))

    async def load_table_states(self, shards: ShardSet | None = None) -> list[str]:
        """The raw Table JSON of every open table (on ``shards`` only, if given), oldest first."""
        async with self._read() as db:
            return await ops.table_states(db, shards)

    async def load_open_tables(self, shards: ShardSet | None = None) -> list[Table]:
        """Every open table (on ``shards`` only, if given) as a ``Table``, oldest first."""
        states = await self.load_table_states(shards)
        return [Table.model_validate_json(state) for state in states]

    # ----- settlement --------------------------------------------------------

    async def settle_hand(self, table: Table, hand_id: str) -> Settlement:
        """Settle the table's finished hand exactly once, saving the table in the same commit.

        One transaction claims ``hand_id`` (unique key of ``finished_hands``), updates the
        guild ledger, ends the match when someone reaches the target (docs/RULES.md §Match: all
        at ≥ target share the win; with ``match_hands`` the best totals after that many
        hands), starts the next match at zero, updates player stats and display names,
        updates skill ratings (docs/RATINGS.md), records the finished hand (with each
        seat's match total and rating after it) and saves ``table``. Computer seats (``user_id`` None)
        get no ledger/stats rows. A tournament's table (``Table.tournament`` set) changes
        stats and ratings but no match total (``SeatChange.total`` None) and counts no
        hand toward the match. A known ``hand_id`` returns the recorded Settlement
        (``replayed=True``) and changes nothing. Raises ValueError when the table has no
        finished hand.
        """
        outcome = outcome_of(table)
        now = time.time()
        return await self._transaction(
            lambda db: ops.settle(db, table, hand_id, outcome, now, self._fault))

    async def finished_hand(self, hand_id: str) -> tuple[str, Settlement] | None:
        """The recorded (Hand JSON, Settlement) of a settled hand, or None."""
        async with self._read() as db:
            return await ops.finished_hand(db, hand_id)

    async def numbered_hand(self, guild_id: int, hand_no: int) -> FinishedHand | None:
        """The guild's settled hand number ``hand_no`` (1, 2, … per guild), or None."""
        async with self._read() as db:
            return await ops.numbered_hand(db, guild_id, hand_no)

    async def last_hand_of(self, guild_id: int, user_id: int) -> FinishedHand | None:
        """The member's latest settled hand in the guild, or None."""
        async with self._read() as db:
            return await ops.last_hand_of(db, guild_id, user_id)

    # ----- queries -----------------------------------------------------------

    async def match_standings(self, guild_id: int) -> MatchStandings:
        """The guild's current match: totals toward the target, best first."""
        async with self._read() as db:
            return await ops.match_standings(db, guild_id)

    async def leaderboard(self, guild_id: int, limit: int = 10) -> list[LeaderRow]:
        """All-time rows (matches won, then net points, then hands won), best first."""
        async with self._read() as db:
            return await ops.leaderboard(db, guild_id, limit)

    async def player_stats(self, guild_id: int, user_id: int) -> PlayerStats | None:
        """One player's record in the guild, or None if they never finished a hand."""
        async with self._read() as db:
            return await ops.player_stats(db, guild_id, user_id)

    async def rating_board(self, guild_id: int) -> list[RatingRow]:
        """The guild's ratings, members and computer levels, best ordinal (μ − 3σ) first."""
        async with self._read() as db:
            return await ratings.rating_rows(db, guild_id)

    async def hand_history(self, guild_id: int, user_id: int, limit: int = 50) -> list[HandPoint]:
        """The member's last ``limit`` settled hands in the guild, oldest first."""
        async with self._read() as db:
            return await ratings.hand_points(db, guild_id, user_id, limit)

    async def remember_name(self, guild_id: int, user_id: int, name: str) -> None:
        """Store the display name shown in leaderboards (committed)."""
        async with self._write() as db:
            await ops.save_name(db, guild_id, user_id, name, time.time())

    async def forget_user(self, guild_id: int | None, user_id: int,
                          daily_marks: Sequence[tuple[str, int]] = (),
                          event_marks: Sequence[tuple[str, int]] = (),
                          puzzle_marks: Sequence[tuple[str, int]] = ()) -> int:
        """Delete a user's data in one guild (None: every guild); returns rows touched.

        Removes stats, ledger totals, match wins, skill ratings, display names, the
        auto-play pace and daily plays;
        finished-hand records keep their points but lose the user id, name (shown as
        "?"), match total and rating. ``daily_marks``: (day, mark) kept in the same
        commit in place of the member's plays of days still open (``guild_id`` only;
        ``bot.game.private.forgotten_mark``), so forgetting does not open a second play.
        ``event_marks``: (event id, mark) kept likewise as entries of open events the
        member began (``bot.features.events.rules.event_forgotten_mark``): no second entry.
        Puzzle attempts and the puzzle rating go too; ``puzzle_marks``: (day, mark) kept
        likewise for today's daily puzzle, if begun: no second attempt. Of tournaments,
        the entry of an open one goes and the member's line of any other stays under a
        stand-in id with no name, withdrawn from a running one if still in (never seated
        again: this asks no service check; ``bot.storage.tournaments.forget``). Events
        and tournaments the member created keep ``NO_ORGANISER`` as ``created_by``.
        """
        now = time.time()
        async with self._write() as db:
            touched = await ops.forget(db, guild_id, user_id)
            touched += await events.forget_organiser(db, guild_id, user_id)
            touched += await tournaments.forget(db, guild_id, user_id, now)
            if guild_id is not None:
                for day, mark in daily_marks:
                    await daily.mark_forgotten(db, guild_id, day, mark, now)
                for event_id, mark in event_marks:
                    await events.mark_forgotten(db, event_id, guild_id, mark, now)
                for day, mark in puzzle_marks:
                    await puzzles.mark_forgotten(db, guild_id, day, mark, now)
            return touched

    # ----- matches and members' preferences ----------------------------------

    async def new_match(self, guild_id: int, expected: int | None = None) -> NewMatch:
        """``/ddz newmatch``: end the current match (kept in the history, no winner) and
        start the next at zero, unless it is not ``expected`` or has no settled hand yet
        (then ``started`` is False and nothing changed). Committed on return."""
        async with self._write() as db:
            return await matches.new_match(db, guild_id, expected, time.time())

    async def previous_match(self, guild_id: int) -> MatchStandings | None:
        """The last finished match: final totals, how it ended, winners (None: none yet)."""
        async with self._read() as db:
            return await matches.previous_match(db, guild_id)

    async def autoplay_pace(self, guild_id: int, user_id: int) -> float | None:
        """The member's stored auto-play pace in this guild (seconds), or None. (Read on
        every join: through ``_transaction``, so SQLite answers it with the writes queued
        meanwhile instead of after them.)"""
        return await self._transaction(lambda db: matches.autoplay_pace(db, guild_id, user_id))

    async def save_autoplay_pace(self, guild_id: int, user_id: int, pace: float) -> None:
        """Store the member's auto-play pace in this guild (seconds; committed)."""
        async with self._write() as db:
            await matches.save_autoplay_pace(db, guild_id, user_id, pace)

    # ----- turn pings (docs/RULES.md §Turn pings) --------------------------------

    async def notify(self, guild_id: int, user_id: int) -> bool:
        """The member's ``/ddz notify`` choice in this guild (True when never set)."""
        async with self._read() as db:
            return await pings.notify(db, guild_id, user_id)

    async def save_notify(self, guild_id: int, user_id: int, on: bool) -> None:
        """Store the member's ``/ddz notify`` choice in this guild (committed)."""
        async with self._write() as db:
            await pings.save_notify(db, guild_id, user_id, on)

    async def save_sent_ping(self, ping: SentPing) -> None:
        """Remember a turn ping posted, to delete after a restart (committed)."""
        async with self._write() as db:
            await pings.save_sent(db, ping)

    async def delete_sent_ping(self, table_id: str, message_id: int) -> None:
        """Forget a turn ping deleted (committed)."""
        async with self._write() as db:
            await pings.delete_sent(db, table_id, message_id)

    async def sent_pings(self, shards: ShardSet | None = None) -> list[SentPing]:
        """The turn pings posted and not yet deleted (on ``shards`` only, if given)."""
        async with self._read() as db:
            return await pings.sent(db, shards)

    # ----- the daily deal (docs/RULES.md §Daily deal) ---------------------------

    async def daily_key(self, guild_id: int, candidate: str) -> str:
        """The server's secret key of the daily seed (hex), ``candidate`` the first time."""
        return await self._transaction(lambda db: daily.key(db, guild_id, candidate))

    async def begin_daily(self, table: Table, user_id: int, name: str) -> bool:
        """Claim the member's play of ``table.daily`` and save the table, in one commit;
        False (nothing written) when they have played or are playing that day."""
        now = time.time()
        return await self._transaction(lambda db: daily.begin(db, table, user_id, name, now))

    async def finish_daily(self, table: Table, user_id: int, points: int, moves: int,
                           won: bool) -> bool:
        """Record the daily result and forget the open table, in one commit, once;
        False when it was recorded already."""
        now = time.time()
        return await self._transaction(
            lambda db: daily.finish(db, table, user_id, points, moves, won, now))

    async def daily_entry(self, guild_id: int, day: str, user_id: int) -> DailyEntry | None:
        """The member's play of ``day`` (finished or not), or None."""
        async with self._read() as db:
            return await daily.entry(db, guild_id, day, user_id)

    async def daily_finished(self, guild_id: int, day: str) -> list[DailyEntry]:
        """Every finished play of ``day`` in the server (unordered)."""
        async with self._read() as db:
            return await daily.finished(db, guild_id, day)

    async def freeze_daily_day(self, guild_id: int, day: str, level: str, rules: str
                               ) -> tuple[str, str]:
        """(level, RuleSet JSON) of the server's deal of ``day``: the given ones the first
        time, the stored ones after."""
        return await self._transaction(
            lambda db: daily.freeze_day(db, guild_id, day, level, rules))

    async def daily_unfinished(self, guild_id: int, day: str) -> int:
        """How many members' plays of ``day`` are begun and not finished."""
        async with self._read() as db:
            return await daily.unfinished(db, guild_id, day)

    async def daily_won_days(self, guild_id: int, user_ids: list[int]) -> dict[int, list[str]]:
        """The days each member won the daily deal."""
        async with self._read() as db:
            return await daily.won_days(db, guild_id, user_ids)

    async def daily_totals(self, guild_id: int, user_id: int) -> tuple[int, int, int]:
        """(days finished, days won, points) of the member's daily deals."""
        async with self._read() as db:
            return await daily.totals(db, guild_id, user_id)

    async def daily_hand(self, guild_id: int, day: str, user_id: int) -> str | None:
        """The Hand JSON of the member's finished daily deal of ``day``, or None."""
        async with self._read() as db:
            return await daily.hand_json(db, guild_id, day, user_id)

    async def claim_daily_post(self, guild_id: int, day: str) -> bool:
        """Claim the day's post in the daily channel (True once per server and day)."""
        return await self._transaction(lambda db: daily.claim_post(db, guild_id, day))

    async def drop_daily_marks(self, guild_id: int, before: str) -> int:
        """Delete the marks ``forget_user`` kept of the days before ``before``; how many."""
        return await self._transaction(lambda db: daily.drop_marks(db, guild_id, before))

    # ----- duplicate events (docs/RULES.md §Events) -------------------------------

    async def create_event(self, event: EventInfo) -> bool:
        """Store a new event; False (nothing written) while the server has one whose
        results are not announced yet."""
        return await self._transaction(lambda db: events.create(db, event))

    async def event(self, event_id: str) -> EventInfo | None:
        """The event with this id, or None."""
        async with self._read() as db:
            return await events.get(db, event_id)

    async def current_event(self, guild_id: int) -> EventInfo | None:
        """The server's event not yet announced, else its latest, else None."""
        async with self._read() as db:
            return await events.current(db, guild_id)

    async def join_event(self, event: EventInfo, user_id: int, name: str) -> bool:
        """Enter the member; False when entered already."""
        now = time.time()
        return await self._transaction(lambda db: events.join(db, event, user_id, name, now))

    async def event_marked(self, event_id: str, mark: int) -> bool:
        """Whether ``forget_user`` kept ``mark`` as an entry of the event."""
        async with self._read() as db:
            return await events.is_marked(db, event_id, mark)

    async def event_began(self, event_id: str, user_id: int) -> bool:
        """Whether the member began any deal of the event."""
        async with self._read() as db:
            return await events.began(db, event_id, user_id)

    async def event_entrants(self, event_id: str) -> list[tuple[int, str | None]]:
        """(user id, display name) of the entrants, in the order they joined."""
        async with self._read() as db:
            return await events.entrants(db, event_id)

    async def begin_event_play(self, table: Table, event: EventInfo, deal: int, user_id: int,
                               name: str, now: float) -> bool:
        """Claim the member's play of ``deal`` (entering them) and save the table, in one
        commit; False when played or being played already, or the event closed at ``now``."""
        return await self._transaction(
            lambda db: events.begin(db, table, event, deal, user_id, name, now))

    async def finish_event_play(self, table: Table, event_id: str, deal: int, user_id: int,
                                points: int, moves: int) -> bool:
        """Record the deal's result and forget the open table, in one commit, once."""
        now = time.time()
        return await self._transaction(
            lambda db: events.finish(db, table, event_id, deal, user_id, points, moves, now))

    async def event_plays(self, event_id: str) -> list[EventPlay]:
        """Every play of the event, finished or not."""
        async with self._read() as db:
            return await events.plays(db, event_id)

    async def event_in_progress(self, event_id: str) -> int:
        """How many of the event's deals are being played (unfinished, table open)."""
        async with self._read() as db:
            return await events.in_progress(db, event_id)

    async def close_event(self, event_id: str, now: float) -> bool:
        """Close the event early at ``now``; False when closed already."""
        return await self._transaction(lambda db: events.close(db, event_id, now))

    async def events_due(self, now: float) -> list[EventInfo]:
        """Closed events (every server) whose results are not announced yet."""
        async with self._read() as db:
            return await events.due(db, now)

    async def claim_event_announcement(self, event_id: str, now: float) -> bool:
        """Mark the event's results announced (True once)."""
        return await self._transaction(lambda db: events.claim_announcement(db, event_id, now))

    async def save_event_standin(self, event_id: str, deal: int, points: int, hand: str) -> None:
        """Keep the stand-in result of ``deal`` (the first one stored stays)."""
        await self._transaction(lambda db: events.save_standin(db, event_id, deal, points, hand))

    async def event_standins(self, event_id: str) -> dict[int, int]:
        """The stored stand-in points of the event's deals, by deal."""
        async with self._read() as db:
            return await events.standins(db, event_id)

    async def event_hand(self, event_id: str, deal: int, user_id: int) -> str | None:
        """The Hand JSON of the member's finished play of ``deal``, or None."""
        async with self._read() as db:
            return await events.hand_json(db, event_id, deal, user_id)

    async def events_of_user(self, guild_id: int, user_id: int) -> list[EventInfo]:
        """The server's announced events the member entered, oldest first."""
        async with self._read() as db:
            return await events.of_user(db, guild_id, user_id)

    # ----- endgame puzzles (docs/RULES.md §Puzzles) -----------------------------

    async def begin_puzzle(self, attempt: PuzzleAttempt) -> bool:
        """Store a new attempt (committed); False when it is a daily one and the member
        has an attempt of that day already."""
        return await self._transaction(lambda db: puzzles.begin(db, attempt))

    async def puzzle_attempt(self, attempt_id: str) -> PuzzleAttempt | None:
        """The attempt with this id, or None."""
        async with self._read() as db:
            return await puzzles.attempt(db, attempt_id)

    async def open_puzzle_attempt(self, guild_id: int, user_id: int, mode: str
                                  ) -> PuzzleAttempt | None:
        """The member's unfinished attempt of ``mode`` (``daily``, ``practice``), or None."""
        async with self._read() as db:
            return await puzzles.open_attempt(db, guild_id, user_id, mode)

    async def daily_puzzle_attempt(self, guild_id: int, day: str, user_id: int
                                   ) -> PuzzleAttempt | None:
        """The member's attempt at the daily puzzle of ``day`` (or its mark), or None."""
        async with self._read() as db:
            return await puzzles.daily_attempt(db, guild_id, day, user_id)

    async def advance_puzzle(self, attempt_id: str, plies: int, line: str, new_plies: int,
                             moves: int) -> bool:
        """Write an attempt's longer line over the one of ``plies`` actions (committed);
        False when another action came first or it is finished."""
        return await self._transaction(
            lambda db: puzzles.advance(db, attempt_id, plies, line, new_plies, moves))

    async def finish_puzzle(self, before: PuzzleAttempt, after: PuzzleAttempt,
                            member: PuzzleRating, puzzle: PuzzleRating) -> bool:
        """Record an attempt's result and both new ratings in one commit, once; False when
        the attempt moved on or was finished meanwhile (nothing written)."""
        return await self._transaction(
            lambda db: puzzles.finish(db, before, after, member, puzzle))

    async def puzzle_member_rating(self, guild_id: int, user_id: int) -> PuzzleRating | None:
        """The member's puzzle rating in the server, or None before any rated attempt."""
        async with self._read() as db:
            return await puzzles.member_rating(db, guild_id, user_id)

    async def puzzle_ratings(self) -> dict[str, PuzzleRating]:
        """Every attempted puzzle's stored rating, by puzzle id."""
        async with self._read() as db:
            return await puzzles.puzzle_ratings(db)

    async def solved_puzzles(self, guild_id: int, user_id: int) -> set[str]:
        """The ids of the puzzles the member solved in the server."""
        async with self._read() as db:
            return await puzzles.solved_ids(db, guild_id, user_id)

    async def daily_puzzle_finished(self, guild_id: int, day: str) -> list[PuzzleAttempt]:
        """Every finished attempt at the daily puzzle of ``day``."""
        async with self._read() as db:
            return await puzzles.daily_finished(db, guild_id, day)

    async def puzzle_solved_days(self, guild_id: int, user_ids: list[int]
                                 ) -> dict[int, list[str]]:
        """The days each member solved the daily puzzle."""
        async with self._read() as db:
            return await puzzles.solved_days(db, guild_id, user_ids)

    async def drop_puzzle_marks(self, guild_id: int, before: str) -> int:
        """Delete the daily-puzzle marks ``forget_user`` kept of days before ``before``."""
        return await self._transaction(lambda db: puzzles.drop_marks(db, guild_id, before))

    # ----- tournaments (docs/RULES.md §Tournaments) ------------------------------------
    # Each method commits on return. The ones answering "True once" are the claims of
    # bot/storage/tournaments.py: True for exactly one caller, across restarts and
    # processes; a second call changes nothing.

    async def create_tournament(self, tournament: TournamentInfo) -> TournamentInfo | None:
        """Store a new tournament with the server's next number (returned as stored);
        None (nothing written) while the server has an open or running one."""
        return await self._transaction(lambda db: tournaments.create(db, tournament))

    async def tournament(self, tournament_id: str) -> TournamentInfo | None:
        """The tournament with this id, or None."""
        async with self._read() as db:
            return await tournaments.get(db, tournament_id)

    async def tournament_by_number(self, guild_id: int, number: int) -> TournamentInfo | None:
        """The server's tournament number ``number`` (its web page), or None."""
        async with self._read() as db:
            return await tournaments.by_number(db, guild_id, number)

    async def current_tournament(self, guild_id: int) -> TournamentInfo | None:
        """The server's open or running tournament, else its latest, else None."""
        async with self._read() as db:
            return await tournaments.current(db, guild_id)

    async def live_tournaments(self) -> list[TournamentInfo]:
        """Every open or running tournament of every server, oldest first."""
        async with self._read() as db:
            return await tournaments.live(db)

    async def set_tournament_signup(self, tournament_id: str, message_id: int) -> None:
        """Remember the tournament's sign-up message."""
        await self._transaction(lambda db: tournaments.set_signup(db, tournament_id,
                                                                  message_id))

    async def join_tournament(self, tournament_id: str, user_id: int, name: str,
                              now: float) -> JoinAnswer:
        """Enter the member: ``"joined"``, ``"already"``, ``"full"`` (``MAX_ENTRANTS``)
        or ``"closed"`` (not open)."""
        return await self._transaction(
            lambda db: tournaments.join(db, tournament_id, user_id, name, now))

    async def leave_tournament(self, tournament_id: str, user_id: int, now: float
                               ) -> LeaveAnswer:
        """The member leaves: ``"left"`` (before the start: entry deleted),
        ``"withdrawn"`` (running: not seated again), ``"absent"`` or ``"closed"``."""
        return await self._transaction(
            lambda db: tournaments.leave(db, tournament_id, user_id, now, "withdrawn"))

    async def drop_tournament_entrant(self, tournament_id: str, user_id: int, now: float
                                      ) -> LeaveAnswer:
        """The organiser takes the member out: as ``leave_tournament`` but ``"dropped"``
        while running."""
        return await self._transaction(
            lambda db: tournaments.leave(db, tournament_id, user_id, now, "dropped"))

    async def tournament_entrants(self, tournament_id: str) -> list[TournamentEntrant]:
        """Every entrant (withdrawn and dropped too), in join order."""
        async with self._read() as db:
            return await tournaments.entrants(db, tournament_id)

    async def start_tournament(self, tournament_id: str, now: float) -> bool:
        """Open → running with at least ``MIN_ENTRANTS`` entrants; True once."""
        return await self._transaction(lambda db: tournaments.start(db, tournament_id, now))

    async def seat_tournament_round(self, tournament_id: str, round_no: int,
                                    tables: Sequence[TableSeats], now: float) -> bool:
        """Store round ``round_no`` and its tables (``current_round`` becomes
        ``round_no``) while running, when round ``round_no - 1`` is the last seated;
        True once."""
        return await self._transaction(
            lambda db: tournaments.seat_round(db, tournament_id, round_no, tables, now))

    async def claim_tournament_table(self, tournament_id: str, round_no: int, table_no: int,
                                     now: float) -> bool:
        """Mark the table opened (its thread made and its hand dealt by the caller);
        True once."""
        return await self._transaction(
            lambda db: tournaments.claim_table(db, tournament_id, round_no, table_no, now))

    async def set_tournament_table(self, tournament_id: str, round_no: int, table_no: int,
                                   thread_id: int, table_id: str) -> None:
        """Remember the table's thread and game table."""
        await self._transaction(lambda db: tournaments.set_table(
            db, tournament_id, round_no, table_no, thread_id, table_id))

    async def record_tournament_hand(self, tournament_id: str, hand: TournamentHand) -> bool:
        """Keep a settled hand of a tournament table; True once per (round, table, hand)."""
        return await self._transaction(lambda db: tournaments.record_hand(db, tournament_id,
                                                                          hand))

    async def tournament_hands(self, tournament_id: str) -> list[TournamentHand]:
        """Every recorded hand of the tournament, by round, table and hand."""
        async with self._read() as db:
            return await tournaments.hands(db, tournament_id)

    async def finish_tournament_table(self, tournament_id: str, round_no: int,
                                      table_no: int, points: tuple[int, int, int],
                                      now: float) -> bool:
        """Record the table's result (points won per seat over the round); True once."""
        return await self._transaction(lambda db: tournaments.finish_table(
            db, tournament_id, round_no, table_no, points, now))

    async def finish_tournament_round(self, tournament_id: str, round_no: int,
                                      now: float) -> bool:
        """Mark the round finished when every table of it is; True once."""
        return await self._transaction(
            lambda db: tournaments.finish_round(db, tournament_id, round_no, now))

    async def tournament_rounds_finished(self, tournament_id: str) -> list[int]:
        """The rounds marked finished, in order."""
        async with self._read() as db:
            return await tournaments.rounds_finished(db, tournament_id)

    async def tournament_tables(self, tournament_id: str, round_no: int | None = None
                                ) -> list[TournamentTable]:
        """The tables of round ``round_no`` (None: every round), by round and table."""
        async with self._read() as db:
            return await tournaments.tables(db, tournament_id, round_no)

    async def tournament_table_of(self, table_id: str) -> TournamentTable | None:
        """The tournament table played by the game table ``table_id``, or None."""
        async with self._read() as db:
            return await tournaments.table_of(db, table_id)

    async def finish_tournament(self, tournament_id: str, now: float) -> bool:
        """Running → finished; True once."""
        return await self._transaction(lambda db: tournaments.finish(db, tournament_id, now))

    async def cancel_tournament(self, tournament_id: str, now: float) -> bool:
        """Open or running → cancelled (what was played is kept); True once."""
        return await self._transaction(lambda db: tournaments.cancel(db, tournament_id, now))

    async def claim_tournament_post(self, tournament_id: str, now: float) -> bool:
        """Claim the final post (standings, or the cancellation) of a finished or
        cancelled tournament, right before sending it; True once."""
        return await self._transaction(
            lambda db: tournaments.claim_post(db, tournament_id, now))

    async def tournaments_of_user(self, guild_id: int, user_id: int) -> list[TournamentInfo]:
        """The server's finished or cancelled tournaments the member entered, oldest
        first (``/ddz stats``)."""
        async with self._read() as db:
            return await tournaments.of_user(db, guild_id, user_id)
