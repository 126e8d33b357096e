"""The duplicate events' values (docs/RULES.md §Events): what its service, store and
Discord side exchange (pure pydantic, no I/O), beside the core's ``bot.values``. Every
model serializes to JSON and loads back equal."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from bot.game.table import TablePayload
from bot.rules import RuleSet


class EventInfo(BaseModel):
    """A duplicate event of a server (docs/RULES.md §Events): ``deals`` deals (1–12) played
    privately against computers of ``level`` under ``rules`` (the server's rule variants
    frozen at its creation; None for an event stored before they were: the server's
    current ones), open until ``closes_at`` or an early ``/ddz event close``
    (``closed_at``); its results are posted once in ``channel_id`` (``announced_at``, None
    until then); ``created_by``: the admin who created it (``NO_ORGANISER`` once they
    used ``/ddz forget``). Times in clock seconds."""

    model_config = ConfigDict(frozen=True)

    event_id: str
    guild_id: int
    channel_id: int
    name: str
    deals: int
    level: str
    created_by: int
    created_at: float
    closes_at: float
    closed_at: float | None = None
    announced_at: float | None = None
    rules: RuleSet | None = None

    def is_closed(self, now: float) -> bool:
        """Closed by ``/ddz event close`` or by its closing time (at ``now``)."""
        return self.closed_at is not None or now >= self.closes_at

    def ended_at(self) -> float:
        """When it closed (or will): the early close, else the closing time."""
        return self.closes_at if self.closed_at is None else min(self.closed_at, self.closes_at)


class EventPlay(BaseModel):
    """A member's play of one deal of an event: ``finished_at`` None while it is played
    (``points``, ``moves`` 0 until then); ``points``: the member's change on the deal."""

    model_config = ConfigDict(frozen=True)

    event_id: str
    deal: int
    user_id: int
    name: str | None = None
    table_id: str
    started_at: float
    finished_at: float | None = None
    points: int = 0
    moves: int = 0

    @property
    def finished(self) -> bool:
        return self.finished_at is not None


class EventRow(BaseModel):
    """One line of an event's standings: the place (equal totals share it), the member,
    the duplicate total (``score``, shown with ``bot.features.events.rules.shown_score``; ``exact``
    as ``"p/q"`` for equality), raw points, and deals they played themselves."""

    model_config = ConfigDict(frozen=True)

    place: int
    user_id: int
    name: str | None = None
    score: float
    exact: str
    points: int
    played: int


class EventStandings(BaseModel):
    """An event's standings as one viewer may see them: over every deal once the event
    is closed and no deal is being played (``final``), else over ``deals_seen``, the deals the viewer has finished
    (nothing of a deal they have not played shows). ``entrants``: how many joined;
    ``progress``: deals each entrant finished (by user id)."""

    model_config = ConfigDict(frozen=True)

    event: EventInfo
    final: bool
    provisional: bool = False
    """Closed, but deals begun before the close are still being played: not final yet
    (``EventService.provisional_standings``)."""
    deals_seen: list[int] = Field(default_factory=list)
    rows: list[EventRow] = Field(default_factory=list)
    entrants: int = 0


class EventSummary(BaseModel):
    """A member's duplicate-event record in a server (``/ddz stats``): closed events
    entered, won (first place, shared or not), deals played, duplicate total."""

    model_config = ConfigDict(frozen=True)

    events: int = 0
    won: int = 0
    deals: int = 0
    score: float = 0.0


class EventDeal(TablePayload):
    """An event's table's payload (``Table.feature``, ``TablePayload``): the member's
    private table of deal ``deal`` (1-based) of event ``event_id``, settled as their result
    of that deal."""

    KIND = "event"
    PRIVATE = True

    event_id: str
    deal: int
