"""Tournaments' SQL steps (docs/RULES.md §Tournaments), shared by both backends.

Each function runs on a ``Sql`` inside the caller's transaction. One open or running
tournament per server is the partial unique index ``tournaments_live``: ``create``
inserts with ``ON CONFLICT DO NOTHING``. Every step that must happen once, even across
a restart or two processes, is a conditional ``UPDATE`` (or an ``INSERT`` on a primary
key) that exactly one caller wins, and says so (True): ``start`` (open → running),
``seat_round`` (``current_round`` moves from the round before), ``claim_table``
(``opened_at``), ``record_hand`` (its key), ``finish_table`` and ``finish_round``
(``finished_at``), ``finish`` (running → finished), ``cancel``, ``claim_post``
(``announced_at``). Sign-up steps lock the tournament's row first (an ``UPDATE`` of it),
so two joins at once count the entrants one after the other.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from bot.features.tournaments.limits import MAX_ENTRANTS, MIN_ENTRANTS
from bot.features.tournaments.seating import TableSeats
from bot.features.tournaments.values import (
    JoinAnswer,
    LeaveAnswer,
    TournamentEntrant,
    TournamentHand,
    TournamentInfo,
    TournamentTable,
)
from bot.rules import RuleSet
from bot.storage import ops
from bot.storage.sql import Sql, scalar
from bot.values import NO_ORGANISER

COLUMNS = ("tournament_id, guild_id, number, channel_id, name, rounds, hands, level,"
           " created_by, created_at, starts_at, seed, status, current_round, started_at,"
           " ended_at, signup_message_id, announced_at, rules")
TABLE_COLUMNS = ("tournament_id, round_no, table_no, seat0, seat1, seat2, opened_at,"
                 " thread_id, table_id, finished_at, points0, points1, points2")
NAMES = COLUMNS.replace(" ", "").split(",")
LIVE = "('open', 'running')"


def _info(row: Sequence[object]) -> TournamentInfo:
    fields = dict(zip(NAMES, row, strict=True))
    rules = fields.pop("rules")
    return TournamentInfo.model_validate(
        {**fields, "rules": None if rules is None else RuleSet.model_validate_json(str(rules))})


def _table(row: Sequence[object]) -> TournamentTable:
    (tid, round_no, table_no, s0, s1, s2, opened, thread, table_id, finished,
     p0, p1, p2) = row
    points = None if p0 is None else (p0, p1, p2)
    return TournamentTable.model_validate(dict(
        tournament_id=tid, round_no=round_no, table_no=table_no, seats=(s0, s1, s2),
        opened_at=opened, thread_id=thread, table_id=table_id, finished_at=finished,
        points=points))


async def create(db: Sql, t: TournamentInfo) -> TournamentInfo | None:
    """Store ``t`` with the server's next number; None (nothing written) while the
    server has an open or running tournament."""
    done = await db.execute(
        f"INSERT INTO tournaments ({COLUMNS})"
        " SELECT ?, ?, COALESCE(MAX(number), 0) + 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'open', 0,"
        " NULL, NULL, NULL, NULL, ? FROM tournaments WHERE guild_id = ?"
        " ON CONFLICT DO NOTHING",
        (t.tournament_id, t.guild_id, t.channel_id, t.name, t.rounds, t.hands, t.level,
         t.created_by, t.created_at, t.starts_at, t.seed,
         None if t.rules is None else t.rules.model_dump_json(), t.guild_id))
    return await get(db, t.tournament_id) if done == 1 else None


async def get(db: Sql, tournament_id: str) -> TournamentInfo | None:
    rows = await db.fetch(f"SELECT {COLUMNS} FROM tournaments WHERE tournament_id = ?",
                          (tournament_id,))
    return _info(rows[0]) if rows else None


async def by_number(db: Sql, guild_id: int, number: int) -> TournamentInfo | None:
    """The server's tournament number ``number``, or None."""
    rows = await db.fetch(f"SELECT {COLUMNS} FROM tournaments WHERE guild_id = ?"
                          " AND number = ?", (guild_id, number))
    return _info(rows[0]) if rows else None


async def current(db: Sql, guild_id: int) -> TournamentInfo | None:
    """The server's open or running tournament, else its latest one, else None."""
    rows = await db.fetch(
        f"SELECT {COLUMNS} FROM tournaments WHERE guild_id = ?"
        f" ORDER BY (CASE WHEN status IN {LIVE} THEN 0 ELSE 1 END), number DESC LIMIT 1",
        (guild_id,))
    return _info(rows[0]) if rows else None


async def live(db: Sql) -> list[TournamentInfo]:
    """Every open or running tournament of every server, oldest first."""
    rows = await db.fetch(f"SELECT {COLUMNS} FROM tournaments WHERE status IN {LIVE}"
                          " ORDER BY created_at, tournament_id")
    return [_info(row) for row in rows]


async def set_signup(db: Sql, tournament_id: str, message_id: int) -> None:
    """Remember the sign-up message (to edit its count)."""
    await db.execute("UPDATE tournaments SET signup_message_id = ? WHERE tournament_id = ?",
                     (message_id, tournament_id))


async def _lock(db: Sql, tournament_id: str) -> str | None:
    """Lock the tournament's row until the transaction ends; its status (None: unknown)."""
    rows = await db.fetch("UPDATE tournaments SET status = status WHERE tournament_id = ?"
                          " RETURNING status", (tournament_id,))
    return str(rows[0][0]) if rows else None


async def join(db: Sql, tournament_id: str, user_id: int, name: str, now: float
               ) -> JoinAnswer:
    """Enter the member while the sign-up is open and has room (and remember their name)."""
    if await _lock(db, tournament_id) != "open":
        return "closed"
    if await db.fetch("SELECT 1 FROM tournament_entrants WHERE tournament_id = ?"
                      " AND user_id = ?", (tournament_id, user_id)):
        return "already"
    count = int(await scalar(db, "SELECT COUNT(*) FROM tournament_entrants"
                                 " WHERE tournament_id = ? AND status = 'in'",
                             (tournament_id,)))
    if count >= MAX_ENTRANTS:
        return "full"
    guild_id = int(await scalar(db, "SELECT guild_id FROM tournaments WHERE tournament_id = ?",
                                (tournament_id,)))
    await db.execute("INSERT INTO tournament_entrants (tournament_id, user_id, guild_id,"
                     " joined_at, status) VALUES (?, ?, ?, ?, 'in')",
                     (tournament_id, user_id, guild_id, now))
    await ops.save_name(db, guild_id, user_id, name, now)
    return "joined"


async def leave(db: Sql, tournament_id: str, user_id: int, now: float,
                status: Literal["withdrawn", "dropped"]) -> LeaveAnswer:
    """Take the member out: before the start their entry is deleted (``"left"``); while
    running they are marked ``status`` and not seated again."""
    state = await _lock(db, tournament_id)
    if state == "open":
        done = await db.execute("DELETE FROM tournament_entrants WHERE tournament_id = ?"
                                " AND user_id = ?", (tournament_id, user_id))
        return "left" if done == 1 else "absent"
    if state == "running":
        done = await db.execute(
            "UPDATE tournament_entrants SET status = ?, left_at = ? WHERE tournament_id = ?"
            " AND user_id = ? AND status = 'in'", (status, now, tournament_id, user_id))
        return status if done == 1 else "absent"
    return "closed"


async def entrants(db: Sql, tournament_id: str) -> list[TournamentEntrant]:
    """Every entrant (withdrawn and dropped too), in join order."""
    rows = await db.fetch(
        "SELECT x.user_id, n.name, x.joined_at, x.status, x.left_at"
        " FROM tournament_entrants x LEFT JOIN display_names n"
        " ON n.guild_id = x.guild_id AND n.user_id = x.user_id"
        " WHERE x.tournament_id = ? ORDER BY x.joined_at, x.user_id", (tournament_id,))
    return [TournamentEntrant.model_validate(dict(user_id=u, name=n, joined_at=j, status=s,
                                                  left_at=left))
            for u, n, j, s, left in rows]


async def start(db: Sql, tournament_id: str, now: float) -> bool:
    """Open → running, with at least ``MIN_ENTRANTS`` entrants; False otherwise."""
    return await db.execute(
        "UPDATE tournaments SET status = 'running', started_at = ? WHERE tournament_id = ?"
        " AND status = 'open' AND (SELECT COUNT(*) FROM tournament_entrants"
        " WHERE tournament_id = ? AND status = 'in') >= ?",
        (now, tournament_id, tournament_id, MIN_ENTRANTS)) == 1


async def seat_round(db: Sql, tournament_id: str, round_no: int,
                     tables: Sequence[TableSeats], now: float) -> bool:
    """Store round ``round_no`` and its tables once: only while running and when the
    round before is the last one seated."""
    moved = await db.execute(
        "UPDATE tournaments SET current_round = ? WHERE tournament_id = ?"
        " AND status = 'running' AND current_round = ?",
        (round_no, tournament_id, round_no - 1))
    if moved != 1:
        return False
    await db.execute("INSERT INTO tournament_rounds (tournament_id, round_no, seated_at)"
                     " VALUES (?, ?, ?)", (tournament_id, round_no, now))
    await db.executemany(
        "INSERT INTO tournament_tables (tournament_id, round_no, table_no, seat0, seat1,"
        " seat2) VALUES (?, ?, ?, ?, ?, ?)",
        [(tournament_id, round_no, t.table_no, *t.seats) for t in tables])
    return True


async def claim_table(db: Sql, tournament_id: str, round_no: int, table_no: int,
                      now: float) -> bool:
    """Mark the table opened; True once (its opener makes the thread and deals)."""
    return await db.execute(
        "UPDATE tournament_tables SET opened_at = ? WHERE tournament_id = ? AND round_no = ?"
        " AND table_no = ? AND opened_at IS NULL",
        (now, tournament_id, round_no, table_no)) == 1


async def set_table(db: Sql, tournament_id: str, round_no: int, table_no: int,
                    thread_id: int, table_id: str) -> None:
    """Remember the table's thread and game table."""
    await db.execute(
        "UPDATE tournament_tables SET thread_id = ?, table_id = ? WHERE tournament_id = ?"
        " AND round_no = ? AND table_no = ?",
        (thread_id, table_id, tournament_id, round_no, table_no))


async def record_hand(db: Sql, tournament_id: str, hand: TournamentHand) -> bool:
    """Keep a settled hand of a table; True once per (round, table, hand)."""
    return await db.execute(
        "INSERT INTO tournament_hands (tournament_id, round_no, table_no, hand, hand_no,"
        " points0, points1, points2) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
        " ON CONFLICT (tournament_id, round_no, table_no, hand) DO NOTHING",
        (tournament_id, hand.round_no, hand.table_no, hand.hand, hand.hand_no,
         *hand.points)) == 1


async def hands(db: Sql, tournament_id: str) -> list[TournamentHand]:
    """Every recorded hand, by round, table and hand."""
    rows = await db.fetch(
        "SELECT round_no, table_no, hand, hand_no, points0, points1, points2"
        " FROM tournament_hands WHERE tournament_id = ? ORDER BY round_no, table_no, hand",
        (tournament_id,))
    return [TournamentHand(round_no=r, table_no=t, hand=h, hand_no=n, points=(a, b, c))
            for r, t, h, n, a, b, c in rows]


async def finish_table(db: Sql, tournament_id: str, round_no: int, table_no: int,
                       points: tuple[int, int, int], now: float) -> bool:
    """Record the table's result (points won per seat); True once."""
    return await db.execute(
        "UPDATE tournament_tables SET finished_at = ?, points0 = ?, points1 = ?, points2 = ?"
        " WHERE tournament_id = ? AND round_no = ? AND table_no = ? AND finished_at IS NULL",
        (now, *points, tournament_id, round_no, table_no)) == 1


async def finish_round(db: Sql, tournament_id: str, round_no: int, now: float) -> bool:
    """Mark the round finished, once, and only when every table of it is finished."""
    return await db.execute(
        "UPDATE tournament_rounds SET finished_at = ? WHERE tournament_id = ?"
        " AND round_no = ? AND finished_at IS NULL AND NOT EXISTS (SELECT 1 FROM"
        " tournament_tables WHERE tournament_id = ? AND round_no = ? AND finished_at IS NULL)",
        (now, tournament_id, round_no, tournament_id, round_no)) == 1


async def rounds_finished(db: Sql, tournament_id: str) -> list[int]:
    """The rounds marked finished, in order."""
    rows = await db.fetch("SELECT round_no FROM tournament_rounds WHERE tournament_id = ?"
                          " AND finished_at IS NOT NULL ORDER BY round_no", (tournament_id,))
    return [int(r) for (r,) in rows]


async def tables(db: Sql, tournament_id: str, round_no: int | None) -> list[TournamentTable]:
    """The tables of round ``round_no`` (None: every round), by round and table."""
    where, args = ("", (tournament_id,)) if round_no is None else (
        " AND round_no = ?", (tournament_id, round_no))
    rows = await db.fetch(f"SELECT {TABLE_COLUMNS} FROM tournament_tables"
                          f" WHERE tournament_id = ?{where} ORDER BY round_no, table_no", args)
    return [_table(row) for row in rows]


async def table_of(db: Sql, table_id: str) -> TournamentTable | None:
    """The tournament table played by the game table ``table_id``, or None."""
    rows = await db.fetch(f"SELECT {TABLE_COLUMNS} FROM tournament_tables WHERE table_id = ?",
                          (table_id,))
    return _table(rows[0]) if rows else None


async def finish(db: Sql, tournament_id: str, now: float) -> bool:
    """Running → finished; True once."""
    return await db.execute(
        "UPDATE tournaments SET status = 'finished', ended_at = ? WHERE tournament_id = ?"
        " AND status = 'running'", (now, tournament_id)) == 1


async def cancel(db: Sql, tournament_id: str, now: float) -> bool:
    """Open or running → cancelled (what was played is kept); True once."""
    return await db.execute(
        f"UPDATE tournaments SET status = 'cancelled', ended_at = ? WHERE tournament_id = ?"
        f" AND status IN {LIVE}", (now, tournament_id)) == 1


async def claim_post(db: Sql, tournament_id: str, now: float) -> bool:
    """Claim the final post (standings or cancellation) of a finished or cancelled
    tournament; True once."""
    return await db.execute(
        "UPDATE tournaments SET announced_at = ? WHERE tournament_id = ?"
        " AND status IN ('finished', 'cancelled') AND announced_at IS NULL",
        (now, tournament_id)) == 1


async def of_user(db: Sql, guild_id: int, user_id: int) -> list[TournamentInfo]:
    """The server's finished or cancelled tournaments the member entered, oldest first."""
    cols = ", ".join("t." + c for c in NAMES)
    rows = await db.fetch(
        f"SELECT {cols} FROM tournaments t JOIN tournament_entrants x"
        " ON x.tournament_id = t.tournament_id WHERE x.guild_id = ? AND x.user_id = ?"
        " AND t.status IN ('finished', 'cancelled') ORDER BY t.number", (guild_id, user_id))
    return [_info(row) for row in rows]


async def forget(db: Sql, guild_id: int | None, user_id: int, now: float) -> int:
    """``/ddz forget`` of the member's tournaments in the server (None: every server);
    rows touched. Their entry of an open tournament (sign-up) is deleted, as ``leave``
    does. In a running, finished or cancelled one their id is replaced, in its entrants
    and its tables' seats, by a stand-in id below 0, new in that tournament (no name):
    the standings keep their line and everyone's match points and Buchholz, shown as
    "?", and nothing in the database links it to the member. A running tournament's
    stand-in is withdrawn first if the member was still in (``leave`` at ``now``), so it
    is never seated again: the service refuses to forget such a member
    (``TournamentService.forget_check``), but a caller of ``Repository.forget_user``
    with no server asks nobody. Where the member is the organiser (``created_by``), of
    any tournament, that becomes ``NO_ORGANISER``."""
    where = "x.user_id = ?" + ("" if guild_id is None else " AND x.guild_id = ?")
    args: tuple[int, ...] = (user_id,) if guild_id is None else (user_id, guild_id)
    entered = await db.fetch(
        "SELECT x.tournament_id FROM tournament_entrants x WHERE " + where
        + " ORDER BY x.tournament_id", args)
    touched = 0
    for (tournament_id,) in entered:
        state = await _lock(db, tournament_id)
        if state == "open":
            touched += await db.execute("DELETE FROM tournament_entrants WHERE"
                                        " tournament_id = ? AND user_id = ?",
                                        (tournament_id, user_id))
            continue
        if state == "running":  # still in: withdrawn, as by /ddz tournament leave
            await leave(db, tournament_id, user_id, now, "withdrawn")
        lowest = int(await scalar(db, "SELECT MIN(user_id) FROM tournament_entrants"
                                      " WHERE tournament_id = ?", (tournament_id,)))
        stand_in = min(lowest, 0) - 1
        touched += await db.execute("UPDATE tournament_entrants SET user_id = ?"
                                    " WHERE tournament_id = ? AND user_id = ?",
                                    (stand_in, tournament_id, user_id))
        for seat in ("seat0", "seat1", "seat2"):
            touched += await db.execute(
                f"UPDATE tournament_tables SET {seat} = ? WHERE tournament_id = ?"
                f" AND {seat} = ?", (stand_in, tournament_id, user_id))
    touched += await db.execute(
        "UPDATE tournaments SET created_by = ? WHERE created_by = ?"
        + ("" if guild_id is None else " AND guild_id = ?"), (NO_ORGANISER, *args))
    return touched
