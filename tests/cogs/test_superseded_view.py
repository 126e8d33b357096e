"""A hand view another one replaced says so, and shows no turn timer.

Playtest: a member pressed My hand a second time; the first view, no longer kept current,
read "Time runs out 8 minutes ago" until pressed. The timer is a Discord relative
timestamp (``<t:…:R>``), which the member's client renders and keeps counting by itself
(Discord's message formatting: timestamp styles), so what the bot sends must change.
"""

from __future__ import annotations

import pytest

from bot.i18n import t
from tests.support.fake_discord import FakeDiscord, Message
from tests.support.fake_game import comp, seated_hand
from tests.support.forge import table_of


def timer(view: Message) -> bool:
    return "<t:" in view.content and ":R>" in view.content


@pytest.mark.parametrize("locale", ["en-US", "es-ES"])
async def test_a_view_replaced_by_my_hand_says_so_and_loses_its_timer(
        fake: FakeDiscord, locale: str) -> None:
    ana, bo, _ = await seated_hand(fake)
    ana.locale, lang = locale, locale[:2]
    replaced = t("hand.superseded", lang)
    first = (await ana.click(fake.table_message(), "My hand")).last
    assert timer(first) and first.components  # Ana bids first: her timer runs
    first = (await ana.click(first, comp(first, "hsort"))).last  # a click keeps it current
    await fake.idle()
    assert fake.messages[first.id].content != replaced

    second = (await ana.slash("hand")).last  # a second view
    await fake.idle()
    old = fake.messages[first.id]
    assert old.content == replaced and not timer(old), old.content
    assert old.components and old.attachments  # its buttons still work
    assert timer(second) and second.components and second.attachments

    # the new view plays on and is kept current; it is not marked replaced itself
    second = (await ana.click(second, comp(second, "hb1"))).last  # Ana bids 1
    await fake.idle()
    second = fake.messages[second.id]
    assert table_of(fake).hand.turn == 1 and second.content != replaced
    assert not timer(second) and "1" in second.content
    assert fake.messages[first.id].content == replaced  # left alone: not redrawn

    # a button of the old view brings it up to date, and the other one says it is old now
    back = (await ana.click(fake.messages[first.id],
                            comp(fake.messages[first.id], "hsort"))).last
    await fake.idle()
    assert back.id == first.id and fake.messages[first.id].content != replaced
    assert t("hand.waiting", lang, name="Bo") in fake.messages[first.id].content
    assert fake.messages[second.id].content == replaced
    assert table_of(fake).hand.turn == 1  # nothing played by the redraws
    del bo


async def test_the_replaced_view_reads_in_each_language() -> None:
    texts = {lang: t("hand.superseded", lang) for lang in ("en", "es", "zh_CN", "zh_TW")}
    assert texts["en"] == ("This view is out of date: a newer one is open below. Press a"
                           " button here to bring this one up to date, or **My hand** on the"
                           " table for a fresh one.")
    assert "**Mi mano**" in texts["es"] and "**我的手牌**" in texts["zh_CN"]
    assert "**我的手牌**" in texts["zh_TW"] and texts["zh_CN"] != texts["zh_TW"]
