"""Two bot processes, one PostgreSQL: each serves the guilds of its own shard.

Guild A is on one shard and guild B on the other (Discord's ``(guild_id >> 22) %
shard_count``). Alice plays in A, kill -9 takes A's process down mid-hand; B's process
keeps serving a whole hand in B; A's process restarts, restores only its own shard's
table and the hand goes on; each hand is settled exactly once. A third process
configured with A's shard id refuses to start (exit code 3, one line). docs/SCALING.md.
"""

from __future__ import annotations

import asyncio
import re

import asyncpg

from sandbox.loopback.emulator import Emulator, SimMember, SimMessage
from tests.support.botproc import BotFactory
from tests.support.databases import Database
from tests.support.ddz_driver import finished, reply_text
from tests.support.e2e_shards import SHARDS, guild_on_another_shard, shard_env, shard_of
from tests.support.solo import SoloLog, check_result, open_with_computers, play_solo


async def score_row(member: SimMember, mine: int) -> None:
    """``/ddz score`` in the member's guild shows Alice's total after one hand."""
    board = reply_text(await finished(await member.slash("ddz score")))
    signed = f"+{mine}" if mine > 0 else str(mine)
    assert re.search(rf"Alice: \*\*{re.escape(signed)}\*\* \(1 hand\)", board), board


async def test_two_processes_serve_their_own_shards_and_survive_a_kill_9(
    emulator: Emulator, bot_factory: BotFactory, postgres_database: Database
) -> None:
    emu = emulator
    guild_a = emu.default_guild
    guild_b = guild_on_another_shard(emu, guild_a)
    shard_a, shard_b = shard_of(guild_a), shard_of(guild_b)
    bot_a = bot_factory(
        guild_id=guild_a.id, shards=(shard_a,), extra_env=shard_env(postgres_database, shard_a)
    )
    bot_b = bot_factory(
        guild_id=guild_b.id, shards=(shard_b,), extra_env=shard_env(postgres_database, shard_b)
    )
    await bot_a.start(timeout=30)
    await bot_b.start(timeout=30)

    # A misconfigured third process with A's shard id stops before touching anything.
    twin = bot_factory(shards=(shard_a,), extra_env=shard_env(postgres_database, shard_a))
    proc = await asyncio.create_subprocess_exec(
        *twin.argv,
        cwd=str(twin.log_path.parent),
        env=twin.env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(proc.communicate(), 60)
    assert proc.returncode == 3, err.decode()
    assert err.decode().strip().splitlines() == [
        f"ddz-bot: refusing to start: shard {shard_a} of {SHARDS} is already served by another"
        " process on this database (check DDZ_SHARD_IDS: each shard id runs in exactly one"
        " process)"
    ]

    alice = emu.member(guild_a, name="alice")
    alice_b = emu.member(guild_b, name="alice")  # another member, same name, in guild B
    await open_with_computers(emu, alice)
    log = SoloLog()
    during_kill: dict[str, object] = {}

    async def kill_a_after_the_first_play(turn: int, table_msg: SimMessage) -> None:
        if during_kill or "bid" in (log.actions[-1] if log.actions else "bid"):
            return
        await bot_a.kill()  # kill -9 mid-hand
        assert bot_b.running
        # B's process keeps serving guild B: a whole hand while A is down.
        await open_with_computers(emu, alice_b)
        result_b, _ = await play_solo(emu, alice_b)
        during_kill["changes_b"] = check_result(result_b.text)
        # A comes back on the same database and restores its own shard's table only.
        await bot_a.start(timeout=30)
        assert "restored 1 open tables" in bot_a.log_text().split("start #2")[1], bot_a.log_tail()

    result_a, _ = await play_solo(emu, alice, after_turn=kill_a_after_the_first_play, log=log)
    assert during_kill, f"the hand ended before a play: {log.actions}"
    changes_a = check_result(result_a.text)
    changes_b = during_kill["changes_b"]
    assert isinstance(changes_b, dict)
    await score_row(alice, changes_a["Alice"])
    await score_row(alice_b, changes_b["Alice"])

    conn = await asyncpg.connect(postgres_database.location)
    try:
        hands = await conn.fetch("SELECT guild_id, count(*) AS n FROM finished_hands GROUP BY 1")
        ledger = await conn.fetch("SELECT guild_id, user_id, total, hands FROM ledger")
        open_guilds = await conn.fetch("SELECT guild_id FROM open_tables")
    finally:
        await conn.close()
    assert sorted((r["guild_id"], r["n"]) for r in hands) == sorted(
        [(guild_a.id, 1), (guild_b.id, 1)]
    )
    assert sorted((r["guild_id"], r["user_id"], r["total"], r["hands"]) for r in ledger) == sorted(
        [
            (guild_a.id, alice.id, changes_a["Alice"], 1),
            (guild_b.id, alice_b.id, changes_b["Alice"], 1),
        ]
    )
    # Both tables stay open (Play again): A's restart restored 1 of these 2, its own.
    assert sorted(r["guild_id"] for r in open_guilds) == sorted([guild_a.id, guild_b.id])
    assert "restored 0 open tables" in bot_b.log_text(), bot_b.log_tail()
    assert emu.errors == [] and emu.late_interactions() == []
