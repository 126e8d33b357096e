"""A finished hand watched again and reviewed (issue 15 §1-2), end to end.

Alice plays a whole hand against two computers; then ``/ddz replay`` pages forward
and back, Share posts the page publicly, the animation arrives as one GIF, the
"Review my play" button on the result shows its progress and then the review; in
English and in Spanish; forged or foreign buttons are refused politely.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio

from sandbox.loopback.emulator import Emulator, SimMember, SimMessage
from sandbox.loopback.members import SimInteraction
from tests.support.ddz_driver import finished, reply_text
from tests.support.solo import SoloSession, solo_session

pytestmark = pytest.mark.asyncio(loop_scope="module")
REVIEW_SECONDS = 120.0  # generous: the CI machine is shared


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def played(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[SoloSession]:
    async with solo_session(tmp_path_factory.mktemp("replay")) as session:
        yield session


def _button(msg: SimMessage, label: str) -> dict:
    return next(b for b in msg.buttons if b.get("label") == label)


def _page(msg: SimMessage) -> tuple[int, int]:
    m = re.search(r"(?:page|página) (\d+)/(\d+)", msg.text)
    assert m is not None, msg.text
    return int(m[1]), int(m[2])


async def _click(member: SimMember, msg: SimMessage, label: str) -> SimInteraction:
    return await finished(await member.click(msg, _button(msg, label)["custom_id"]), timeout=15)


async def _reviewed(emu: Emulator, ix: SimInteraction, title: str) -> SimMessage:
    await emu.wait_until(lambda: ix.message is not None and title in ix.message.text,
                         timeout=REVIEW_SECONDS, what="the review")
    assert ix.message is not None
    return ix.message


async def test_replay_pages_forward_and_back_and_share_posts_the_page(played: SoloSession) -> None:
    emu, alice, result = played.emu, played.alice, played.result
    assert "Hand #1 of this server: `/ddz replay 1`" in result.text, result.text
    assert [b["label"] for b in result.buttons][-2:] == ["Replay", "Review my play"]

    ix = await finished(await alice.slash("ddz replay"), timeout=15)
    page = ix.message
    assert page is not None and page.ephemeral and page.visible_to is alice
    assert _page(page)[0] == 1 and "Replay of hand #1" in page.text
    (image,) = page.attachments
    assert image.is_png and image.description.startswith("Hand #1, page 1 of ")
    assert "Alice holds " in image.description and "kitty " in image.description
    total = _page(page)[1]
    assert total >= 4  # deal, bidding, at least one trick, result
    assert _button(page, "◀").get("disabled") and not _button(page, "▶").get("disabled")

    await _click(alice, page, "▶")
    assert _page(page) == (2, total) and "bids" in page.attachments[0].description
    await _click(alice, page, "▶")
    assert _page(page) == (3, total)
    assert re.search(r"trick 1: Alice plays|trick 1: Bot \d plays", page.attachments[0].description)
    await _click(alice, page, "◀")
    assert _page(page) == (2, total)

    public_before = len(emu.public_messages())
    share = await _click(alice, page, "Share")
    (shared,) = share.followups
    assert not shared.ephemeral and len(emu.public_messages()) == public_before + 1
    assert shared.content == f"Alice shares page 2/{total} of hand #1:"
    assert _page(page) == (2, total)  # the replay itself stays on its page
    assert shared.attachments[0].is_png and shared.components == []

    animation = await _click(alice, page, "Animation")
    (gif,) = animation.message.attachments  # type: ignore[union-attr]
    assert gif.data[:6] == b"GIF89a" and gif.size <= 2 * 1024 * 1024
    assert gif.description.startswith("Hand #1, every bid and play:")
    assert "1. " in gif.description
    assert emu.errors == [] and emu.late_interactions() == []


async def test_review_button_shows_progress_then_the_costliest_decisions(played: SoloSession) -> None:
    emu, alice, result = played.emu, played.alice, played.result
    ix = await alice.click(result, _button(result, "Review my play")["custom_id"])
    message = await _reviewed(emu, ix, "Review of hand #1: your decisions")
    assert message.ephemeral and message.visible_to is alice
    progress = [h["content"] for h in message.history if "Reviewing…" in (h.get("content") or "")]
    assert progress, message.history
    counts = [re.search(r"Reviewing… (\d+)/(\d+|…)", p) for p in progress]
    assert all(counts) and any(m[2] != "…" and int(m[2]) >= 2 for m in counts), progress
    text = message.text
    assert "Trick " in text, text  # "Bidding: …" too when Alice spoke before a 3 ended it
    assert "knowing only what you knew then" in text
    costly = re.findall(r"\*\*#(\d)\*\*", text)
    assert sorted(costly) == [str(n) for n in range(1, len(costly) + 1)]  # play order, #1..#k
    if costly:
        assert "to win" in text and "costliest decisions are framed in red" in text
    assert message.attachments[0].is_png
    labels = [b["label"] for b in message.buttons]
    assert labels == ["◀", "▶", "Share", "Animation"]  # review mode: no second Review button
    before = _page(message)
    if before[0] < before[1]:
        await _click(alice, message, "▶")
        assert _page(message)[0] == before[0] + 1 and "Review of hand #1" in message.text
        assert "Review of hand #1: your decisions" in message.text  # the summary stays

    bob = emu.member(name="bob")
    refused = await finished(await bob.click(result, _button(result, "Review my play")["custom_id"]))
    assert "You didn't play hand #1" in reply_text(refused), reply_text(refused)
    assert emu.errors == [] and emu.late_interactions() == []


async def test_spanish_replay_and_review(played: SoloSession) -> None:
    emu, alice = played.emu, played.alice
    carla = emu.member(name="carla", locale="es-ES")
    ix = await finished(await carla.slash("ddz repeticion", mano=1), timeout=15)
    page = ix.message
    assert page is not None and "Repetición de la mano n.º 1" in page.text, page.text
    assert page.attachments[0].description.startswith("Mano n.º 1, página 1 de ")
    await _click(carla, page, "▶")
    assert _page(page)[0] == 2
    assert [b["label"] for b in page.buttons][2:] == ["Compartir", "Animación", "Revisar mi juego"]
    not_hers = await finished(await carla.slash("ddz revisar", mano=1))
    assert "No jugaste la mano n.º 1" in reply_text(not_hers), reply_text(not_hers)
    missing = await finished(await carla.slash("ddz repeticion", mano=99))
    assert reply_text(missing) == "No hay ninguna mano n.º 99 terminada en este servidor."

    alice.locale = "es-ES"  # Alice switches her Discord to Spanish
    try:
        review = await alice.slash("ddz revisar")
        message = await _reviewed(emu, review, "Revisión de la mano n.º 1: tus decisiones")
        assert "Ronda " in message.text, message.text
        assert "Revisando…" in " ".join(h.get("content") or "" for h in message.history)
    finally:
        alice.locale = "en-US"
    assert emu.errors == [] and emu.late_interactions() == []


async def test_forged_replay_buttons_are_refused_politely(played: SoloSession) -> None:
    emu, alice = played.emu, played.alice
    ix = await finished(await alice.slash("ddz replay", hand=1), timeout=15)
    page = ix.message
    assert page is not None
    next_id = _button(page, "▶")["custom_id"]
    for forged, expected in ((next_id.replace(":1:0:", ":1:999:"), "out of date"),
                             (next_id.replace("ddz:rp:1:", "ddz:rp:7:"), "no finished hand #7")):
        page.components[0]["components"][1]["custom_id"] = forged
        answer = await finished(await alice.click(page, forged))
        assert expected in reply_text(answer).lower() or expected in reply_text(answer), (
            forged, reply_text(answer))
    assert emu.errors == [] and emu.late_interactions() == []


async def test_replay_and_review_buttons_work_after_a_restart(played: SoloSession) -> None:
    # Runs last in this module: kill -9, same database; old ephemeral buttons still work.
    emu, alice, result = played.emu, played.alice, played.result
    page = (await finished(await alice.slash("ddz replay", hand=1), timeout=15)).message
    assert page is not None
    review = await alice.click(result, _button(result, "Review my play")["custom_id"])
    reviewed = await _reviewed(emu, review, "Review of hand #1: your decisions")
    await played.bot.restart(timeout=30)

    await _click(alice, page, "▶")
    assert _page(page)[0] == 2 and page.attachments[0].is_png
    shown = _page(reviewed)
    step = "◀" if shown[0] > 1 else "▶"
    click = await alice.click(reviewed, _button(reviewed, step)["custom_id"])
    # the review cache died with the process: recomputed (seeded, same marks), then paged
    await emu.wait_until(lambda: re.search(rf"page (?!{shown[0]}/)\d+/", reviewed.text)
                         and bool(reviewed.attachments),
                         timeout=REVIEW_SECONDS, what="the review page after a restart")
    assert click.errors == [] and "Review of hand #1" in reviewed.text
    assert emu.errors == [] and emu.late_interactions() == []
