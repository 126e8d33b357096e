"""One global budget shared by every process of a bot token, through PostgreSQL
(bot/storage/shared_budget.py ``PgBucket`` under bot/service/budget.py ``GlobalBudget``).

Two budgets here stand for two processes: each has its own bucket object and
connection, both lease from the same row. Real PostgreSQL, real seconds.
"""

from __future__ import annotations

import asyncio
import logging
import time

import asyncpg
import pytest

from bot.service.budget import COSMETIC, LEASE_GAP, RESULT, TURN, GlobalBudget
from bot.storage import StorageUnavailable, shared_bucket
from bot.storage.shared_budget import PgBucket
from tests.support.databases import Database
from tests.support.freezer import FreezableProxy

RATE = 20.0
BURST = 5.0
NAME = "bot:1234"


def bucket(location: str, timeout: float = 1.0, process: str = "shards:0") -> PgBucket:
    made = shared_bucket(location, NAME, RATE, BURST, timeout, process)
    assert isinstance(made, PgBucket)
    return made


async def test_a_lease_grants_what_is_banked_and_the_row_refills_at_the_rate(
    postgres_database: Database,
) -> None:
    one = bucket(postgres_database.location)
    try:
        assert await one.lease(3, 3) == (3, 0.0, 0)  # a new row starts full: 5, 2 left
        granted, ready_in, _ = await one.lease(10, 10)  # 2 banked, 8 reserved: owed 0.4 s
        assert granted == 10 and 0.37 <= ready_in <= 0.4, ready_in
        granted, ready_in, _ = await one.lease(20, 20)  # it owes 1 s of the rate at most
        assert granted in (12, 13) and 0.95 <= ready_in <= 1.0, (granted, ready_in)
        extra, ready_in, _ = await one.lease(1, 1)  # nothing more until it owes less
        # (a few ms later; on a loaded machine over 50 ms may pass, one token is paid back
        # and that one is granted, owed at the 1 s cap again)
        assert ((extra == 0 and 0.0 <= ready_in <= 0.05)
                or (extra == 1 and 0.95 <= ready_in <= 1.0)), (extra, ready_in)
        await asyncio.sleep(0.5)  # 10 tokens paid back
        granted, ready_in, _ = await one.lease(5, 5)
        assert granted == 5 and 0.6 <= ready_in <= 0.75 + extra / RATE, ready_in
        other = bucket(postgres_database.location, process="shards:1")
        try:  # each process learns the most waiting in any other, lately
            assert (await other.lease(1, 7))[2] == 5
            assert (await one.lease(1, 2))[2] == 7
            await asyncio.sleep(1.1)  # DEMAND_SECONDS: the other stopped leasing
            assert (await one.lease(1, 2))[2] == 0
        finally:
            await other.close()
        with pytest.raises(ValueError):
            await one.lease(0, 0)
    finally:
        await one.close()
    conn = await asyncpg.connect(postgres_database.location)
    try:
        rows = await conn.fetch("SELECT bucket, relpersistence FROM global_budget,"
                                " pg_class WHERE pg_class.oid = 'global_budget'::regclass")
        demand = await conn.fetchval("SELECT relpersistence FROM pg_class"
                                     " WHERE oid = 'global_budget_demand'::regclass")
    finally:
        await conn.close()
    assert [(r["bucket"], r["relpersistence"]) for r in rows] == [(NAME, b"u")]  # unlogged
    assert demand == b"u"


async def test_sqlite_has_no_shared_bucket(tmp_path: object) -> None:
    assert shared_bucket(f"{tmp_path}/ddz.sqlite3", NAME, RATE, BURST, 1.0) is None


async def flood(budget: GlobalBudget, seconds: float, granted: list[float],
                callers: int = 30) -> None:
    """Keep ``callers`` waiting on ``budget`` for ``seconds``; note each grant's time."""
    loop = asyncio.get_running_loop()
    end = loop.time() + seconds

    async def caller(priority: int) -> None:
        while loop.time() < end:
            await budget.take(priority)
            granted.append(loop.time())

    tasks = [asyncio.create_task(caller((RESULT, TURN, COSMETIC)[n % 3]))
             for n in range(callers)]
    await asyncio.sleep(seconds)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


async def test_two_processes_share_the_rate_exactly_and_an_idle_one_leaves_it_to_the_other(
    postgres_database: Database,
) -> None:
    """Both flooded for 3 s: together they get ``burst + rate × 3`` = 65 tokens at most
    and nearly all of it, half each (reservations are served in turn); then only one is busy and it gets the whole
    rate, not its static share (10/s), while the idle one makes no round-trip."""
    first = GlobalBudget(RATE, BURST, shared=bucket(postgres_database.location, process="a"),
                         fallback_rate=RATE / 2)
    second = GlobalBudget(RATE, BURST, shared=bucket(postgres_database.location, process="b"),
                          fallback_rate=RATE / 2)
    try:
        a: list[float] = []
        b: list[float] = []
        begun = time.monotonic()
        await asyncio.gather(flood(first, 3.0, a), flood(second, 3.0, b))
        elapsed = time.monotonic() - begun
        total = len(a) + len(b)
        print(f"two busy: {len(a)} + {len(b)} = {total} tokens in {elapsed:.2f} s"
              f" (bound {BURST + RATE * elapsed:.1f}); leases {first.leases} + {second.leases}")
        assert total <= BURST + RATE * elapsed
        assert total >= 0.85 * (BURST + RATE * 3.0), (len(a), len(b))
        assert min(len(a), len(b)) >= 0.3 * total, (len(a), len(b))
        assert first.fallbacks == second.fallbacks == 0
        for budget in (first, second):  # the round-trips the budget costs under pressure
            assert budget.leases <= elapsed / LEASE_GAP + 1

        await asyncio.sleep(1.1)  # what was reserved is paid, B's demand is stale, the row full
        leases, before = second.leases, first.leases
        alone: list[float] = []
        begun = time.monotonic()
        await flood(first, 2.0, alone)
        elapsed = time.monotonic() - begun
        print(f"one busy: {len(alone)} tokens in {elapsed:.2f} s;"
              f" leases {first.leases - before}")
        assert len(alone) <= BURST + RATE * elapsed
        assert len(alone) >= 0.85 * (BURST + RATE * 2.0) > (RATE / 2) * 2.0 + BURST
        assert second.leases == leases  # nothing waits there: no round-trip
    finally:
        await first.close()
        await second.close()


async def test_busy_processes_share_the_rate_by_what_waits_in_each(
    postgres_database: Database,
) -> None:
    """A keeps 30 requests waiting, B 6: once each knows the other's demand (after its
    first lease or two), A reserves ``burst`` (5) at a time and B 5 × 6 / 30 = 1, so A
    gets about five sixths of the rate, and B is never starved."""
    first = GlobalBudget(RATE, BURST, shared=bucket(postgres_database.location, process="a"),
                         fallback_rate=RATE / 2)
    second = GlobalBudget(RATE, BURST, shared=bucket(postgres_database.location, process="b"),
                          fallback_rate=RATE / 2)
    try:
        a: list[float] = []
        b: list[float] = []
        begun = time.monotonic()
        await asyncio.gather(flood(first, 3.0, a, callers=30), flood(second, 3.0, b, callers=6))
        elapsed = time.monotonic() - begun
        total = len(a) + len(b)
        loop_begun = asyncio.get_running_loop().time() - elapsed
        late_a = sum(1 for t in a if t >= loop_begun + 1.0)  # the last 2 s
        late_b = sum(1 for t in b if t >= loop_begun + 1.0)
        print(f"30 vs 6 waiting: {len(a)} + {len(b)} = {total} tokens in {elapsed:.2f} s"
              f" (bound {BURST + RATE * elapsed:.1f}), {late_a} + {late_b} in the last 2 s;"
              f" leases {first.leases} + {second.leases}")
        assert total <= BURST + RATE * elapsed
        assert total >= 0.85 * (BURST + RATE * 3.0), (len(a), len(b))
        assert late_a >= 0.75 * (late_a + late_b) and late_b >= 2 * 2, (late_a, late_b)
    finally:
        await first.close()
        await second.close()


async def test_a_frozen_server_falls_back_to_the_static_share_within_the_lease_timeout(
    postgres_database: Database,
) -> None:
    async with FreezableProxy(postgres_database.location) as proxy:
        budget = GlobalBudget(RATE, BURST, fallback_rate=RATE / 2,
                              shared=bucket(proxy.url_via(postgres_database.location), 0.5))
        try:
            await frozen_then_thawed(budget, proxy)
        finally:
            await budget.close()


async def frozen_then_thawed(budget: GlobalBudget, proxy: FreezableProxy) -> None:
    """Freeze: one lease's timeout, then the static share; thaw: the shared bucket again."""
    loop = asyncio.get_running_loop()
    await budget.take(RESULT)
    assert budget.leases == 1
    proxy.freeze()
    begun = loop.time()
    await asyncio.wait_for(asyncio.gather(*(budget.take(TURN) for _ in range(5))), 3.0)
    waited = loop.time() - begun
    # one lease's timeout, then the static share (10/s) from an empty bucket
    assert 0.5 <= waited <= 0.5 + 5 / (RATE / 2) + 0.5, waited
    assert budget.fallbacks == 1 and budget.lease_failures == 1 and budget.on_own_tokens
    await asyncio.sleep(1.0)  # the fallback lasts 1 s; the server is still frozen
    await asyncio.wait_for(budget.take(RESULT), 2.0)
    assert budget.fallbacks == 2  # tried again once, fell back again (for 2 s now)
    proxy.thaw()
    await asyncio.sleep(2.1)
    leases = budget.leases
    await asyncio.wait_for(budget.take(RESULT), 2.0)
    assert budget.leases == leases + 1 and budget.fallbacks == 2  # shared again
    assert not budget.on_own_tokens


async def test_a_frozen_lease_raises_storage_unavailable_and_the_next_one_reconnects(
    postgres_database: Database,
) -> None:
    async with FreezableProxy(postgres_database.location) as proxy:
        one = bucket(proxy.url_via(postgres_database.location), timeout=0.3)
        try:
            assert (await one.lease(1, 1))[0] == 1
            proxy.freeze()
            begun = time.monotonic()
            with pytest.raises(StorageUnavailable):
                await one.lease(1, 1)
            assert time.monotonic() - begun < 1.0
            proxy.thaw()
            assert (await one.lease(1, 1))[0] == 1
        finally:
            await one.close()


async def test_a_backward_step_of_the_server_clock_does_not_stall_requests(
    postgres_database: Database, caplog: pytest.LogCaptureFixture,
) -> None:
    """The server's clock steps back 20 s: the row's stamp is 20 s ahead of it. It
    refilled nothing until the clock caught up, so 80 requests took 21.9 s instead of
    1.9 s, without a word. A stamp ahead is taken as a reset (the row refills from now),
    warned once."""
    rate, burst = 40.0, 10.0
    shared = shared_bucket(postgres_database.location, NAME, rate, burst, 1.0, "shards:0")
    assert isinstance(shared, PgBucket)
    budget = GlobalBudget(rate, burst, shared=shared, fallback_rate=rate / 2)
    loop = asyncio.get_running_loop()
    try:
        await budget.take(RESULT)  # the row exists
        conn = await asyncpg.connect(postgres_database.location)
        try:  # what a step back of the clock leaves: a stamp 20 s in the server's future
            await conn.execute("UPDATE global_budget SET stamp = now() + interval '20 s',"
                               " tokens = 0 WHERE bucket = $1", NAME)
        finally:
            await conn.close()
        caplog.clear()
        begun = loop.time()
        await asyncio.wait_for(asyncio.gather(*(budget.take(TURN) for _ in range(80))), 10.0)
        took = loop.time() - begun
        print(f"80 requests after a 20 s step back: {took:.2f} s")
        assert took <= 80 / rate + 1.0, took  # the rate (2 s from an empty row), not 22 s
        assert budget.fallbacks == 0  # the shared bucket itself, not the static share
        warned = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
        assert len(warned) == 1 and "ahead of the server's clock" in warned[0], warned
        for _ in range(3):  # once: later leases find the stamp in order
            await budget.take(RESULT)
        assert len([r for r in caplog.records if r.levelno == logging.WARNING]) == 1
    finally:
        await budget.close()
