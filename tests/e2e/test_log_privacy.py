"""Hands never reach the log, at any level (issue 11 fault 1; README "Operating the bot").

A whole hand at ``DDZ_LOG_LEVEL=DEBUG`` (discord.py then logs every gateway event
and every HTTP body), then the whole log is scanned for everything the member's
private views showed: alt texts, the hand in notation, hand-view custom_ids (with
their selection masks), select option values and labels.
"""

from __future__ import annotations

from sandbox.loopback.emulator import Emulator
from tests.support.botproc import BotFactory
from tests.support.ddz_driver import FAST_ENV, finished
from tests.support.log_privacy import hand_secrets, leaks
from tests.support.solo import check_result, open_with_computers, play_solo


async def test_a_whole_hand_at_debug_level_leaves_no_card_of_any_hand_in_the_log(
    emulator: Emulator, bot_factory: BotFactory
) -> None:
    emu = emulator
    bot = await bot_factory(extra_env={**FAST_ENV, "DDZ_LOG_LEVEL": "DEBUG"}).start(timeout=30)
    alice = emu.member(name="alice")
    await open_with_computers(emu, alice)
    result, log = await play_solo(emu, alice)
    check_result(result.text)
    await finished(await alice.slash("ddz hand"))  # one more view of the finished hand
    text = bot.log_text()

    secrets = hand_secrets(emu)
    assert len(secrets) > 20 and any(s.startswith("Your hand") for s in secrets), secrets
    assert "WebSocket Event" in text and "has returned" in text, "not a DEBUG log"
    assert leaks(text, secrets) == []
    assert "Your hand" not in text and '"description"' not in text
    assert emu.errors == []
