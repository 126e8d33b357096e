"""PostgreSQL implementation of the Repository (asyncpg), for several bot processes.

Spec: docs/ARCHITECTURE.md §Where state lives, docs/SCALING.md. A connection pool; every
write is one transaction (``READ COMMITTED``) committed before the call returns. The SQL
is the SQLite backend's (``bot/storage/ops.py``); what makes it safe across processes:

* settlement exactly once: the claim ``INSERT INTO finished_hands … ON CONFLICT DO
  NOTHING`` on the primary key ``hand_id`` (a concurrent claim waits, then replays);
* one guild's settlements serialize on the row lock of its ``guild_match`` upsert, so
  concurrent settlements from several processes all count;
* shard ownership: ``claim_shards`` takes a session advisory lock per shard on a
  dedicated connection held until ``close`` (or until the process dies: the server
  drops the locks with the connection). That connection is pinged every
  ``lease_check_seconds`` (``query_timeout``); if it is gone or silent (server restart,
  network cut), another process may take the shards, so ``on_shards_lost`` is called (the bot stops, exit code 4).

Every wait is bounded by ``query_timeout`` seconds (``DDZ_DATABASE_TIMEOUT``): each
statement (asyncpg's ``command_timeout``), taking a connection from the pool, connecting;
a server that stops answering (a network cut, a stuck failover) fails the call with
TimeoutError, and ``close`` gives the connections that long, then drops them
(``terminate``), so that a process whose shard locks are lost exits (code 4).

A connection pooler in transaction or statement mode (PgBouncer's ``pool_mode =
transaction``) hands one client connection's statements to several server sessions:
session advisory locks, prepared statements and the URL's ``search_path`` break.
``open`` detects it (two of our connections answered by one server session) and a
``search_path`` that did not reach the server, and refuses with UnsupportedPooler
before it creates anything; session pooling works (docs/SCALING.md §Connection poolers).

The schema lives in the URL's ``search_path`` (default ``public``); migrations
(``pg_migrations.PG_MIGRATIONS``, same versions as SQLite's) run under a transaction
advisory lock, so processes starting together migrate once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import zlib
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager
from urllib.parse import parse_qs, urlsplit

import asyncpg

from bot.storage.base import SqlRepository
from bot.storage.pg_migrations import PG_MIGRATIONS
from bot.storage.repository import ShardTaken, StorageUnavailable
from bot.storage.sql import PostgresSql, Sql
from bot.values import ShardSet

log = logging.getLogger(__name__)


PASSING = (
    OSError, TimeoutError, asyncpg.InterfaceError, asyncpg.PostgresConnectionError,
    asyncpg.ReadOnlySQLTransactionError, asyncpg.InsufficientResourcesError,
    asyncpg.OperatorInterventionError, asyncpg.TransactionRollbackError,
)
"""Errors that pass by themselves: no answer within the timeout, a dropped connection,
a read-only server (a standby after failover), a full disk or too many connections,
an administrator's shutdown, a serialization failure or deadlock (StorageUnavailable)."""


@contextlib.contextmanager
def _passing_faults() -> Iterator[None]:
    """Raise ``PASSING`` errors as StorageUnavailable; anything else unchanged."""
    try:
        yield
    except PASSING as error:
        raise StorageUnavailable(f"PostgreSQL: {type(error).__name__}: {error}") from error


class UnsupportedPooler(RuntimeError):
    """The database URL leads through a connection pooler the bot cannot work behind."""


POOLER_PROBES = 3
"""Rounds of the transaction-pooling probe (``check_session``): a pooler may give the
second connection another server session once; three times in a row is not chance."""


async def check_session(url: str, timeout: float) -> None:
    """Raise UnsupportedPooler when ``url`` does not give each connection a server
    session of its own (a pooler in transaction / statement mode), or when the URL's
    ``search_path`` did not reach the server (a pooler ignoring it)."""
    first = await asyncpg.connect(url, timeout=timeout, command_timeout=timeout,
                                  statement_cache_size=0)
    try:
        second = await asyncpg.connect(url, timeout=timeout, command_timeout=timeout,
                                       statement_cache_size=0)
        try:
            for _ in range(POOLER_PROBES):
                one = await first.fetchval("SELECT pg_backend_pid()")
                other = await second.fetchval("SELECT pg_backend_pid()")
                if one == other:
                    raise UnsupportedPooler(
                        "the database URL leads through a connection pooler in transaction or"
                        " statement mode (PgBouncer?): the shard locks need one server session"
                        " per connection; use session pooling or connect directly"
                        " (docs/SCALING.md)")
            wanted = parse_qs(urlsplit(url).query).get("search_path")
            if wanted:
                shown = await first.fetchval("SELECT current_setting('search_path')")
                if shown.replace(" ", "") != wanted[-1].replace(" ", ""):
                    raise UnsupportedPooler(
                        f"the search_path {wanted[-1]} of the database URL did not reach the"
                        f" server (it uses {shown}; a connection pooler ignoring it?)"
                        " (docs/SCALING.md)")
        finally:
            second.terminate()
    finally:
        first.terminate()


def lock_key(schema: str, what: str) -> int:
    """A positive int4 advisory-lock namespace for ``what`` in ``schema``."""
    return zlib.crc32(f"ddz:{schema}:{what}".encode()) & 0x7FFFFFFF


async def schema_version(conn: asyncpg.Connection) -> int:
    """The applied schema version (0 for an empty schema)."""
    exists = await conn.fetchval("SELECT to_regclass('schema_version') IS NOT NULL")
    if not exists:
        return 0
    return int(await conn.fetchval("SELECT coalesce(max(version), 0) FROM schema_version"))


async def migrate(conn: asyncpg.Connection, migrations: list[str] | None = None,
                  timeout: float | None = None) -> None:
    """Apply the pending PG_MIGRATIONS, each in its own transaction (a failure rolls back
    that one and raises; earlier ones stay applied). ``timeout``: seconds per statement
    (None: the connection's own)."""
    scripts = PG_MIGRATIONS if migrations is None else migrations
    schema = await conn.fetchval("SELECT current_schema()")
    if schema is None:
        raise RuntimeError("the database URL's search_path names no existing schema")
    key = lock_key(schema, "migrate")
    for number, script in enumerate(scripts, start=1):
        async with conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock($1)", key, timeout=timeout)
            await conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)"
            )
            if await schema_version(conn) >= number:
                continue
            await conn.execute(script, timeout=timeout)
            await conn.execute("DELETE FROM schema_version")
            await conn.execute("INSERT INTO schema_version VALUES ($1)", number)


class PostgresStorage(SqlRepository):
    """The PostgreSQL Repository. Build with ``await PostgresStorage.open(url)``."""

    backend = "postgres"

    def _migration_lock(self) -> str | None:
        """Feature migrations of several processes one at a time (this schema's)."""
        return ("SELECT pg_advisory_xact_lock(hashtext(current_schema() || ':ddz:feature-schema'))")

    def __init__(self, pool: asyncpg.Pool, url: str, query_timeout: float = 10.0) -> None:
        self._pool = pool
        self.url = url
        self.query_timeout = query_timeout
        self._owner: asyncpg.Connection | None = None
        self._watch: asyncio.Task[None] | None = None
        self._fault: Callable[[str], None] = lambda point: None
        self.lease_check_seconds = query_timeout
        """How often (s) the connection holding the shard locks is pinged; each ping may
        take that long too."""
        self.on_shards_lost: Callable[[], None] | None = None
        """Called once when the connection holding the shard locks is lost."""

    @classmethod
    async def open(cls, url: str, *, pool_size: int = 10,
                   query_timeout: float = 10.0) -> PostgresStorage:
        """Connect (a pool of up to ``pool_size`` connections) and apply pending migrations.

        ``query_timeout``: seconds any statement, connection or wait for a pooled
        connection may take (a migration may take ten times that). Raises OSError /
        asyncpg.PostgresError / TimeoutError when the server cannot be reached or does
        not answer, the credentials are refused or a migration fails; UnsupportedPooler
        behind a pooler in transaction mode (``check_session``), before anything is made.
        """
        await check_session(url, query_timeout)
        pool = await asyncpg.create_pool(url, min_size=1, max_size=pool_size,
                                         command_timeout=query_timeout, timeout=query_timeout)
        try:
            async with pool.acquire(timeout=query_timeout) as conn:
                await migrate(conn, timeout=10 * query_timeout)
        except BaseException:
            await _close_pool(pool, query_timeout)
            raise
        return cls(pool, url, query_timeout)

    async def close(self) -> None:
        """Release the shard claims and close every connection: within about twice
        ``query_timeout`` even when the server does not answer (then the connections are
        dropped; the server ends their sessions and locks on its own)."""
        if self._watch is not None:
            self._watch.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._watch
            self._watch = None
        if self._owner is not None:
            owner, self._owner = self._owner, None
            try:
                await owner.close(timeout=self.query_timeout)
            except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError, TimeoutError):
                owner.terminate()
        await _close_pool(self._pool, self.query_timeout)

    async def claim_shards(self, shards: ShardSet) -> None:
        """Own ``shards`` until ``close``: one session advisory lock per shard.

        Also refuses a shard count different from the one live processes use (their
        shards would overlap). Raises ShardTaken (then nothing stays claimed);
        RuntimeError when this storage already claimed shards.
        """
        if self._owner is not None:
            raise RuntimeError("shards are claimed once per storage")
        owner = await asyncpg.connect(self.url, timeout=self.query_timeout,
                                      command_timeout=self.query_timeout)
        try:
            schema = await owner.fetchval("SELECT current_schema()")
            session = await owner.fetchval("SELECT pg_backend_pid()")
            count_key, shard_key = lock_key(schema, "shard-count"), lock_key(schema, "shard")
            await owner.execute("SELECT pg_advisory_lock_shared($1, $2)", count_key, shards.count)
            other = await owner.fetchval(
                "SELECT min(objid::bigint) FROM pg_locks WHERE locktype = 'advisory'"
                " AND classid::bigint = $1 AND objsubid = 2 AND objid::bigint <> $2 AND granted",
                count_key,
                shards.count,
            )
            if other is not None:
                raise ShardTaken(shards.ids[0], shards.count, other_count=int(other))
            for shard in shards.ids:
                if not await owner.fetchval(
                    "SELECT pg_try_advisory_lock($1, $2)", shard_key, shard
                ):
                    raise ShardTaken(shard, shards.count)
        except BaseException:
            owner.terminate()
            self._owner = None
            raise
        self._owner = owner
        self._watch = asyncio.create_task(self._watch_owner(owner, session),
                                          name="ddz-shard-locks")

    async def _watch_owner(self, owner: asyncpg.Connection, session: int) -> None:
        """Ping the lock-holding connection; report its loss once (``on_shards_lost``): an
        error, no answer within ``lease_check_seconds``, or another server session
        answering (a pooler moved it: the locks stay with the old one)."""
        while True:
            await asyncio.sleep(self.lease_check_seconds)
            try:
                pid = await asyncio.wait_for(owner.fetchval("SELECT pg_backend_pid()"),
                                             self.lease_check_seconds)
                if pid == session:
                    continue
            except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError, TimeoutError):
                pass
            log.error(
                "lost the database connection that holds this process's shard locks;"
                " another process may serve these shards now"
            )
            if self.on_shards_lost is not None:
                self.on_shards_lost()
            return

    async def schema_version(self) -> int:
        """The applied schema version."""
        async with self._pool.acquire(timeout=self.query_timeout) as conn:
            return await schema_version(conn)

    @asynccontextmanager
    async def _read(self) -> AsyncIterator[Sql]:
        with _passing_faults():
            async with self._pool.acquire(timeout=self.query_timeout) as conn:
                yield PostgresSql(conn)

    @asynccontextmanager
    async def _write(self) -> AsyncIterator[Sql]:
        """One transaction on a pooled connection: committed on exit, rolled back on error.
        TimeoutError when no connection is free or a statement is not answered within
        ``query_timeout`` (raised as StorageUnavailable, like the other ``PASSING`` errors)."""
        with _passing_faults():
            async with self._pool.acquire(timeout=self.query_timeout) as conn, conn.transaction():
                yield PostgresSql(conn)


async def _close_pool(pool: asyncpg.Pool, within: float) -> None:
    """Close ``pool`` gracefully for up to ``within`` seconds, then drop its connections."""
    try:
        await asyncio.wait_for(pool.close(), within)
    except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError, TimeoutError):
        log.warning("the database did not answer while closing; connections dropped")
        pool.terminate()
