"""PostgreSQL behind PgBouncer (issue 25 item 2; docs/SCALING.md §Connection poolers).

Transaction (or statement) pooling breaks the session advisory locks that claim
shards (another client may run on the server connection that holds them, and the
locks stay when ours moves on), the prepared statements and the URL's search_path.
Before: nothing said so. Now the storage refuses such a URL with one clear error
before it creates anything; session pooling works like a direct connection.
"""

from __future__ import annotations

import uuid

import asyncpg
import pytest

from bot.storage.postgres import PostgresStorage, UnsupportedPooler
from bot.values import ShardSet
from tests.support.databases import Database, server_url, with_search_path
from tests.support.pgbouncer import running_pgbouncer
from tests.support.storage_fakes import finished_table


async def test_transaction_pooling_is_refused_with_one_line_and_nothing_created(
    postgres_database: Database,
) -> None:
    schema = postgres_database.location.rsplit("search_path=", 1)[1]
    with (running_pgbouncer(server_url(), "transaction", ignore="search_path") as pooled,
          pytest.raises(UnsupportedPooler) as refused):
        await PostgresStorage.open(with_search_path(pooled, schema))
    assert str(refused.value) == (
        "the database URL leads through a connection pooler in transaction or statement"
        " mode (PgBouncer?): the shard locks need one server session per connection;"
        " use session pooling or connect directly (docs/SCALING.md)")
    conn = await asyncpg.connect(server_url())
    try:
        tables = await conn.fetch(
            "SELECT table_schema, table_name FROM information_schema.tables"
            " WHERE table_name = 'schema_version' AND table_schema IN ($1, 'public')", schema)
    finally:
        await conn.close()
    assert tables == []


async def test_a_pooler_that_drops_the_urls_search_path_is_refused(
    postgres_database: Database,
) -> None:
    schema = postgres_database.location.rsplit("search_path=", 1)[1]
    with (running_pgbouncer(server_url(), "session", ignore="search_path") as pooled,
          pytest.raises(UnsupportedPooler, match=f"search_path {schema} of the database URL"
                                                 " did not reach the server")):
        await PostgresStorage.open(with_search_path(pooled, schema))


async def test_session_pooling_works_like_a_direct_connection() -> None:
    # PgBouncer passes no search_path (it refuses the startup parameter, or drops it when
    # told to ignore it): behind it, a database of its own (or the role's search_path).
    url = server_url()
    name = f"ddz_pgb_{uuid.uuid4().hex[:12]}"
    admin = await asyncpg.connect(url)
    await admin.execute(f"CREATE DATABASE {name}")
    try:
        with running_pgbouncer(url, "session") as pooled:
            store = await PostgresStorage.open(pooled.rsplit("/", 1)[0] + f"/{name}")
            try:
                await store.claim_shards(ShardSet(count=1, ids=(0,)))
                settlement = await store.settle_hand(finished_table(), "h1")
                assert settlement.replayed is False
                assert (await store.settle_hand(finished_table(), "h1")).replayed is True
            finally:
                await store.close()
    finally:
        await admin.execute(f"DROP DATABASE {name} WITH (FORCE)")
        await admin.close()
