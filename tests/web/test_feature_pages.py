"""A feature's web page plugs in through the contract alone (issue 49): the demonstration
wing of tests/support/ping_wing gives a route, ``/ping/<table id>``, and a template of its
own (``Feature.web()``, ``bot.web.routes.WebPart``); the site mounts it beside the
installed features' pages (the tournaments' ``/t/<token>``) without a core file naming
it, and builds it over the same checks: a 404 while the server's page is off, or for a
table that does not exist."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest_asyncio

from bot.features.contract import install_features, migrate_features
from bot.features.installed import FEATURES
from bot.features.tournaments.web import tournament_token
from bot.service.tables import TableService
from bot.storage import open_repository
from tests.support.ping_wing.feature import FEATURE as PING
from tests.support.ping_wing.service import PingService
from tests.support.web_pages import GUILD, running_site
from tests.support.web_tournament import stored_tournament


@pytest_asyncio.fixture
async def served(tmp_path: Path) -> AsyncIterator[tuple[str, Any, Any]]:
    """The site with the pages of ``FEATURES`` and the ping wing: (base URL, the table
    service, the links)."""
    storage = await open_repository(str(tmp_path / "ddz.sqlite3"))
    try:
        features = [*FEATURES, PING]
        await migrate_features(storage, features)
        service = TableService(storage)
        service.installed = install_features(service, features)  # type: ignore[attr-defined]
        async with running_site(storage, service=service, features=features) as (
                base, _, links):
            yield base, service, links
    finally:
        await storage.close()


async def get(url: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as session, session.get(url) as response:
        return response.status, await response.text()


async def test_the_ping_wings_page_is_served_by_the_site(served: Any) -> None:
    base, service, links = served
    store = service.installed.get(PingService).store
    assert await store.begin("pt1", GUILD, 101)
    assert (await get(f"{base}/ping/pt1"))[0] == 404  # the server's page is off
    settings = await service.settings(GUILD)
    await service.save_settings(GUILD, settings.with_changes(web=True))
    status, html = await get(f"{base}/ping/pt1?lang=es")
    assert status == 200
    assert "<h1>ping pt1</h1>" in html and '<p class="points">-</p>' in html
    assert 'lang="es"' in html and "/static/site.css" in html  # the site's base.html
    await store.finish("pt1", 6)
    assert '<p class="points">6</p>' in (await get(f"{base}/ping/pt1"))[1]
    assert (await get(f"{base}/ping/nope"))[0] == 404
    assert (await get(f"{base}/ping/pt1x!"))[0] == 404  # not the route's pattern
    # the tournaments' page is mounted beside it
    info = await stored_tournament(service.storage, GUILD, settle=False)
    status, html = await get(f"{base}/t/{tournament_token(links, GUILD, info.number)}")
    assert status == 200 and "Tournament: Winter Cup" in html

