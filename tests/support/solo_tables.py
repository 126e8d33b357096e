"""Solo tables for the e2e tests: a member against two computers in a chosen channel,
in the member's language, and hands auto-played to their result."""

from __future__ import annotations

from sandbox.loopback.emulator import Emulator, SimChannel, SimMember, SimMessage
from tests.support.ddz_driver import changes_in_result, finished, public_actions, wait_public
from tests.support.solo import NAMES

GLOBAL_PER_HAND = 4
"""Global-limited requests one auto-played hand may cost at most (issue 24;
tests/e2e/test_global_requests.py, tests/e2e/test_turn_pings.py)."""


async def start_solo_in(emu: Emulator, member: SimMember, channel: SimChannel) -> None:
    """``/ddz start computers:2`` (``/ddz empezar ordenadores:2`` for a Spanish member) in
    ``channel``, then Start; returns once the deal is on the table."""
    spanish = member.locale.startswith("es")
    ix = await (member.slash("ddz empezar", channel=channel, ordenadores=2) if spanish
                else member.slash("ddz start", channel=channel, computers=2))
    await finished(ix)
    lobby = await wait_public(emu, lambda m: m.channel is channel and "start" in public_actions(m),
                              what="the lobby")
    await member.click(lobby, public_actions(lobby)["start"]["custom_id"])
    await wait_public(emu, lambda m: m.channel is channel and "hand" in public_actions(m),
                      what="the deal")


async def auto_played(emu: Emulator, alice: SimMember, hand: int) -> int:
    """alice (English, seat 1 of ``solo.NAMES``) turns auto-play on, waits for the result
    of hand ``hand``, turns it off; returns her change. Needs a pace scale of 0."""
    ack = await finished(await alice.slash("ddz autoplay", mode="on"))
    assert any("Auto-play is on" in m.text for m in ack.messages), ack.messages
    result = await wait_public(
        emu, lambda m: "again" in public_actions(m) and f"hand #{hand}" in m.text, timeout=30,
        what=f"the result of hand {hand}")
    await finished(await alice.slash("ddz autoplay", mode="off"))
    return changes_in_result(result.text, NAMES)["Alice"]


def last_board(channel: SimChannel) -> SimMessage | None:
    """The newest public message of ``channel`` with the table's buttons (its board)."""
    boards = [m for m in channel.public_messages if public_actions(m)]
    return boards[-1] if boards else None


def shows_result(channel: SimChannel) -> bool:
    """``channel``'s board shows a hand's result (it offers Play again)."""
    message = last_board(channel)
    return message is not None and "again" in public_actions(message)
