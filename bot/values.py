"""The service's vocabulary: value objects the service, storage and cogs exchange
(pure pydantic, no I/O).

Spec: docs/ARCHITECTURE.md §Where state lives, docs/RULES.md §Match.
Every model serializes to JSON and loads back equal.
"""

from __future__ import annotations

from typing import Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import BaseModel, ConfigDict, Field

from bot.game.rating import SkillRating
from bot.rules import DEFAULT_RULES, RuleSet


class GuildSettings(BaseModel):
    """A server's settings (``/ddz config``).

    * ``turn_seconds_play`` / ``turn_seconds_bid``: turn timers in seconds (10..600).
    * ``rules``: rule variants, including the match target (docs/RULES.md §Match).
    * ``language``: the catalog of public messages (``"en"``, ``"es"``, ``"zh_CN"``,
      ``"zh_TW"``) or None = the server's locale.
    * ``counter``: the card counter (记牌器) in the private hand view (README §Rule
      notes); some servers treat it as an unfair aid and turn it off.
    * ``web``: the server's standings on the web page (docs/WEB.md §Pages); off
      unless its admins turn it on.
    * ``timezone``: IANA name of the server's calendar day for the daily deal (None = UTC);
      ``daily_level``: the daily deal's computers; ``daily_channel``: where the day's
      opening and yesterday's podium are posted (None = nowhere). docs/RULES.md §Daily deal.
    * ``turn_ping``: the short message that mentions a member whose turn waits
      (docs/RULES.md §Turn pings): ``"off"``, ``"now"`` (as the turn begins) or
      ``"after"`` ``turn_ping_after`` seconds (1..300) of waiting.
    """

    model_config = ConfigDict(frozen=True)

    turn_seconds_play: int = Field(default=60, ge=10, le=600)
    turn_seconds_bid: int = Field(default=30, ge=10, le=600)
    rules: RuleSet = DEFAULT_RULES
    language: str | None = None
    counter: bool = True
    web: bool = False
    timezone: str | None = None
    daily_level: Literal["easy", "normal", "hard"] = "hard"
    daily_channel: int | None = None
    turn_ping: Literal["off", "now", "after"] = "after"
    turn_ping_after: int = Field(default=10, ge=1, le=300)

    def ping_delay(self) -> float | None:
        """Seconds of a member's turn before their turn ping (docs/RULES.md §Turn pings):
        0 for ``now``, ``turn_ping_after`` for ``after``, None when pings are off."""
        if self.turn_ping == "off":
            return None
        return 0.0 if self.turn_ping == "now" else float(self.turn_ping_after)

    def with_changes(
        self,
        *,
        turn_seconds_play: int | None = None,
        turn_seconds_bid: int | None = None,
        language: str | None = None,
        counter: bool | None = None,
        web: bool | None = None,
        timezone: str | None = None,
        daily_level: str | None = None,
        daily_channel: int | None = None,
        turn_ping: str | None = None,
        turn_ping_after: int | None = None,
        **rules: object,
    ) -> GuildSettings:
        """A validated copy with the given values changed (``/ddz config``); None leaves
        a value as it is. ``language="server"`` goes back to the server's locale;
        ``counter``: the card counter on or off; ``web``: the standings page on or off;
        ``turn_ping``: ``off`` / ``now`` / ``after`` (``turn_ping_after`` alone means
        ``after`` that many seconds); ``rules``: RuleSet fields
        (``target_points``, ``kickers``, ``bidding``, ``match_hands`` where 0 = play to
        the target points, ``variant``, ``deal``, ``cap`` where 0 = no cap…); ``timezone="UTC"`` and ``daily_channel=0`` clear those.
        Raises pydantic.ValidationError for an out-of-range or unknown value (a forged
        interaction may send anything) and ValueError for an unknown time zone."""
        changes: dict[str, object] = {}
        if timezone is not None:
            if timezone.upper() != "UTC" and not _known_zone(timezone):
                raise ValueError(f"unknown time zone: {timezone}")
            changes["timezone"] = None if timezone.upper() == "UTC" else timezone
        if daily_level is not None:
            changes["daily_level"] = daily_level
        if daily_channel is not None:
            changes["daily_channel"] = daily_channel or None
        if counter is not None:
            changes["counter"] = counter
        if turn_ping is not None:
            changes["turn_ping"] = turn_ping
        if turn_ping_after is not None:
            changes["turn_ping_after"] = turn_ping_after
            changes.setdefault("turn_ping", "after")
        if web is not None:
            changes["web"] = web
        rule_changes = {name: value for name, value in rules.items() if value is not None}
        if rule_changes.get("match_hands") == 0:
            rule_changes["match_hands"] = None  # docs/RULES.md §Match: back to the target
        if rule_changes.get("cap") == 0:
            rule_changes["cap"] = None  # docs/RULES.md §Happy rules: no cap
        if rule_changes:
            changes["rules"] = {**self.rules.model_dump(), **rule_changes}
        if turn_seconds_play is not None:
            changes["turn_seconds_play"] = turn_seconds_play
        if turn_seconds_bid is not None:
            changes["turn_seconds_bid"] = turn_seconds_bid
        if language is not None:
            changes["language"] = None if language == "server" else language
        if not changes:
            return self
        return GuildSettings.model_validate({**self.model_dump(), **changes})


def _known_zone(name: str) -> bool:
    """Whether the IANA time zone ``name`` exists here (tzdata)."""
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return False
    return True


class SeatChange(BaseModel):
    """One seat's line in a settled hand.

    ``user_id`` is None for a computer seat (then ``total`` is None too: computers
    have no ledger). ``points`` is the signed change of this hand (docs/RULES.md §Scoring);
    ``total`` the player's match total after it (before any match reset).
    """

    model_config = ConfigDict(frozen=True)

    seat: int
    user_id: int | None
    name: str
    role: Literal["landlord", "peasant"]
    points: int
    total: int | None


class Settlement(BaseModel):
    """What settling one hand did (recorded once per ``hand_id``).

    * ``changes``: three SeatChange, indexed by seat.
    * ``match_no``: the guild match this hand counted toward.
    * ``match_over``: whether this hand ended the match; then ``winners`` holds the
      winning user ids (ties share the win) and ``final_totals`` every ledger total
      of the finished match as ``{user_id: total}``; a new match (``match_no + 1``)
      starts at zero.
    * ``target`` / ``match_hands``: the guild's match rule when settled.
    * ``replayed``: True when this call found the hand already settled and changed
      nothing (the recorded settlement is returned).
    * ``hand_no``: the hand's number in its server (1, 2, …, in order of settlement;
      ``/ddz replay``); None in settlements recorded before hands were numbered.
    """

    hand_id: str
    guild_id: int
    table_id: str
    match_no: int
    changes: list[SeatChange]
    winner: Literal["landlord", "peasants"]
    match_over: bool = False
    winners: list[int] = Field(default_factory=list)
    final_totals: dict[int, int] = Field(default_factory=dict)
    target: int = 30
    match_hands: int | None = None
    replayed: bool = False
    hand_no: int | None = None


class Standing(BaseModel):
    """One player's current-match total."""

    user_id: int
    name: str | None
    total: int
    hands: int


class MatchStandings(BaseModel):
    """A guild match (``/ddz score``): totals toward the target, best first.

    For a finished match (``previous_match``): ``ended_by`` is ``"target"``,
    ``"hands"`` (the hand limit) or ``"newmatch"`` (``/ddz newmatch``, no winner) and
    ``winners`` the winning user ids; both stay empty for the current match.
    """

    guild_id: int
    match_no: int
    target: int
    match_hands: int | None
    hands_played: int
    standings: list[Standing]
    last_hand_no: int | None = None
    """The server's latest hand number (``/ddz replay``), None before any."""
    ended_by: str | None = None
    winners: list[int] = Field(default_factory=list)


class NewMatch(BaseModel):
    """What ``new_match`` did: the match ``old`` ended after ``hands`` hands and
    ``new`` starts at zero; ``started`` False = nothing changed (``old == new``)."""

    old: int
    new: int
    hands: int
    started: bool


class LeaderRow(BaseModel):
    """All-time record of one player in a guild (``/ddz score`` all-time)."""

    user_id: int
    name: str | None
    matches_won: int
    hands_won: int
    hands_played: int
    net_points: int


class SentPing(BaseModel):
    """A turn ping posted and not yet deleted (docs/RULES.md §Turn pings): ``message_id``
    in ``channel_id``, mentioning ``user_id`` for the turn of ``table_id`` whose
    ``move_seq`` it was sent at. Stored so that a restart still deletes it when that
    turn ends."""

    model_config = ConfigDict(frozen=True)

    table_id: str
    guild_id: int
    channel_id: int
    user_id: int
    move_seq: int
    message_id: int


class ShardSet(BaseModel):
    """The Discord shards one process serves: ``ids`` out of ``count``.

    A guild is on shard ``(guild_id >> 22) % count`` (Discord's sharding formula).
    """

    model_config = ConfigDict(frozen=True)

    count: int = Field(ge=1)
    ids: tuple[int, ...]

    def owns(self, guild_id: int) -> bool:
        """Whether ``guild_id`` is on one of this process's shards."""
        return (guild_id >> 22) % self.count in self.ids


class PlayerStats(BaseModel):
    """One player's all-time record in a guild (``/ddz stats``).

    ``best_hand`` is the largest single-hand gain in points (0 if never positive);
    ``bombs`` counts bombs and rockets this player played; ``springs`` counts springs
    and anti-springs the player's side achieved; ``current_total`` is the player's
    total in the guild's current match; ``last_hand_no`` the number of their latest
    hand here (``/ddz replay``).
    """

    user_id: int
    name: str | None
    hands: int = 0
    hands_landlord: int = 0
    wins_landlord: int = 0
    wins_peasant: int = 0
    springs: int = 0
    bombs: int = 0
    net_points: int = 0
    best_hand: int = 0
    matches_won: int = 0
    current_total: int = 0
    rating: SkillRating | None = None
    last_hand_no: int | None = None

    @property
    def wins(self) -> int:
        """Hands won in either role."""
        return self.wins_landlord + self.wins_peasant


class RatingRow(BaseModel):
    """One line of a guild's rating leaderboard (``/ddz score scope:rating``).

    A member (``user_id`` set, ``name`` their display name or None) or a computer
    level (``computer`` = ``"easy"`` / ``"normal"`` / ``"hard"``, ``user_id`` None).
    """

    user_id: int | None
    computer: str | None
    name: str | None
    rating: SkillRating


class HandPoint(BaseModel):
    """One member's line of one settled hand, for the ``/ddz stats`` chart.

    ``finished_at``: seconds since the epoch; ``points``: the signed change;
    ``total``: the member's match total after it; ``mu`` / ``sigma``: their rating
    after it (None for hands settled before ratings existed).
    """

    hand_id: str
    finished_at: float
    match_no: int
    role: Literal["landlord", "peasant"]
    points: int
    total: int | None
    mu: float | None = None
    sigma: float | None = None

    @property
    def ordinal(self) -> float | None:
        """The leaderboard value ``μ − 3σ`` after this hand, None when not rated."""
        if self.mu is None or self.sigma is None:
            return None
        return self.mu - 3.0 * self.sigma

    @property
    def won(self) -> bool:
        """Whether the member's side won the hand (its points are positive)."""
        return self.points > 0
class FinishedHand(BaseModel):
    """A settled hand as recorded (``/ddz replay``, ``/ddz review``).

    ``hand_json``: the Hand JSON with its full history; ``user_ids``: per seat, the
    member's id (None for a computer or a member who used ``/ddz forget``);
    ``finished_at``: Unix seconds; ``channel_id``: the channel it was played in (None
    for hands settled before it was recorded; who may replay it, ``ReplayService.check_access``).
    """

    hand_no: int
    hand_id: str
    guild_id: int
    finished_at: float
    hand_json: str
    settlement: Settlement
    user_ids: tuple[int | None, int | None, int | None]
    channel_id: int | None = None

    def seat_of(self, user_id: int) -> int | None:
        """The seat the member played in this hand, or None."""
        return next((i for i, u in enumerate(self.user_ids) if u == user_id), None)


class DailyEntry(BaseModel):
    """A member's daily deal on one day (docs/RULES.md §Daily deal).

    ``finished_at`` is None while the hand is played (then ``points``, ``moves``, ``won``
    are 0 / False). ``points``: the member's change as landlord (+2P or −2P);
    ``moves``: the plays they made; times in clock seconds.
    """

    model_config = ConfigDict(frozen=True)

    guild_id: int
    day: str
    user_id: int
    name: str | None = None
    table_id: str
    level: str
    started_at: float
    finished_at: float | None = None
    points: int = 0
    moves: int = 0
    won: bool = False

    @property
    def finished(self) -> bool:
        return self.finished_at is not None


class DailyRow(BaseModel):
    """One line of the daily standings: the place (ties never share it: the order is
    points, then fewer moves, then the earlier finish), the result and the streaks."""

    model_config = ConfigDict(frozen=True)

    place: int
    entry: DailyEntry
    streak: int = 0
    best_streak: int = 0


class DailyBoard(BaseModel):
    """The standings of one day of the daily deal (``/ddz daily board``), best first."""

    model_config = ConfigDict(frozen=True)

    day: str
    rows: list[DailyRow] = Field(default_factory=list)


class DailySummary(BaseModel):
    """A member's daily-deal record in a server (``/ddz stats``): days played and won,
    points over all days, the current and the best streak of days won in a row."""

    model_config = ConfigDict(frozen=True)

    played: int = 0
    won: int = 0
    points: int = 0
    streak: int = 0
    best_streak: int = 0


NO_ORGANISER = 0
"""``created_by`` of an event or tournament whose organiser used ``/ddz forget``: no
member's id (Discord ids are above 0, a tournament's stand-ins below it), so the
organiser's id is gone and nobody is the organiser (admins still manage it;
docs/RULES.md §Events, §Tournaments)."""


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


class PuzzleAttempt(BaseModel):
    """A member's attempt at an endgame puzzle (docs/RULES.md §Puzzles).

    ``mode``: ``"daily"`` (the server's puzzle of ``day``, once per member and day) or
    ``"practice"``; ``day``: the server's calendar day it began. ``line``: the actions
    so far (JSON, written by ``bot.features.puzzles.service``); ``plies``: how many; ``moves``: the
    member's own. ``finished_at`` is None while it is played; then ``solved`` tells the
    result. ``rating``: the member's puzzle rating once the attempt was rated. Times in
    clock seconds.
    """

    model_config = ConfigDict(frozen=True)

    attempt_id: str
    guild_id: int
    user_id: int
    name: str | None = None
    puzzle_id: str
    mode: Literal["daily", "practice"]
    day: str
    started_at: float
    finished_at: float | None = None
    solved: bool = False
    line: str = "[]"
    plies: int = 0
    moves: int = 0

    @property
    def finished(self) -> bool:
        return self.finished_at is not None


class PuzzleRating(BaseModel):
    """A Glicko-2 rating on the usual scale (docs/RULES.md §Puzzles): ``rating`` (1500 to
    begin), ``deviation`` (RD, 350 to begin), ``volatility`` (σ, 0.06 to begin), the
    attempts rated so far (``attempts``; ``solved`` of them) and, for a member, when the
    last of them finished (``rated_at``, Unix seconds; None for a puzzle or before the
    first), from which the deviation ages (docs/RATINGS.md §Puzzle ratings)."""

    model_config = ConfigDict(frozen=True)

    rating: float = 1500.0
    deviation: float = 350.0
    volatility: float = 0.06
    attempts: int = 0
    solved: int = 0
    rated_at: float | None = None


class PuzzleRow(BaseModel):
    """One line of a day's puzzle board: place (solved first, then fewer moves, then the
    earlier finish), the attempt and the member's streaks of daily puzzles solved."""

    model_config = ConfigDict(frozen=True)

    place: int
    attempt: PuzzleAttempt
    streak: int = 0
    best_streak: int = 0


class PuzzleBoard(BaseModel):
    """The board of one day's puzzle (``/ddz puzzle`` board), best first."""

    model_config = ConfigDict(frozen=True)

    day: str
    puzzle_id: str | None = None
    rows: list[PuzzleRow] = Field(default_factory=list)


class PuzzleSummary(BaseModel):
    """A member's puzzles in a server (``/ddz stats``): their puzzle rating (None before
    any rated attempt), daily puzzles solved and the current and best streaks of them."""

    model_config = ConfigDict(frozen=True)

    rating: PuzzleRating | None = None
    daily_solved: int = 0
    streak: int = 0
    best_streak: int = 0


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
