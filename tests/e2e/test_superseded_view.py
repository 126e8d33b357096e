"""A hand view replaced by a newer one says so against the real ``python -m bot``: its
text and turn timer go, its buttons stay and bring it up to date (docs/ARCHITECTURE.md
§The hand view).

Playtest: the first of two views read "Time runs out 8 minutes ago" until pressed; the
timer is a ``<t:…:R>`` timestamp the client keeps counting (Discord's message
formatting), so the bot edits what the old message holds."""

from __future__ import annotations

import asyncio

import pytest

from bot.i18n import t
from sandbox.loopback.emulator import Emulator, SimMessage
from tests.support.botproc import BotFactory
from tests.support.ddz_driver import (
    FAST_ENV,
    finished,
    open_view,
    press,
    public_actions,
    wait_public,
)
from tests.support.hand_player import Words, play_turns

WORDS = {"en-US": ("ddz start", {"computers": 2}, "ddz hand"),
         "es-ES": ("ddz empezar", {"ordenadores": 2}, "ddz mano")}


async def changed_to(view: SimMessage, text: str, timeout: float = 8.0) -> None:
    for _ in range(int(timeout / 0.05)):
        if view.content == text:
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"still {view.content!r}")


@pytest.mark.parametrize("locale", ["en-US", "es-ES"])
async def test_the_older_of_two_hand_views_says_it_was_replaced(
        emulator: Emulator, bot_factory: BotFactory, locale: str) -> None:
    emu = emulator
    await bot_factory(extra_env=FAST_ENV).start(timeout=30)
    ana = emu.member(name="ana", locale=locale)
    start, options, hand = WORDS[locale]
    await finished(await ana.slash(start, **options))
    lobby = await wait_public(emu, lambda m: "start" in public_actions(m), what="the lobby")
    await ana.click(lobby, public_actions(lobby)["start"]["custom_id"])
    deal = await wait_public(emu, lambda m: "hand" in public_actions(m), what="the deal")

    first = await open_view(ana, via_button=deal)  # My hand
    await press(ana, first, "sort")  # a click answers in the same message: still current
    assert first.buttons and first.attachments
    replaced = t("hand.superseded", locale[:2])
    assert first.content != replaced

    second = (await finished(await ana.slash(hand))).message  # a second view
    assert second is not None and second is not first and second.visible_to is ana
    await changed_to(first, replaced)
    assert first.buttons and first.attachments and "<t:" not in first.content

    await press(ana, second, "sort")  # the newer view plays on, and stays
    await asyncio.sleep(0.3)
    assert second.content != replaced and second.buttons and second.attachments
    assert first.content == replaced

    await press(ana, first, "sort")  # the old one's button brings it up to date
    assert first.content != replaced and first.buttons
    await changed_to(second, replaced)

    # and she plays the hand on from it as anyone does: bids, picks the cards of her plays
    # in the card menu, presses Play, and Pass at the first play she may pass on
    words = Words(locale[:2])
    actions: list[str] = []
    for _ in range(6):
        actions += await play_turns(emu, ana, first, words, until=lambda: False,
                                    pass_once="pass" not in actions, plays=1)
        if "pass" in actions:
            break
    assert actions.count("play") >= 1 and "pass" in actions, actions
    assert first.content != replaced and second.content == replaced
