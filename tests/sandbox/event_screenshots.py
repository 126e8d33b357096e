"""``python -m tests.sandbox.event_screenshots [folder]``: screenshots of a duplicate
event's standings (``/ddz event standings``, English and Spanish; an open event as one
entrant sees it, then the closed event's final standings) for the docs (default
``docs/images``), taken in the sandbox's web client (the real bot through the loopback
Discord) in Debian's Chromium through Playwright.

The event comes from a sandbox database filled beforehand (``--keep`` in a throwaway
home): five entrants' finished plays of a three-deal event, so that the duplicate score
(points minus the field's mean on each deal), a shared place and raw points all show
(docs/RULES.md §Events). Open, Alice has finished deals 1 and 2 only, so she sees the
standings over those two (no peeking)."""

from __future__ import annotations

import sqlite3
import sys
import time
from pathlib import Path

from sandbox.world import NAMES, fixed_id
from tests.support import sandbox_screenshots
from tests.support.sandbox_screenshots import Shot

GUILD = fixed_id(1)
EVENT = "shotevent"
POINTS = {
    # member: points on deals 1, 2, 3 (None: not played yet)
    "Alice": [12, -6, None],
    "Bob": [6, -6, 12],
    "Carol": [-12, 3, 6],
    "Dave": [6, 6, -6],
    "Erin": [24, -12, 3],
}
SHOTS = (
    Shot("event_standings_open_en.png", "en", "/ddz event st", "/ddz event standings"),
    Shot("event_standings_final_en.png", "en", "/ddz event st", "/ddz event standings"),
    Shot("event_standings_final_es.png", "es", "/ddz evento cl", "/ddz evento clasificacion"),
)
CLOSED = {"event_standings_open_en.png": False}
"""Each shot's event is closed (every deal played) but the open one's."""


def fill(db: Path, now: float, closed: bool) -> None:
    """The event of ``POINTS`` in the sandbox database ``db`` (its schema made by a first
    run); closed an hour ago when ``closed``, with every deal played."""
    with sqlite3.connect(db) as con:
        for table in ("events", "event_entries", "event_plays"):
            con.execute(f"DELETE FROM {table}")  # noqa: S608 - fixed table names
        closes = now - 3_600 if closed else now + 86_400
        con.execute("INSERT INTO events (event_id, guild_id, channel_id, name, deals, level,"
                    " created_by, created_at, closes_at, closed_at, announced_at)"
                    " VALUES (?, ?, ?, 'Friday duplicate', 3, 'hard', ?, ?, ?, NULL, NULL)",
                    (EVENT, GUILD, fixed_id(10), fixed_id(100), now - 2 * 86_400, closes))
        for n, (name, points) in enumerate(POINTS.items()):
            user = fixed_id(100 + NAMES.index(name))
            con.execute("INSERT OR REPLACE INTO display_names VALUES (?, ?, ?, ?)",
                        (GUILD, user, name, now))
            con.execute("INSERT INTO event_entries VALUES (?, ?, ?, ?)",
                        (EVENT, user, GUILD, now - 86_400 + n))
            for deal, score in enumerate(points, start=1):
                if score is None and closed:
                    score = -3  # by the close Alice had played her third deal too
                if score is None:
                    continue
                started = now - 80_000 + deal * 600 + n * 60
                con.execute(
                    "INSERT INTO event_plays (event_id, deal, user_id, guild_id, table_id,"
                    " started_at, finished_at, points, moves, hand)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, 9, NULL)",
                    (EVENT, deal, user, GUILD, f"shot{n}{deal}", started, started + 300, score))


def shoot(folder: Path) -> list[Path]:
    """Write the screenshots into ``folder``; their paths."""
    return sandbox_screenshots.shoot(
        folder, SHOTS, lambda db, shot: fill(db, time.time(), CLOSED.get(shot.file, True)))


if __name__ == "__main__":
    for shot in shoot(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/images")):
        print(shot)
