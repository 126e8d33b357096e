"""The features built over the table service (docs/ARCHITECTURE.md §How to … add a feature):
the daily deal, duplicate events, endgame puzzles and tournaments.

``TableService`` knows none of them: ``install_features`` builds each one over the
service (its host, ``bot.service.host``) and plugs it into the service's seams — a kind
of table (``TableService.register``), the marks kept through ``/ddz forget``
(``Forgetting.add_marks``) or a refusal of it (``Forgetting.add_check``), a shutdown step (``TableService.closing``). The Bot calls it
in ``setup_hook`` right after building the service; so do the tests and the scripts.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.service.daily import DailyService
from bot.service.events import EventService
from bot.service.puzzles import PuzzleService
from bot.service.tables import TableService
from bot.service.tournaments import TournamentService


@dataclass(frozen=True)
class Features:
    """The features of one ``TableService``: ``daily`` (docs/RULES.md §Daily deal),
    ``events`` (§Events), ``puzzles`` (§Puzzles), ``tournaments`` (§Tournaments)."""

    daily: DailyService
    events: EventService
    puzzles: PuzzleService
    tournaments: TournamentService


def install_features(service: TableService) -> Features:
    """Build every feature over ``service`` and register it there (once per service):
    the daily deal's tables (``Table.kind`` ``daily``), events' (``event``) and
    tournaments' (``tournament``); the daily deal's, events' and puzzles' marks kept
    through ``/ddz forget``, and the tournaments' refusal while the member is in a live
    one and their step after it (an organiser's id off the open tables); the
    tournaments' shutdown before the service's.

    Returns them, typed (the cogs take them from here, cogs/context.py)."""
    daily = service.register("daily", DailyService(service))
    events = service.register("event", EventService(service))
    puzzles = PuzzleService(service)
    tournaments = service.register("tournament", TournamentService(service))
    service.forgetting.add_marks("daily_marks", daily.forget_marks)
    service.forgetting.add_marks("event_marks", events.forget_marks)
    service.forgetting.add_marks("puzzle_marks", puzzles.forget_marks)
    service.forgetting.add_check(tournaments.forget_check)
    service.forgetting.listeners.append(tournaments.forgotten)
    service.closing.append(tournaments.close)
    return Features(daily, events, puzzles, tournaments)
