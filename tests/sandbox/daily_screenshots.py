"""``python -m tests.sandbox.daily_screenshots [folder]``: screenshots of the daily
standings (``/ddz daily board:today`` and ``board:yesterday``, English and Spanish) for
the docs (default ``docs/images``), taken in the sandbox's web client (the real bot
through the loopback Discord) in Debian's Chromium through Playwright.

The standings come from a sandbox database filled beforehand (``--keep`` in a throwaway
home): five members' finished daily plays of the last days, so that places, the
tie-break on moves and the streaks all show. Alice has played today, so she may see
today's standings (docs/RULES.md §Daily deal, no peeking)."""

from __future__ import annotations

import sqlite3
import sys
import time
from pathlib import Path

from bot.game.private import day_before, day_of
from sandbox.world import NAMES, fixed_id
from tests.support import sandbox_screenshots
from tests.support.sandbox_screenshots import Shot

GUILD = fixed_id(1)
PLAYS = {
    # member: (points, moves, won) on each day, oldest first, the last one today
    "Alice": [None, None, (12, 8, True), (6, 9, True)],
    "Bob": [(6, 10, True), (6, 9, True), (24, 7, True), (-6, 12, False)],
    "Carol": [(6, 11, True), (6, 8, True), (-12, 10, False), (24, 6, True)],
    "Dave": [None, (-6, 9, False), (6, 12, True), (6, 11, True)],
    "Erin": [None, None, None, (-12, 7, False)],
}
SHOTS = (
    Shot("daily_board_today_en.png", "en", "/ddz da", "/ddz daily", "board:today"),
    Shot("daily_board_yesterday_en.png", "en", "/ddz da", "/ddz daily", "board:yesterday"),
    Shot("daily_board_today_es.png", "es", "/ddz dia", "/ddz diaria", "clasificacion:hoy"),
)


def fill(db: Path, now: float) -> None:
    """The plays of ``PLAYS`` in the sandbox database ``db`` (its schema made by a first run)."""
    today = day_of(now)
    days = [today]
    for _ in range(len(PLAYS["Alice"]) - 1):
        days.insert(0, day_before(days[0]))
    with sqlite3.connect(db) as con:
        for n, (name, plays) in enumerate(PLAYS.items()):
            user = fixed_id(100 + NAMES.index(name))
            con.execute("INSERT OR REPLACE INTO display_names VALUES (?, ?, ?, ?)",
                        (GUILD, user, name, now))
            for k, (day, play) in enumerate(zip(days, plays, strict=True)):
                if play is None:
                    continue
                points, moves, won = play
                started = now - (len(days) - k) * 86_400 + n * 60
                con.execute(
                    "INSERT OR REPLACE INTO daily_plays (guild_id, day, user_id, table_id, level,"
                    " started_at, finished_at, points, moves, won) VALUES (?, ?, ?, ?, 'hard',"
                    " ?, ?, ?, ?, ?)",
                    (GUILD, day, user, f"shot{n}{k}", started, started + 300, points, moves,
                     int(won)))


def shoot(folder: Path) -> list[Path]:
    """Write the screenshots into ``folder``; their paths."""
    return sandbox_screenshots.shoot(folder, SHOTS, lambda db, shot: fill(db, time.time()))


if __name__ == "__main__":
    for shot in shoot(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/images")):
        print(shot)
