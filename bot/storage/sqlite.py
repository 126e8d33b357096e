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
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Iterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from bot.storage.base import SqlRepository
from bot.storage.repository import ShardTaken, StorageUnavailable
from bot.storage.sql import Sql, SqliteSql
from bot.storage.sqlite_ops import migrate, user_version
from bot.values import ShardSet

T = TypeVar("T")

PASSING = {
    sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED, sqlite3.SQLITE_READONLY,
    sqlite3.SQLITE_IOERR, sqlite3.SQLITE_FULL, sqlite3.SQLITE_CANTOPEN,
}
"""SQLite's primary result codes that pass by themselves: busy / locked, a read-only or
full disk, an I/O error (StorageUnavailable)."""


@contextlib.contextmanager
def _passing_faults() -> Iterator[None]:
    """Raise the driver's errors that pass by themselves (``PASSING``, OSError) as
    StorageUnavailable; anything else unchanged."""
    try:
        yield
    except sqlite3.Error as error:
        if (getattr(error, "sqlite_errorcode", 0) & 0xFF) in PASSING:
            raise StorageUnavailable(f"SQLite: {error}") from error
        raise
    except OSError as error:
        raise StorageUnavailable(f"SQLite: {error}") from error


class SqliteStorage(SqlRepository):
    """The SQLite Repository. Build with ``await SqliteStorage.open(path)``."""

    def __init__(self, db: aiosqlite.Connection, path: str) -> None:
        self._db = db
        self._sql = SqliteSql(db)
        self.path = path
        self._lock = asyncio.Lock()
        self._batch: list[tuple[Callable[[Sql], Awaitable[Any]], asyncio.Future[Any], bool]] = []
        """Steps queued for the next hand-off: (step, its caller's future, a read)."""
        self._flusher: asyncio.Task[None] | None = None
        self._shard_files: list[int] = []
        self._fault: Callable[[str], None] = lambda point: None
        """Test hook called at named points inside settle_hand ("ledger", "stats", "commit")."""

    # ----- lifecycle ---------------------------------------------------------

    @classmethod
    async def open(
        cls, path: str | Path = "ddz.sqlite3", *, busy_ms: int = 10_000
    ) -> SqliteStorage:
        """Open (creating if needed) the database and apply pending migrations.

        Another connection writing the file (another process opening it, a copy) is
        waited for up to ``busy_ms`` at each step, then sqlite3.OperationalError
        ("database is locked") is raised. Raises sqlite3.Error if the file is not a
        database or a migration fails (the failed migration is rolled back; earlier ones
        stay applied).
        """
        db = await aiosqlite.connect(str(path), isolation_level=None)
        try:
            await db.execute(f"PRAGMA busy_timeout = {int(busy_ms)}")
            await _wal_mode(db, busy_ms / 1000)
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
            with _passing_faults():
                yield self._sql

    async def _transaction(self, step: Callable[[Sql], Awaitable[T]]) -> T:
        """``step`` committed, in one hand-off to the connection's thread shared with
        every other step queued meanwhile (group commit): one ``BEGIN IMMEDIATE``, each
        step inside its own ``SAVEPOINT`` (a failing step is rolled back alone and raises
        to its caller), one ``COMMIT``; every caller returns after that commit. Under
        load, ``_write`` costs the event loop a thread round trip per statement and the
        storage lock is handed over once per transaction, each a loop iteration, so
        writes queued for seconds (docs/PERFORMANCE.md). ``step`` must await nothing but
        ``db``'s calls."""
        return await self._queue(step, False)

    async def _fetch(self, step: Callable[[Sql], Awaitable[T]]) -> T:
        """``step``, a read, in the same hand-off to the connection's thread as the writes
        queued meanwhile, run after their ``COMMIT`` (outside any transaction: it sees
        what is committed only). A read awaiting the storage lock on its own cost the
        event loop a thread round trip under that lock, and the group commit waited
        behind every read queued before it: at 1,000 tables the first turn pings' reads
        held saved actions back for seconds (docs/PERFORMANCE.md §Saves queued behind
        reads). ``step`` must await nothing but ``db``'s calls."""
        return await self._queue(step, True)

    async def _queue(self, step: Callable[[Sql], Awaitable[T]], read: bool) -> T:
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._batch.append((step, future, read))
        if self._flusher is None or self._flusher.done():
            self._flusher = asyncio.create_task(self._flush(), name="ddz-sqlite-commit")
        with _passing_faults():
            return await future

    async def _flush(self) -> None:
        """Run the queued steps, a batch per transaction, until none is left."""
        while self._batch:
            async with self._lock:
                writes = [(step, f) for step, f, read in self._batch
                          if not read and not f.cancelled()]
                reads = [(step, f) for step, f, read in self._batch if read and not f.cancelled()]
                self._batch = []
                batch = writes + reads
                if not batch:
                    continue
                try:
                    results = await self._db._execute(  # type: ignore[no-untyped-call]  # noqa: SLF001  aiosqlite's private _execute has no annotations
                        _in_one_go, self._db._conn, [step for step, _ in writes],  # noqa: SLF001
                        [step for step, _ in reads])
                except BaseException as error:  # begin or commit failed: no step was saved
                    for _, f in batch:
                        if not f.done():
                            f.set_exception(error)
                    if isinstance(error, asyncio.CancelledError):
                        raise
                    continue
            for (_, f), (ok, value) in zip(batch, results, strict=True):
                if not f.done():
                    if ok:
                        f.set_result(value)
                    else:
                        f.set_exception(value)

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
            with _passing_faults():
                try:
                    await _to_the_end(self._db.execute("BEGIN IMMEDIATE"))
                    yield self._sql
                    await _to_the_end(self._db.execute("COMMIT"))
                except BaseException:
                    if self._db.in_transaction:
                        with contextlib.suppress(aiosqlite.Error):
                            await _to_the_end(self._db.execute("ROLLBACK"))
                    raise


async def _wal_mode(db: aiosqlite.Connection, within: float) -> None:
    """``PRAGMA journal_mode = WAL``, tried again while another connection holds the
    file's lock (SQLite answers "database is locked" at once there, without its busy
    handler), for up to ``within`` seconds; then the error is raised."""
    loop = asyncio.get_running_loop()
    end, pause = loop.time() + within, 0.01
    while True:
        try:
            await db.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as error:
            now = loop.time()
            if "locked" not in str(error) or now >= end:
                raise
        await asyncio.sleep(min(pause, end - now))
        pause = min(pause * 2, 0.25)


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

class _ThreadSql:
    """``Sql`` straight on the sqlite3 connection, for a step run in its thread: the
    coroutines return without ever suspending."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    async def execute(self, sql: str, args: Sequence[Any] = ()) -> int:
        return max(self.conn.execute(sql, tuple(args)).rowcount, 0)

    async def fetch(self, sql: str, args: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        return [tuple(row) for row in self.conn.execute(sql, tuple(args)).fetchall()]

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        self.conn.executemany(sql, [tuple(r) for r in rows])


def _in_one_go(conn: sqlite3.Connection, steps: list[Callable[[Sql], Awaitable[Any]]],
               reads: Sequence[Callable[[Sql], Awaitable[Any]]] = ()
               ) -> list[tuple[bool, Any]]:
    """``steps`` in one IMMEDIATE transaction on ``conn`` (run in aiosqlite's thread),
    then ``reads`` after its commit, each on its own: ``(True, value)`` or
    ``(False, exception)`` per step, then per read. A lone step that raises rolls the
    transaction back and raises; with several, each runs in a savepoint and one that
    raises is rolled back alone. Anything else that fails rolls back and raises (no read
    run)."""
    results = _committed(conn, steps, alone=not reads) if steps else []
    for read in reads:
        try:
            results.append((True, _complete(read(_ThreadSql(conn)))))
        except Exception as error:
            results.append((False, error))
    return results


def _committed(conn: sqlite3.Connection, steps: list[Callable[[Sql], Awaitable[Any]]],
               alone: bool) -> list[tuple[bool, Any]]:
    """``steps`` in one IMMEDIATE transaction (see ``_in_one_go``); ``alone``: no read
    waits for this hand-off, so a lone step that fails may fail the whole of it."""
    conn.execute("BEGIN IMMEDIATE")
    results: list[tuple[bool, Any]] = []
    try:
        if len(steps) == 1 and alone:
            results.append((True, _complete(steps[0](_ThreadSql(conn)))))
        else:
            for step in steps:
                conn.execute("SAVEPOINT step")
                try:
                    value = _complete(step(_ThreadSql(conn)))
                except Exception as error:
                    conn.execute("ROLLBACK TO step")
                    results.append((False, error))
                else:
                    results.append((True, value))
                conn.execute("RELEASE step")
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            with contextlib.suppress(sqlite3.Error):
                conn.execute("ROLLBACK")
        raise
    return results


def _complete(awaitable: Awaitable[T]) -> T:
    """The value of a coroutine that never suspends (``_ThreadSql``'s calls only)."""
    coro = awaitable.__await__()
    try:
        coro.send(None)
    except StopIteration as done:
        value: T = done.value  # the coroutine's result, of the awaitable's type
        return value
    coro.close()
    raise RuntimeError("a storage step waited for something else inside a SQLite transaction")
