"""Two bot processes of one bot token under Discord's global rate limit (issue 24):
one budget shared through PostgreSQL (bot/storage/shared_budget.py).

Scaled down: the loopback Discord allows 5 global-limited requests a second in all
(Discord: 50), both processes run with ``DDZ_GLOBAL_RATE=4`` (burst 1: at most 5 in any
second together), interaction tokens live 2 s, so nearly every board edit goes
through the channel. Process A serves five tables, B one, two moves a second each:
the old way (an edit after nearly every move, at most one a second per board) asks
for about six requests a second, more than the limit, so the boards fall behind and
catch up. Before the shared bucket each process had half the rate (2/s, at most
2 × 5 + 1 = 11 requests in 5 s) and A's boards waited while B's half went unused.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from urllib.parse import urlsplit

import asyncpg

from sandbox.loopback.emulator import FAKE_TOKEN, Emulator
from tests.support.botproc import BotFactory
from tests.support.databases import Database
from tests.support.ddz_driver import finished, public_actions, reply_text
from tests.support.e2e_shards import guild_on_another_shard, shard_env, shard_of
from tests.support.solo_tables import last_board, shows_result, start_solo_in

RESULT_TITLE = r"· hand #\d+ · result"
"""A result's title: the hand's number is the server's (several tables share a server)."""

LIMIT = 5
"""Global-limited requests the emulator allows per second (Discord: 50)."""
RATE = "4"
"""``DDZ_GLOBAL_RATE`` of both processes: 4/s, burst 1, so at most 5 in any second."""
PACE_ENV = {"DDZ_COMPUTER_DELAY": "0.4,0.6", "DDZ_AUTOPLAY_PACE_SCALE": "0.5",
            "DDZ_GLOBAL_RATE": RATE, "DDZ_BOARD_INTERVAL": "1"}
"""Two moves a second at every table (the board redraws at most once a second)."""
MOST_429 = 2
"""Global 429s allowed in all (a request in flight as another process's lands)."""
WINDOW = 5.0
STATIC_MOST = 2 * WINDOW + 1
"""What A could make in ``WINDOW`` seconds on its static half of the rate (2/s, burst 1)."""


async def test_two_processes_share_one_global_budget_without_a_429_storm(
    emulator: Emulator, bot_factory: BotFactory, postgres_database: Database
) -> None:
    emu = emulator
    guild_a = emu.guild("Busy A", channels=("a1", "a2", "a3", "a4", "a5"))
    guild_b = guild_on_another_shard(emu, guild_a, "Quiet B", channels=("b1",))
    bots = [
        bot_factory(guild_id=guild.id, shards=(shard_of(guild),),
                    extra_env={**shard_env(postgres_database, shard_of(guild)), **PACE_ENV})
        for guild in (guild_a, guild_b)
    ]
    await asyncio.gather(*(bot.start(timeout=45) for bot in bots))
    channels = guild_a.channels + guild_b.channels
    members = [emu.member(c.guild, name=f"m{n}") for n, c in enumerate(channels)]
    emu.token_lifetime = 2.0
    emu.faults.global_limit = (LIMIT, 1.0)
    limited = time.monotonic()  # (start-up's own requests came before)
    for member, channel in zip(members, channels, strict=True):
        await start_solo_in(emu, member, channel)
        await finished(await member.slash("ddz autoplay", channel=channel, mode="on", pace=1))

    await emu.wait_until(lambda: all(shows_result(c) for c in channels), timeout=150,
                         what="every table's result")
    await asyncio.sleep(3.0)  # anything still on its way
    ended = time.monotonic()

    # Every board ends current: its last public message is the hand's result.
    for channel in channels:
        result = last_board(channel)
        assert result is not None and re.search(RESULT_TITLE, result.text), (channel.name, result)
        assert "again" in public_actions(result), result.text
    # No 429 storm; together never above the limit.
    assert emu.faults.global_429 <= MOST_429, emu.faults.global_429
    assert emu.max_global_per_second(since=limited) <= LIMIT + emu.faults.global_429
    a_ids = {c.id for c in guild_a.channels}
    a_most = emu.max_global_per_second(WINDOW, since=limited, channels=a_ids)
    b_most = emu.max_global_per_second(WINDOW, since=limited, channels={guild_b.channels[0].id})
    total = sum(1 for t, _ in emu.global_requests if limited <= t <= ended)
    print(f"global-limited requests: {total} in {ended - limited:.0f} s, most in 1 s"
          f" {emu.max_global_per_second(since=limited)}; most in {WINDOW:.0f} s:"
          f" A {a_most}, B {b_most} (static half: {STATIC_MOST:.0f}); 429s"
          f" {emu.faults.global_429}; tokens refused {sum(e.code == 50027 for e in emu.errors)}")
    # A's four tables used more than A's static half of the rate: the budget is shared.
    assert a_most > STATIC_MOST, a_most
    refused = [e for e in emu.errors if e.code == 50027]
    assert len(refused) <= 2 * len(channels), [str(e) for e in refused]

    # Every hand settled exactly once: one finished hand per table, one ledger row each.
    conn = await asyncpg.connect(postgres_database.location)
    try:
        hands = await conn.fetch("SELECT guild_id, count(*) AS n FROM finished_hands GROUP BY 1")
        moves = await conn.fetch("SELECT hand FROM finished_hands")
        ledger = await conn.fetch("SELECT user_id, hands FROM ledger")
        row = await conn.fetch("SELECT bucket FROM global_budget")
    finally:
        await conn.close()
    assert sorted((r["guild_id"], r["n"]) for r in hands) == sorted(
        [(guild_a.id, len(guild_a.channels)), (guild_b.id, 1)])
    assert sorted((r["user_id"], r["hands"]) for r in ledger) == sorted(
        (m.id, 1) for m in members)
    assert [r["bucket"] for r in row] == [f"bot:{emu.application_id}"]
    actions = sum(len(json.loads(r["hand"])["history"]) for r in moves)
    print(f"the old way: {actions} bids and plays, about one edit each (a board at most"
          f" once a second), {len(channels)} boards at once; this way: {total} requests")
    assert len(channels) > LIMIT and actions > 2 * total
    score = reply_text(await finished(await members[0].slash("ddz score",
                                                             channel=guild_a.channels[0])))
    for member in members[: len(guild_a.channels)]:
        assert re.search(rf"{member.name.title()}: \*\*[+-]?\d+\*\* \(1 hand\)", score), score

    # The budget's own cost, from each process's closing line; no fallback happened;
    # neither the bot token nor the database password in the logs.
    password = urlsplit(postgres_database.location).password
    for bot in bots:
        await bot.stop()
        text = bot.log_text()
        assert "shared with the bot's other processes through PostgreSQL" in text, bot.log_tail()
        assert "did not answer" not in text and "Traceback" not in text, bot.log_tail()
        assert FAKE_TOKEN not in text and (not password or password not in text)
        taken, waited, leases, fallbacks = map(int, re.search(
            r"global budget: (\d+) requests taken \((\d+) waited\), (\d+) leases from the"
            r" shared bucket, (\d+) fallbacks", text).groups())
        print(f"{bot.log_path.stem}: {taken} taken ({waited} waited), {leases} leases"
              f" ({leases / (ended - limited):.1f} per second), {fallbacks} fallbacks")
        assert fallbacks == 0 and 0 < leases <= taken + 5
