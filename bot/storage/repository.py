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

ForgetStep = Callable[[Sql, float], Awaitable[int]]
"""A feature's part of a member's deletion, inside ``forget_user``'s transaction:
``step(db, now)`` → rows touched (its rows of the member, the keyed marks it keeps)."""


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

    def writing(self) -> AbstractAsyncContextManager[Sql]:
        """One transaction for a feature store's writes (committed on exit, rolled back on
        error) that may await other things than the connection's calls."""

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
                          steps: Sequence[ForgetStep] = ()) -> int:
        """Delete a user's data in one guild (None: every guild), and run each of ``steps``
        (the features' parts of it, ``Forgetting.add_step``) in the same commit; rows
        touched. Finished-hand records keep their points but lose the user id, name,
        match total and rating."""

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

    async def server_key(self, guild_id: int, candidate: str) -> str:
        """The server's secret key (hex) of its private deals' seeds and marks;
        ``candidate`` the first time."""

