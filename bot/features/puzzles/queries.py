"""The endgame puzzles' SQL steps (docs/RULES.md §Puzzles), shared by both backends.

Each function runs on a ``Sql`` inside the caller's transaction. Once per member per
day for the daily puzzle is the partial unique index ``puzzle_daily_once``: ``begin``
claims it with ``INSERT … ON CONFLICT DO NOTHING``, so two racing ``/ddz puzzle`` (even
in two processes) begin one attempt. An attempt's next action is written only over the
line it was computed from (``plies``), and its result once (``finished_at IS NULL``).
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.features.puzzles.values import PuzzleAttempt, PuzzleRating
from bot.storage import ops
from bot.storage.sql import Sql, scalar

MEMBER_TABLES = ("puzzle_attempts", "puzzle_players")
"""Its tables whose rows belong to one member (deleted by ``/ddz forget``, ``forget_rows``)."""


async def forget_rows(db: Sql, guild_id: int | None, user_id: int) -> int:
    """Delete the member's rows of ``MEMBER_TABLES`` in one guild (None: every guild)."""
    return await ops.delete_member_rows(db, MEMBER_TABLES, guild_id, user_id)


COLUMNS = ("a.attempt_id, a.guild_id, a.user_id, n.name, a.puzzle_id, a.mode, a.day,"
           " a.started_at, a.finished_at, a.solved, a.line, a.plies, a.moves")
FROM = (" FROM puzzle_attempts a LEFT JOIN display_names n"
        " ON n.guild_id = a.guild_id AND n.user_id = a.user_id")
RATING_COLUMNS = "rating, deviation, volatility, attempts, solved"


def _attempt(row: Sequence[object]) -> PuzzleAttempt:
    (attempt_id, guild_id, user_id, name, puzzle_id, mode, day, started, finished, solved,
     line, plies, moves) = row
    return PuzzleAttempt(attempt_id=attempt_id, guild_id=guild_id, user_id=user_id, name=name,
                         puzzle_id=puzzle_id, mode=mode, day=day, started_at=started,
                         finished_at=finished, solved=bool(solved), line=line, plies=plies,
                         moves=moves)


def _rating(row: Sequence[object]) -> PuzzleRating:
    rating, deviation, volatility, attempts, solved = row
    return PuzzleRating(rating=rating, deviation=deviation, volatility=volatility,
                        attempts=attempts, solved=solved)


async def begin(db: Sql, attempt: PuzzleAttempt) -> bool:
    """Insert a new attempt (its line empty); False (nothing written) when it is a daily
    one and the member has an attempt of that day already (or its forgotten mark)."""
    claimed = await db.execute(
        "INSERT INTO puzzle_attempts (attempt_id, guild_id, user_id, puzzle_id, mode, day,"
        " started_at) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
        (attempt.attempt_id, attempt.guild_id, attempt.user_id, attempt.puzzle_id,
         attempt.mode, attempt.day, attempt.started_at))
    return claimed == 1


async def attempt(db: Sql, attempt_id: str) -> PuzzleAttempt | None:
    """The attempt with this id, or None."""
    rows = await db.fetch(f"SELECT {COLUMNS}{FROM} WHERE a.attempt_id = ?", (attempt_id,))
    return _attempt(rows[0]) if rows else None


async def open_attempt(db: Sql, guild_id: int, user_id: int, mode: str) -> PuzzleAttempt | None:
    """The member's unfinished attempt of ``mode`` (the latest begun), or None."""
    rows = await db.fetch(f"SELECT {COLUMNS}{FROM} WHERE a.guild_id = ? AND a.user_id = ?"
                          " AND a.mode = ? AND a.finished_at IS NULL"
                          " ORDER BY a.started_at DESC LIMIT 1", (guild_id, user_id, mode))
    return _attempt(rows[0]) if rows else None


async def daily_attempt(db: Sql, guild_id: int, day: str, user_id: int) -> PuzzleAttempt | None:
    """The member's attempt at the daily puzzle of ``day`` (or the forgotten mark), or None."""
    rows = await db.fetch(f"SELECT {COLUMNS}{FROM} WHERE a.guild_id = ? AND a.day = ?"
                          " AND a.user_id = ? AND a.mode = 'daily'", (guild_id, day, user_id))
    return _attempt(rows[0]) if rows else None


async def advance(db: Sql, attempt_id: str, plies: int, line: str, new_plies: int,
                  moves: int) -> bool:
    """Write the attempt's longer line over the one of ``plies`` actions it was computed
    from; False (nothing written) when another action came first or it is finished."""
    return await db.execute(
        "UPDATE puzzle_attempts SET line = ?, plies = ?, moves = ?"
        " WHERE attempt_id = ? AND plies = ? AND finished_at IS NULL",
        (line, new_plies, moves, attempt_id, plies)) == 1


async def finish(db: Sql, before: PuzzleAttempt, after: PuzzleAttempt, member: PuzzleRating,
                 puzzle: PuzzleRating) -> bool:
    """Record the attempt's result (``after``: its final line, moves, ``solved`` and
    ``finished_at``) over the line ``before`` it was computed from, and store the member's
    and the puzzle's new ratings, once; False (nothing written) when the attempt moved on
    or was finished meanwhile."""
    done = await db.execute(
        "UPDATE puzzle_attempts SET line = ?, plies = ?, moves = ?, solved = ?, finished_at = ?"
        " WHERE attempt_id = ? AND plies = ? AND finished_at IS NULL",
        (after.line, after.plies, after.moves, int(after.solved), after.finished_at,
         before.attempt_id, before.plies))
    if done != 1:
        return False
    await db.execute(
        f"INSERT INTO puzzle_players (guild_id, user_id, {RATING_COLUMNS})"
        " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, user_id) DO UPDATE SET"
        " rating = excluded.rating, deviation = excluded.deviation,"
        " volatility = excluded.volatility, attempts = excluded.attempts,"
        " solved = excluded.solved",
        (before.guild_id, before.user_id, member.rating, member.deviation, member.volatility,
         member.attempts, member.solved))
    await db.execute(
        f"INSERT INTO puzzle_ratings (puzzle_id, {RATING_COLUMNS})"
        " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (puzzle_id) DO UPDATE SET"
        " rating = excluded.rating, deviation = excluded.deviation,"
        " volatility = excluded.volatility, attempts = excluded.attempts,"
        " solved = excluded.solved",
        (before.puzzle_id, puzzle.rating, puzzle.deviation, puzzle.volatility,
         puzzle.attempts, puzzle.solved))
    return True


async def member_rating(db: Sql, guild_id: int, user_id: int) -> PuzzleRating | None:
    """The member's puzzle rating in the server, or None before their first rated attempt;
    ``rated_at`` is the finish of their last finished attempt (docs/RATINGS.md §Puzzle
    ratings: the deviation ages from it)."""
    rows = await db.fetch(f"SELECT {RATING_COLUMNS},"
                          " (SELECT MAX(a.finished_at) FROM puzzle_attempts a"
                          "  WHERE a.guild_id = p.guild_id AND a.user_id = p.user_id)"
                          " FROM puzzle_players p WHERE p.guild_id = ? AND p.user_id = ?",
                          (guild_id, user_id))
    if not rows:
        return None
    return _rating(rows[0][:5]).model_copy(update={"rated_at": rows[0][5]})


async def puzzle_ratings(db: Sql) -> dict[str, PuzzleRating]:
    """Every puzzle's stored rating (puzzles never attempted have none) by puzzle id."""
    rows = await db.fetch(f"SELECT puzzle_id, {RATING_COLUMNS} FROM puzzle_ratings")
    return {str(row[0]): _rating(row[1:]) for row in rows}


async def solved_ids(db: Sql, guild_id: int, user_id: int) -> set[str]:
    """The puzzles the member has solved in the server (daily or practice)."""
    rows = await db.fetch("SELECT DISTINCT puzzle_id FROM puzzle_attempts WHERE guild_id = ?"
                          " AND user_id = ? AND solved = 1", (guild_id, user_id))
    return {str(row[0]) for row in rows}


async def daily_finished(db: Sql, guild_id: int, day: str) -> list[PuzzleAttempt]:
    """Every finished attempt at the daily puzzle of ``day`` (unordered)."""
    rows = await db.fetch(f"SELECT {COLUMNS}{FROM} WHERE a.guild_id = ? AND a.day = ?"
                          " AND a.mode = 'daily' AND a.finished_at IS NOT NULL",
                          (guild_id, day))
    return [_attempt(row) for row in rows]


async def solved_days(db: Sql, guild_id: int, user_ids: Sequence[int]) -> dict[int, list[str]]:
    """The days on which each member solved the daily puzzle (for the streaks)."""
    if not user_ids:
        return {}
    marks = ", ".join("?" for _ in user_ids)
    rows = await db.fetch(f"SELECT user_id, day FROM puzzle_attempts WHERE guild_id = ?"
                          f" AND mode = 'daily' AND solved = 1 AND user_id IN ({marks})",
                          (guild_id, *user_ids))
    days: dict[int, list[str]] = {int(u): [] for u in user_ids}
    for user_id, day in rows:
        days[int(user_id)].append(str(day))
    return days


async def mark_forgotten(db: Sql, guild_id: int, day: str, mark: int, now: float) -> None:
    """Keep ``mark`` (a keyed hash, ``bot.game.private.forgotten_mark``) as an attempt at the
    daily puzzle of ``day`` with no puzzle or result: the once-a-day check still finds
    it, no board counts it (it is never finished)."""
    await db.execute(
        "INSERT INTO puzzle_attempts (attempt_id, guild_id, user_id, puzzle_id, mode, day,"
        " started_at) VALUES (?, ?, ?, '', 'daily', ?, ?) ON CONFLICT DO NOTHING",
        (f"forgotten{mark}", guild_id, mark, day, now))


async def drop_marks(db: Sql, guild_id: int, before: str) -> int:
    """Delete the forgotten members' marks of the days before ``before``; how many."""
    return await db.execute("DELETE FROM puzzle_attempts WHERE guild_id = ? AND user_id < 0"
                            " AND day < ?", (guild_id, before))


async def daily_count(db: Sql, guild_id: int, day: str) -> int:
    """How many members finished the daily puzzle of ``day``."""
    return int(await scalar(db, "SELECT COUNT(*) FROM puzzle_attempts WHERE guild_id = ?"
                                " AND day = ? AND mode = 'daily' AND finished_at IS NOT NULL",
                            (guild_id, day)) or 0)
