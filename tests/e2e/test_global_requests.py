"""Discord's global rate limit (issue 24): what one hand costs in global-limited requests.

One bot token may make 50 requests per second in all, whatever the number of
processes; the interaction callback and the interaction webhook are exempt. The
loopback Discord counts both kinds (``Emulator.global_requests``); a hand played the
way a new user tries the bot (one member on auto-play against two computers, about a
move a second) must cost at most ``GLOBAL_PER_HAND`` global-limited requests, board
posts included: 44 on this test's deal before the public message travelled on
interaction tokens (2 posts, 42 edits), 1 since (the lobby's post).
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Callable

from sandbox.loopback.emulator import Emulator
from tests.support.botproc import BotProcess
from tests.support.ddz_driver import (
    finished,
    public_actions,
    reply_text,
    table_message,
    wait_public,
)
from tests.support.solo_tables import GLOBAL_PER_HAND, last_board, shows_result, start_solo_in

RESULT_TITLE = r"· hand #\d+ · result"
"""A result's title: the hand's number is the server's (several tables share a server)."""

BotFactory = Callable[..., BotProcess]
PACE_ENV = {"DDZ_COMPUTER_DELAY": "0.8,1.2"}
"""About a move a second: the computers' default pace, alice's auto-play at 1 s."""


async def test_real_pace_a_hand_on_auto_play_costs_at_most_four_global_requests(
    emulator: Emulator, bot_factory: BotFactory
) -> None:
    emu = emulator
    await bot_factory(extra_env=PACE_ENV).start(timeout=30)
    alice = emu.member(name="alice")
    since = time.monotonic()
    await start_solo_in(emu, alice, emu.default_channel)
    await finished(await alice.slash("ddz autoplay", mode="on", pace=1))
    result = await wait_public(emu, lambda m: "again" in public_actions(m), timeout=150,
                               what="the result")
    await asyncio.sleep(2.0)  # anything still to come for this hand
    counts = emu.global_count(since)
    print(f"global-limited requests in one hand: {sum(counts.values())} {dict(counts)}; "
          f"exempt: {sum(emu.exempt_requests.values())}")
    assert "hand #1" in result.text, result.text
    assert sum(counts.values()) <= GLOBAL_PER_HAND, counts
    assert emu.errors == [] and emu.late_interactions() == []


async def test_a_hand_outliving_its_token_ends_current_through_the_channel(
    emulator: Emulator, bot_factory: BotFactory
) -> None:
    """Tokens that expire after 4 s (Discord: 15 min): the board's token is refused once,
    the rest of the hand goes through the channel, the board and the result end current;
    the next click on the table brings the board back onto a token."""
    emu = emulator
    emu.token_lifetime = 4.0
    bot = await bot_factory(extra_env=PACE_ENV).start(timeout=30)
    alice = emu.member(name="alice")
    await start_solo_in(emu, alice, emu.default_channel)
    await finished(await alice.slash("ddz autoplay", mode="on", pace=1))
    result = await wait_public(emu, lambda m: "again" in public_actions(m), timeout=150,
                               what="the result")
    await asyncio.sleep(2.0)
    assert "hand #1" in result.text and table_message(emu) is result, result.text
    refused = [e for e in emu.take_errors() if e.code == 50027]
    assert 1 <= len(refused) <= 2, [str(e) for e in refused]
    assert sum(emu.global_count().values()) > 0  # the channel carried the rest
    assert bot.log_text().count("interaction token was refused") == len(refused)

    await finished(await alice.slash("ddz autoplay", mode="off"))
    since = time.monotonic()
    again = await alice.click(result, public_actions(result)["again"]["custom_id"])
    deal = await wait_public(emu, lambda m: m is not result and "hand" in public_actions(m),
                             what="the next deal")
    assert deal in again.followups  # on the new click's token again
    assert emu.global_count(since)["POST /channels/{id}/messages"] == 0
    assert emu.late_interactions() == [] and "Traceback" not in bot.log_text()


async def test_over_the_global_limit_boards_wait_their_turn_without_a_429_storm(
    emulator: Emulator, bot_factory: BotFactory
) -> None:
    """Discord's limit scaled down: the emulator allows 3 global-limited requests a second,
    tokens live 2 s, so four tables' boards (about one edit a second each) must all go
    through the channel, more than the limit allows. With ``DDZ_GLOBAL_RATE=2`` the bot
    keeps under it: no 429 storm, every hand settles once, every board ends current."""
    emu = emulator
    guild = emu.guild("Busy", channels=("t1", "t2", "t3", "t4"))
    bot = await bot_factory(extra_env={**PACE_ENV, "DDZ_GLOBAL_RATE": "2"},
                            guild_id=guild.id).start(timeout=30)
    members = [emu.member(guild, name=f"m{n}") for n in range(4)]
    emu.token_lifetime = 2.0
    emu.faults.global_limit = (3, 1.0)
    limited = time.monotonic()  # (start-up's own requests came before)
    for member, channel in zip(members, guild.channels, strict=True):
        await start_solo_in(emu, member, channel)
        await finished(await member.slash("ddz autoplay", channel=channel, mode="on", pace=1))

    await emu.wait_until(lambda: all(shows_result(c) for c in guild.channels), timeout=240,
                         what="every table's result")
    await asyncio.sleep(3.0)
    results = [last_board(c) for c in guild.channels]
    for result in results:
        assert result is not None and re.search(RESULT_TITLE, result.text), result
        assert "again" in public_actions(result), result.text
    assert emu.faults.global_429 <= 2, emu.faults.global_429  # never a storm
    refused = [e for e in emu.errors if e.code == 50027]
    assert len(refused) <= 2 * len(guild.channels), [str(e) for e in refused]
    assert emu.max_global_per_second(since=limited) <= 3 + emu.faults.global_429
    assert "Traceback" not in bot.log_text()
    score = reply_text(await finished(await members[0].slash("ddz score",
                                                             channel=guild.channels[0])))
    for member in members:  # each hand settled once
        assert re.search(rf"{member.name.title()}: \*\*[+-]?\d+\*\* \(1 hand\)", score), score
