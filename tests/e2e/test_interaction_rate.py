"""The interaction routes' meter and cap in the real bot (docs/SCALING.md §Exempt
traffic): ``python -m bot`` routes its callbacks and webhooks through
``cogs/metering.py``'s adapter, and a global 429 on one of them switches the
``DDZ_INTERACTION_RATE`` cap on with one warning."""

from __future__ import annotations

from sandbox.loopback.emulator import Emulator
from tests.support.botproc import BotFactory

CALLBACK = r"^/api/v10/interactions/\d+/[^/]+/callback$"
WARNING = ("Discord answered a global 429 on an interaction route "
           "(POST /interactions/{webhook_id}/{webhook_token}/callback)")  # discord.py's template


async def test_a_global_429_on_a_callback_caps_the_interaction_routes_with_one_warning(
    emulator: Emulator, bot_factory: BotFactory
) -> None:
    bot = await bot_factory().start(timeout=30)
    alice = emulator.member(name="alice")
    emulator.faults.fail("POST", CALLBACK, 429, count=1, is_global=True, retry_after=0.05)

    first = await (await alice.slash("ddz rules")).settled()
    emulator.faults.fail("POST", CALLBACK, 429, count=1, is_global=True, retry_after=0.05)
    second = await (await alice.slash("ddz rules")).settled()

    assert first.response_type is not None and second.response_type is not None
    assert emulator.faults.injected[429] == 2
    log = bot.log_text()
    assert log.count(WARNING) == 1, bot.log_tail()
    assert "capping this process's interaction requests at 45 per second" in log
    assert all(ix.token not in log for ix in emulator.interactions)
