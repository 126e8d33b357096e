"""The ping wing as a ``Feature`` (bot/features/contract.py)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.service.tables import TableService
from bot.settings import Settings
from bot.web.routes import WebPart
from cogs.wing import Wing, WingHost
from tests.support.ping_wing.cog import ROUTES, PingCommands
from tests.support.ping_wing.rules import KIND
from tests.support.ping_wing.service import PingService
from tests.support.ping_wing.store import MIGRATIONS
from tests.support.ping_wing.web import WEB


class PingFeature:
    """``/ddz ping``: one table kind, one stored row, one command, one button, one web page."""

    name = "ping"
    commands = PingCommands

    def migrations(self) -> Mapping[str, Sequence[str]]:
        return MIGRATIONS

    def install(self, service: TableService, settings: Settings | None) -> PingService:
        return service.register(KIND, PingService(service))

    def web(self) -> WebPart:
        return WEB

    def attach(self, host: WingHost) -> Wing:
        return Wing(routes=ROUTES)


FEATURE = PingFeature()
