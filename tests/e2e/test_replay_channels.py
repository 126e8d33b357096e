"""A replay respects the channel its hand was played in (issue 26 §3), end to end.

alice plays hand #1 in #ddz against two computers. bob, who did not play it, can
replay it in #ddz but not in #general (the answer names #ddz), neither by command nor
by a forged button id; alice, who played it, can replay it anywhere, but Share posts it
only in #ddz, where everyone could watch it being played.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
import pytest_asyncio

from sandbox.loopback.emulator import SimMember, SimMessage
from sandbox.loopback.members import SimInteraction
from sandbox.loopback.model import FLAG_EPHEMERAL, SimChannel, snowflake
from tests.support.ddz_driver import finished, reply_text
from tests.support.solo import SoloSession, solo_session

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def played(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[SoloSession]:
    async with solo_session(tmp_path_factory.mktemp("replay_channels")) as session:
        yield session


def _channels(session: SoloSession) -> tuple[SimChannel, SimChannel]:
    ddz, general = session.emu.default_guild.channels[:2]
    assert session.result.channel is ddz
    return ddz, general


def _elsewhere(ddz: SimChannel) -> str:
    return (f"Hand #1 was played in <#{ddz.id}>: only its players can see it elsewhere."
            " Ask there with `/ddz replay 1`.")


async def _forged_click(member: SimMember, channel: SimChannel, custom_id: str
                        ) -> SimInteraction:
    """Click ``custom_id`` on an ephemeral message of ``channel`` (a modified client)."""
    emu = member.emu
    msg = SimMessage(id=snowflake(), channel=channel, author_id=emu.application_id,
                     content="…", flags=FLAG_EPHEMERAL, visible_to=member)
    msg.components = [{"type": 1, "components": [
        {"type": 2, "style": 2, "label": "forged", "custom_id": custom_id}]}]
    channel.messages.append(msg)
    return await finished(await member.click(msg, custom_id), timeout=15)


async def test_others_replay_a_hand_only_in_its_own_channel(played: SoloSession) -> None:
    emu = played.emu
    ddz, general = _channels(played)
    bob = emu.member(name="bob")
    refused = await finished(await bob.slash("ddz replay", channel=general, hand=1), timeout=15)
    assert reply_text(refused) == _elsewhere(ddz)
    assert refused.message is not None and refused.message.visible_to is bob
    assert not refused.message.attachments  # no page, no cards
    review = await finished(await bob.slash("ddz review", channel=general, hand=1), timeout=15)
    assert reply_text(review) == _elsewhere(ddz)
    for custom_id in ("ddz:rp:1:0:popen", "ddz:rp:1:1:pnext", "ddz:rp:1:0:pgif",
                      "ddz:rp:1:0:pshare"):
        ix = await _forged_click(bob, general, custom_id)
        texts = [m.text for m in ix.followups or [ix.message] if m is not None]
        assert texts == [_elsewhere(ddz)], (custom_id, texts)
    here = await finished(await bob.slash("ddz replay", channel=ddz, hand=1), timeout=15)
    assert here.message is not None and "Replay of hand #1** · page 1/" in here.message.text
    assert emu.errors == [] and emu.late_interactions() == []


async def test_a_player_replays_anywhere_but_shares_only_in_the_hands_channel(
    played: SoloSession,
) -> None:
    emu, alice = played.emu, played.alice
    ddz, general = _channels(played)
    page = (await finished(await alice.slash("ddz replay", channel=general, hand=1),
                           timeout=15)).message
    assert page is not None and "Replay of hand #1** · page 1/" in page.text, page
    share = next(c for c in page.custom_ids if c.endswith("pshare"))
    public_before = len(general.public_messages)
    ix = await finished(await alice.click(page, share), timeout=15)
    assert [m.text for m in ix.followups] == [
        f"Hand #1 was played in <#{ddz.id}>: share it there, where everyone could see it"
        " being played."]
    assert len(general.public_messages) == public_before
    in_ddz = (await finished(await alice.slash("ddz replay", channel=ddz, hand=1),
                             timeout=15)).message
    assert in_ddz is not None
    shared_before = len(ddz.public_messages)
    share = next(c for c in in_ddz.custom_ids if c.endswith("pshare"))
    await finished(await alice.click(in_ddz, share), timeout=15)
    await emu.wait_until(lambda: len(ddz.public_messages) == shared_before + 1, timeout=10,
                         what="the shared page in #ddz")
    assert emu.errors == [] and emu.late_interactions() == []
