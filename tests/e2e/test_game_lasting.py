"""Auto-play that lasts and leaving that frees you, through the real bot (issue 26 §1-2).

§1: alice turns auto-play on; bob never comes back after joining, so his turns time out
(10 s timers). Alice's auto-play goes on into hand 2, and so does bob's from his
timeouts; bob's seat played the whole of hand 2 on it, so alice's Play again gives it to
a computer, the new deal says so, bob may start a table elsewhere and is told privately.
§2: bob presses Leave during a hand; the moment it is settled he may open a table in
another channel, and Play again gives his old seat to a computer.
"""

from __future__ import annotations

from collections.abc import Callable

from sandbox.loopback.emulator import Emulator, SimChannel, SimMember, SimMessage
from tests.support import timing
from tests.support.botproc import BotProcess
from tests.support.ddz_driver import (
    FAST_ENV,
    finished,
    open_view,
    public_actions,
    reply_text,
    wait_public,
    watch_table,
)

BotFactory = Callable[..., BotProcess]
ENV = {**FAST_ENV, "DDZ_AUTOPLAY_PACE_SCALE": "0"}


def result_of(channel: SimChannel, hand: int) -> Callable[[SimMessage], bool]:
    return lambda m: (m.channel is channel and "again" in public_actions(m)
                      and f"hand #{hand}" in m.text)


def ever_said(channel: SimChannel, text: str) -> SimMessage | None:
    """The public message of ``channel`` that said ``text`` at some point (redraws keep
    earlier states in ``history``), or None."""
    for msg in channel.public_messages:
        if text in msg.text or any(text in str(h.get("content", "")) for h in msg.history):
            return msg
    return None


async def alice_and_bob_with_a_computer(emu: Emulator, alice: SimMember, bob: SimMember,
                                        channel: SimChannel) -> None:
    await finished(await alice.slash("ddz start", channel=channel, computers=1))
    lobby = await wait_public(emu, lambda m: m.channel is channel and "join" in public_actions(m),
                              what="the lobby")
    await bob.click(lobby, public_actions(lobby)["join"]["custom_id"])
    lobby = await wait_public(emu, lambda m: m.channel is channel and "Bob" in m.text
                              and not public_actions(m)["start"].get("disabled"),
                              what="the full lobby")
    await alice.click(lobby, public_actions(lobby)["start"]["custom_id"])
    await wait_public(emu, lambda m: m.channel is channel and "hand" in public_actions(m),
                      what="the deal")


async def test_auto_play_lasts_and_a_whole_hand_away_gives_the_seat_to_a_computer(
    emulator: Emulator, bot_factory: BotFactory
) -> None:
    emu = emulator
    watch_table(emu)
    await bot_factory(extra_env=ENV).start(timeout=30)
    ddz, general = emu.default_guild.channels[:2]
    alice = emu.member(name="alice", manage_guild=True)
    bob = emu.member(name="bob")
    await finished(await alice.slash("ddz config", turn_seconds=10, bid_seconds=10))
    await alice_and_bob_with_a_computer(emu, alice, bob, ddz)
    await finished(await alice.slash("ddz autoplay", channel=ddz, mode="on"))

    first = await wait_public(emu, result_of(ddz, 1), timeout=90, what="the result of hand 1")
    await alice.click(first, public_actions(first)["again"]["custom_id"])
    await emu.wait_until(lambda: any(m is not first and ({"hand", "again"} & set(public_actions(m)))
                                     for m in ddz.public_messages),
                         timeout=10, what="the deal of hand 2")
    # hand 2 plays itself: alice's auto-play lasts, bob's from his timeouts too (pace 0 s)
    refused = await finished(await bob.slash("ddz start", channel=general, computers=2))
    assert reply_text(refused).startswith("You're already seated"), reply_text(refused)

    second = await wait_public(emu, result_of(ddz, 2), timeout=60, what="the result of hand 2")
    after = await open_view(alice)
    assert "Press Auto to take over" not in after.text, after.text
    assert "Auto-play stays on for the next hand" in after.text, after.text
    off = await finished(await alice.slash("ddz autoplay", channel=ddz, mode="off"))
    assert reply_text(off).startswith("Auto-play is off"), reply_text(off)  # hand 3 waits for her
    await alice.click(second, public_actions(second)["again"]["custom_id"])
    given_up = ("Bob played the whole last hand on auto-play after running out of time: a"
                " computer takes the seat, and Bob is free to join any table.")
    await emu.wait_until(lambda: ever_said(ddz, given_up) is not None, timeout=10,
                         what="the deal of hand 3 saying bob's seat was given up")
    third = ever_said(ddz, given_up)
    assert third is not None and third not in (first, second), third
    assert all(f"<@{bob.id}>" not in str(h.get("content", ""))  # named, not pinged
               for h in [*third.history, {"content": third.text}])

    opened = await finished(await bob.slash("ddz start", channel=general, computers=2))
    assert "is open in this channel" in reply_text(opened), reply_text(opened)
    await emu.wait_until(lambda: any("While you were away" in m.text for m in opened.messages),
                         timeout=5, what="the private note after bob's command")
    note = [m for m in opened.messages if "While you were away" in m.text]
    assert len(note) == 1 and note[0].visible_to is bob, opened.messages
    assert f"<#{ddz.id}>" in note[0].text
    again = await finished(await bob.slash("ddz score", channel=general))
    assert "While you were away" not in reply_text(again)  # told once
    assert emu.errors == [] and emu.late_interactions() == []
    timing.record(emu)


async def test_a_member_who_left_a_hand_is_free_once_it_is_settled(
    emulator: Emulator, bot_factory: BotFactory
) -> None:
    emu = emulator
    watch_table(emu)
    await bot_factory(extra_env=ENV).start(timeout=30)
    ddz, general = emu.default_guild.channels[:2]
    alice, bob = emu.member(name="alice"), emu.member(name="bob")
    await alice_and_bob_with_a_computer(emu, alice, bob, ddz)
    deal = await wait_public(emu, lambda m: m.channel is ddz and "leave" in public_actions(m)
                             and "hand" in public_actions(m), what="the deal")
    await bob.click(deal, public_actions(deal)["leave"]["custom_id"])
    await wait_public(emu, lambda m: m.channel is ddz and "Bob left the hand" in m.text,
                      what="bob's leaving on the table")
    early = await finished(await bob.slash("ddz start", channel=general, computers=2))
    assert reply_text(early).startswith("You're already seated"), reply_text(early)  # not yet
    await finished(await alice.slash("ddz autoplay", channel=ddz, mode="on"))

    result = await wait_public(emu, result_of(ddz, 1), timeout=60, what="the result")
    assert "Bob" in result.text and "match total" in result.text  # it counted for him
    opened = await finished(await bob.slash("ddz start", channel=general, computers=2))
    assert "is open in this channel" in reply_text(opened), reply_text(opened)
    assert not [m for m in opened.messages if "While you were away" in m.text]

    await finished(await alice.slash("ddz autoplay", channel=ddz, mode="off"))  # hand 2 waits
    await alice.click(result, public_actions(result)["again"]["custom_id"])
    left = "Bob left during the last hand: a computer of the table's level takes the seat."
    await emu.wait_until(lambda: ever_said(ddz, left) is not None, timeout=10,
                         what="the deal of hand 2 saying bob's seat went to a computer")
    assert emu.errors == [] and emu.late_interactions() == []
    timing.record(emu)
