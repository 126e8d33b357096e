"""Duplicate events as a ``Feature`` (bot/features/contract.py): private tables of kind
``event`` finished and titled by ``EventService``, its marks kept through ``/ddz forget``,
``/ddz event …``, the member's view refreshed on every change and the results' poster."""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence

from bot.features.events import cog as event
from bot.features.events.service import EventService
from bot.service.tables import TableService
from bot.settings import Settings
from bot.web.routes import WebPart
from cogs.wing import Wing, WingHost

KIND = "event"
"""``Table.kind`` of an event deal's table."""


class EventsFeature:
    """Duplicate events (docs/RULES.md §Events)."""

    name = "events"
    commands = event.EventCommands

    def migrations(self) -> Mapping[str, Sequence[str]]:
        return {}  # its tables: the core's migrations (bot/storage/migrations.py)

    def install(self, service: TableService, settings: Settings | None) -> EventService:
        events = service.register(KIND, EventService(service))
        service.forgetting.add_step(events.forget_step)
        return events

    def web(self) -> WebPart:
        return WebPart()  # no page of its own

    def attach(self, host: WingHost) -> Wing:
        announcer = event.EventAnnouncer(host.bot, host.ctx.feature(EventService),
                                         host.language, host.delivery)
        return Wing(private={KIND: functools.partial(event.table_changed, host.ctx, announcer)},
                    tasks=(announcer,), parts=(announcer,),
                    routes=event.ROUTES,
                    stats=functools.partial(event.stats_fields, host.ctx.feature(EventService)))


FEATURE = EventsFeature()
