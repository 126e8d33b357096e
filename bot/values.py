"""The service's vocabulary: value objects the service, storage and cogs exchange
(pure pydantic, no I/O).

Spec: docs/ARCHITECTURE.md §Where state lives, docs/RULES.md §Match.
Every model serializes to JSON and loads back equal.
"""

from __future__ import annotations

from typing import ClassVar, Literal, Self
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import BaseModel, ConfigDict, Field, JsonValue

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
    * ``timezone``: IANA name of the server's calendar day, the day of the features that
      keep one (None = UTC).
    * ``features``: each feature's own settings by its name, JSON opaque to the core: the
      feature types, reads and changes its part through its ``FeatureSettings``
      (docs/ARCHITECTURE.md §Features). Left out of the JSON when empty.
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
    turn_ping: Literal["off", "now", "after"] = "after"
    turn_ping_after: int = Field(default=10, ge=1, le=300)
    features: dict[str, dict[str, JsonValue]] = Field(default_factory=dict,
                                                      exclude_if=lambda value: not value)

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
        the target points, ``variant``, ``deal``, ``cap`` where 0 = no cap…); ``timezone="UTC"``
        clears the zone. A feature's own settings change through its ``FeatureSettings``.
        Raises pydantic.ValidationError for an out-of-range or unknown value (a forged
        interaction may send anything) and ValueError for an unknown time zone."""
        changes: dict[str, object] = {}
        if timezone is not None:
            if timezone.upper() != "UTC" and not _known_zone(timezone):
                raise ValueError(f"unknown time zone: {timezone}")
            changes["timezone"] = None if timezone.upper() == "UTC" else timezone
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


class FeatureSettings(BaseModel):
    """A feature's own server settings (``GuildSettings.features[KEY]``), typed by the
    feature: its wing subclasses this once with its fields and their defaults
    (docs/ARCHITECTURE.md §Features) and reads and changes them only through it (``of``,
    ``changed``). Only values other than the defaults are stored."""

    model_config = ConfigDict(frozen=True)

    KEY: ClassVar[str]

    @classmethod
    def of(cls, settings: GuildSettings) -> Self:
        """The feature's settings of the server (its defaults where none is stored). Raises
        pydantic.ValidationError for a stored part that is not one."""
        return cls.model_validate(settings.features.get(cls.KEY, {}))

    @classmethod
    def changed(cls, settings: GuildSettings, **changes: object) -> GuildSettings:
        """A copy of ``settings`` with the feature's values of ``changes`` changed (None
        leaves one as it is). Raises pydantic.ValidationError for an unknown or
        out-of-range value (a forged interaction may send anything)."""
        given = {name: value for name, value in changes.items() if value is not None}
        if not given:
            return settings
        unknown = set(given) - set(cls.model_fields)
        if unknown:
            raise ValueError(f"not a setting of {cls.KEY}: {sorted(unknown)}")
        mine = cls.model_validate({**cls.of(settings).model_dump(), **given})
        features = {key: part for key, part in settings.features.items() if key != cls.KEY}
        stored = mine.model_dump(mode="json", exclude_defaults=True)
        if stored:
            features[cls.KEY] = stored
        return settings.model_copy(update={"features": features})


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


NO_ORGANISER = 0
"""``created_by`` of a feature's record whose organiser used ``/ddz forget``: no
member's id (Discord ids are above 0, a feature's stand-ins below it), so the
organiser's id is gone and nobody is the organiser (admins still manage it;
docs/ARCHITECTURE.md §Where state lives)."""


