"""A tournament's page ``/t/<token>`` (docs/WEB.md §Pages): only while the server's
``/ddz config web`` is on, the standings by the rules of docs/RULES.md §Tournaments,
each round's tables with links to the replays of their hands, and a 404 for any
tampered, foreign or unknown token."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest_asyncio

from bot.features.tournaments.web import tournament_token
from bot.rules import RuleSet
from tests.support.web_pages import GUILD, running_site, standings_store
from tests.support.web_tournament import TIED, stored_tie, stored_tournament


@pytest_asyncio.fixture
async def served(tmp_path: Path) -> AsyncIterator[tuple[str, Any, Any, Any]]:
    storage, service = await standings_store(tmp_path / "ddz.sqlite3")
    try:
        info = await stored_tournament(storage, GUILD)
        async with running_site(storage, service=service) as (base, site, links):
            yield base, service, links, info
    finally:
        await storage.close()


async def get(url: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as session, session.get(url) as response:
        return response.status, await response.text()


async def turn_web(service: Any, on: bool) -> None:
    settings = await service.settings(GUILD)
    await service.save_settings(GUILD, settings.with_changes(web=on))


def standings_rows(html: str) -> list[tuple[str, ...]]:
    body = html.split('id="standings"')[1].split("</table>")[0]
    rows = re.findall(r"<tr data-user[^>]*>(.*?)</tr>", body, re.S)
    return [tuple(re.sub(r"<[^>]+>", "", cell).strip()
                  for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)) for row in rows]


async def test_the_page_is_404_until_the_admins_turn_the_web_on(served: Any) -> None:
    base, service, links, info = served
    url = f"{base}/t/{tournament_token(links, GUILD, info.number)}"
    assert (await get(url))[0] == 404
    await turn_web(service, True)
    assert (await get(url))[0] == 200
    await turn_web(service, False)
    assert (await get(url))[0] == 404


async def test_the_standings_and_the_tables_with_their_replays(served: Any) -> None:
    base, service, links, info = served
    await turn_web(service, True)
    status, html = await get(f"{base}/t/{tournament_token(links, GUILD, info.number)}")
    assert status == 200
    assert "Tournament: Winter Cup" in html and "Round 2 of 2" in html and "seed 12345" in html
    assert '<span class="rules">Rules: classic</span>' in html  # as the sign-up says it
    # round 1 (docs/RULES.md §Tournaments worked example) and, in round 2, Ana and Ben
    # sharing 1st at their table (2 each): Ana 0.5 + 2, Ben 0.5 + 2
    assert standings_rows(html) == [
        ("1", "Gus", "3.0", "+6", "3.0", "1"),      # Buchholz: Eve 0.5 + Ben 2.5
        ("2", "Cal", "3.0", "+4", "2.5", "1"),      # Ana 2.5
        ("3", "Dee", "3.0", "+4", "0.5", "1"),      # Fay 0.5
        ("4", "Ana", "2.5", "+2", "5.5", "2"),      # Cal 3 + Ben 2.5
        ("5", "Ben", "2.5", "+1", "6.0", "2"),      # Gus 3 + Eve 0.5 + Ana 2.5
        ("6", "Fay withdrawn", "0.5", "-2", "3.0", "1"),
        ("7", "Eve", "0.5", "-3", "5.5", "1"),
    ]
    # each round's tables, the latest round first; a table still playing says so
    assert html.index('id="round-2"') < html.index('id="round-1"')
    r2 = html.split('id="round-2"')[1].split('id="round-1"')[0]
    assert r2.count('class="ttable"') == 3 and r2.count(">playing<") == 2
    r1 = html.split('id="round-1"')[1]
    assert r1.count('class="ttable"') == 3 and ">playing<" not in r1
    assert r1.count('<span class="badge bot">computer</span>') == 2
    # one settled hand per table of round 1: hand numbers 4, 5, 6 of the server (the
    # store holds three hands before), each a link to its replay
    for hand_no in (4, 5, 6):
        assert f'href="/r/{links.replay_token(GUILD, hand_no)}?lang=en"' in r1


async def test_spanish_writes_decimals_with_a_comma(served: Any) -> None:
    base, service, links, info = served
    await turn_web(service, True)
    status, html = await get(f"{base}/t/{tournament_token(links, GUILD, info.number)}?lang=es")
    assert status == 200 and "Torneo: Winter Cup" in html and "Ronda 2 de 2" in html
    rows = standings_rows(html)
    assert rows[3] == ("4", "Ana", "2,5", "+2", "5,5", "2")
    assert rows[5][1] == "Fay retirado"


async def test_a_happy_tournament_names_its_rules_as_the_sign_up_does(tmp_path: Path) -> None:
    from bot.features.tournaments.cog import signup_message

    storage, service = await standings_store(tmp_path / "ddz.sqlite3")
    try:
        info = await stored_tournament(storage, GUILD, rules=RuleSet(variant="happy"))
        async with running_site(storage, service=service) as (base, _, links):
            await turn_web(service, True)
            url = f"{base}/t/{tournament_token(links, GUILD, info.number)}"
            for lang, line in (("en", "Rules: Happy, cap ×64"),
                               ("es", "Reglas: Happy, tope ×64")):
                status, html = await get(f"{url}?lang={lang}")
                assert status == 200 and f'<span class="rules">{line}</span>' in html, html
                assert f'content="{html_meta(lang)} · {line}"' in html
                assert line in signup_message(info, 6, lang)["content"]
    finally:
        await storage.close()


def html_meta(lang: str) -> str:
    from bot.i18n import t
    return t("web.tournament_meta", lang, rounds=2, hands=1, seed=12345)


async def test_tampered_foreign_or_unknown_tokens_are_404(served: Any) -> None:
    base, service, links, info = served
    await turn_web(service, True)
    token = tournament_token(links, GUILD, info.number)
    for bad in (token[:-2] + "zz", tournament_token(links, GUILD + 1, info.number),
                tournament_token(links, GUILD, info.number + 1), links.replay_token(GUILD, 1),
                links.server_token(GUILD), "A" * 48):
        assert (await get(f"{base}/t/{bad}"))[0] == 404, bad
    # and a tournament token opens no replay or standings page
    assert (await get(f"{base}/r/{token}"))[0] == 404
    assert (await get(f"{base}/s/{token}"))[0] == 404


async def test_members_equal_on_every_measure_share_the_place(tmp_path: Path) -> None:
    # playtest: fully tied members were 1st and 2nd by join order
    storage, service = await standings_store(tmp_path / "ddz.sqlite3")
    try:
        info = await stored_tie(storage, GUILD, GUILD * 10)
        async with running_site(storage, service=service) as (base, _, links):
            await turn_web(service, True)
            url = f"{base}/t/{tournament_token(links, GUILD, info.number)}"
            for lang, note in (("en", "share the place (=1)"), ("es", "comparten el puesto"),
                               ("zh-CN", "名次并列")):
                status, html = await get(f"{url}?lang={lang}")
                assert status == 200 and note in html, lang
                rows = standings_rows(html)
                assert [row[0] for row in rows] == ["=1", "=1", "=3", "=3"], lang
                names = [row[1] for row in rows]  # each pair in join order
                order = list(TIED.values())
                assert order.index(names[0]) < order.index(names[1]), names
                assert order.index(names[2]) < order.index(names[3]), names
    finally:
        await storage.close()
