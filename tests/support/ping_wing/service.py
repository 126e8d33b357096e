"""The ping wing's service: deals a ping table over the table service (``PrivateHost``),
keeps its row, and records the member's points once its hand is settled."""

from __future__ import annotations

from bot.game.table import Table
from bot.service.host import PrivateHost, Title
from bot.values import Settlement
from tests.support.ping_wing.rules import ping_table
from tests.support.ping_wing.store import PingStore


class PingService:
    """``open`` a ping table; a ``PublicKind`` (``settled``) and ``TitledKind``
    (``hand_title``) of the table service."""

    def __init__(self, host: PrivateHost) -> None:
        self.host = host
        self.store = PingStore(host.storage)

    async def open(self, guild_id: int, channel_id: int, user_id: int, name: str) -> Table:
        """Deal the member a ping table in the channel, its row written with it."""
        table, events = ping_table(guild_id, channel_id, user_id, name, self.host.clock.now(),
                                   seed=7)

        async def claim() -> bool:
            await self.host.storage.save_table(table)
            return await self.store.begin(table.id, guild_id, user_id)

        await self.host.add_private(table, claim, events)
        return table

    async def settled(self, table: Table, settlement: Settlement) -> None:
        await self.store.finish(table.id, settlement.changes[0].points)

    def hand_title(self, table: Table) -> Title:
        return "hand.title", {"table": f"ping {table.id}", "hand": table.hand_no}
