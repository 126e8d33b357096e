"""Turn pings through ``python -m bot`` on the loopback Discord (docs/RULES.md §Turn pings,
docs/DISCORD.md row 20).

Discord notifies a member only for a message *created* with ``allowed_mentions`` that let
the mention through, never for an edit. A member whose turn waits must get such a
message, mentioning them, within the server's ``turn_ping_after`` + 2 s of the turn's
start, and it must be deleted when the turn ends; ``/ddz notify off`` and
``/ddz config turn_ping:off`` stop it; and a hand with pings on still costs at most
``GLOBAL_PER_HAND`` global-limited requests.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import time
from collections.abc import Callable

from sandbox.loopback.emulator import Emulator, SimMember, SimMessage
from tests.support.botproc import BotProcess
from tests.support.ddz_driver import FAST_ENV, finished, public_actions, public_seq, wait_public
from tests.support.solo_tables import GLOBAL_PER_HAND, start_solo_in

BotFactory = Callable[..., BotProcess]
DELAY = 3
"""``/ddz config turn_ping_after`` of the test (seconds)."""
MARGIN = 2.0
"""Seconds a ping may come after its delay (the issue's acceptance)."""


def pings_of(emu: Emulator, member: SimMember) -> list[SimMessage]:
    """Messages the bot created that notify ``member`` (deleted ones included): public,
    mentioning them, with ``allowed_mentions`` letting that mention through, oldest
    first. (An edit never notifies: only how a message was created counts.)"""
    out = []
    for message in emu.messages.values():
        allowed = message.allowed_mentions
        if (message.ephemeral or f"<@{member.id}>" not in (message.history[0]["content"]
                                                            if message.history
                                                            else message.content)
                or allowed is None):
            continue
        if "users" in (allowed.get("parse") or ()) or member.id in {
                int(u) for u in allowed.get("users") or ()}:
            out.append(message)
    return sorted(out, key=lambda m: m.id)


def stored_pings(bot: BotProcess) -> list[int]:
    """Message ids of the pings the bot's database holds as sent and not deleted."""
    with contextlib.closing(sqlite3.connect(bot.db_path)) as db:
        return [row[0] for row in db.execute("SELECT message_id FROM turn_pings")]


async def her_turn(emu: Emulator, member: SimMember, after_seq: int) -> tuple[SimMessage, float]:
    """The board once it names ``member`` to act at a seq above ``after_seq``, and when
    that was seen (monotonic seconds)."""
    board = await wait_public(
        emu, lambda m: f"<@{member.id}>" in m.text and public_seq(m) > after_seq
        and "hand" in public_actions(m), timeout=40, what=f"{member.name}'s turn")
    return board, time.monotonic()


async def test_a_waiting_turn_is_pinged_in_time_deleted_after_and_both_switches_stop_it(
    emulator: Emulator, bot_factory: BotFactory
) -> None:
    emu = emulator
    bot = await bot_factory(extra_env=FAST_ENV).start(timeout=30)
    alice = emu.member(name="alice", manage_guild=True)
    bob = emu.member(name="bob")
    await finished(await alice.slash("ddz config", turn_ping_after=DELAY, bid_seconds=10,
                                     turn_seconds=10))
    since = time.monotonic()
    await start_solo_in(emu, alice, emu.default_channel)

    # 1. Her turn waits: one created message mentioning only her, within DELAY + 2 s.
    board, seen = await her_turn(emu, alice, -1)
    await emu.wait_until(lambda: len(pings_of(emu, alice)) == 1, timeout=DELAY + MARGIN + 1,
                         what="alice's ping")
    waited = time.monotonic() - seen  # the board shows the turn after it began: ≤ the real wait
    [ping] = pings_of(emu, alice)
    assert waited <= DELAY + MARGIN, waited
    assert not ping.components and not ping.deleted and ping.edited_at is None
    assert ping.allowed_mentions == {"parse": [], "users": [alice.id]}, ping.allowed_mentions
    assert f"<@{bob.id}>" not in ping.content and "@everyone" not in ping.content
    assert ping.content.startswith(f"<@{alice.id}>, your turn to ")
    assert pings_of(emu, bob) == []
    assert board.allowed_mentions == {"parse": []}  # the board notifies nobody

    # 2. Her turn ends (a pass): the ping is deleted.
    await finished(await alice.slash("ddz pass"))
    await emu.wait_until(lambda: ping.deleted, timeout=3, what="the ping deleted")
    seq = public_seq(board)

    # 3. /ddz notify off: her next turn waits unpinged (the timer then acts for her).
    off = await finished(await alice.slash("ddz notify", mode="off"))
    assert "Turn pings are off for you" in off.messages[0].text
    board, _ = await her_turn(emu, alice, seq)
    await asyncio.sleep(DELAY + MARGIN)
    assert pings_of(emu, alice) == [ping]
    seq = public_seq(board)

    # 4. Hers back on, the server's off: no ping either.
    await finished(await alice.slash("ddz notify", mode="on"))
    await finished(await alice.slash("ddz config", turn_ping="off"))
    board, _ = await her_turn(emu, alice, seq)
    await asyncio.sleep(DELAY + MARGIN)
    assert pings_of(emu, alice) == [ping]

    # The hand (auto-played after her two timeouts) cost few global-limited requests.
    await wait_public(emu, lambda m: "again" in public_actions(m), timeout=120,
                      what="the result")
    await asyncio.sleep(2.0)
    counts = emu.global_count(since)
    print(f"pings in the hand: {len(pings_of(emu, alice))}; global-limited requests: "
          f"{sum(counts.values())} {dict(counts)}")
    assert sum(counts.values()) <= GLOBAL_PER_HAND, counts
    assert emu.errors == [] and "Traceback" not in bot.log_text()


async def test_a_restart_keeps_a_sent_ping_until_its_turn_ends_and_rearms_a_waiting_one(
    emulator: Emulator, bot_factory: BotFactory
) -> None:
    """docs/RULES.md §Turn pings, Restarts: a ping sent before ``kill -9`` is not sent
    again and is deleted (through the channel: its token died with the process) when its
    turn ends; a turn whose ping was due during the restart gets it once the bot is back."""
    emu = emulator
    bot = await bot_factory(extra_env=FAST_ENV).start(timeout=30)
    alice = emu.member(name="alice", manage_guild=True)
    await finished(await alice.slash("ddz config", turn_ping_after=2, bid_seconds=60,
                                     turn_seconds=60))
    await start_solo_in(emu, alice, emu.default_channel)
    board, _ = await her_turn(emu, alice, -1)
    await emu.wait_until(lambda: len(pings_of(emu, alice)) == 1, timeout=2 + MARGIN + 1,
                         what="alice's ping")
    [ping] = pings_of(emu, alice)
    # Stored before the kill (a kill between the post and its row would leave that
    # message behind and ping the turn again: docs/RULES.md §Turn pings).
    await emu.wait_until(lambda: stored_pings(bot) == [ping.id], timeout=10,
                         what="the ping stored")

    await bot.restart(timeout=90)  # kill -9, same database (a slow start on a busy machine)
    assert "restored 1 open tables" in bot.log_text().split("start #2")[1], bot.log_tail()
    await asyncio.sleep(2 + MARGIN)
    assert pings_of(emu, alice) == [ping] and not ping.deleted  # kept, not sent again
    deletes = emu.global_count()["DELETE /channels/{id}/messages/{id}"]
    await finished(await alice.slash("ddz pass"))
    await emu.wait_until(lambda: ping.deleted, timeout=3, what="the ping deleted")
    assert emu.global_count()["DELETE /channels/{id}/messages/{id}"] == deletes + 1

    board, _ = await her_turn(emu, alice, public_seq(board))
    await bot.restart(timeout=90)  # her next turn waits across a restart
    back = time.monotonic()
    await emu.wait_until(lambda: len(pings_of(emu, alice)) == 2, timeout=2 + MARGIN,
                         what="the ping of the turn that waited across the restart")
    assert time.monotonic() - back <= 2 + MARGIN
    await asyncio.sleep(1.0)
    assert len(pings_of(emu, alice)) == 2  # once
    assert emu.errors == [] and "Traceback" not in bot.log_text()
