"""Several processes on one database: shard ownership, own-shard restore, exactly-once."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

import asyncpg
import pytest

from bot.storage import ShardTaken
from bot.values import ShardSet
from tests.support.databases import Database
from tests.support.storage_fakes import FakeTable, finished_table

# Guild ids on shard 0 and shard 1 of 2: (guild_id >> 22) % 2.
ON_SHARD_0, ON_SHARD_1 = 4 << 22, 5 << 22


def test_shard_set_uses_discords_formula() -> None:
    shards = ShardSet(count=2, ids=(1,))
    assert [shards.owns(g) for g in (ON_SHARD_0, ON_SHARD_1, 1)] == [False, True, False]
    assert ShardSet(count=1, ids=(0,)).owns(ON_SHARD_1)


async def test_restore_loads_only_the_tables_of_own_shards(database: Database) -> None:
    store = await database.open()
    for n, guild in enumerate((ON_SHARD_0, ON_SHARD_1, ON_SHARD_0 + (2 << 22))):
        await store.save_table(finished_table(table_id=f"t{n}", guild_id=guild))
    mine = await store.load_table_states(ShardSet(count=2, ids=(0,)))
    assert [FakeTable.model_validate_json(s).id for s in mine] == ["t0", "t2"]
    other = await store.load_table_states(ShardSet(count=2, ids=(1,)))
    assert [FakeTable.model_validate_json(s).id for s in other] == ["t1"]
    assert len(await store.load_table_states(ShardSet(count=2, ids=(0, 1)))) == 3
    assert len(await store.load_table_states()) == 3
    await store.close()


async def test_a_second_process_claiming_a_served_shard_is_refused(database: Database) -> None:
    first, second = await database.open(), await database.open()
    await first.claim_shards(ShardSet(count=2, ids=(0,)))
    with pytest.raises(ShardTaken, match="shard 0 of 2 is already served") as refused:
        await second.claim_shards(ShardSet(count=2, ids=(1, 0)))
    assert refused.value.shard == 0
    await second.claim_shards(ShardSet(count=2, ids=(1,)))  # the refusal left shard 1 free
    await first.close()  # the owner stops: its shard is free again
    third = await database.open()
    await third.claim_shards(ShardSet(count=2, ids=(0,)))
    await second.close()
    await third.close()


async def test_a_process_with_another_shard_count_is_refused(
    postgres_database: Database,
) -> None:
    first, second = await postgres_database.open(), await postgres_database.open()
    await first.claim_shards(ShardSet(count=2, ids=(0,)))
    with pytest.raises(ShardTaken, match="DDZ_SHARD_COUNT=3 but a live process"):
        await second.claim_shards(ShardSet(count=3, ids=(2,)))
    await first.close()
    await second.claim_shards(ShardSet(count=3, ids=(2,)))
    await second.close()


async def test_one_hand_settled_from_several_connections_at_once_counts_once(
    database: Database,
) -> None:
    stores = [await database.open() for _ in range(4)]
    results = await asyncio.gather(
        *(s.settle_hand(finished_table(base=3), "same-hand") for s in stores)
    )
    assert sorted(r.replayed for r in results) == [False, True, True, True]
    firsts = {r.model_copy(update={"replayed": False}).model_dump_json() for r in results}
    assert len(firsts) == 1  # every caller got the one recorded settlement
    standings = await stores[0].match_standings(1)
    assert [(s.user_id, s.total) for s in standings.standings] == [(101, 6), (102, -3), (103, -3)]
    assert standings.hands_played == 1
    for store in stores:
        await store.close()


async def test_many_hands_of_one_guild_settled_concurrently_all_count(
    database: Database,
) -> None:
    stores = [await database.open() for _ in range(3)]
    await asyncio.gather(
        *(
            stores[n % 3].settle_hand(finished_table(table_id=f"t{n}", landlord=n % 3), f"h{n}")
            for n in range(12)
        )
    )
    standings = await stores[0].match_standings(1)
    assert {s.user_id: (s.total, s.hands) for s in standings.standings} == {
        101: (0, 12),
        102: (0, 12),
        103: (0, 12),
    }
    assert standings.hands_played == 12
    stats = await stores[1].player_stats(1, 102)
    assert stats is not None and (stats.hands, stats.hands_landlord, stats.wins) == (12, 4, 4)
    for store in stores:
        await store.close()


async def test_losing_the_lock_connection_is_reported_once_and_frees_the_shard(
    postgres_database: Database,
) -> None:
    first = await postgres_database.open()
    lost = asyncio.Event()
    calls: list[int] = []
    first.lease_check_seconds = 0.05  # type: ignore[attr-defined]
    first.on_shards_lost = lambda: (calls.append(1), lost.set())  # type: ignore[attr-defined]
    await first.claim_shards(ShardSet(count=2, ids=(0,)))
    admin = await asyncpg.connect(postgres_database.location)
    owner_pid = first._owner.get_server_pid()  # type: ignore[attr-defined]
    assert await admin.fetchval("SELECT pg_terminate_backend($1)", owner_pid)
    await admin.close()
    await asyncio.wait_for(lost.wait(), 5)
    await asyncio.sleep(0.2)
    assert calls == [1]
    second = await postgres_database.open()
    await second.claim_shards(ShardSet(count=2, ids=(0,)))  # the server dropped the lock
    await second.close()
    await first.close()


SETTLER = """
import asyncio, sys
from bot.storage import open_repository
from tests.support.storage_fakes import finished_table

async def main():
    store = await open_repository(sys.argv[1])
    n = int(sys.argv[2])
    hands = [finished_table(table_id=f"p{n}-{k}", landlord=k % 3) for k in range(6)]
    await asyncio.gather(*(store.settle_hand(t, t.id) for t in hands))
    await asyncio.gather(*(store.settle_hand(t, t.id) for t in hands))  # replays
    await store.close()

asyncio.run(main())
"""


@pytest.mark.processes
async def test_settlements_from_several_processes_at_once_all_count_once(
    database: Database,
) -> None:
    root = Path(__file__).resolve().parents[2]
    store = await database.open()  # migrated before the processes start
    procs = [
        await asyncio.create_subprocess_exec(
            sys.executable,
            "-c",
            SETTLER,
            database.location,
            str(n),
            cwd=root,
            env={**os.environ, "PYTHONPATH": str(root)},
            stderr=asyncio.subprocess.PIPE,
        )
        for n in range(3)
    ]
    for proc in procs:
        _, err = await asyncio.wait_for(proc.communicate(), 60)
        assert proc.returncode == 0, err.decode()
    standings = await store.match_standings(1)
    assert standings.hands_played == 18
    assert {s.user_id: (s.total, s.hands) for s in standings.standings} == {
        101: (0, 18),
        102: (0, 18),
        103: (0, 18),
    }
    numbers = sorted(
        [(await store.numbered_hand(1, k)) is not None for k in range(1, 20)], reverse=True
    )
    assert numbers == [True] * 18 + [False]  # hands 1..18, each number once
    await store.close()
