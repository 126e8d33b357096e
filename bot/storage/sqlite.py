"""SQLite implementation of the Repository (aiosqlite; WAL; versioned migrations).

Spec: PRODUCT.md §State and persistence, RULES.md §Match. One connection in
autocommit mode; every public call runs under one asyncio.Lock, writes inside an
explicit ``BEGIN IMMEDIATE`` … ``COMMIT``, so nothing is visible (or durable)
half-done and concurrent calls on one guild ledger serialize. Several processes
on one file serialize through SQLite's write lock (``busy_timeout``).
``synchronous=NORMAL`` in WAL mode survives a killed process (not a power cut).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiosqlite

from bot.storage.models import (
    FinishedHand,
    GuildSettings,
    HandPoint,
    LeaderRow,
    MatchStandings,
    PlayerStats,
    RatingRow,
    SeatChange,
    Settlement,
    Standing,
)
from bot.storage.outcome import HandOutcome, outcome_of, player_rows
from bot.storage.sqlite_ops import (
    add_stats,
    current_match,
    end_match,
    match_winners,
    migrate,
    read_settings,
    save_name,
    save_table,
    scalar,
    scrub,
    user_version,
)
from bot.storage.sqlite_ratings import apply_ratings, hand_points, member_rating, rating_rows


class SqliteStorage:
    """The SQLite Repository. Build with ``await SqliteStorage.open(path)``."""

    def __init__(self, db: aiosqlite.Connection, path: str) -> None:
        self._db = db
        self.path = path
        self._lock = asyncio.Lock()
        self._fault: Callable[[str], None] = lambda point: None
        """Test hook called at named points inside settle_hand ("ledger", "stats", "ratings",
        "commit")."""

    # ----- lifecycle ---------------------------------------------------------

    @classmethod
    async def open(
        cls, path: str | Path = "ddz.sqlite3", *, busy_ms: int = 10_000
    ) -> SqliteStorage:
        """Open (creating if needed) the database and apply pending migrations.

        Raises sqlite3.Error if the file is not a database or a migration fails
        (the failed migration is rolled back; earlier ones stay applied).
        """
        db = await aiosqlite.connect(str(path), isolation_level=None)
        try:
            await db.execute(f"PRAGMA busy_timeout = {int(busy_ms)}")
            await db.execute("PRAGMA journal_mode = WAL")
            await db.execute("PRAGMA synchronous = NORMAL")
            await db.execute("PRAGMA foreign_keys = ON")
            await migrate(db)
        except BaseException:
            await db.close()
            raise
        return cls(db, str(path))

    async def close(self) -> None:
        """Close the connection (waits for a running call to finish)."""
        async with self._lock:
            await self._db.close()

    async def schema_version(self) -> int:
        """The applied schema version (PRAGMA user_version)."""
        async with self._lock:
            return await user_version(self._db)

    @asynccontextmanager
    async def _read(self) -> AsyncIterator[aiosqlite.Connection]:
        async with self._lock:
            yield self._db

    @asynccontextmanager
    async def _write(self) -> AsyncIterator[aiosqlite.Connection]:
        """One IMMEDIATE transaction: committed on exit, rolled back on any error."""
        async with self._lock:
            await self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
                await self._db.execute("COMMIT")
            except BaseException:
                if self._db.in_transaction:
                    await self._db.execute("ROLLBACK")
                raise

    # ----- settings ----------------------------------------------------------

    async def get_settings(self, guild_id: int) -> GuildSettings:
        """The guild's settings; defaults when never saved."""
        async with self._read() as db:
            return await read_settings(db, guild_id)

    async def save_settings(self, guild_id: int, settings: GuildSettings) -> None:
        """Upsert the guild's settings (committed on return)."""
        async with self._write() as db:
            await db.execute(
                "INSERT INTO guild_settings VALUES (?, ?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE"
                " SET turn_seconds_play = excluded.turn_seconds_play,"
                " turn_seconds_bid = excluded.turn_seconds_bid, rules = excluded.rules,"
                " language = excluded.language",
                (
                    guild_id,
                    settings.turn_seconds_play,
                    settings.turn_seconds_bid,
                    settings.rules.model_dump_json(),
                    settings.language,
                ),
            )

    # ----- open tables -------------------------------------------------------

    async def save_table(self, table: Any) -> None:
        """Upsert the serialized Table (committed on return)."""
        async with self._write() as db:
            await save_table(db, table, time.time())

    async def delete_table(self, table_id: str) -> None:
        """Remove an open table; unknown ids are ignored."""
        async with self._write() as db:
            await db.execute("DELETE FROM open_tables WHERE table_id = ?", (table_id,))

    async def load_table_states(self) -> list[str]:
        """The raw Table JSON of every open table, oldest first."""
        async with self._read() as db:
            rows = await db.execute_fetchall(
                "SELECT state FROM open_tables ORDER BY created_at, table_id"
            )
        return [row[0] for row in rows]

    async def load_open_tables(self) -> list[Any]:
        """Every open table as a ``bot.game.table.Table``, oldest first."""
        from bot.game.table import Table

        return [Table.model_validate_json(state) for state in await self.load_table_states()]

    # ----- settlement --------------------------------------------------------

    async def settle_hand(self, table: Any, hand_id: str) -> Settlement:
        """Settle the table's finished hand exactly once, saving the table in the same commit.

        One ``BEGIN IMMEDIATE`` transaction updates the guild ledger, ends the match when
        someone reaches the target (RULES.md §Match: all at ≥ target share the win; with
        ``match_hands`` the best totals after that many hands), starts the next match at
        zero, updates player stats, skill ratings (docs/RATINGS.md) and display names,
        records the finished hand (with each seat's match total and rating after it)
        and saves ``table``. Computer seats (``user_id`` None) get no ledger/stats rows.
        A known ``hand_id`` returns the recorded Settlement (``replayed=True``) and
        changes nothing. Raises ValueError when the table has no finished hand.
        """
        outcome = outcome_of(table)
        async with self._write() as db:
            rows = await db.execute_fetchall(
                "SELECT settlement FROM finished_hands WHERE hand_id = ?", (hand_id,)
            )
            if rows:
                recorded = Settlement.model_validate_json(rows[0][0])
                return recorded.model_copy(update={"replayed": True})
            return await self._settle(db, table, hand_id, outcome)

    async def _settle(
        self, db: aiosqlite.Connection, table: Any, hand_id: str, outcome: HandOutcome
    ) -> Settlement:
        now = time.time()
        guild_id = int(table.guild_id)
        rules = (await read_settings(db, guild_id)).rules
        match_no, hands = await current_match(db, guild_id, now)
        changes: list[SeatChange] = []
        for seat in outcome.seats:
            total = None
            if seat.user_id is not None:
                await db.execute(
                    "INSERT INTO ledger VALUES (?, ?, ?, ?, 1) ON CONFLICT DO UPDATE"
                    " SET total = total + excluded.total, hands = hands + 1",
                    (guild_id, match_no, seat.user_id, seat.points),
                )
                total = await scalar(
                    db,
                    "SELECT total FROM ledger WHERE guild_id = ? AND match_no = ? AND user_id = ?",
                    (guild_id, match_no, seat.user_id),
                )
            changes.append(
                SeatChange(
                    seat=seat.seat,
                    user_id=seat.user_id,
                    name=seat.name,
                    role=seat.role,
                    points=seat.points,
                    total=total,
                )
            )
        self._fault("ledger")
        hands += 1
        for seat in outcome.seats:
            if seat.user_id is not None:
                await add_stats(db, guild_id, seat.user_id, seat)
                await save_name(db, guild_id, seat.user_id, seat.name, now)
        self._fault("stats")
        ratings = await apply_ratings(db, guild_id, outcome, now)
        self._fault("ratings")
        totals = dict(
            await db.execute_fetchall(
                "SELECT user_id, total FROM ledger WHERE guild_id = ? AND match_no = ?",
                (guild_id, match_no),
            )
        )
        winners = match_winners(totals, hands, rules)
        hand_no = await scalar(
            db, "SELECT COALESCE(MAX(hand_no), 0) + 1 FROM finished_hands WHERE guild_id = ?",
            (guild_id,))
        settlement = Settlement(
            hand_id=hand_id,
            guild_id=guild_id,
            table_id=str(table.id),
            match_no=match_no,
            changes=changes,
            winner=outcome.winner,
            match_over=bool(winners),
            winners=winners,
            final_totals=totals if winners else {},
            target=rules.target_points,
            match_hands=rules.match_hands,
            hand_no=int(hand_no),
        )
        if winners:
            await end_match(db, guild_id, match_no, hands, totals, winners, rules, now)
        else:
            await db.execute(
                "UPDATE guild_match SET hands = ? WHERE guild_id = ?", (hands, guild_id)
            )
        await db.execute(
            "INSERT INTO finished_hands (hand_id, guild_id, table_id, match_no, finished_at,"
            " hand, settlement, hand_no) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (
                hand_id,
                guild_id,
                settlement.table_id,
                match_no,
                now,
                outcome.hand_json,
                settlement.model_dump_json(),
                settlement.hand_no,
            ),
        )
        await db.executemany(
            "INSERT INTO hand_players VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (hand_id, *row)
                for row in player_rows(outcome, [c.total for c in changes], ratings)
            ],
        )
        await save_table(db, table, now)
        self._fault("commit")
        return settlement

    async def finished_hand(self, hand_id: str) -> tuple[str, Settlement] | None:
        """The recorded (Hand JSON, Settlement) of a settled hand, or None."""
        async with self._read() as db:
            rows = await db.execute_fetchall(
                "SELECT hand, settlement FROM finished_hands WHERE hand_id = ?", (hand_id,)
            )
        if not rows:
            return None
        return rows[0][0], Settlement.model_validate_json(rows[0][1])

    async def numbered_hand(self, guild_id: int, hand_no: int) -> FinishedHand | None:
        """The guild's settled hand number ``hand_no``, or None."""
        return await self._finished("f.guild_id = ? AND f.hand_no = ?", (guild_id, hand_no))

    async def last_hand_of(self, guild_id: int, user_id: int) -> FinishedHand | None:
        """The member's latest settled hand in the guild, or None."""
        return await self._finished(
            "f.guild_id = ? AND f.hand_id IN (SELECT hand_id FROM hand_players WHERE user_id = ?)"
            " ORDER BY f.hand_no DESC LIMIT 1", (guild_id, user_id))

    async def _finished(self, where: str, args: tuple[Any, ...]) -> FinishedHand | None:
        async with self._read() as db:
            rows = await db.execute_fetchall(
                "SELECT f.hand_no, f.hand_id, f.guild_id, f.finished_at, f.hand, f.settlement"
                f" FROM finished_hands f WHERE {where}", args)
            if not rows:
                return None
            no, hand_id, guild_id, at, hand, blob = rows[0]
            seats = dict(await db.execute_fetchall(
                "SELECT seat, user_id FROM hand_players WHERE hand_id = ?", (hand_id,)))
        settlement = Settlement.model_validate_json(blob)
        return FinishedHand(hand_no=no, hand_id=hand_id, guild_id=guild_id, finished_at=at,
                            hand_json=hand, settlement=settlement.model_copy(update={"hand_no": no}),
                            user_ids=(seats.get(0), seats.get(1), seats.get(2)))

    # ----- queries -----------------------------------------------------------

    async def match_standings(self, guild_id: int) -> MatchStandings:
        """The guild's current match: totals toward the target, best first."""
        async with self._read() as db:
            rules = (await read_settings(db, guild_id)).rules
            rows = await db.execute_fetchall(
                "SELECT match_no, hands FROM guild_match WHERE guild_id = ?", (guild_id,)
            )
            match_no, hands = (rows[0][0], rows[0][1]) if rows else (1, 0)
            last = await scalar(
                db, "SELECT MAX(hand_no) FROM finished_hands WHERE guild_id = ?", (guild_id,))
            ledger = await db.execute_fetchall(
                "SELECT l.user_id, n.name, l.total, l.hands FROM ledger l"
                " LEFT JOIN display_names n ON n.guild_id = l.guild_id AND n.user_id = l.user_id"
                " WHERE l.guild_id = ? AND l.match_no = ?"
                " ORDER BY l.total DESC, l.hands, l.user_id",
                (guild_id, match_no),
            )
        return MatchStandings(
            guild_id=guild_id,
            match_no=match_no,
            target=rules.target_points,
            match_hands=rules.match_hands,
            hands_played=hands,
            last_hand_no=last,
            standings=[Standing(user_id=u, name=n, total=t, hands=h) for u, n, t, h in ledger],
        )

    async def leaderboard(self, guild_id: int, limit: int = 10) -> list[LeaderRow]:
        """All-time rows (matches won, then net points, then hands won), best first."""
        async with self._read() as db:
            rows = await db.execute_fetchall(
                "SELECT s.user_id, n.name, s.matches_won, s.wins_landlord + s.wins_peasant,"
                " s.hands, s.net_points FROM player_stats s"
                " LEFT JOIN display_names n ON n.guild_id = s.guild_id AND n.user_id = s.user_id"
                " WHERE s.guild_id = ?"
                " ORDER BY s.matches_won DESC, s.net_points DESC,"
                " s.wins_landlord + s.wins_peasant DESC, s.user_id LIMIT ?",
                (guild_id, limit),
            )
        return [
            LeaderRow(user_id=u, name=n, matches_won=m, hands_won=w, hands_played=h, net_points=p)
            for u, n, m, w, h, p in rows
        ]

    async def player_stats(self, guild_id: int, user_id: int) -> PlayerStats | None:
        """One player's record in the guild, or None if they never finished a hand."""
        async with self._read() as db:
            cursor = await db.execute(
                "SELECT * FROM player_stats WHERE guild_id = ? AND user_id = ?",
                (guild_id, user_id),
            )
            row = await cursor.fetchone()
            if row is None:
                return None
            columns = [d[0] for d in cursor.description]
            name = await scalar(
                db,
                "SELECT name FROM display_names WHERE guild_id = ? AND user_id = ?",
                (guild_id, user_id),
            )
            current = await scalar(
                db,
                "SELECT l.total FROM ledger l JOIN guild_match g ON g.guild_id = l.guild_id"
                " AND g.match_no = l.match_no WHERE l.guild_id = ? AND l.user_id = ?",
                (guild_id, user_id),
            )
            rating = await member_rating(db, guild_id, user_id)
            last = await scalar(
                db,
                "SELECT MAX(f.hand_no) FROM finished_hands f JOIN hand_players p"
                " ON p.hand_id = f.hand_id WHERE f.guild_id = ? AND p.user_id = ?",
                (guild_id, user_id),
            )
        data = dict(zip(columns, row, strict=True))
        data.pop("guild_id")
        return PlayerStats(name=name, current_total=current or 0, rating=rating,
                           last_hand_no=last, **data)

    async def rating_board(self, guild_id: int) -> list[RatingRow]:
        """The guild's ratings, members and computer levels, best ordinal (μ − 3σ) first."""
        async with self._read() as db:
            return await rating_rows(db, guild_id)

    async def hand_history(self, guild_id: int, user_id: int, limit: int = 50) -> list[HandPoint]:
        """The member's last ``limit`` settled hands in the guild, oldest first."""
        async with self._read() as db:
            return await hand_points(db, guild_id, user_id, limit)

    async def remember_name(self, guild_id: int, user_id: int, name: str) -> None:
        """Store the display name shown in leaderboards (committed)."""
        async with self._write() as db:
            await save_name(db, guild_id, user_id, name, time.time())

    async def forget_user(self, guild_id: int | None, user_id: int) -> int:
        """Delete a user's data in one guild (None: every guild); returns rows touched.

        Removes stats, ledger totals, match wins, skill ratings and display names;
        finished-hand records keep their points but lose the user id, name (shown as
        "?"), match total and rating.
        """
        where = "user_id = ?" + ("" if guild_id is None else " AND guild_id = ?")
        args: tuple[int, ...] = (user_id,) if guild_id is None else (user_id, guild_id)
        touched = 0
        async with self._write() as db:
            for name in ("player_stats", "ledger", "match_winners", "display_names", "ratings"):
                cursor = await db.execute(f"DELETE FROM {name} WHERE {where}", args)
                touched += cursor.rowcount
            hands = await db.execute_fetchall(
                "SELECT f.hand_id, f.settlement FROM finished_hands f WHERE f.hand_id IN"
                " (SELECT hand_id FROM hand_players WHERE user_id = ?)"
                + ("" if guild_id is None else " AND f.guild_id = ?"),
                args,
            )
            for hand_id, blob in hands:
                await db.execute(
                    "UPDATE finished_hands SET settlement = ? WHERE hand_id = ?",
                    (scrub(blob, user_id), hand_id),
                )
                cursor = await db.execute(
                    "UPDATE hand_players SET user_id = NULL, total = NULL, mu = NULL, sigma = NULL"
                    " WHERE hand_id = ? AND user_id = ?",
                    (hand_id, user_id),
                )
                touched += cursor.rowcount
        return touched
