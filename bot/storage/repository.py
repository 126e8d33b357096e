"""The storage interface the game service depends on (a Protocol).

SQLite (bot/storage/sqlite.py) implements it for one process; PostgreSQL
(bot/storage/postgres.py) when several processes share one database
(docs/SCALING.md). ``bot.storage.open_repository(location)`` picks one.
Every write commits before returning (docs/ARCHITECTURE.md §Where state lives).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Protocol, TypeVar, runtime_checkable

from bot.game.table import Table
from bot.storage.sql import Sql
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


class StorageUnavailable(RuntimeError):
    """The database cannot take this call now, for a reason that passes by itself: the
    disk is full, the database is read-only (a failover), locked or not answering
    within the timeout, the connection dropped. The call changed nothing (its
    transaction rolled back); the caller may try again in a moment. ``__cause__``: the
    driver's error."""


class ShardTaken(RuntimeError):
    """Another live process already serves this shard (``claim_shards``)."""

    def __init__(self, shard: int, count: int, *, other_count: int | None = None) -> None:
        if other_count is None:
            text = (
                f"shard {shard} of {count} is already served by another process on this"
                " database (check DDZ_SHARD_IDS: each shard id runs in exactly one process)"
            )
        else:
            text = (
                f"DDZ_SHARD_COUNT={count} but a live process on this database runs"
                f" DDZ_SHARD_COUNT={other_count} (stop every process before changing it)"
            )
        super().__init__(text)
        self.shard = shard
        self.count = count


@runtime_checkable
class Repository(Protocol):
    """Persistence of settings, open tables, settlements and leaderboards."""

    backend: str
    """``"sqlite"`` or ``"postgres"``: which SQL a feature's migrations must speak."""

    async def transaction(self, step: Callable[[Sql], Awaitable[T]]) -> T:
        """``await step(db)`` in one committed transaction (a feature store's writes)."""

    def reading(self) -> AbstractAsyncContextManager[Sql]:
        """A connection for a feature store's reads."""

    async def migrate_feature(self, name: str, migrations: Mapping[str, Sequence[str]]) -> int:
        """Apply feature ``name``'s pending migrations (by backend, one statement each);
        its schema version."""

    async def close(self) -> None:
        """Release the connection(s)."""

    async def claim_shards(self, shards: ShardSet) -> None:
        """Own ``shards`` until ``close``; raises ShardTaken if another process owns one."""

    async def get_settings(self, guild_id: int) -> GuildSettings:
        """The guild's settings, defaults when never saved."""

    async def save_settings(self, guild_id: int, settings: GuildSettings) -> None:
        """Upsert the guild's settings (commit)."""

    async def save_table(self, table: Table) -> None:
        """Upsert an open table's serialized state (commit)."""

    async def delete_table(self, table_id: str) -> None:
        """Forget a closed table (commit). Unknown ids are ignored."""

    async def load_open_tables(self, shards: ShardSet | None = None) -> list[Table]:
        """Every saved open table (of guilds on ``shards`` only, if given), oldest first."""

    async def settle_hand(self, table: Table, hand_id: str) -> Settlement:
        """Settle ``table.hand`` (finished) once, in one transaction, with the table state.

        A second call with the same ``hand_id`` changes nothing and returns the recorded
        Settlement with ``replayed=True``. Raises ValueError if the hand is not finished.
        """

    async def finished_hand(self, hand_id: str) -> tuple[str, Settlement] | None:
        """The recorded (Hand JSON, Settlement) of a settled hand, or None if unknown."""

    async def numbered_hand(self, guild_id: int, hand_no: int) -> FinishedHand | None:
        """The guild's settled hand number ``hand_no`` (1, 2, … per guild), or None."""

    async def last_hand_of(self, guild_id: int, user_id: int) -> FinishedHand | None:
        """The latest settled hand of the guild in which the member held a seat, or None."""

    async def match_standings(self, guild_id: int) -> MatchStandings:
        """Current match totals toward the target, best first."""

    async def leaderboard(self, guild_id: int, limit: int = 10) -> list[LeaderRow]:
        """All-time rows: matches won, then net points, best first."""

    async def player_stats(self, guild_id: int, user_id: int) -> PlayerStats | None:
        """One player's record (with their skill rating), or None if they never finished
        a hand here."""

    async def rating_board(self, guild_id: int) -> list[RatingRow]:
        """Every skill rating of the guild (members and computer levels), best ordinal
        (μ − 3σ) first (docs/RATINGS.md)."""

    async def hand_history(self, guild_id: int, user_id: int, limit: int = 50) -> list[HandPoint]:
        """The member's last ``limit`` settled hands in the guild (points, match total and
        rating after each), oldest first."""

    async def remember_name(self, guild_id: int, user_id: int, name: str) -> None:
        """Store the display name used in leaderboards."""

    async def forget_user(self, guild_id: int | None, user_id: int,
                          daily_marks: Sequence[tuple[str, int]] = (),
                          event_marks: Sequence[tuple[str, int]] = (),
                          puzzle_marks: Sequence[tuple[str, int]] = ()) -> int:
        """Delete the user's stored data (stats, totals, ratings, names, auto-play pace,
        daily plays, event entries and plays, puzzle attempts and rating, tournament
        entries: an open tournament's deleted, any other's kept under a stand-in id with
        no name, withdrawn from a running one if still in, so never seated again;
        ``puzzle_marks``
        as ``daily_marks`` for the daily puzzle) in one guild (None: all guilds); rows
        touched. Events and tournaments the member created keep ``NO_ORGANISER``
        (bot/values.py) as ``created_by``. Asks nothing: the service's checks
        (``Forgetting.check``) come first. ``daily_marks``: (day, mark) kept instead of the plays of days still open
        (once a day holds); ``event_marks``: (event id, mark) kept as entries of open
        events the member began (no second entry)."""

    async def new_match(self, guild_id: int, expected: int | None = None) -> NewMatch:
        """``/ddz newmatch``: end the current match (kept in the history, no winner) and
        start the next at zero, unless it is not ``expected`` or has no hand yet."""

    async def previous_match(self, guild_id: int) -> MatchStandings | None:
        """The last finished match: final totals, how it ended, winners (None: none yet)."""

    async def autoplay_pace(self, guild_id: int, user_id: int) -> float | None:
        """The member's stored auto-play pace in seconds, or None."""

    async def save_autoplay_pace(self, guild_id: int, user_id: int, pace: float) -> None:
        """Store the member's auto-play pace in seconds (commit)."""

    async def notify(self, guild_id: int, user_id: int) -> bool:
        """The member's ``/ddz notify`` choice in this guild (True when never set)."""

    async def save_notify(self, guild_id: int, user_id: int, on: bool) -> None:
        """Store the member's ``/ddz notify`` choice (commit)."""

    async def save_sent_ping(self, ping: SentPing) -> None:
        """Remember a turn ping posted (one per table; commit)."""

    async def delete_sent_ping(self, table_id: str, message_id: int) -> None:
        """Forget a turn ping deleted (commit)."""

    async def sent_pings(self, shards: ShardSet | None = None) -> list[SentPing]:
        """The turn pings posted and not yet deleted (on ``shards`` only, if given)."""

    async def daily_key(self, guild_id: int, candidate: str) -> str:
        """The server's secret key of the daily seed (hex); ``candidate`` the first time."""

    async def begin_daily(self, table: Table, user_id: int, name: str) -> bool:
        """Claim the member's play of ``table.daily`` and save the table (one commit);
        False, nothing written, when they have played or are playing that day."""

    async def finish_daily(self, table: Table, user_id: int, points: int, moves: int,
                           won: bool) -> bool:
        """Record the daily result and forget the open table (one commit), once."""

    async def daily_entry(self, guild_id: int, day: str, user_id: int) -> DailyEntry | None:
        """The member's play of ``day`` (finished or not), or None."""

    async def daily_finished(self, guild_id: int, day: str) -> list[DailyEntry]:
        """Every finished play of ``day`` in the server (unordered)."""

    async def freeze_daily_day(self, guild_id: int, day: str, level: str, rules: str
                               ) -> tuple[str, str]:
        """(level, RuleSet JSON) of the server's deal of ``day``: the given ones the first
        time (its first deal), the stored ones after (docs/RULES.md §Daily deal)."""

    async def daily_unfinished(self, guild_id: int, day: str) -> int:
        """How many members' plays of ``day`` are begun and not finished (the podium of
        the day waits for them, ``DailyService.podium_ready``)."""

    async def daily_won_days(self, guild_id: int, user_ids: list[int]) -> dict[int, list[str]]:
        """The days each member won the daily deal."""

    async def daily_totals(self, guild_id: int, user_id: int) -> tuple[int, int, int]:
        """(days finished, days won, points) of the member's daily deals."""

    async def daily_hand(self, guild_id: int, day: str, user_id: int) -> str | None:
        """The Hand JSON of the member's finished daily deal of ``day``, or None."""

    async def claim_daily_post(self, guild_id: int, day: str) -> bool:
        """Claim the day's post in the daily channel (True once per server and day)."""

    async def drop_daily_marks(self, guild_id: int, before: str) -> int:
        """Delete the forgotten members' marks of the days before ``before``; how many."""

    async def create_event(self, event: EventInfo) -> bool:
        """Store a new event; False while the server has one not yet announced."""

    async def event(self, event_id: str) -> EventInfo | None:
        """The event with this id, or None."""

    async def current_event(self, guild_id: int) -> EventInfo | None:
        """The server's event not yet announced, else its latest, else None."""

    async def join_event(self, event: EventInfo, user_id: int, name: str) -> bool:
        """Enter the member (commit); False when entered already."""

    async def event_marked(self, event_id: str, mark: int) -> bool:
        """Whether ``forget_user`` kept ``mark`` as an entry of the event."""

    async def event_began(self, event_id: str, user_id: int) -> bool:
        """Whether the member began any deal of the event."""

    async def event_entrants(self, event_id: str) -> list[tuple[int, str | None]]:
        """(user id, display name) of the entrants, in the order they joined."""

    async def begin_event_play(self, table: Table, event: EventInfo, deal: int, user_id: int,
                               name: str, now: float) -> bool:
        """Claim the member's play of ``deal`` and save the table (one commit); False when
        played or being played already, or the event closed at ``now``."""

    async def finish_event_play(self, table: Table, event_id: str, deal: int, user_id: int,
                                points: int, moves: int) -> bool:
        """Record the deal's result and forget the open table (one commit), once."""

    async def event_plays(self, event_id: str) -> list[EventPlay]:
        """Every play of the event, finished or not."""

    async def event_in_progress(self, event_id: str) -> int:
        """How many of the event's deals are being played (unfinished, table open)."""

    async def close_event(self, event_id: str, now: float) -> bool:
        """Close the event early at ``now`` (commit); False when closed already."""

    async def events_due(self, now: float) -> list[EventInfo]:
        """Closed events (every server) whose results are not announced yet."""

    async def claim_event_announcement(self, event_id: str, now: float) -> bool:
        """Mark the event's results announced (True once)."""

    async def save_event_standin(self, event_id: str, deal: int, points: int, hand: str) -> None:
        """Keep the stand-in result of ``deal`` (the first one stored stays)."""

    async def event_standins(self, event_id: str) -> dict[int, int]:
        """The stored stand-in points of the event's deals, by deal."""

    async def event_hand(self, event_id: str, deal: int, user_id: int) -> str | None:
        """The Hand JSON of the member's finished play of ``deal``, or None."""

    async def events_of_user(self, guild_id: int, user_id: int) -> list[EventInfo]:
        """The server's announced events the member entered, oldest first."""

    async def begin_puzzle(self, attempt: PuzzleAttempt) -> bool:
        """Store a new puzzle attempt; False when it is a daily one and the member has an
        attempt of that day already (docs/RULES.md §Puzzles)."""

    async def puzzle_attempt(self, attempt_id: str) -> PuzzleAttempt | None:
        """The attempt with this id, or None."""

    async def open_puzzle_attempt(self, guild_id: int, user_id: int, mode: str
                                  ) -> PuzzleAttempt | None:
        """The member's unfinished attempt of ``mode`` (``daily``, ``practice``), or None."""

    async def daily_puzzle_attempt(self, guild_id: int, day: str, user_id: int
                                   ) -> PuzzleAttempt | None:
        """The member's attempt at the daily puzzle of ``day`` (or its mark), or None."""

    async def advance_puzzle(self, attempt_id: str, plies: int, line: str, new_plies: int,
                             moves: int) -> bool:
        """Write an attempt's longer line over the one of ``plies`` actions, once."""

    async def finish_puzzle(self, before: PuzzleAttempt, after: PuzzleAttempt,
                            member: PuzzleRating, puzzle: PuzzleRating) -> bool:
        """Record an attempt's result and both new ratings (one commit), once."""

    async def puzzle_member_rating(self, guild_id: int, user_id: int) -> PuzzleRating | None:
        """The member's puzzle rating in the server, or None before any rated attempt."""

    async def puzzle_ratings(self) -> dict[str, PuzzleRating]:
        """Every attempted puzzle's stored rating, by puzzle id."""

    async def solved_puzzles(self, guild_id: int, user_id: int) -> set[str]:
        """The ids of the puzzles the member solved in the server."""

    async def daily_puzzle_finished(self, guild_id: int, day: str) -> list[PuzzleAttempt]:
        """Every finished attempt at the daily puzzle of ``day``."""

    async def puzzle_solved_days(self, guild_id: int, user_ids: list[int]
                                 ) -> dict[int, list[str]]:
        """The days each member solved the daily puzzle."""

    async def drop_puzzle_marks(self, guild_id: int, before: str) -> int:
        """Delete the daily-puzzle marks ``forget_user`` kept of days before ``before``."""

    # ----- tournaments (docs/RULES.md §Tournaments); "True once": the claims of
    # bot/storage/tournaments.py

    async def create_tournament(self, tournament: TournamentInfo) -> TournamentInfo | None:
        """Store a new tournament with the server's next number (returned as stored);
        None (nothing written) while the server has an open or running one."""

    async def tournament(self, tournament_id: str) -> TournamentInfo | None:
        """The tournament with this id, or None."""

    async def tournament_by_number(self, guild_id: int, number: int) -> TournamentInfo | None:
        """The server's tournament number ``number`` (its web page), or None."""

    async def current_tournament(self, guild_id: int) -> TournamentInfo | None:
        """The server's open or running tournament, else its latest, else None."""

    async def live_tournaments(self) -> list[TournamentInfo]:
        """Every open or running tournament of every server, oldest first."""

    async def set_tournament_signup(self, tournament_id: str, message_id: int) -> None:
        """Remember the tournament's sign-up message."""

    async def join_tournament(self, tournament_id: str, user_id: int, name: str,
                              now: float) -> JoinAnswer:
        """Enter the member: ``"joined"``, ``"already"``, ``"full"`` (``MAX_ENTRANTS``)
        or ``"closed"`` (not open)."""

    async def leave_tournament(self, tournament_id: str, user_id: int, now: float
                               ) -> LeaveAnswer:
        """The member leaves: ``"left"`` (before the start: entry deleted),
        ``"withdrawn"`` (running: not seated again), ``"absent"`` or ``"closed"``."""

    async def drop_tournament_entrant(self, tournament_id: str, user_id: int, now: float
                                      ) -> LeaveAnswer:
        """The organiser takes the member out: as ``leave_tournament`` but ``"dropped"``
        while running."""

    async def tournament_entrants(self, tournament_id: str) -> list[TournamentEntrant]:
        """Every entrant (withdrawn and dropped too), in join order."""

    async def start_tournament(self, tournament_id: str, now: float) -> bool:
        """Open → running with at least ``MIN_ENTRANTS`` entrants; True once."""

    async def seat_tournament_round(self, tournament_id: str, round_no: int,
                                    tables: Sequence[TableSeats], now: float) -> bool:
        """Store round ``round_no`` and its tables (``current_round`` becomes
        ``round_no``) while running, when round ``round_no - 1`` is the last seated;
        True once."""

    async def claim_tournament_table(self, tournament_id: str, round_no: int, table_no: int,
                                     now: float) -> bool:
        """Mark the table opened (its thread made and its hand dealt by the caller);
        True once."""

    async def set_tournament_table(self, tournament_id: str, round_no: int, table_no: int,
                                   thread_id: int, table_id: str) -> None:
        """Remember the table's thread and game table."""

    async def record_tournament_hand(self, tournament_id: str, hand: TournamentHand) -> bool:
        """Keep a settled hand of a tournament table; True once per (round, table, hand)."""

    async def tournament_hands(self, tournament_id: str) -> list[TournamentHand]:
        """Every recorded hand of the tournament, by round, table and hand."""

    async def finish_tournament_table(self, tournament_id: str, round_no: int,
                                      table_no: int, points: tuple[int, int, int],
                                      now: float) -> bool:
        """Record the table's result (points won per seat over the round); True once."""

    async def finish_tournament_round(self, tournament_id: str, round_no: int,
                                      now: float) -> bool:
        """Mark the round finished when every table of it is; True once."""

    async def tournament_rounds_finished(self, tournament_id: str) -> list[int]:
        """The rounds marked finished, in order."""

    async def tournament_tables(self, tournament_id: str, round_no: int | None = None
                                ) -> list[TournamentTable]:
        """The tables of round ``round_no`` (None: every round), by round and table."""

    async def tournament_table_of(self, table_id: str) -> TournamentTable | None:
        """The tournament table played by the game table ``table_id``, or None."""

    async def finish_tournament(self, tournament_id: str, now: float) -> bool:
        """Running → finished; True once."""

    async def cancel_tournament(self, tournament_id: str, now: float) -> bool:
        """Open or running → cancelled (what was played is kept); True once."""

    async def claim_tournament_post(self, tournament_id: str, now: float) -> bool:
        """Claim the final post (standings, or the cancellation) of a finished or
        cancelled tournament, right before sending it; True once."""

    async def tournaments_of_user(self, guild_id: int, user_id: int) -> list[TournamentInfo]:
        """The server's finished or cancelled tournaments the member entered, oldest
        first (``/ddz stats``)."""
