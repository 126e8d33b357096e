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
from bot.storage import matches, ops, pings, ratings
from bot.storage.repository import ForgetStep
from bot.storage.sql import Sql, scalar
from bot.values import (
    FinishedHand,
    GuildSettings,
    HandPoint,
    LeaderRow,
    MatchStandings,
    NewMatch,
    PlayerStats,
    RatingRow,
    SentPing,
    Settlement,
    ShardSet,
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

    async def _fetch(self, step: Callable[[Sql], Awaitable[T]]) -> T:
        """``await step(db)`` for a read (``_read()``); its value. ``step`` awaits only
        ``db``'s calls (it may run on another thread, after the writes queued with it
        are committed: see SqliteStorage)."""
        async with self._read() as db:
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

    def writing(self) -> AbstractAsyncContextManager[Sql]:
        """One transaction for a feature store's writes (``_write``: committed on exit,
        rolled back on error)."""
        return self._write()

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
        return await self._fetch(lambda db: ops.read_settings(db, guild_id))

    async def save_settings(self, guild_id: int, settings: GuildSettings) -> None:
        """Upsert the guild's settings (committed on return)."""
        await self._transaction(lambda db: ops.write_settings(db, guild_id, settings))

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
        return await self._fetch(lambda db: ops.table_states(db, shards))

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
        get no ledger/stats rows. A table whose feature plays it outside the server's match
        (``ops.settle`` knows it by the table) changes stats and ratings but no match total
        (``SeatChange.total`` None) and counts no hand toward the match. A known ``hand_id`` returns the recorded Settlement
        (``replayed=True``) and changes nothing. Raises ValueError when the table has no
        finished hand.
        """
        outcome = outcome_of(table)
        now = time.time()
        return await self._transaction(
            lambda db: ops.settle(db, table, hand_id, outcome, now, self._fault))

    async def finished_hand(self, hand_id: str) -> tuple[str, Settlement] | None:
        """The recorded (Hand JSON, Settlement) of a settled hand, or None."""
        return await self._fetch(lambda db: ops.finished_hand(db, hand_id))

    async def numbered_hand(self, guild_id: int, hand_no: int) -> FinishedHand | None:
        """The guild's settled hand number ``hand_no`` (1, 2, … per guild), or None."""
        return await self._fetch(lambda db: ops.numbered_hand(db, guild_id, hand_no))

    async def last_hand_of(self, guild_id: int, user_id: int) -> FinishedHand | None:
        """The member's latest settled hand in the guild, or None."""
        return await self._fetch(lambda db: ops.last_hand_of(db, guild_id, user_id))

    # ----- queries -----------------------------------------------------------

    async def match_standings(self, guild_id: int) -> MatchStandings:
        """The guild's current match: totals toward the target, best first."""
        return await self._fetch(lambda db: ops.match_standings(db, guild_id))

    async def leaderboard(self, guild_id: int, limit: int = 10) -> list[LeaderRow]:
        """All-time rows (matches won, then net points, then hands won), best first."""
        return await self._fetch(lambda db: ops.leaderboard(db, guild_id, limit))

    async def player_stats(self, guild_id: int, user_id: int) -> PlayerStats | None:
        """One player's record in the guild, or None if they never finished a hand."""
        return await self._fetch(lambda db: ops.player_stats(db, guild_id, user_id))

    async def rating_board(self, guild_id: int) -> list[RatingRow]:
        """The guild's ratings, members and computer levels, best ordinal (μ − 3σ) first."""
        return await self._fetch(lambda db: ratings.rating_rows(db, guild_id))

    async def hand_history(self, guild_id: int, user_id: int, limit: int = 50) -> list[HandPoint]:
        """The member's last ``limit`` settled hands in the guild, oldest first."""
        return await self._fetch(
            lambda db: ratings.hand_points(db, guild_id, user_id, limit))

    async def remember_name(self, guild_id: int, user_id: int, name: str) -> None:
        """Store the display name shown in leaderboards (committed)."""
        now = time.time()
        await self._transaction(lambda db: ops.save_name(db, guild_id, user_id, name, now))

    async def forget_user(self, guild_id: int | None, user_id: int,
                          steps: Sequence[ForgetStep] = ()) -> int:
        """Delete a user's data in one guild (None: every guild); returns rows touched.

        Removes stats, ledger totals, match wins, skill ratings, display names, the
        auto-play pace and the rows of ``ops.USER_TABLES`` (the core's); finished-hand records keep
        their points but lose the user id, name (shown as "?"), match total and rating.
        Then each of ``steps`` (the features' parts: their rows of the member, the keyed
        marks they keep, ``Forgetting.add_step``), all in one commit.
        """
        now = time.time()
        async with self._write() as db:
            touched = await ops.forget(db, guild_id, user_id)
            for step in steps:
                touched += await step(db, now)
            return touched

    # ----- matches and members' preferences ----------------------------------

    async def new_match(self, guild_id: int, expected: int | None = None) -> NewMatch:
        """``/ddz newmatch``: end the current match (kept in the history, no winner) and
        start the next at zero, unless it is not ``expected`` or has no settled hand yet
        (then ``started`` is False and nothing changed). Committed on return."""
        now = time.time()
        return await self._transaction(lambda db: matches.new_match(db, guild_id, expected, now))

    async def previous_match(self, guild_id: int) -> MatchStandings | None:
        """The last finished match: final totals, how it ended, winners (None: none yet)."""
        return await self._fetch(lambda db: matches.previous_match(db, guild_id))

    async def autoplay_pace(self, guild_id: int, user_id: int) -> float | None:
        """The member's stored auto-play pace in this guild (seconds), or None. (Read on
        every join: through ``_transaction``, so SQLite answers it with the writes queued
        meanwhile instead of after them.)"""
        return await self._transaction(lambda db: matches.autoplay_pace(db, guild_id, user_id))

    async def save_autoplay_pace(self, guild_id: int, user_id: int, pace: float) -> None:
        """Store the member's auto-play pace in this guild (seconds; committed)."""
        await self._transaction(
            lambda db: matches.save_autoplay_pace(db, guild_id, user_id, pace))

    # ----- turn pings (docs/RULES.md §Turn pings) --------------------------------

    async def notify(self, guild_id: int, user_id: int) -> bool:
        """The member's ``/ddz notify`` choice in this guild (True when never set)."""
        return await self._fetch(lambda db: pings.notify(db, guild_id, user_id))

    async def save_notify(self, guild_id: int, user_id: int, on: bool) -> None:
        """Store the member's ``/ddz notify`` choice in this guild (committed)."""
        await self._transaction(lambda db: pings.save_notify(db, guild_id, user_id, on))

    async def save_sent_ping(self, ping: SentPing) -> None:
        """Remember a turn ping posted, to delete after a restart (committed)."""
        await self._transaction(lambda db: pings.save_sent(db, ping))

    async def delete_sent_ping(self, table_id: str, message_id: int) -> None:
        """Forget a turn ping deleted (committed)."""
        await self._transaction(lambda db: pings.delete_sent(db, table_id, message_id))

    async def sent_pings(self, shards: ShardSet | None = None) -> list[SentPing]:
        """The turn pings posted and not yet deleted (on ``shards`` only, if given)."""
        return await self._fetch(lambda db: pings.sent(db, shards))

    # ----- the server's secret key (the private deals' seeds and marks) -------------

    async def server_key(self, guild_id: int, candidate: str) -> str:
        """The server's secret key (hex) of its private deals' seeds and marks
        (``bot.game.private.keyed_seed``), ``candidate`` the first time."""
        return await self._transaction(lambda db: ops.server_key(db, guild_id, candidate))
