"""A PostgreSQL server that stops answering (issue 25 item 1): bounded waits everywhere.

Before: no query or acquire timeout was set, so a write to a frozen server never
returned, ``close`` still waited after 60 s and the process never exited with code 4.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator

import pytest

from bot.storage import StorageUnavailable
from bot.storage.postgres import PostgresStorage
from bot.values import ShardSet
from tests.support.databases import Database
from tests.support.freezer import FreezableProxy
from tests.support.storage_fakes import finished_table


@pytest.fixture
async def proxy(postgres_database: Database) -> AsyncIterator[FreezableProxy]:
    proxy = await FreezableProxy(postgres_database.location).start()
    yield proxy
    await proxy.close()


async def test_a_frozen_server_fails_the_write_reports_the_shards_lost_and_closes_in_bounded_time(
    postgres_database: Database, proxy: FreezableProxy
) -> None:
    store = await PostgresStorage.open(proxy.url_via(postgres_database.location),
                                       query_timeout=1.0)
    lost = asyncio.Event()
    store.lease_check_seconds = 0.5
    store.on_shards_lost = lost.set
    await store.claim_shards(ShardSet(count=1, ids=(0,)))
    await store.save_table(finished_table(table_id="before"))
    proxy.freeze()
    begun = time.monotonic()
    with pytest.raises(StorageUnavailable) as failed:
        await store.save_table(finished_table(table_id="frozen"))
    assert isinstance(failed.value.__cause__, TimeoutError)
    assert time.monotonic() - begun < 3.0
    await asyncio.wait_for(lost.wait(), 3.0)
    begun = time.monotonic()
    await store.close()
    assert time.monotonic() - begun < 4.0
    proxy.thaw()
    check = await PostgresStorage.open(postgres_database.location)
    try:
        assert [t.split('"id":"')[1][:6] for t in await check.load_table_states()] == ["before"]
    finally:
        await check.close()


async def test_a_full_pool_fails_the_next_caller_within_the_query_timeout(
    postgres_database: Database, proxy: FreezableProxy
) -> None:
    store = await PostgresStorage.open(proxy.url_via(postgres_database.location),
                                       pool_size=1, query_timeout=1.0)
    proxy.freeze()
    stuck = asyncio.ensure_future(store.save_table(finished_table(table_id="a")))
    await asyncio.sleep(0.1)  # holds the pool's only connection
    begun = time.monotonic()
    with pytest.raises(StorageUnavailable) as failed:
        await store.get_settings(1)
    assert isinstance(failed.value.__cause__, TimeoutError)
    assert time.monotonic() - begun < 2.5
    with pytest.raises(StorageUnavailable):
        await stuck
    begun = time.monotonic()
    await store.close()
    assert time.monotonic() - begun < 4.0
