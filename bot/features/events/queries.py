"""Duplicate events' SQL steps (docs/RULES.md §Events), shared by both backends.

Each function runs on a ``Sql`` inside the caller's transaction. At most one event per
server is not yet announced (the partial unique index ``events_open``): ``create``
inserts with ``ON CONFLICT DO NOTHING``. Once per member per deal is the primary key of
``event_plays``: ``begin`` claims it in the same transaction that saves the member's
table, like the daily deal (bot/features/daily/queries.py). ``claim_announcement`` sets
``announced_at`` once: the results are posted once.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.features.events.values import EventInfo, EventPlay
from bot.game.table import Table
from bot.rules import RuleSet
from bot.storage import ops
from bot.storage.sql import Sql, scalar
from bot.values import NO_ORGANISER

MEMBER_TABLES = ("event_entries", "event_plays")
"""Its tables whose rows belong to one member (deleted by ``/ddz forget``, ``forget_rows``)."""


async def forget_rows(db: Sql, guild_id: int | None, user_id: int) -> int:
    """Delete the member's rows of ``MEMBER_TABLES`` in one guild (None: every guild)."""
    return await ops.delete_member_rows(db, MEMBER_TABLES, guild_id, user_id)


EVENT_COLUMNS = ("event_id, guild_id, channel_id, name, deals, level, created_by, created_at,"
                 " closes_at, closed_at, announced_at, rules")
PLAY_COLUMNS = ("p.event_id, p.deal, p.user_id, n.name, p.table_id, p.started_at,"
                " p.finished_at, p.points, p.moves")
PLAY_FROM = (" FROM event_plays p LEFT JOIN display_names n"
             " ON n.guild_id = p.guild_id AND n.user_id = p.user_id")


def _event(row: Sequence[object]) -> EventInfo:
    fields = dict(zip(EVENT_COLUMNS.replace(" ", "").split(","), row, strict=True))
    rules = fields.pop("rules")
    return EventInfo(**fields, rules=None if rules is None else RuleSet.model_validate_json(
        str(rules)))


def _play(row: Sequence[object]) -> EventPlay:
    event_id, deal, user_id, name, table_id, started, finished, points, moves = row
    return EventPlay(event_id=event_id, deal=deal, user_id=user_id, name=name,
                     table_id=table_id, started_at=started, finished_at=finished,
                     points=points or 0, moves=moves or 0)


async def create(db: Sql, event: EventInfo) -> bool:
    """Store a new event; False (nothing written) while the server has one not yet
    announced."""
    return await db.execute(
        f"INSERT INTO events ({EVENT_COLUMNS})"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL, ?) ON CONFLICT DO NOTHING",
        (event.event_id, event.guild_id, event.channel_id, event.name, event.deals,
         event.level, event.created_by, event.created_at, event.closes_at,
         None if event.rules is None else event.rules.model_dump_json())) == 1


async def get(db: Sql, event_id: str) -> EventInfo | None:
    rows = await db.fetch(f"SELECT {EVENT_COLUMNS} FROM events WHERE event_id = ?", (event_id,))
    return _event(rows[0]) if rows else None


async def current(db: Sql, guild_id: int) -> EventInfo | None:
    """The server's event not yet announced, else its latest one, else None."""
    rows = await db.fetch(
        f"SELECT {EVENT_COLUMNS} FROM events WHERE guild_id = ?"
        " ORDER BY (CASE WHEN announced_at IS NULL THEN 0 ELSE 1 END), created_at DESC"
        " LIMIT 1", (guild_id,))
    return _event(rows[0]) if rows else None


async def join(db: Sql, event: EventInfo, user_id: int, name: str, now: float) -> bool:
    """Enter the member (and remember their name); False when entered already."""
    done = await db.execute(
        "INSERT INTO event_entries (event_id, user_id, guild_id, joined_at) VALUES (?, ?, ?, ?)"
        " ON CONFLICT (event_id, user_id) DO NOTHING",
        (event.event_id, user_id, event.guild_id, now))
    await ops.save_name(db, event.guild_id, user_id, name, now)
    return done == 1


async def forget_organiser(db: Sql, guild_id: int | None, user_id: int) -> int:
    """``/ddz forget``: the events the member created in the server (None: every server)
    keep ``NO_ORGANISER`` as ``created_by`` instead of their id; rows touched. (Their
    entries and plays go with ``ops.forget``.)"""
    return await db.execute(
        "UPDATE events SET created_by = ? WHERE created_by = ?"
        + ("" if guild_id is None else " AND guild_id = ?"),
        (NO_ORGANISER, user_id) if guild_id is None else (NO_ORGANISER, user_id, guild_id))


async def mark_forgotten(db: Sql, event_id: str, guild_id: int, mark: int, now: float) -> None:
    """Keep ``mark`` (``bot.features.events.rules.event_forgotten_mark``, below 0) as an entry of the
    event with no name, play or result: ``is_marked`` still finds it, no entrant list,
    standings or total counts it (``entrants`` keeps ids above 0)."""
    await db.execute(
        "INSERT INTO event_entries (event_id, user_id, guild_id, joined_at) VALUES (?, ?, ?, ?)"
        " ON CONFLICT (event_id, user_id) DO NOTHING", (event_id, mark, guild_id, now))


async def is_marked(db: Sql, event_id: str, mark: int) -> bool:
    """Whether ``mark`` stands in the event's entries (a member who used ``/ddz forget``)."""
    return bool(await db.fetch("SELECT 1 FROM event_entries WHERE event_id = ? AND user_id = ?",
                               (event_id, mark)))


async def began(db: Sql, event_id: str, user_id: int) -> bool:
    """Whether the member began (or finished) any deal of the event."""
    return bool(await db.fetch("SELECT 1 FROM event_plays WHERE event_id = ? AND user_id = ?"
                               " LIMIT 1", (event_id, user_id)))


async def entrants(db: Sql, event_id: str) -> list[tuple[int, str | None]]:
    """(user id, display name) of every entrant, in the order they joined."""
    rows = await db.fetch("SELECT x.user_id, n.name FROM event_entries x"
                          " LEFT JOIN display_names n"
                          " ON n.guild_id = x.guild_id AND n.user_id = x.user_id"
                          " WHERE x.event_id = ? AND x.user_id > 0"
                          " ORDER BY x.joined_at, x.user_id", (event_id,))
    return [(int(user), None if name is None else str(name)) for user, name in rows]


async def begin(db: Sql, table: Table, event: EventInfo, deal: int, user_id: int, name: str,
                now: float) -> bool:
    """Claim the member's play of ``deal``, enter them, save ``table``; False (nothing
    written) when they played or are playing it already, or the event has closed."""
    closed = await db.fetch("SELECT 1 FROM events WHERE event_id = ? AND (closed_at IS NOT NULL"
                            " OR closes_at <= ?)", (event.event_id, now))
    if closed:
        return False
    claimed = await db.execute(
        "INSERT INTO event_plays (event_id, deal, user_id, guild_id, table_id, started_at)"
        " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (event_id, deal, user_id) DO NOTHING",
        (event.event_id, deal, user_id, event.guild_id, table.id, now))
    if claimed != 1:
        return False
    await join(db, event, user_id, name, now)
    await ops.save_table(db, table, now)
    return True


async def finish(db: Sql, table: Table, event_id: str, deal: int, user_id: int, points: int,
                 moves: int, now: float) -> bool:
    """Record the result of the member's deal and forget its open table, once; False when
    recorded already (the table is forgotten all the same)."""
    assert table.hand is not None
    done = await db.execute(
        "UPDATE event_plays SET finished_at = ?, points = ?, moves = ?, hand = ?"
        " WHERE event_id = ? AND deal = ? AND user_id = ? AND table_id = ?"
        " AND finished_at IS NULL",
        (now, points, moves, table.hand.model_dump_json(), event_id, deal, user_id, table.id))
    await db.execute("DELETE FROM open_tables WHERE table_id = ?", (table.id,))
    return done == 1


async def plays(db: Sql, event_id: str) -> list[EventPlay]:
    """Every play of the event (finished or not), by deal then user."""
    rows = await db.fetch(f"SELECT {PLAY_COLUMNS}{PLAY_FROM} WHERE p.event_id = ?"
                          " ORDER BY p.deal, p.user_id", (event_id,))
    return [_play(row) for row in rows]


async def in_progress(db: Sql, event_id: str) -> int:
    """Plays still being played: unfinished, with their table still open."""
    return int(await scalar(
        db, "SELECT COUNT(*) FROM event_plays p JOIN open_tables o ON o.table_id = p.table_id"
            " WHERE p.event_id = ? AND p.finished_at IS NULL", (event_id,)))


async def close(db: Sql, event_id: str, now: float) -> bool:
    """Close the event early; False when closed already (by command or by time)."""
    return await db.execute(
        "UPDATE events SET closed_at = ? WHERE event_id = ? AND closed_at IS NULL"
        " AND closes_at > ?", (now, event_id, now)) == 1


async def due(db: Sql, now: float) -> list[EventInfo]:
    """Events closed (by command or time) whose results are not announced yet."""
    rows = await db.fetch(f"SELECT {EVENT_COLUMNS} FROM events WHERE announced_at IS NULL"
                          " AND (closed_at IS NOT NULL OR closes_at <= ?)"
                          " ORDER BY closes_at", (now,))
    return [_event(row) for row in rows]


async def claim_announcement(db: Sql, event_id: str, now: float) -> bool:
    """Mark the event's results announced: True once. The forgotten members' marks
    (``mark_forgotten``) go with it: the event cannot be entered any more."""
    claimed = await db.execute("UPDATE events SET announced_at = ? WHERE event_id = ?"
                               " AND announced_at IS NULL", (now, event_id)) == 1
    if claimed:
        await db.execute("DELETE FROM event_entries WHERE event_id = ? AND user_id < 0",
                         (event_id,))
    return claimed


async def save_standin(db: Sql, event_id: str, deal: int, points: int, hand: str) -> None:
    """Keep the stand-in result of ``deal`` (the first one stored stays)."""
    await db.execute("INSERT INTO event_standins (event_id, deal, points, hand)"
                     " VALUES (?, ?, ?, ?) ON CONFLICT (event_id, deal) DO NOTHING",
                     (event_id, deal, points, hand))


async def standins(db: Sql, event_id: str) -> dict[int, int]:
    """The stored stand-in points by deal."""
    rows = await db.fetch("SELECT deal, points FROM event_standins WHERE event_id = ?",
                          (event_id,))
    return {int(deal): int(points) for deal, points in rows}


async def hand_json(db: Sql, event_id: str, deal: int, user_id: int) -> str | None:
    """The finished hand (Hand JSON) of the member's play of ``deal``, or None."""
    blob = await scalar(db, "SELECT hand FROM event_plays WHERE event_id = ? AND deal = ?"
                            " AND user_id = ? AND finished_at IS NOT NULL",
                        (event_id, deal, user_id))
    return None if blob is None else str(blob)


async def of_user(db: Sql, guild_id: int, user_id: int) -> list[EventInfo]:
    """The announced events of the server the member entered, oldest first."""
    rows = await db.fetch(
        f"SELECT {', '.join('e.' + c.strip() for c in EVENT_COLUMNS.split(','))}"
        " FROM events e JOIN event_entries x ON x.event_id = e.event_id"
        " WHERE x.guild_id = ? AND x.user_id = ? AND e.announced_at IS NOT NULL"
        " ORDER BY e.created_at", (guild_id, user_id))
    return [_event(row) for row in rows]
