"""Tournaments as a ``Feature`` (bot/features/contract.py): public tables of kind
``tournament`` told of each settled hand and titled by ``TournamentService``, ``/ddz
forget`` refused while the member is in the live one and their id taken off its open tables
after, a shutdown step, the first turn's grace and the thread retry (``DDZ_TOURNAMENT_…``), ``/ddz
tournament …``, the threads and posts (``TournamentDiscord``), the ticker and its web page
(``/t/<token>``, ``web.py``)."""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence

from bot.features.tournaments import cog as tournaments
from bot.features.tournaments.service import TournamentService
from bot.features.tournaments.web import WEB
from bot.game.table import Table
from bot.service.tables import TableService
from bot.settings import Settings
from bot.web.routes import WebPart
from cogs.wing import Wing, WingHost

KIND = "tournament"
"""``Table.kind`` of a tournament's table."""


class TournamentsFeature:
    """Tournaments (docs/RULES.md §Tournaments)."""

    name = "tournaments"
    commands = tournaments.TournamentCommands

    def migrations(self) -> Mapping[str, Sequence[str]]:
        return {}  # its tables: the core's migrations (bot/storage/migrations.py)

    def install(self, service: TableService, settings: Settings | None) -> TournamentService:
        cups = service.register(KIND, TournamentService(service))
        if settings is not None:
            cups.grace = settings.tournament_grace
            cups.thread_retry = settings.tournament_thread_retry
            cups.min_pause = settings.tournament_hand_pause
        service.forgetting.add_check(cups.forget_check)
        service.forgetting.add_step(cups.forget_step)
        service.forgetting.listeners.append(cups.forgotten)
        service.closing.append(cups.close)
        return cups

    def web(self) -> WebPart:
        return WEB  # its page, /t/<token>

    def attach(self, host: WingHost) -> Wing:
        cups = host.ctx.feature(TournamentService)
        cups.poster = tournaments.TournamentDiscord(host.delivery, host.language, host.web_links,
                                                    host.ctx.service.settings,
                                                    drawn=host.ctx.board.drawn)
        ticker = tournaments.TournamentTicker(host.bot, cups)

        async def closing(table: Table) -> None:
            # a tournament closes its table right after the last hand: the members' views
            # show that hand's end first (its board keeps the result too)
            if table.hand is not None and table.hand.result is not None:
                await host.ctx.hands.views.refresh(table.model_copy(update={"phase": "finished"}))

        return Wing(tasks=(ticker,), parts=(ticker,), closing={KIND: closing},
                    routes=tournaments.ROUTES, rules=tournaments.RULES_PARTS,
                    stats=functools.partial(tournaments.stats_fields, cups))


FEATURE = TournamentsFeature()
