"""SQLite implementation of the Repository (aiosqlite; WAL; versioned migrations).

Spec: docs/ARCHITECTURE.md §Where state lives, docs/RULES.md §Match. One connection in
autocommit mode; every public call runs under one asyncio.Lock, writes inside an
explicit ``BEGIN IMMEDIATE`` … ``COMMIT``, so nothing is visible (or durable)
half-done and concurrent calls on one guild ledger serialize. Several processes
on one file serialize through SQLite's write lock (``busy_timeout``).
``synchronous=NORMAL`` in WAL mode survives a killed process (not a power cut).
The SQL itself is shared with PostgreSQL (``bot/storage/ops.py``).
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import os
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path

import aiosqlite

from bot.storage.base import SqlRepository
from bot.storage.models import ShardSet
from bot.storage.repository import ShardTaken
from bot.storage.sql import Sql, SqliteSql
from bot.storage.sqlite_ops import migrate, user_version


class SqliteStorage(SqlRepository):
    """The SQLite Repository. Build with ``await SqliteStorage.open(path)``."""

    def __init__(self, db: aiosqlite.Connection, path: str) -> None:
        self._db = db
        self._sql = SqliteSql(db)
        self.path = path
        self._lock = asyncio.Lock()
        self._shard_files: list[int] = []
        self._fault: Callable[[str], None] = lambda point: None
        """Test hook called at named points inside settle_hand ("ledger", "stats", "commit")."""

    # ----- lifecycle ---------------------------------------------------------

    @classmethod
    async def open(
        cls, path: str | Path = "ddz.sqlite3", *, busy_ms: int = 10_000
    ) -> SqliteStorage:
        """Open (creating if needed) the database and apply pending migrations.

        Raises sqlite3.Error if the file is not a database or a migration fails
        (the failed migration is rolled back; earlier ones stay applied).
        """
        db = await aiosqlite.connect(str(path), isolation_level=None)
        try:
            await db.execute(f"PRAGMA busy_timeout = {int(busy_ms)}")
            await db.execute("PRAGMA journal_mode = WAL")
            await db.execute("PRAGMA synchronous = NORMAL")
            await db.execute("PRAGMA foreign_keys = ON")
            await migrate(db)
        except BaseException:
            await db.close()
            raise
        return cls(db, str(path))

    async def close(self) -> None:
        """Close the connection (waits for a running call to finish); releases shard claims."""
        async with self._lock:
            await self._db.close()
        for fd in self._shard_files:
            os.close(fd)
        self._shard_files.clear()

    async def claim_shards(self, shards: ShardSet) -> None:
        """Claim ``shards`` for this process until ``close`` (one lock file per shard).

        Raises ShardTaken when another process holds one of them (then nothing stays
        claimed); RuntimeError when this storage already claimed shards.
        """
        if self._shard_files:
            raise RuntimeError("shards are claimed once per storage")
        for shard in shards.ids:
            fd = os.open(f"{self.path}.shard{shard}.lock", os.O_RDWR | os.O_CREAT, 0o644)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                for held in self._shard_files:
                    os.close(held)
                self._shard_files.clear()
                raise ShardTaken(shard, shards.count) from None
            self._shard_files.append(fd)

    async def schema_version(self) -> int:
        """The applied schema version (PRAGMA user_version)."""
        async with self._lock:
            return await user_version(self._db)

    @asynccontextmanager
    async def _read(self) -> AsyncIterator[Sql]:
        async with self._lock:
            yield self._sql

    @asynccontextmanager
    async def _write(self) -> AsyncIterator[Sql]:
        """One IMMEDIATE transaction: committed on exit, rolled back on any error.

        A cancelled caller (a timeout, a shutdown) never leaves a transaction open:
        aiosqlite runs a statement in its thread even when the awaiting task is
        cancelled, so BEGIN, COMMIT and ROLLBACK are awaited to the end (shielded)
        before the cancellation goes on, and the rollback comes after any statement
        of the body still queued in that thread.
        """
        async with self._lock:
            try:
                await _to_the_end(self._db.execute("BEGIN IMMEDIATE"))
                yield self._sql
                await _to_the_end(self._db.execute("COMMIT"))
            except BaseException:
                if self._db.in_transaction:
                    with contextlib.suppress(aiosqlite.Error):
                        await _to_the_end(self._db.execute("ROLLBACK"))
                raise


async def _to_the_end(statement: Awaitable[object]) -> None:
    """Await ``statement`` even if the caller is cancelled meanwhile; then re-raise the
    CancelledError. Errors of the statement itself propagate as usual."""
    task = asyncio.ensure_future(statement)
    try:
        await asyncio.shield(task)
    except asyncio.CancelledError:
        await asyncio.wait({task})  # a second cancel of the caller escapes from here
        if not task.cancelled():
            task.exception()  # retrieved: the caller's cancellation is what goes on
        raise
