"""SQL steps of the SQLite Repository; each runs inside the caller's lock / transaction.

Spec: RULES.md §Match (winners, new match at zero), PRODUCT.md §State and persistence.
"""

from __future__ import annotations

import json
from typing import Any

import aiosqlite

from bot.game.match import Match
from bot.rules import RuleSet
from bot.storage.migrations import MIGRATIONS
from bot.storage.models import GuildSettings


async def user_version(db: aiosqlite.Connection) -> int:
    """The applied schema version (``PRAGMA user_version``, 0 for a new file)."""
    return int(await scalar(db, "PRAGMA user_version", ()))


async def migrate(db: aiosqlite.Connection) -> None:
    """Apply MIGRATIONS[version:] in order, each in its own transaction."""
    version = await user_version(db)
    for number, script in enumerate(MIGRATIONS[version:], start=version + 1):
        try:
            await db.executescript(
                f"BEGIN IMMEDIATE;\n{script}\nPRAGMA user_version = {number};\nCOMMIT;"
            )
        except BaseException:
            if db.in_transaction:
                await db.execute("ROLLBACK")
            raise


async def scalar(db: aiosqlite.Connection, sql: str, args: tuple[Any, ...]) -> Any:
    """The first column of the first row of ``sql``, or None when no row matches."""
    rows = await db.execute_fetchall(sql, args)
    return rows[0][0] if rows else None


async def read_settings(db: aiosqlite.Connection, guild_id: int) -> GuildSettings:
    """The guild's stored settings, defaults when never saved (no commit)."""
    rows = await db.execute_fetchall(
        "SELECT turn_seconds_play, turn_seconds_bid, rules, language FROM guild_settings"
        " WHERE guild_id = ?",
        (guild_id,),
    )
    if not rows:
        return GuildSettings()
    play, bid, rules, language = rows[0]
    return GuildSettings(
        turn_seconds_play=play,
        turn_seconds_bid=bid,
        rules=RuleSet.model_validate_json(rules),
        language=language,
    )


async def save_table(db: aiosqlite.Connection, table: Any, now: float) -> None:
    """Upsert the Table JSON in ``open_tables`` (``now``: seconds; caller commits)."""
    await db.execute(
        "INSERT INTO open_tables VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (table_id) DO UPDATE"
        " SET state = excluded.state, channel_id = excluded.channel_id,"
        " updated_at = excluded.updated_at",
        (
            str(table.id),
            int(table.guild_id),
            int(table.channel_id),
            table.model_dump_json(),
            now,
            now,
        ),
    )


async def current_match(db: aiosqlite.Connection, guild_id: int, now: float) -> tuple[int, int]:
    """(match_no, hands played) of the guild's current match, creating match 1."""
    await db.execute("INSERT OR IGNORE INTO guild_match VALUES (?, 1, 0, ?)", (guild_id, now))
    rows = await db.execute_fetchall(
        "SELECT match_no, hands FROM guild_match WHERE guild_id = ?", (guild_id,)
    )
    return int(rows[0][0]), int(rows[0][1])


def match_winners(totals: dict[int, int], hands: int, rules: RuleSet) -> list[int]:
    """Winners once ``hands`` hands gave ``totals`` (RULES.md §Match via ``Match``); [] = go on."""
    match = Match.for_rules(rules)
    match.totals, match.hands = dict(totals), hands
    return match.winners()


async def end_match(
    db: aiosqlite.Connection,
    guild_id: int,
    match_no: int,
    hands: int,
    totals: dict[int, int],
    winners: list[int],
    rules: RuleSet,
    now: float,
) -> None:
    await db.execute(
        "INSERT INTO match_results VALUES (?, ?, ?, ?, ?)",
        (guild_id, match_no, rules.target_points, hands, now),
    )
    await db.executemany(
        "INSERT INTO match_winners VALUES (?, ?, ?, ?)",
        [(guild_id, match_no, u, totals[u]) for u in winners],
    )
    await db.executemany(
        "UPDATE player_stats SET matches_won = matches_won + 1 WHERE guild_id = ? AND user_id = ?",
        [(guild_id, u) for u in winners],
    )
    await db.execute(
        "UPDATE guild_match SET match_no = ?, hands = 0, started_at = ? WHERE guild_id = ?",
        (match_no + 1, now, guild_id),
    )


async def add_stats(db: aiosqlite.Connection, guild_id: int, user_id: int, seat: Any) -> None:
    """Add one settled hand (a ``SeatOutcome``) to the member's stats (caller commits)."""
    landlord = seat.role == "landlord"
    await db.execute(
        "INSERT INTO player_stats (guild_id, user_id) VALUES (?, ?) ON CONFLICT DO NOTHING",
        (guild_id, user_id),
    )
    await db.execute(
        "UPDATE player_stats SET hands = hands + 1, hands_landlord = hands_landlord + ?,"
        " wins_landlord = wins_landlord + ?, wins_peasant = wins_peasant + ?,"
        " springs = springs + ?, bombs = bombs + ?, net_points = net_points + ?,"
        " best_hand = MAX(best_hand, ?) WHERE guild_id = ? AND user_id = ?",
        (
            int(landlord),
            int(landlord and seat.won),
            int(not landlord and seat.won),
            int(seat.spring),
            seat.bombs,
            seat.points,
            seat.points,
            guild_id,
            user_id,
        ),
    )


async def save_name(
    db: aiosqlite.Connection, guild_id: int, user_id: int, name: str, now: float
) -> None:
    """Upsert the member's display name (``now``: seconds; caller commits)."""
    await db.execute(
        "INSERT INTO display_names VALUES (?, ?, ?, ?) ON CONFLICT DO UPDATE"
        " SET name = excluded.name, updated_at = excluded.updated_at",
        (guild_id, user_id, name, now),
    )


def scrub(blob: str, user_id: int) -> str:
    """A Settlement JSON with ``user_id`` replaced by an anonymous entry."""
    data = json.loads(blob)
    for change in data["changes"]:
        if change["user_id"] == user_id:
            change["user_id"] = None
            change["name"] = "?"
            change["total"] = None
    data["winners"] = [u for u in data["winners"] if u != user_id]
    data["final_totals"] = {k: v for k, v in data["final_totals"].items() if int(k) != user_id}
    return json.dumps(data)
