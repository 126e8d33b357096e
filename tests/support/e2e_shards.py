"""Two bot processes on one PostgreSQL, each serving one of ``SHARDS`` shards: which
shard a guild is on (Discord's ``(guild_id >> 22) % shard_count``), a guild on the other
shard, and a process's environment (tests/e2e/test_game_shards.py,
tests/e2e/test_global_budget_shared.py)."""

from __future__ import annotations

import time

from sandbox.loopback.emulator import Emulator, SimGuild
from tests.support.databases import Database
from tests.support.ddz_driver import FAST_ENV

SHARDS = 2


def shard_of(guild: SimGuild) -> int:
    return (guild.id >> 22) % SHARDS


def guild_on_another_shard(emu: Emulator, than: SimGuild, name: str = "Second Guild",
                           channels: tuple[str, ...] = ("ddz", "general")) -> SimGuild:
    """A new guild whose shard differs from ``than``'s (ids carry the millisecond)."""
    while True:
        guild = emu.guild(name, channels=channels)
        if shard_of(guild) != shard_of(than):
            return guild
        emu.guilds.remove(guild)
        time.sleep(0.001)


def shard_env(database: Database, shard: int) -> dict[str, str]:
    return {
        **FAST_ENV,
        "DDZ_DATABASE_URL": database.location,
        "DDZ_SHARD_COUNT": str(SHARDS),
        "DDZ_SHARD_IDS": str(shard),
    }
