"""The Repository's SQL steps, shared by the SQLite and PostgreSQL backends.

Each function runs on a ``Sql`` inside the caller's transaction (the backend owns
connections, locking and commits). Spec: docs/RULES.md §Match (winners, new match at zero),
docs/ARCHITECTURE.md §Where state lives.

Concurrency (several connections or processes on one database): a settlement first
claims its ``hand_id`` with ``INSERT … ON CONFLICT DO NOTHING`` on the primary key of
``finished_hands`` (a second, concurrent claim waits for the first to commit, then
finds the row: exactly once, no check-then-insert), then locks the guild's
``guild_match`` row with an upsert, so settlements of one guild serialize and all count.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from bot.game.match import match_winners
from bot.game.outcome import HandOutcome, SeatOutcome
from bot.game.table import Table
from bot.rules import RuleSet
from bot.storage.outcome import player_rows
from bot.storage.ratings import apply_ratings, member_rating
from bot.storage.sql import Sql, scalar
from bot.values import (
    FinishedHand,
    GuildSettings,
    LeaderRow,
    MatchStandings,
    PlayerStats,
    SeatChange,
    Settlement,
    ShardSet,
    Standing,
)

STAT_COLUMNS = (
    "hands",
    "hands_landlord",
    "wins_landlord",
    "wins_peasant",
    "springs",
    "bombs",
    "net_points",
    "best_hand",
    "matches_won",
)
"""The counters of ``player_stats`` (after guild_id, user_id), as in PlayerStats."""

USER_TABLES = ("player_stats", "ledger", "match_winners", "display_names", "ratings",
               "member_prefs", "member_pings")
"""The core's tables whose rows belong to one member (deleted by ``forget``; a feature's
are deleted by its own step, ``Repository.forget_user``'s ``steps``, with
``delete_member_rows``)."""


async def delete_member_rows(db: Sql, tables: Sequence[str], guild_id: int | None,
                             user_id: int) -> int:
    """Delete the rows of ``user_id`` in one guild (None: every guild) from each of
    ``tables`` (each with ``guild_id`` and ``user_id`` columns), in order; rows deleted."""
    where = "user_id = ?" + ("" if guild_id is None else " AND guild_id = ?")
    args: tuple[int, ...] = (user_id,) if guild_id is None else (user_id, guild_id)
    touched = 0
    for name in tables:
        touched += await db.execute(f"DELETE FROM {name} WHERE {where}", args)
    return touched


# ----- settings and open tables ---------------------------------------------------------


async def read_settings(db: Sql, guild_id: int) -> GuildSettings:
    """The guild's stored settings, defaults when never saved."""
    rows = await db.fetch(
        "SELECT turn_seconds_play, turn_seconds_bid, rules, language, counter, web, timezone,"
        " turn_ping, turn_ping_after, features FROM guild_settings"
        " WHERE guild_id = ?",
        (guild_id,),
    )
    if not rows:
        return GuildSettings()
    (play, bid, rules, language, counter, web, timezone, turn_ping, turn_ping_after,
     features) = rows[0]
    return GuildSettings(
        turn_seconds_play=play,
        turn_seconds_bid=bid,
        rules=RuleSet.model_validate_json(rules),
        language=language,
        counter=bool(counter),
        web=bool(web),
        timezone=timezone,
        turn_ping=turn_ping,
        turn_ping_after=turn_ping_after,
        features=json.loads(features),
    )


async def write_settings(db: Sql, guild_id: int, settings: GuildSettings) -> None:
    """Upsert the guild's settings."""
    await db.execute(
        "INSERT INTO guild_settings (guild_id, turn_seconds_play, turn_seconds_bid, rules,"
        " language, counter, web, timezone, turn_ping, turn_ping_after, features)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
        " ON CONFLICT (guild_id) DO UPDATE"
        " SET turn_seconds_play = excluded.turn_seconds_play,"
        " turn_seconds_bid = excluded.turn_seconds_bid, rules = excluded.rules,"
        " language = excluded.language, counter = excluded.counter, web = excluded.web,"
        " timezone = excluded.timezone, turn_ping = excluded.turn_ping,"
        " turn_ping_after = excluded.turn_ping_after, features = excluded.features",
        (
            guild_id,
            settings.turn_seconds_play,
            settings.turn_seconds_bid,
            settings.rules.model_dump_json(),
            settings.language,
            int(settings.counter),
            int(settings.web),
            settings.timezone,
            settings.turn_ping,
            settings.turn_ping_after,
            json.dumps(settings.features, separators=(",", ":"), sort_keys=True),
        ),
    )


SAVE_TABLE = (
    "INSERT INTO open_tables VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (table_id) DO UPDATE"
    " SET state = excluded.state, channel_id = excluded.channel_id,"
    " updated_at = excluded.updated_at"
)
"""Upsert of one open table; arguments from ``save_table_args``."""


def save_table_args(table: Table, now: float) -> tuple[str, int, int, str, float, float]:
    """The arguments of ``SAVE_TABLE`` for ``table`` at ``now`` (seconds)."""
    return (str(table.id), int(table.guild_id), int(table.channel_id), table.model_dump_json(),
            now, now)


async def save_table(db: Sql, table: Table, now: float) -> None:
    """Upsert the Table JSON in ``open_tables`` (``now``: seconds)."""
    await db.execute(SAVE_TABLE, save_table_args(table, now))


async def table_states(db: Sql, shards: ShardSet | None = None) -> list[str]:
    """The raw Table JSON of every open table (of ``shards`` only, if given), oldest first."""
    where, args = "", tuple[int, ...]()
    if shards is not None:
        ids = ", ".join(str(int(i)) for i in shards.ids)
        where, args = f" WHERE ((guild_id >> 22) % ?) IN ({ids})", (shards.count,)
    rows = await db.fetch(
        f"SELECT state FROM open_tables{where} ORDER BY created_at, table_id", args
    )
    return [row[0] for row in rows]


# ----- settlement ------------------------------------------------------------------------


async def recorded_settlement(db: Sql, hand_id: str) -> Settlement | None:
    """The Settlement recorded for ``hand_id`` (``replayed=True``), or None."""
    blob = await scalar(db, "SELECT settlement FROM finished_hands WHERE hand_id = ?", (hand_id,))
    if blob is None:
        return None
    return Settlement.model_validate_json(blob).model_copy(update={"replayed": True})


async def settle(
    db: Sql,
    table: Table,
    hand_id: str,
    outcome: HandOutcome,
    now: float,
    fault: Callable[[str], None] = lambda point: None,
) -> Settlement:
    """Settle one finished hand (see ``Repository.settle_hand``), inside the caller's transaction.

    ``fault`` is a test hook called at "ledger", "stats", "ratings" and "commit".
    """
    guild_id = int(table.guild_id)
    claimed = await db.fetch(
        "INSERT INTO finished_hands (hand_id, guild_id, table_id, match_no, finished_at, hand,"
        " settlement, channel_id) VALUES (?, ?, ?, 0, ?, ?, '', ?) ON CONFLICT (hand_id)"
        " DO NOTHING RETURNING hand_id",
        (hand_id, guild_id, str(table.id), now, outcome.hand_json, int(table.channel_id)),
    )
    if not claimed:
        recorded = await recorded_settlement(db, hand_id)
        assert recorded is not None  # the conflicting claim has committed
        return recorded
    rules = (await read_settings(db, guild_id)).rules
    match_no, hands = await current_match(db, guild_id, now)
    # The hands of a table whose feature deals them (a tournament's, docs/RULES.md
    # §Tournaments) leave the server's match alone.
    counted = not table.feature_deals
    changes: list[SeatChange] = []
    for seat in outcome.seats:
        total = None
        if seat.user_id is not None and counted:
            total = await scalar(
                db,
                "INSERT INTO ledger VALUES (?, ?, ?, ?, 1)"
                " ON CONFLICT (guild_id, match_no, user_id) DO UPDATE"
                " SET total = ledger.total + excluded.total, hands = ledger.hands + 1"
                " RETURNING total",
                (guild_id, match_no, seat.user_id, seat.points),
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
    fault("ledger")
    hands += counted
    for seat in outcome.seats:
        if seat.user_id is not None:
            await add_stats(db, guild_id, seat.user_id, seat)
            await save_name(db, guild_id, seat.user_id, seat.name, now)
    fault("stats")
    ratings = await apply_ratings(db, guild_id, outcome, now)
    fault("ratings")
    totals: dict[int, int] = dict(
        await db.fetch(
            "SELECT user_id, total FROM ledger WHERE guild_id = ? AND match_no = ?",
            (guild_id, match_no),
        )
    )
    decided = match_winners(totals, hands, rules) if counted else None
    winners = decided or []
    hand_no = await scalar(  # under the guild_match lock: numbers never collide
        db,
        "SELECT COALESCE(MAX(hand_no), 0) + 1 FROM finished_hands WHERE guild_id = ?",
        (guild_id,),
    )
    settlement = Settlement(
        hand_id=hand_id,
        guild_id=guild_id,
        table_id=str(table.id),
        match_no=match_no,
        changes=changes,
        winner=outcome.winner,
        match_over=decided is not None,
        winners=winners,
        final_totals=totals if decided is not None else {},
        target=rules.target_points,
        match_hands=rules.match_hands,
        hand_no=int(hand_no),
    )
    if decided is not None:
        await end_match(db, guild_id, match_no, hands, totals, winners, rules, now)
    else:
        await db.execute("UPDATE guild_match SET hands = ? WHERE guild_id = ?", (hands, guild_id))
    await db.execute(
        "UPDATE finished_hands SET match_no = ?, settlement = ?, hand_no = ? WHERE hand_id = ?",
        (match_no, settlement.model_dump_json(), settlement.hand_no, hand_id),
    )
    await db.executemany(
        "INSERT INTO hand_players (hand_id, seat, user_id, role, points, total, mu, sigma,"
        " computer) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [(hand_id, *row) for row in player_rows(outcome, [c.total for c in changes], ratings)],
    )
    await save_table(db, table, now)
    fault("commit")
    return settlement


async def current_match(db: Sql, guild_id: int, now: float) -> tuple[int, int]:
    """(match_no, hands played) of the guild's current match, creating match 1.

    The upsert locks the guild's row until the transaction ends (PostgreSQL), so two
    settlements of one guild never read the same count.
    """
    rows = await db.fetch(
        "INSERT INTO guild_match VALUES (?, 1, 0, ?) ON CONFLICT (guild_id)"
        " DO UPDATE SET hands = guild_match.hands RETURNING match_no, hands",
        (guild_id, now),
    )
    return int(rows[0][0]), int(rows[0][1])


async def end_match(
    db: Sql,
    guild_id: int,
    match_no: int,
    hands: int,
    totals: dict[int, int],
    winners: list[int],
    rules: RuleSet,
    now: float,
) -> None:
    """Record the finished match and its winners, and start match ``match_no + 1`` at zero."""
    await db.execute(
        "INSERT INTO match_results (guild_id, match_no, target, hands, ended_at, ended_by,"
        " match_hands) VALUES (?, ?, ?, ?, ?, ?, ?)",
        (guild_id, match_no, rules.target_points, hands, now,
         "target" if rules.match_hands is None else "hands", rules.match_hands),
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


async def add_stats(db: Sql, guild_id: int, user_id: int, seat: SeatOutcome) -> None:
    """Add one settled hand (a ``SeatOutcome``) to the member's stats."""
    landlord = seat.role == "landlord"
    await db.execute(
        "INSERT INTO player_stats (guild_id, user_id) VALUES (?, ?)"
        " ON CONFLICT (guild_id, user_id) DO NOTHING",
        (guild_id, user_id),
    )
    await db.execute(
        "UPDATE player_stats SET hands = hands + 1, hands_landlord = hands_landlord + ?,"
        " wins_landlord = wins_landlord + ?, wins_peasant = wins_peasant + ?,"
        " springs = springs + ?, bombs = bombs + ?, net_points = net_points + ?,"
        " best_hand = CASE WHEN best_hand > ? THEN best_hand ELSE ? END"
        " WHERE guild_id = ? AND user_id = ?",
        (
            int(landlord),
            int(landlord and seat.won),
            int(not landlord and seat.won),
            int(seat.spring),
            seat.bombs,
            seat.points,
            seat.points,
            seat.points,
            guild_id,
            user_id,
        ),
    )


async def save_name(db: Sql, guild_id: int, user_id: int, name: str, now: float) -> None:
    """Upsert the member's display name (``now``: seconds)."""
    await db.execute(
        "INSERT INTO display_names VALUES (?, ?, ?, ?) ON CONFLICT (guild_id, user_id)"
        " DO UPDATE SET name = excluded.name, updated_at = excluded.updated_at",
        (guild_id, user_id, name, now),
    )


async def finished_hand(db: Sql, hand_id: str) -> tuple[str, Settlement] | None:
    """The recorded (Hand JSON, Settlement) of a settled hand, or None."""
    rows = await db.fetch(
        "SELECT hand, settlement FROM finished_hands WHERE hand_id = ?", (hand_id,)
    )
    if not rows:
        return None
    return rows[0][0], Settlement.model_validate_json(rows[0][1])


async def finished_where(db: Sql, where: str, args: tuple[Any, ...]) -> FinishedHand | None:
    """The first settled hand matching ``where`` (on ``finished_hands f``), or None."""
    rows = await db.fetch(
        "SELECT f.hand_no, f.hand_id, f.guild_id, f.finished_at, f.hand, f.settlement,"
        f" f.channel_id FROM finished_hands f WHERE {where}",
        args,
    )
    if not rows:
        return None
    no, hand_id, guild_id, at, hand, blob, channel_id = rows[0]
    seats = dict(
        await db.fetch("SELECT seat, user_id FROM hand_players WHERE hand_id = ?", (hand_id,))
    )
    settlement = Settlement.model_validate_json(blob)
    return FinishedHand(
        hand_no=no,
        hand_id=hand_id,
        guild_id=guild_id,
        finished_at=at,
        hand_json=hand,
        settlement=settlement.model_copy(update={"hand_no": no}),
        user_ids=(seats.get(0), seats.get(1), seats.get(2)),
        channel_id=channel_id,
    )


async def numbered_hand(db: Sql, guild_id: int, hand_no: int) -> FinishedHand | None:
    """The guild's settled hand number ``hand_no``, or None."""
    return await finished_where(db, "f.guild_id = ? AND f.hand_no = ?", (guild_id, hand_no))


async def last_hand_of(db: Sql, guild_id: int, user_id: int) -> FinishedHand | None:
    """The member's latest settled hand in the guild, or None."""
    return await finished_where(
        db,
        "f.guild_id = ? AND f.hand_id IN (SELECT hand_id FROM hand_players WHERE user_id = ?)"
        " ORDER BY f.hand_no DESC LIMIT 1",
        (guild_id, user_id),
    )


# ----- queries ---------------------------------------------------------------------------


async def match_standings(db: Sql, guild_id: int) -> MatchStandings:
    """The guild's current match: totals toward the target, best first."""
    rules = (await read_settings(db, guild_id)).rules
    rows = await db.fetch("SELECT match_no, hands FROM guild_match WHERE guild_id = ?", (guild_id,))
    match_no, hands = (rows[0][0], rows[0][1]) if rows else (1, 0)
    last = await scalar(
        db, "SELECT MAX(hand_no) FROM finished_hands WHERE guild_id = ?", (guild_id,)
    )
    ledger = await db.fetch(
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


async def leaderboard(db: Sql, guild_id: int, limit: int) -> list[LeaderRow]:
    """All-time rows (matches won, then net points, then hands won), best first."""
    rows = await db.fetch(
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


async def player_stats(db: Sql, guild_id: int, user_id: int) -> PlayerStats | None:
    """One player's record in the guild, or None if they never finished a hand."""
    rows = await db.fetch(
        f"SELECT {', '.join(STAT_COLUMNS)} FROM player_stats WHERE guild_id = ? AND user_id = ?",
        (guild_id, user_id),
    )
    if not rows:
        return None
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
    data = dict(zip(STAT_COLUMNS, rows[0], strict=True))
    return PlayerStats(
        user_id=user_id,
        name=name,
        current_total=current or 0,
        rating=rating,
        last_hand_no=last,
        **data,
    )


async def forget(db: Sql, guild_id: int | None, user_id: int) -> int:
    """Delete a user's data in one guild (None: every guild); returns rows touched.

    Removes stats, ledger totals, match wins, skill ratings and display names;
    finished-hand records keep their points but lose the user id, name (shown as "?"),
    match total and rating.
    """
    where = "user_id = ?" + ("" if guild_id is None else " AND guild_id = ?")
    args: tuple[int, ...] = (user_id,) if guild_id is None else (user_id, guild_id)
    # Lock the guilds' match rows first, in the order settle() does (no deadlock with it).
    await db.execute(
        "UPDATE guild_match SET hands = hands WHERE guild_id IN"
        " (SELECT guild_id FROM ledger WHERE " + where + ")",
        args,
    )
    touched = await delete_member_rows(db, USER_TABLES, guild_id, user_id)
    hands = await db.fetch(
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
        touched += await db.execute(
            "UPDATE hand_players SET user_id = NULL, total = NULL, mu = NULL, sigma = NULL"
            " WHERE hand_id = ? AND user_id = ?",
            (hand_id, user_id),
        )
    return touched


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


async def server_key(db: Sql, guild_id: int, candidate: str) -> str:
    """The server's secret key (hex) of its private deals' seeds and marks, stored as
    ``candidate`` the first time (in ``daily_keys``, where the first of them kept it)."""
    await db.execute("INSERT INTO daily_keys (guild_id, secret) VALUES (?, ?)"
                     " ON CONFLICT (guild_id) DO NOTHING", (guild_id, candidate))
    return str(await scalar(db, "SELECT secret FROM daily_keys WHERE guild_id = ?", (guild_id,)))
