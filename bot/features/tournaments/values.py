"""The tournaments' values (docs/RULES.md §Tournaments): what its service, store and
Discord side exchange (pure pydantic, no I/O), beside the core's ``bot.values``. Every
model serializes to JSON and loads back equal."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel

from bot.game.table import TablePayload
from bot.rules import RuleSet

TournamentStatus = Literal["open", "running", "finished", "cancelled"]
"""A tournament's state: ``open`` (sign-up), ``running`` (rounds being played),
``finished`` (after its last round), ``cancelled`` (``/ddz tournament cancel``)."""


EntrantStatus = Literal["in", "withdrawn", "dropped"]
"""An entrant's state: ``in`` (seated in the next round), ``withdrawn`` (left after the
start), ``dropped`` (taken out by the organiser)."""


JoinAnswer = Literal["joined", "already", "full", "closed"]
"""Joining a tournament: entered now, entered already, full (``MAX_ENTRANTS``), not open."""


LeaveAnswer = Literal["left", "withdrawn", "dropped", "absent", "closed"]
"""Leaving (or being dropped from) a tournament: the entry taken back (before the
start), withdrawn or dropped (after it), not an active entrant, the tournament over or
unknown."""


class TournamentInfo(BaseModel):
    """A tournament (docs/RULES.md §Tournaments).

    ``number``: 1, 2, … per server (its web page's link), given by storage at the
    creation; ``channel_id``: where it was created (sign-up, announcements, the tables'
    threads); ``rounds`` 1–9; ``hands`` per round at each table 1–12; ``level``: the
    computers'; ``created_by``: the organiser (``NO_ORGANISER`` once they used ``/ddz forget``); times are Unix seconds, ``starts_at`` the
    scheduled start (None: by ``start``); ``seed``: round 1's draw (shown);
    ``current_round``: the last round seated (0 before the start); ``ended_at``: when it
    finished or was cancelled; ``signup_message_id``: the sign-up message;
    ``announced_at``: the final standings (or the cancellation) post, claimed once;
    ``rules``: the server's rule variants frozen at the creation.
    """

    tournament_id: str
    guild_id: int
    number: int = 0
    channel_id: int
    name: str
    rounds: int
    hands: int
    level: str
    created_by: int
    created_at: float
    starts_at: float | None = None
    seed: int
    status: TournamentStatus = "open"
    current_round: int = 0
    started_at: float | None = None
    ended_at: float | None = None
    signup_message_id: int | None = None
    announced_at: float | None = None
    rules: RuleSet | None = None


class TournamentEntrant(BaseModel):
    """A member who entered a tournament: ``name`` (display name, None when unknown),
    ``joined_at`` (Unix seconds: the join order), ``status`` and ``left_at`` (when they
    withdrew or were dropped)."""

    user_id: int
    name: str | None = None
    joined_at: float
    status: EntrantStatus = "in"
    left_at: float | None = None


class TournamentTable(BaseModel):
    """One table of a round: ``seats`` (user ids, None for a computer; seat 0, 1, 2 of
    the game table), ``opened_at`` (claimed once by whoever opens its thread),
    ``thread_id`` and ``table_id`` (the game table's id) once open, ``finished_at`` and
    ``points`` (points won per seat over the round's hands) once finished."""

    tournament_id: str
    round_no: int
    table_no: int
    seats: tuple[int | None, int | None, int | None]
    opened_at: float | None = None
    thread_id: int | None = None
    table_id: str | None = None
    finished_at: float | None = None
    points: tuple[int, int, int] | None = None


class TournamentHand(BaseModel):
    """One settled hand of a tournament table: ``hand`` (1 … hands, at that table),
    ``hand_no`` (the server's hand number: its replay) and ``points`` per seat."""

    round_no: int
    table_no: int
    hand: int
    hand_no: int
    points: tuple[int, int, int]


class TournamentKey(TablePayload):
    """A tournament's table's payload (``Table.feature``, ``TablePayload``): table
    ``table_no`` of round ``round_no`` of tournament ``tournament_id`` (docs/RULES.md
    §Tournaments). Public, in its own thread; the tournament deals its hands
    (``Table.deal_next``), never Play again, and they settle without the server's match
    totals."""

    KIND = "tournament"
    DEALS = True

    tournament_id: str
    round_no: int
    table_no: int
