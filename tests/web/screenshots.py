"""``python -m tests.web.screenshots [folder]``: the web page's screenshots for the docs
(default ``docs/images``), at a phone's width (400 px) and a desktop's (1100 px), from
seeded hand 3, a test server's standings and a tournament, in Chromium (Debian's,
through Playwright)."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from playwright.async_api import async_playwright

from tests.support.chromium import BROWSER_ARGS, CHROMIUM
from tests.support.fake_records import Records
from tests.support.web_pages import (
    GUILD,
    running_site,
    settled,
    standings_store,
)

SHOTS = (
    # (file, width, height, step)
    ("web_replay_phone.png", 400, 860, 3),
    ("web_replay_desktop.png", 1100, 820, 3),
    ("web_result_phone.png", 400, 860, 0),
)


async def take(folder: Path) -> list[Path]:
    """Write the screenshots into ``folder``; their paths."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    async with running_site(Records(settled(3, 1))) as (base, _, links), \
            async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=BROWSER_ARGS)
        url = f"{base}/r/{links.replay_token(GUILD, 1)}"
        for name, width, height, step in SHOTS:
            page = await browser.new_page(viewport={"width": width, "height": height},
                                          device_scale_factor=1)
            await page.goto(f"{url}#{step}" if step else url)
            if not step:
                await page.keyboard.press("End")
            await page.screenshot(path=str(folder / name))
            written.append(folder / name)
        await browser.close()
    written += await take_standings(folder)
    written += await take_tournament(folder)
    return written


async def take_standings(folder: Path) -> list[Path]:
    """The standings page (phone, desktop) and a player page (phone) of a server with
    three settled hands."""
    import tempfile

    written = []
    with tempfile.TemporaryDirectory() as tmp:
        storage, service = await standings_store(Path(tmp) / "ddz.sqlite3")
        settings = await service.settings(GUILD)
        await service.save_settings(GUILD, settings.with_changes(web=True))
        try:
            async with running_site(storage, service=service) as (base, _, links), \
                    async_playwright() as p:
                browser = await p.chromium.launch(executable_path=CHROMIUM, args=BROWSER_ARGS)
                url = f"{base}/s/{links.server_token(GUILD)}"
                for name, width, height, path in (
                        ("web_standings_phone.png", 400, 1000, url),
                        ("web_standings_desktop.png", 1100, 900, url),
                        ("web_player_phone.png", 400, 860, f"{url}/p/101")):
                    page = await browser.new_page(viewport={"width": width, "height": height})
                    await page.goto(path)
                    await page.screenshot(path=str(folder / name))
                    written.append(folder / name)
                await browser.close()
        finally:
            await storage.close()
    return written


async def take_tournament(folder: Path) -> list[Path]:
    """A tournament's page (desktop, phone in Spanish): the worked example of
    docs/RULES.md §Tournaments after round 1, round 2 under way."""
    import tempfile

    from bot.features.tournaments.web import tournament_token
    from tests.support.web_tournament import stored_tournament

    written = []
    with tempfile.TemporaryDirectory() as tmp:
        storage, service = await standings_store(Path(tmp) / "ddz.sqlite3")
        settings = await service.settings(GUILD)
        await service.save_settings(GUILD, settings.with_changes(web=True))
        try:
            info = await stored_tournament(storage, GUILD)
            async with running_site(storage, service=service) as (base, _, links), \
                    async_playwright() as p:
                browser = await p.chromium.launch(executable_path=CHROMIUM, args=BROWSER_ARGS)
                url = f"{base}/t/{tournament_token(links, GUILD, info.number)}"
                for name, width, height, path in (
                        ("web_tournament_desktop.png", 1100, 1000, url),
                        ("web_tournament_phone.png", 400, 1400, f"{url}?lang=es")):
                    page = await browser.new_page(viewport={"width": width, "height": height})
                    await page.goto(path)
                    await page.screenshot(path=str(folder / name))
                    written.append(folder / name)
                await browser.close()
        finally:
            await storage.close()
    return written


if __name__ == "__main__":
    for path in asyncio.run(take(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/images"))):
        print(path, path.stat().st_size, "bytes")
