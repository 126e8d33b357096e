"""Server standings on the web page: only when the admins turned them on, members
listed with their pages, and gone from every page right after ``/ddz forget``."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
import pytest_asyncio

from tests.support.databases import Database
from tests.support.web_pages import GUILD, running_site, standings_store


@pytest_asyncio.fixture
async def served(tmp_path: Path) -> AsyncIterator[tuple[str, Any, Any, Any]]:
    storage, service = await standings_store(tmp_path / "ddz.sqlite3")
    try:
        async with running_site(storage, service=service) as (base, site, links):
            service.forget_listeners.append(site.forget)
            yield base, service, links, site
    finally:
        await storage.close()


async def get(url: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as session, session.get(url) as response:
        return response.status, await response.text()


async def turn_web(service: Any, on: bool) -> None:
    settings = await service.settings(GUILD)
    await service.save_settings(GUILD, settings.with_changes(web=on))


async def test_standings_are_404_until_the_admins_turn_them_on(served: Any) -> None:
    base, service, links, _ = served
    url = f"{base}/s/{links.server_token(GUILD)}"
    assert (await get(url))[0] == 404
    assert (await get(f"{url}/p/101"))[0] == 404
    await turn_web(service, True)
    status, html = await get(url)
    assert status == 200
    for name in ("user101", "user102", "user103"):
        assert html.count(f">{name}</a>") == 3, name  # current match, all time, ratings
    assert "Match #1 · target 30" in html and "Computer (" not in html
    await turn_web(service, False)
    assert (await get(url))[0] == 404  # at once: the setting is read on every request


async def test_a_player_page_has_the_record_and_the_chart(served: Any) -> None:
    base, service, links, _ = served
    await turn_web(service, True)
    status, html = await get(f"{base}/s/{links.server_token(GUILD)}/p/102?lang=es")
    assert status == 200 and "Historial de user102" in html
    assert '<svg class="chart"' in html and html.count('<rect class="') == 3
    assert (await get(f"{base}/s/{links.server_token(GUILD)}/p/999"))[0] == 404


async def test_tampered_or_foreign_server_tokens_are_404(served: Any) -> None:
    base, service, links, _ = served
    await turn_web(service, True)
    token = links.server_token(GUILD)
    for bad in (token[:-2] + "zz", links.server_token(GUILD + 1), links.replay_token(GUILD, 1),
                "A" * 48):
        assert (await get(f"{base}/s/{bad}"))[0] == 404, bad


async def test_a_standings_page_has_one_address_not_four(served: Any) -> None:
    """The token's last character carries 2 unused bits: the three other spellings of the
    same bytes are the 404 page (docs/WEB.md §Links: every changed character)."""
    base, service, links, _ = served
    await turn_web(service, True)
    token = links.server_token(GUILD)
    statuses = {last: (await get(f"{base}/s/{token[:-1] + last}"))[0] for last in "ABCD"}
    assert statuses == {token[-1]: 200} | {c: 404 for c in "ABCD" if c != token[-1]}


async def test_forget_removes_the_member_from_every_page_at_once(served: Any) -> None:
    base, service, links, site = served
    await turn_web(service, True)
    url = f"{base}/s/{links.server_token(GUILD)}"
    assert "user102" in (await get(url))[1]
    assert (await get(f"{url}/p/102"))[0] == 200
    built = site.built
    assert "user102" in (await get(url))[1] and site.built == built  # cached
    await service.forget_user(GUILD, 102)
    status, html = await get(url)
    assert status == 200 and "user102" not in html and 'data-user="102"' not in html
    assert "user101" in html
    assert (await get(f"{url}/p/102"))[0] == 404


async def test_a_member_id_beyond_64_bits_is_the_404_page_and_nothing_is_logged(
    database: Database, caplog: pytest.LogCaptureFixture,
) -> None:
    """The route takes 20 digits; 2^63 and more can be no member (ids are signed 64-bit in
    both databases): SQLite raised OverflowError, PostgreSQL DataError, answered 500."""
    storage, service = await standings_store(database.location)
    try:
        async with running_site(storage, service=service) as (base, _, links):
            await turn_web(service, True)
            url = f"{base}/s/{links.server_token(GUILD)}/p"
            caplog.clear()
            for member in (2**63, 2**63 + 1, 10**19, 2**64 - 1, 99_999_999_999_999_999_999):
                status, html = await get(f"{url}/{member}")
                assert status == 404 and "Traceback" not in html, member
                assert 'lang="en"' in html  # the 404 page, not a bare answer
            assert (await get(f"{url}/{2**63 - 1}"))[0] == 404  # the largest id: unknown
            assert (await get(f"{url}/101"))[0] == 200
            assert [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING] == []
    finally:
        await storage.close()
