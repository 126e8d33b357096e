"""Rate limits and 5xx bursts while a hand is played (issue 11, "429" and "500/502/503").

The emulator answers chosen requests with errors (sandbox/loopback/faults.py). The game
must go on, the table message must end on the latest state (the result with
"Play again"), the hand must be settled exactly once, and each fault may cost only
a few retries: every test bounds the error answers and the log's tracebacks.
"""

from __future__ import annotations

import re
from collections import Counter

from sandbox.loopback.emulator import Emulator, SimMember, SimMessage
from sandbox.loopback.faults import HAND_VIEW_EDIT, TABLE_TOKEN_EDIT
from tests.support.botproc import BotFactory
from tests.support.ddz_driver import FAST_ENV, public_actions, table_message
from tests.support.solo import open_with_computers, play_solo, score_counts_once


async def settled_once(emu: Emulator, alice: SimMember, result: SimMessage) -> None:
    """The result is the newest table message, live, and ``/ddz score`` counts one hand."""
    assert table_message(emu) is result and "again" in public_actions(result)
    await score_counts_once(alice, result.text)


def statuses(emu: Emulator) -> Counter[int]:
    return Counter(e.status for e in emu.errors)


async def test_rate_limits_per_route_and_global_cost_one_wait_each(
    emulator: Emulator, bot_factory: BotFactory
) -> None:
    emu = emulator
    emu.faults.edit_limit = (5, 5.0)  # Discord's per-channel edit bucket, with headers
    bot = await bot_factory(extra_env=FAST_ENV).start(timeout=30)
    alice = emu.member(name="alice")
    await open_with_computers(emu, alice)

    async def faults(turn: int, table_msg: SimMessage) -> None:
        if turn == 1:  # two table edits (on the token that posted the deal) answered 429
            # (route bucket), retry_after 0.3 s
            emu.faults.fail("PATCH", TABLE_TOKEN_EDIT, 429, 2, retry_after=0.3)
        elif turn == 2:  # the next two requests of any kind hit the global limit
            emu.faults.fail("*", r"^/api/v10/", 429, 2, retry_after=0.5, is_global=True)

    result, log = await play_solo(emu, alice, after_turn=faults)
    assert len(log.actions) >= 3, log.actions  # both faults were armed mid-hand
    await settled_once(emu, alice, result)
    assert emu.faults.pending == 0
    # Only the injected 429s: the bot's own pacing never ran into the edit bucket.
    assert statuses(emu) == Counter({429: 4}), [str(e) for e in emu.errors]
    assert emu.faults.injected == Counter({429: 4})
    text = bot.log_text()
    assert text.count("Traceback") == 0, bot.log_tail(80)
    waits = text.count("We are being rate limited") + text.count("is rate limited. Retrying")
    assert waits >= 2  # discord.py (its HTTP or webhook client) waited and retried
    assert emu.max_edits_per_channel() <= 5


async def test_5xx_bursts_on_the_table_and_hand_view_edits_are_retried_with_back_off(
    emulator: Emulator, bot_factory: BotFactory
) -> None:
    emu = emulator
    bot = await bot_factory(extra_env=FAST_ENV).start(timeout=30)
    alice = emu.member(name="alice")
    await open_with_computers(emu, alice)

    async def faults(turn: int, table_msg: SimMessage) -> None:
        if turn == 1:  # table edit (its token): 500, 502, 503 (the webhook client retries)
            for status in (500, 502, 503):
                emu.faults.fail("PATCH", TABLE_TOKEN_EDIT, status, 1)
        elif turn == 2:  # the hand view's next edit: 500 then 503 (discord.py retries)
            for status in (500, 503):
                emu.faults.fail("PATCH", HAND_VIEW_EDIT, status, 1)

    result, log = await play_solo(emu, alice, after_turn=faults, timeout=30)
    assert len(log.actions) >= 3, log.actions
    await settled_once(emu, alice, result)
    assert emu.faults.pending == 0
    assert statuses(emu) == Counter({500: 2, 502: 1, 503: 2}), [str(e) for e in emu.errors]
    text = bot.log_text()
    assert text.count("Traceback") == 0, bot.log_tail(80)
    # discord.py's webhook client retried every 5xx: the board never saw one
    assert not re.findall(r"drawing table \w+ failed", text), bot.log_tail(80)
