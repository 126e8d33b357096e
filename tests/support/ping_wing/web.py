"""The ping wing's web page, ``/ping/<table id>``: the table's stored points (``-`` while its
hand is played), on a server whose admins turned the page on — a route and a template of its
own (``bot.web.routes.WebPart``), mounted by the site with no core file edited."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from bot.web.routes import Page, WebHost, WebPart, WebRoute
from tests.support.ping_wing.service import PingService


async def table_page(host: WebHost, match: Mapping[str, str], lang: str) -> Page | None:
    """The page of ping table ``match["table"]``; None (→ 404): no such table, or its
    server's page is off."""
    row = await host.feature(PingService).store.row(match["table"])
    if row is None or not await host.public(row[0]):
        return None
    body = await host.render("ping/table.html", lang=lang, table=match["table"], points=row[2])
    return Page(body, "text/html; charset=utf-8")


WEB = WebPart(routes=(WebRoute("/ping/{table:[A-Za-z0-9]{1,16}}", "ping", table_page),),
              templates=Path(__file__).with_name("templates"))
"""The ping wing's part of the web page."""
