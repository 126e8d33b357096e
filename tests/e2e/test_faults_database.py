"""The database misbehaves under a running ``python -m bot`` (docs/RELIABILITY.md).

A frozen PostgreSQL (issue 25 item 1): the bot reaches it through a TCP proxy that
stops forwarding (a network partition, a stuck failover). Before: writes never
returned and the process never exited; now it exits with code 4 (restart me: another
process may take my shards) within a few ``DDZ_DATABASE_TIMEOUT``.
"""

from __future__ import annotations

import asyncio
import time

from sandbox.loopback.emulator import Emulator
from tests.support.botproc import BotFactory
from tests.support.databases import Database
from tests.support.ddz_driver import FAST_ENV
from tests.support.freezer import FreezableProxy
from tests.support.solo import open_with_computers


async def test_a_frozen_postgresql_makes_the_bot_exit_with_code_4_in_bounded_time(
    emulator: Emulator, bot_factory: BotFactory, postgres_database: Database
) -> None:
    proxy = await FreezableProxy(postgres_database.location).start()
    try:
        bot = bot_factory(extra_env={
            **FAST_ENV,
            "DDZ_DATABASE_URL": proxy.url_via(postgres_database.location),
            "DDZ_DATABASE_TIMEOUT": "1",
        })
        await bot.start(timeout=30)
        alice = emulator.member(name="alice")
        await open_with_computers(emulator, alice)  # a table the computers play on
        proxy.freeze()
        frozen = time.monotonic()
        assert bot.proc is not None
        code = await asyncio.wait_for(bot.proc.wait(), 30)
        took = time.monotonic() - frozen
        assert code == 4, bot.log_tail()
        # ping interval (1 s) + ping timeout (1 s) + closing: service, pools (≤ 2 s each)
        assert took < 12, (took, bot.log_tail())
        assert "lost the database connection that holds this process's shard locks" in (
            bot.log_text()
        )
    finally:
        proxy.thaw()
        await proxy.close()
