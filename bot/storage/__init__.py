"""Persistence: the Repository interface, its value objects and the SQLite backend.

``from bot.storage import Storage`` (SqliteStorage; imports aiosqlite lazily so the
pure game package can import the models and the Protocol without it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bot.storage.models import (
    FinishedHand,
    GuildSettings,
    HandPoint,
    LeaderRow,
    MatchStandings,
    PlayerStats,
    RatingRow,
    SeatChange,
    Settlement,
    Standing,
)
from bot.storage.repository import Repository

if TYPE_CHECKING:
    from bot.storage.sqlite import SqliteStorage
    from bot.storage.sqlite import SqliteStorage as Storage

__all__ = [
    "FinishedHand",
    "GuildSettings",
    "HandPoint",
    "LeaderRow",
    "MatchStandings",
    "PlayerStats",
    "RatingRow",
    "Repository",
    "SeatChange",
    "Settlement",
    "SqliteStorage",
    "Standing",
    "Storage",
]


def __getattr__(name: str) -> Any:
    if name in ("Storage", "SqliteStorage"):
        from bot.storage.sqlite import SqliteStorage

        return SqliteStorage
    raise AttributeError(name)
