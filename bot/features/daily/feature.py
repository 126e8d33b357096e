"""The daily deal as a ``Feature`` (bot/features/contract.py): private tables of kind
``daily`` finished and titled by ``DailyService``, its marks kept through ``/ddz forget``,
``/ddz daily``, the member's view refreshed on every change and the daily channel's posts."""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence

from bot.features.daily import cog as daily
from bot.features.daily.service import DailyService
from bot.service.tables import TableService
from bot.settings import Settings
from bot.web.routes import WebPart
from cogs.wing import Wing, WingHost

KIND = "daily"
"""``Table.kind`` of a daily deal's table."""


class DailyFeature:
    """The daily deal (docs/RULES.md §Daily deal)."""

    name = "daily"
    commands = daily.DailyCommands

    def migrations(self) -> Mapping[str, Sequence[str]]:
        return {}  # its tables: the core's migrations (bot/storage/migrations.py)

    def install(self, service: TableService, settings: Settings | None) -> DailyService:
        deal = service.register(KIND, DailyService(service))
        service.forgetting.add_step(deal.forget_step)
        return deal

    def web(self) -> WebPart:
        return WebPart()  # no page of its own

    def attach(self, host: WingHost) -> Wing:
        poster = daily.DailyPoster(host.bot, host.ctx.feature(DailyService), host.language,
                                   host.delivery)
        return Wing(private={KIND: functools.partial(daily.table_changed, host.ctx)},
                    tasks=(poster,), parts=(poster,),
                    routes=daily.ROUTES,
                    stats=functools.partial(daily.stats_fields, host.ctx.feature(DailyService)),
                    settings=daily.settings_lines)


FEATURE = DailyFeature()
