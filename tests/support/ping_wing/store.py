"""The ping wing's store: one table of its own, ``ping_tables``, created by its migrations."""

from __future__ import annotations

from bot.storage.repository import Repository
from bot.storage.sql import Sql

MIGRATIONS = {
    "sqlite": ["CREATE TABLE ping_tables (table_id TEXT PRIMARY KEY, guild_id INTEGER NOT NULL,"
               " user_id INTEGER NOT NULL, points INTEGER)"],
    "postgres": ["CREATE TABLE ping_tables (table_id TEXT PRIMARY KEY, guild_id BIGINT NOT NULL,"
                 " user_id BIGINT NOT NULL, points INTEGER)"],
}
"""Its tables by backend, one statement each (``Repository.migrate_feature``)."""


class PingStore:
    """The rows of ping tables, over the repository's transactions."""

    def __init__(self, storage: Repository) -> None:
        self.storage = storage

    async def begin(self, table_id: str, guild_id: int, user_id: int) -> bool:
        """The row of a new ping table (True: written)."""
        async def step(db: Sql) -> bool:
            return await db.execute(
                "INSERT INTO ping_tables (table_id, guild_id, user_id) VALUES (?, ?, ?)"
                " ON CONFLICT (table_id) DO NOTHING", (table_id, guild_id, user_id)) == 1

        return await self.storage.transaction(step)

    async def finish(self, table_id: str, points: int) -> None:
        """The member's points of the table's hand."""
        async def step(db: Sql) -> int:
            return await db.execute("UPDATE ping_tables SET points = ? WHERE table_id = ?",
                                    (points, table_id))

        await self.storage.transaction(step)

    async def rows(self, guild_id: int) -> list[tuple[str, int, int | None]]:
        """(table id, member, points) of the server's ping tables."""
        async with self.storage.reading() as db:
            return [(str(r[0]), int(r[1]), r[2]) for r in await db.fetch(
                "SELECT table_id, user_id, points FROM ping_tables WHERE guild_id = ?"
                " ORDER BY table_id", (guild_id,))]

    async def row(self, table_id: str) -> tuple[int, int, int | None] | None:
        """(server, member, points) of ping table ``table_id``, or None."""
        async with self.storage.reading() as db:
            found = await db.fetch(
                "SELECT guild_id, user_id, points FROM ping_tables WHERE table_id = ?",
                (table_id,))
        return (int(found[0][0]), int(found[0][1]), found[0][2]) if found else None
