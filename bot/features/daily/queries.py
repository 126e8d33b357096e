"""The daily deal's SQL steps (docs/RULES.md §Daily deal), shared by both backends.

Each function runs on a ``Sql`` inside the caller's transaction. Once per member per
day is the primary key of ``daily_plays``: ``begin`` claims it with
``INSERT … ON CONFLICT DO NOTHING`` in the same transaction that saves the member's
table, so two racing ``/ddz daily`` (even in two processes) deal one table.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.features.daily.rules import table_day
from bot.features.daily.values import DailyEntry
from bot.game.table import Table
from bot.storage import ops
from bot.storage.sql import Sql, scalar

MEMBER_TABLES = ("daily_plays",)
"""Its tables whose rows belong to one member (deleted by ``/ddz forget``, ``forget_rows``)."""


async def forget_rows(db: Sql, guild_id: int | None, user_id: int) -> int:
    """Delete the member's rows of ``MEMBER_TABLES`` in one guild (None: every guild)."""
    return await ops.delete_member_rows(db, MEMBER_TABLES, guild_id, user_id)


ENTRY_COLUMNS = ("p.guild_id, p.day, p.user_id, n.name, p.table_id, p.level, p.started_at,"
                 " p.finished_at, p.points, p.moves, p.won")
ENTRY_FROM = (" FROM daily_plays p LEFT JOIN display_names n"
              " ON n.guild_id = p.guild_id AND n.user_id = p.user_id")


def _entry(row: Sequence[object]) -> DailyEntry:
    guild_id, day, user_id, name, table_id, level, started, finished, points, moves, won = row
    return DailyEntry(guild_id=guild_id, day=day, user_id=user_id, name=name, table_id=table_id,
                      level=level, started_at=started, finished_at=finished,
                      points=points or 0, moves=moves or 0, won=bool(won))


async def begin(db: Sql, table: Table, user_id: int, name: str, now: float) -> bool:
    """Claim the member's play of the day of ``table`` (``table_day``) and save ``table``; False (nothing
    written) when the member has played or is playing that day already."""
    claimed = await db.execute(
        "INSERT INTO daily_plays (guild_id, day, user_id, table_id, level, started_at)"
        " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, day, user_id) DO NOTHING",
        (table.guild_id, table_day(table), user_id, table.id, table.seats[1].computer or "hard", now))
    if claimed != 1:
        return False
    await ops.save_table(db, table, now)
    await ops.save_name(db, table.guild_id, user_id, name, now)
    return True


async def finish(db: Sql, table: Table, user_id: int, points: int, moves: int, won: bool,
                 now: float) -> bool:
    """Record the result of the member's daily hand and forget its open table, once;
    False when it was recorded already (the table is forgotten all the same)."""
    assert table.hand is not None
    done = await db.execute(
        "UPDATE daily_plays SET finished_at = ?, points = ?, moves = ?, won = ?, hand = ?"
        " WHERE guild_id = ? AND day = ? AND user_id = ? AND table_id = ?"
        " AND finished_at IS NULL",
        (now, points, moves, int(won), table.hand.model_dump_json(), table.guild_id, table_day(table),
         user_id, table.id))
    await db.execute("DELETE FROM open_tables WHERE table_id = ?", (table.id,))
    return done == 1


async def entry(db: Sql, guild_id: int, day: str, user_id: int) -> DailyEntry | None:
    """The member's play of ``day``, or None."""
    rows = await db.fetch(f"SELECT {ENTRY_COLUMNS}{ENTRY_FROM}"
                          " WHERE p.guild_id = ? AND p.day = ? AND p.user_id = ?",
                          (guild_id, day, user_id))
    return _entry(rows[0]) if rows else None


async def finished(db: Sql, guild_id: int, day: str) -> list[DailyEntry]:
    """Every finished play of ``day`` (unordered)."""
    rows = await db.fetch(f"SELECT {ENTRY_COLUMNS}{ENTRY_FROM}"
                          " WHERE p.guild_id = ? AND p.day = ? AND p.finished_at IS NOT NULL",
                          (guild_id, day))
    return [_entry(row) for row in rows]


async def freeze_day(db: Sql, guild_id: int, day: str, level: str, rules: str
                     ) -> tuple[str, str]:
    """The computers' level and the rules (RuleSet JSON) of the server's deal of ``day``:
    ``level`` and ``rules`` the first time (its first deal), what was stored then after."""
    await db.execute("INSERT INTO daily_days (guild_id, day, level, rules) VALUES (?, ?, ?, ?)"
                     " ON CONFLICT (guild_id, day) DO NOTHING", (guild_id, day, level, rules))
    rows = await db.fetch("SELECT level, rules FROM daily_days WHERE guild_id = ? AND day = ?",
                          (guild_id, day))
    return str(rows[0][0]), str(rows[0][1])


async def unfinished(db: Sql, guild_id: int, day: str) -> int:
    """How many members' plays of ``day`` are begun and not finished (forgotten marks,
    which are never finished, not counted)."""
    return int(await scalar(db, "SELECT COUNT(*) FROM daily_plays WHERE guild_id = ? AND day = ?"
                                " AND user_id > 0 AND finished_at IS NULL",
                            (guild_id, day)) or 0)


async def won_days(db: Sql, guild_id: int, user_ids: Sequence[int]) -> dict[int, list[str]]:
    """The days each member won (for the streaks)."""
    if not user_ids:
        return {}
    marks = ", ".join("?" for _ in user_ids)
    rows = await db.fetch(f"SELECT user_id, day FROM daily_plays WHERE guild_id = ? AND won = 1"
                          f" AND user_id IN ({marks})", (guild_id, *user_ids))
    days: dict[int, list[str]] = {int(u): [] for u in user_ids}
    for user_id, day in rows:
        days[int(user_id)].append(str(day))
    return days


async def totals(db: Sql, guild_id: int, user_id: int) -> tuple[int, int, int]:
    """(days finished, days won, points over them) of the member."""
    rows = await db.fetch("SELECT COUNT(*), COALESCE(SUM(won), 0), COALESCE(SUM(points), 0)"
                          " FROM daily_plays WHERE guild_id = ? AND user_id = ?"
                          " AND finished_at IS NOT NULL", (guild_id, user_id))
    played, won, points = rows[0]
    return int(played), int(won), int(points)


async def hand_json(db: Sql, guild_id: int, day: str, user_id: int) -> str | None:
    """The finished hand (Hand JSON) of the member's play of ``day``, or None."""
    blob = await scalar(db, "SELECT hand FROM daily_plays WHERE guild_id = ? AND day = ?"
                            " AND user_id = ? AND finished_at IS NOT NULL",
                        (guild_id, day, user_id))
    return None if blob is None else str(blob)


async def mark_forgotten(db: Sql, guild_id: int, day: str, mark: int, now: float) -> None:
    """Keep ``mark`` (``bot.game.private.forgotten_mark``) as a play of ``day`` with no
    table, level, result or hand: the once-a-day check still finds it, no standings or
    total ever count it (it is never finished)."""
    await db.execute(
        "INSERT INTO daily_plays (guild_id, day, user_id, table_id, level, started_at)"
        " VALUES (?, ?, ?, '', '', ?) ON CONFLICT (guild_id, day, user_id) DO NOTHING",
        (guild_id, day, mark, now))


async def drop_marks(db: Sql, guild_id: int, before: str) -> int:
    """Delete the forgotten members' marks of the days before ``before``; how many."""
    return await db.execute("DELETE FROM daily_plays WHERE guild_id = ? AND user_id < 0"
                            " AND day < ?", (guild_id, before))


async def claim_post(db: Sql, guild_id: int, day: str) -> bool:
    """Claim the day's post in the daily channel; False when made (or claimed) already."""
    return await db.execute("INSERT INTO daily_posts (guild_id, day) VALUES (?, ?)"
                            " ON CONFLICT (guild_id, day) DO NOTHING", (guild_id, day)) == 1
