"""The little SQL surface every storage backend offers to the shared steps in ``ops``.

Statements are written once with ``?`` placeholders in the SQL both engines share
(``INSERT … ON CONFLICT (…) DO …``, ``RETURNING``, ``CASE``); the PostgreSQL adapter
numbers the placeholders (``$1, $2, …``) for asyncpg. Each call runs inside the
caller's transaction; the adapters never commit.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    import aiosqlite
    import asyncpg


class Sql(Protocol):
    """One connection inside one transaction (or autocommit reads)."""

    async def execute(self, sql: str, args: Sequence[Any] = ()) -> int:
        """Run one statement; the number of rows it inserted, updated or deleted."""

    async def fetch(self, sql: str, args: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """Every row of a query (or of a statement with ``RETURNING``) as tuples."""

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        """Run one statement once per argument row."""


async def scalar(db: Sql, sql: str, args: Sequence[Any] = ()) -> Any:
    """The first column of the first row of ``sql``, or None when no row matches."""
    rows = await db.fetch(sql, args)
    return rows[0][0] if rows else None


class SqliteSql:
    """``Sql`` over an aiosqlite connection (placeholders unchanged)."""

    def __init__(self, db: aiosqlite.Connection) -> None:
        self.db = db

    async def execute(self, sql: str, args: Sequence[Any] = ()) -> int:
        cursor = await self.db.execute(sql, tuple(args))
        return max(cursor.rowcount, 0)

    async def fetch(self, sql: str, args: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        return [tuple(row) for row in await self.db.execute_fetchall(sql, tuple(args))]

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        await self.db.executemany(sql, [tuple(r) for r in rows])


_PLACEHOLDER = re.compile(r"\?")


@lru_cache(maxsize=256)
def numbered(sql: str) -> str:
    """``sql`` with its ``?`` placeholders numbered ``$1, $2, …`` (PostgreSQL style).

    The shared statements hold no ``?`` inside string literals.
    """
    counter = iter(range(1, sql.count("?") + 1))
    return _PLACEHOLDER.sub(lambda _: f"${next(counter)}", sql)


class PostgresSql:
    """``Sql`` over an asyncpg connection."""

    def __init__(self, conn: asyncpg.Connection) -> None:
        self.conn = conn

    async def execute(self, sql: str, args: Sequence[Any] = ()) -> int:
        status = await self.conn.execute(numbered(sql), *args)
        last = status.rsplit(" ", 1)[-1]
        return int(last) if last.isdigit() else 0

    async def fetch(self, sql: str, args: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        return [tuple(row) for row in await self.conn.fetch(numbered(sql), *args)]

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        batch = [tuple(r) for r in rows]
        if batch:
            await self.conn.executemany(numbered(sql), batch)
