"""RecordsService: the read-only records of a server (standings, leaderboards, ratings,
stats, hand history), beside ``TableService``, which writes.

Every read of the cogs goes through a service, never to storage
(docs/ARCHITECTURE.md §Layers). Storage errors propagate.
"""

from __future__ import annotations

from bot.storage.repository import Repository
from bot.values import HandPoint, LeaderRow, MatchStandings, PlayerStats, RatingRow, Settlement


class RecordsService:
    """Reads of ``storage`` (a Repository): nothing cached, nothing written."""

    def __init__(self, storage: Repository) -> None:
        self.storage = storage

    async def match_standings(self, guild_id: int) -> MatchStandings:
        """The guild's current match toward its target (``/ddz score``)."""
        return await self.storage.match_standings(guild_id)

    async def leaderboard(self, guild_id: int) -> list[LeaderRow]:
        """The guild's all-time standings, best first (``/ddz score``)."""
        return await self.storage.leaderboard(guild_id)

    async def previous_match(self, guild_id: int) -> MatchStandings | None:
        """The guild's last finished match (``/ddz score scope:previous``), or None."""
        return await self.storage.previous_match(guild_id)

    async def rating_board(self, guild_id: int) -> list[RatingRow]:
        """The guild's skill ratings, computer levels included (``/ddz score scope:rating``)."""
        return await self.storage.rating_board(guild_id)

    async def player_stats(self, guild_id: int, user_id: int) -> PlayerStats | None:
        """One member's record in the guild, or None before their first hand (``/ddz stats``)."""
        return await self.storage.player_stats(guild_id, user_id)

    async def hand_history(self, guild_id: int, user_id: int, limit: int) -> list[HandPoint]:
        """The member's last ``limit`` settled hands, oldest first (the stats chart)."""
        return await self.storage.hand_history(guild_id, user_id, limit)

    async def settlement_of(self, hand_id: str) -> Settlement | None:
        """The recorded Settlement of a settled hand (a result redrawn after a restart)."""
        record = await self.storage.finished_hand(hand_id)
        return record[1] if record is not None else None
