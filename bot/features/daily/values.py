"""The daily deal's values (docs/RULES.md §Daily deal): what its service, store and Discord
side exchange (pure pydantic, no I/O), beside the core's ``bot.values``. Every model
serializes to JSON and loads back equal."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from bot.game.table import TablePayload
from bot.values import FeatureSettings


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


class DailyTable(TablePayload):
    """A daily-deal table's payload (``Table.feature``, ``TablePayload``): the member's
    private table of the deal of ``day`` (``"YYYY-MM-DD"``), settled as their daily result
    instead of a table hand."""

    KIND = "daily"
    PRIVATE = True

    day: str


class DailySettings(FeatureSettings):
    """The daily deal's server settings (``GuildSettings.features["daily"]``,
    ``FeatureSettings``; ``/ddz config daily_level``, ``daily_channel``, ``daily_posts``):
    ``level``, its computers' level; ``channel``, where the day's opening and yesterday's
    podium are posted (None = nowhere; 0 given clears it). docs/RULES.md §Daily deal."""

    KEY = "daily"

    level: Literal["easy", "normal", "hard"] = "hard"
    channel: int | None = None

    @field_validator("channel")
    @classmethod
    def _zero_is_none(cls, channel: int | None) -> int | None:
        return channel or None
