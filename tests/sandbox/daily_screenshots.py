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
import tempfile
import time
from pathlib import Path

from playwright.sync_api import expect, sync_playwright

from bot.game.daily import day_before, day_of
from bot.sandbox.world import NAMES, fixed_id
from tests.sandbox.running import SandboxRun
from tests.support.chromium import BROWSER_ARGS, CHROMIUM

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
    # (file, --lang, command typed, its suggestion, options typed)
    ("daily_board_today_en.png", "en", "/ddz da", "/ddz daily", "board:today"),
    ("daily_board_yesterday_en.png", "en", "/ddz da", "/ddz daily", "board:yesterday"),
    ("daily_board_today_es.png", "es", "/ddz dia", "/ddz diaria", "clasificacion:hoy"),
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
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    with tempfile.TemporaryDirectory() as home, sync_playwright() as p:
        env = {"HOME": home}
        first = SandboxRun("--keep", env=env)
        first.wait_ready()
        assert first.stop() == 0, first.output
        fill(Path(home) / ".ddz-sandbox" / "sandbox.sqlite3", time.time())
        browser = p.chromium.launch(executable_path=CHROMIUM, args=BROWSER_ARGS)
        for file, lang, partial, suggestion, rest in SHOTS:
            run = SandboxRun("--keep", "--lang", lang, "--members", "5", env=env)
            try:
                url = run.wait_ready()
                page = browser.new_page(viewport={"width": 1000, "height": 640},
                                        device_scale_factor=1)
                page.goto(url)
                box = page.locator("#input")
                expect(box).to_be_visible()
                box.click()
                box.press_sequentially(partial)
                expect(page.locator("#suggestions .item .name", has_text=suggestion).first
                       ).to_be_visible()
                box.press("Tab")
                box.press_sequentially(rest)
                box.press("Enter")
                answer = page.locator("article.msg.ephemeral", has=page.locator(".embed")).last
                expect(answer).to_contain_text("Alice", timeout=20_000)
                path = folder / file
                answer.screenshot(path=str(path))
                written.append(path)
                page.close()
            finally:
                assert run.stop() == 0, run.output
        browser.close()
    return written


if __name__ == "__main__":
    for shot in shoot(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/images")):
        print(shot)
