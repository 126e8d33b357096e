"""Replay and review buttons used as an attacker would (issue 15 §1-2), end to end.

Alice plays one hand against two computers. Then: replay ids forged onto the public
result message, forged ids naming the hand from another server, a hand still being
played, a huge or non-numeric hand number, and another member's review pages. Each
gets a polite ephemeral answer and changes nothing anyone else sees.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
import pytest_asyncio

from sandbox.loopback.emulator import Emulator, SimMember, SimMessage
from sandbox.loopback.members import SimInteraction
from sandbox.loopback.model import FLAG_EPHEMERAL, SimGuild, snowflake
from tests.support.ddz_driver import finished, public_actions, public_seq, reply_text, wait_public
from tests.support.solo import SoloSession, solo_session

pytestmark = pytest.mark.asyncio(loop_scope="module")
STALE = "That button is out of date: the table has moved on."


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def played(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[SoloSession]:
    async with solo_session(tmp_path_factory.mktemp("replay_abuse")) as session:
        yield session


def _forge(msg: SimMessage, custom_id: str) -> None:
    """Put a button with ``custom_id`` on ``msg`` (what a modified client could send)."""
    msg.components = [{"type": 1, "components": [
        {"type": 2, "style": 2, "label": "forged", "custom_id": custom_id}]}]


async def _forged_click(member: SimMember, msg: SimMessage, custom_id: str) -> SimInteraction:
    saved = msg.components
    _forge(msg, custom_id)
    try:
        return await finished(await member.click(msg, custom_id), timeout=15)
    finally:
        msg.components = saved


def _only_ephemeral_reply(ix: SimInteraction, member: SimMember) -> str:
    """The bot's answer: its follow-ups (after a deferred update) or its reply message."""
    messages = ix.followups or ([ix.message] if ix.message is not None else [])
    assert messages and all(m.visible_to is member for m in messages), messages
    return "\n".join(m.text for m in messages)


def _ephemeral_in(guild: SimGuild, member: SimMember, emu: Emulator) -> SimMessage:
    """An ephemeral bot message only ``member`` sees in ``guild`` (to forge ids onto)."""
    channel = guild.channels[0]
    msg = SimMessage(id=snowflake(), channel=channel, author_id=emu.application_id,
                     content="…", flags=FLAG_EPHEMERAL, visible_to=member)
    channel.messages.append(msg)
    return msg


async def test_replay_ids_forged_onto_the_public_result_leave_it_unchanged(
    played: SoloSession,
) -> None:
    emu, alice, result = played.emu, played.alice, played.result
    before = (result.text, [a.data for a in result.attachments], result.components)
    public_before = len(emu.public_messages())
    for verb in ("pnext", "pprev", "rnext", "pgif", "pshare"):
        ix = await _forged_click(alice, result, f"ddz:rp:1:0:{verb}")
        assert _only_ephemeral_reply(ix, alice) == STALE, (verb, reply_text(ix))
        assert (result.text, [a.data for a in result.attachments], result.components) == before, verb
    assert len(emu.public_messages()) == public_before
    assert emu.errors == [] and emu.late_interactions() == []


async def test_ids_naming_a_hand_of_another_server_are_refused(played: SoloSession) -> None:
    emu = played.emu
    other = emu.guild("Other Guild")
    bob = emu.member(name="bob", guild=other)
    mine = _ephemeral_in(other, bob, emu)
    for custom_id in ("ddz:rp:1:0:popen", "ddz:rp:1:1:pnext", "ddz:rp:1:0:rrev",
                      "ddz:rp:1:0:rnext", "ddz:rp:1:0:pgif", "ddz:rp:1:0:pshare"):
        ix = await _forged_click(bob, mine, custom_id)
        text = _only_ephemeral_reply(ix, bob)
        assert text == "There is no finished hand #1 in this server.", (custom_id, text)
        assert mine.content == "…" and not mine.attachments
    assert emu.errors == [] and emu.late_interactions() == []


async def test_huge_or_malformed_hand_numbers_get_a_polite_answer(played: SoloSession) -> None:
    emu, alice = played.emu, played.alice
    page = (await finished(await alice.slash("ddz replay"), timeout=15)).message
    assert page is not None
    for custom_id in ("ddz:rp:999999999:0:pnext", "ddz:rp:9999999999999:0:pnext",
                      "ddz:rp:abc:0:pnext", "ddz:rp:1:x:pnext", "ddz:rp:0:0:pnext",
                      "ddz:rp:1:0:pdelete", "ddz:rp:1:-1:pnext", "ddz:rp:1:0:p"):
        ix = await _forged_click(alice, page, custom_id)
        text = _only_ephemeral_reply(ix, alice)
        assert text in (STALE, "There is no finished hand #999999999 in this server."), (
            custom_id, text)
        assert "Replay of hand #1** · page 1/" in page.text  # the page is left as it was
    huge = await finished(await alice.slash("ddz replay", hand=999_999_999), timeout=15)
    assert reply_text(huge) == "There is no finished hand #999999999 in this server."
    assert emu.errors == [] and emu.late_interactions() == []


async def test_another_members_review_pages_are_refused_and_nothing_is_shared(
    played: SoloSession,
) -> None:
    emu = played.emu
    carol = emu.member(name="carol")
    page = (await finished(await carol.slash("ddz replay", hand=1), timeout=15)).message
    assert page is not None and page.visible_to is carol
    public_before = len(emu.public_messages())
    for verb in ("rnext", "rprev", "rshare", "rgif", "rrev"):
        ix = await _forged_click(carol, page, f"ddz:rp:1:0:{verb}")
        text = _only_ephemeral_reply(ix, carol)
        assert text.startswith("You didn't play hand #1"), (verb, text)
        assert "Replay of hand #1** · page 1/" in page.text
    assert len(emu.public_messages()) == public_before
    assert emu.errors == [] and emu.late_interactions() == []


async def test_a_hand_still_being_played_cannot_be_replayed(played: SoloSession) -> None:
    # Runs last: Alice starts the next hand; its number does not exist until it settles.
    emu, alice, result = played.emu, played.alice, played.result
    seq = public_seq(result)
    await alice.click(result, public_actions(result)["again"]["custom_id"])
    await wait_public(emu, lambda m: public_seq(m) > seq and "hand" in public_actions(m),
                      what="the next deal")
    page = (await finished(await alice.slash("ddz replay"), timeout=15)).message
    assert page is not None and "Replay of hand #1" in page.text, page.text  # not the live one
    for custom_id in ("ddz:rp:2:0:pnext", "ddz:rp:2:0:rrev"):
        ix = await _forged_click(alice, page, custom_id)
        assert "There is no finished hand #2 in this server." in _only_ephemeral_reply(ix, alice)
    live = await finished(await alice.slash("ddz review", hand=2), timeout=15)
    assert reply_text(live) == "There is no finished hand #2 in this server."
    assert emu.errors == [] and emu.late_interactions() == []
