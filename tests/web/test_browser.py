"""The web page in a real browser: Debian's chromium driven by Playwright (nothing is
downloaded; ``executable_path`` is the system's). Skipped without chromium, except in
CI (``CI=true``), where a missing browser fails the run."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio
from prometheus_client.parser import text_string_to_metric_families

from bot.features.tournaments.web import tournament_token
from bot.game.hand import Hand
from bot.game.replay import replay as replay_steps
from bot.rules import format_cards
from bot.service.health import database_problem
from bot.storage import open_repository
from tests.support.chromium import BROWSER_ARGS, CHROMIUM, require_chromium
from tests.support.fake_records import Records
from tests.support.web_pages import (
    GUILD,
    running_site,
    settled,
    standings_store,
)
from tests.support.web_tournament import stored_tournament

playwright_api = pytest.importorskip("playwright.async_api")
require_chromium()


@pytest_asyncio.fixture
async def browser() -> AsyncIterator[object]:
    async with playwright_api.async_playwright() as p:
        chromium = await p.chromium.launch(executable_path=CHROMIUM, args=BROWSER_ARGS)
        try:
            yield chromium
        finally:
            await chromium.close()


def _tricks(record: object) -> list[tuple[int, list[str]]]:
    hand = Hand.model_validate_json(record.hand_json)  # type: ignore[attr-defined]
    return [(s.trick, [format_cards(a.combo.cards) for a in s.actions if a.kind == "play"])
            for s in replay_steps(hand) if s.kind == "trick"]


async def test_the_keyboard_steps_through_every_trick_as_played(browser: object) -> None:
    record = settled(3, 1)
    tricks = _tricks(record)
    async with running_site(Records(record)) as (base, _, links):
        page = await browser.new_page(viewport={"width": 1100, "height": 900})  # type: ignore[attr-defined]
        await page.goto(f"{base}/r/{links.replay_token(GUILD, 1)}")
        total = 2 + len(tricks) + 1  # the deal, the bidding, the tricks, the result
        assert await page.locator("section.step").count() == total
        assert await page.locator("section.step:visible").count() == 1
        assert await page.is_disabled("#prev")
        seen: list[tuple[int, list[str]]] = []
        for index in range(1, total + 1):
            current = page.locator("section.step:visible")
            assert await current.get_attribute("data-index") == str(index)
            assert await page.inner_text("#counter") == f"Step {index} of {total}"
            assert await page.get_attribute("#progress", "value") == str(index)
            kind = await current.get_attribute("data-kind")
            assert kind == ("deal" if index == 1 else "bidding" if index == 2
                            else "result" if index == total else "trick")
            if kind == "trick":
                plays = current.locator("li.line:not(.pass)")
                seen.append((int(await current.get_attribute("data-trick") or 0),
                             [await plays.nth(i).get_attribute("data-cards")
                              for i in range(await plays.count())]))
                assert await current.locator("h2 .title").inner_text() == (
                    f"Trick {len(seen)} of {len(tricks)}")
            await page.keyboard.press("ArrowRight")
        assert seen == tricks
        assert await page.is_disabled("#next")
        assert "The peasants win" in await page.inner_text("section.step:visible") or \
            "The landlord wins" in await page.inner_text("section.step:visible")
        await page.keyboard.press("ArrowLeft")
        assert await page.inner_text("#counter") == f"Step {total - 1} of {total}"
        await page.keyboard.press("Home")
        assert await page.inner_text("#counter") == f"Step 1 of {total}"
        await page.click("#next")
        assert page.url.endswith("#2")
        await page.reload()  # the step in the address survives a reload
        assert await page.inner_text("#counter") == f"Step 2 of {total}"


@pytest.mark.parametrize("locale", ["en-US", "es-ES"])
async def test_a_step_typed_into_the_address_is_shown(browser: object, locale: str) -> None:
    # Issue 37 §6: editing #2 into #5 in the address bar changed nothing on the page.
    async with running_site(Records(settled(3, 1))) as (base, _, links):
        context = await browser.new_context(locale=locale)  # type: ignore[attr-defined]
        page = await context.new_page()
        url = f"{base}/r/{links.replay_token(GUILD, 1)}"
        await page.goto(url + "#2")
        step = page.locator("section.step:visible")
        assert await step.get_attribute("data-index") == "2"
        await page.evaluate("location.hash = '#5'")  # as typed: a hashchange, no reload
        await playwright_api.expect(step).to_have_attribute("data-index", "5")
        word = "Step" if locale == "en-US" else "Paso"
        assert (await page.inner_text("#counter")).startswith(f"{word} 5 ")
        await page.evaluate("location.hash = '#999'")  # past the end: the last step
        total = await page.locator("section.step").count()
        await playwright_api.expect(step).to_have_attribute("data-index", str(total))
        assert page.url.endswith(f"#{total}")
        await context.close()


async def test_the_spanish_page(browser: object) -> None:
    async with running_site(Records(settled(3, 1))) as (base, _, links):
        context = await browser.new_context(locale="es-ES")  # type: ignore[attr-defined]
        page = await context.new_page()
        await page.goto(f"{base}/r/{links.replay_token(GUILD, 1)}")
        assert await page.get_attribute("html", "lang") == "es"
        assert await page.inner_text("section.step:visible h2 .title") == "El reparto"
        assert (await page.inner_text("#counter")).startswith("Paso 1 de ")
        await page.keyboard.press("End")
        assert "total de la partida" in (await page.inner_text("section.step:visible")).lower()
        await page.click("text=English")
        assert await page.inner_text("section.step:visible h2 .title") == "The deal"


async def test_a_tampered_link_is_the_404_page(browser: object) -> None:
    async with running_site(Records(settled(3, 1))) as (base, _, links):
        token = links.replay_token(GUILD, 1)
        page = await browser.new_page()  # type: ignore[attr-defined]
        response = await page.goto(f"{base}/r/{token[:-3]}abc")
        assert response.status == 404
        assert "This link is not valid" in await page.inner_text("main")
        assert "Traceback" not in await page.content()


async def test_healthz_says_503_when_the_database_is_away(browser: object,
                                                          tmp_path: Path) -> None:
    storage = await open_repository(str(tmp_path / "ddz.sqlite3"))

    async def health() -> str | None:
        return await database_problem(storage)

    async with running_site(Records(), health=health) as (base, _, _):
        page = await browser.new_page()  # type: ignore[attr-defined]
        response = await page.goto(f"{base}/healthz")
        assert response.status == 200 and (await page.inner_text("body")).strip() == "ok"
        await storage.close()
        response = await page.goto(f"{base}/healthz")
        assert response.status == 503
        assert (await page.inner_text("body")).startswith("the database does not answer")
        response = await page.goto(f"{base}/metrics")
        names = {f.name for f in text_string_to_metric_families(await response.text())}
        assert {"ddz_open_tables", "ddz_interactions", "ddz_answer_seconds",
                "ddz_database_seconds", "ddz_global_requests", "ddz_worker_queue_length",
                "ddz_web_requests"} <= names


async def test_a_phone_sees_the_replay_without_sideways_scrolling(browser: object) -> None:
    async with running_site(Records(settled(3, 1))) as (base, _, links):
        page = await browser.new_page(viewport={"width": 400, "height": 860})  # type: ignore[attr-defined]
        await page.goto(f"{base}/r/{links.replay_token(GUILD, 1)}")
        total = await page.locator("section.step").count()
        for _ in range(total):
            width = await page.evaluate("document.documentElement.scrollWidth")
            assert width <= 400
            await page.keyboard.press("ArrowRight")


async def test_standings_off_404_on_listed_and_forgotten_gone(browser: object,
                                                              tmp_path: Path) -> None:
    storage, service = await standings_store(tmp_path / "ddz.sqlite3")
    try:
        async with running_site(storage, service=service) as (base, site, links):
            service.forget_listeners.append(site.forget)
            page = await browser.new_page(viewport={"width": 400, "height": 900})  # type: ignore[attr-defined]
            url = f"{base}/s/{links.server_token(GUILD)}"
            assert (await page.goto(url)).status == 404
            settings = await service.settings(GUILD)
            await service.save_settings(GUILD, settings.with_changes(web=True))
            assert (await page.goto(url)).status == 200
            names = await page.locator("#match td a").all_inner_texts()
            assert sorted(names) == ["user101", "user102", "user103"]
            assert await page.evaluate("document.documentElement.scrollWidth") <= 400
            await page.click("#alltime >> text=user102")
            assert "Record of user102" in await page.inner_text("h1")
            assert await page.locator("svg.chart rect").count() == 3
            await service.forget_user(GUILD, 102)
            await page.goto(url)
            assert "user102" not in await page.inner_text("main")
            assert (await page.goto(f"{url}/p/102")).status == 404
    finally:
        await storage.close()


async def test_a_tournament_page_lists_standings_and_tables_and_opens_a_replay(
        browser: object, tmp_path: Path) -> None:
    storage, service = await standings_store(tmp_path / "ddz.sqlite3")
    try:
        info = await stored_tournament(storage, GUILD)
        # round 1's hands are the server's hands 4, 5, 6: real replays stand in for them
        replays = Records(*(settled(seed, hand_no) for seed, hand_no in ((3, 4), (5, 5), (7, 6))))
        async with running_site(replays, service=service) as (base, _, links):
            settings = await service.settings(GUILD)
            await service.save_settings(GUILD, settings.with_changes(web=True))
            page = await browser.new_page(viewport={"width": 1100, "height": 1000})  # type: ignore[attr-defined]
            url = f"{base}/t/{tournament_token(links, GUILD, info.number)}"
            assert (await page.goto(url)).status == 200
            assert await page.inner_text("h1") == "Tournament: Winter Cup"
            names = await page.locator("#standings tbody tr td:nth-child(2)").all_inner_texts()
            assert [n.split()[0] for n in names] == ["Gus", "Cal", "Dee", "Ana", "Ben", "Fay",
                                                     "Eve"]
            assert await page.locator("#round-1 .ttable").count() == 3
            assert await page.locator("#round-2 .ttable").count() == 3
            assert await page.locator("#r1t2 tr.computer").count() == 1
            await page.screenshot(path=str(tmp_path / "tournament.png"), full_page=True)
            await page.click("#r1t1 >> text=Hand 1")
            assert f"/r/{links.replay_token(GUILD, 4)}" in page.url
            assert await page.locator("section.step").count() > 3
            phone = await browser.new_page(viewport={"width": 400, "height": 900})  # type: ignore[attr-defined]
            await phone.goto(f"{url}?lang=es")
            assert await phone.inner_text("h1") == "Torneo: Winter Cup"
            assert await phone.evaluate("document.documentElement.scrollWidth") <= 400
    finally:
        await storage.close()


async def test_a_phones_header_keeps_the_name_and_each_language_on_one_line(
        browser: object) -> None:
    """At 400 px with four languages the header wrapped 'Dou Dizhu' onto two lines and
    split '繁體中文' after its second character (seen in docs/images/web_*_phone.png)."""
    async with running_site(Records(settled(3, 1))) as (base, _, links):
        page = await browser.new_page(viewport={"width": 400, "height": 860})  # type: ignore[attr-defined]
        await page.goto(f"{base}/r/{links.replay_token(GUILD, 1)}")
        lines = await page.evaluate("""() => [...document.querySelectorAll('.brand, .langs a')]
            .map(e => [e.textContent.trim(),
                       new Set([...e.getClientRects()].map(r => Math.round(r.top))).size])""")
        assert len(lines) == 5, lines
        assert all(n == 1 for _, n in lines), lines
        assert await page.evaluate("document.documentElement.scrollWidth") <= 400
