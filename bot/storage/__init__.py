"""Persistence: the Repository interface and two backends (its value objects are in
``bot.values``).

``await open_repository(location)``: PostgreSQL (asyncpg) for a ``postgresql://`` URL,
else SQLite at that path. ``from bot.storage import Storage`` is SqliteStorage. Both
drivers are imported lazily: a process loads only the driver of the database it opens.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from bot.storage.repository import Repository, ShardTaken, StorageUnavailable

if TYPE_CHECKING:
    from bot.storage.shared_budget import PgBucket
    from bot.storage.sqlite import SqliteStorage
    from bot.storage.sqlite import SqliteStorage as Storage

__all__ = [
    "Repository",
    "ShardTaken",
    "SqliteStorage",
    "Storage",
    "StorageUnavailable",
    "is_postgres_url",
    "open_repository",
    "shared_bucket",
]


def is_postgres_url(location: str | Path) -> bool:
    """Whether ``location`` is a PostgreSQL URL (``postgresql://`` or ``postgres://``)."""
    return str(location).startswith(("postgresql://", "postgres://"))


async def open_repository(location: str | Path, *, pool_size: int = 10,
                          timeout: float = 10.0) -> Repository:
    """Open the database at ``location``: a ``postgresql://`` URL or a SQLite file path.

    ``pool_size``: PostgreSQL connections at most; ``timeout``: seconds a call may wait
    (a PostgreSQL statement or pooled connection, SQLite's write lock). Applies pending
    migrations. Raises OSError / TimeoutError / the driver's error when it cannot.
    """
    text = str(location)
    if is_postgres_url(text):
        from bot.storage.postgres import PostgresStorage

        return await PostgresStorage.open(text, pool_size=pool_size, query_timeout=timeout)
    from bot.storage.sqlite import SqliteStorage

    return await SqliteStorage.open(text, busy_ms=int(timeout * 1000))


def shared_bucket(location: str | Path, bucket: str, rate: float, burst: float,
                  timeout: float, process: str = "") -> PgBucket | None:
    """The global budget's token bucket shared by every process of the bot token
    (``bot/storage/shared_budget.py``) on the PostgreSQL database at ``location``, named
    ``bucket``, refilled at ``rate`` tokens/s up to ``burst``, each lease bounded by
    ``timeout`` s, this process named ``process`` among the bot's; None for SQLite (one
    process: its budget is its own). Connects only at the first lease."""
    if not is_postgres_url(location):
        return None
    from bot.storage.shared_budget import PgBucket

    return PgBucket(str(location), bucket, rate, burst, timeout, process)


def __getattr__(name: str) -> Any:
    if name in ("Storage", "SqliteStorage"):
        from bot.storage.sqlite import SqliteStorage

        return SqliteStorage
    raise AttributeError(name)
