"""Endgame puzzles as a ``Feature`` (bot/features/contract.py): no table (each move judged
by the solver), its marks kept through ``/ddz forget``, ``/ddz puzzle``."""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence

from bot.features.puzzles import cog as puzzles
from bot.features.puzzles.service import PuzzleService
from bot.service.tables import TableService
from bot.settings import Settings
from bot.web.routes import WebPart
from cogs.wing import Wing, WingHost


class PuzzlesFeature:
    """Endgame puzzles (docs/RULES.md §Puzzles)."""

    name = "puzzles"
    commands = puzzles.PuzzleCommands

    def migrations(self) -> Mapping[str, Sequence[str]]:
        return {}  # its tables: the core's migrations (bot/storage/migrations.py)

    def install(self, service: TableService, settings: Settings | None) -> PuzzleService:
        served = PuzzleService(service)
        service.forgetting.add_step(served.forget_step)
        return served

    def web(self) -> WebPart:
        return WebPart()  # no page of its own

    def attach(self, host: WingHost) -> Wing:
        return Wing(routes=puzzles.ROUTES, rules=puzzles.RULES_PARTS, stats=functools.partial(
            puzzles.stats_fields, host.ctx.feature(PuzzleService)))


FEATURE = PuzzlesFeature()
