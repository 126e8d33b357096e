"""The Hint at a classic table answers only on the seat's turn (docs/RULES.md §Controls),
as at a Happy table: off while others are to act, on again when the turn comes, and a
forged or old Hint click off-turn is refused politely and changes nothing.

Playtest: Bo, waiting for Ana's lead, pressed Hint and was told what to play "to beat"
a play nobody had made yet."""

from __future__ import annotations

import copy

import pytest

from bot.i18n import t, tn
from tests.support.fake_discord import FakeDiscord, Message
from tests.support.fake_game import comp, seated_hand, three_members_ana_leads
from tests.support.forge import table_of


def placeholder(view: Message) -> str:
    return str(next(c for row in view.components for c in row.get("components", [])
                    if c.get("type") == 3).get("placeholder"))


def disabled(view: Message, verb: str) -> bool:
    wanted = comp(view, verb)
    return bool(next(c for row in view.components for c in row.get("components", [])
                     if c.get("custom_id") == wanted).get("disabled"))


@pytest.mark.parametrize("locale", ["en-US", "es-ES"])
async def test_the_hint_is_off_until_the_members_turn_and_refused_off_turn(
        fake: FakeDiscord, locale: str) -> None:
    lang = locale[:2]
    not_yours = t("hand.error", lang, message=t("error.not_your_turn", lang))
    ana, bo, cy = await three_members_ana_leads(fake, locale)

    # Bo waits for Ana's lead: Hint is off, and a forged click is refused, nothing changes
    view = (await bo.click(fake.table_message(), fake.table_message().custom_ids()[0])).last
    assert disabled(view, "hhint")
    # sandbox, zh-CN: the card menu said "0 legal plays" while Bo waited, counted against
    # a play he will not have to beat; off-turn it counts nothing
    assert placeholder(view) == t("select.cards_waiting", lang) == {
        "en": "Choose cards for your turn…", "es": "Elige cartas para tu turno…"}[lang]
    seq = table_of(fake).seq
    view = (await bo.click(view, comp(view, "hhint"))).last
    assert not_yours in view.content and "💡" not in view.content, view.content
    assert table_of(fake).seq == seq and table_of(fake).hand.turn == 0

    # Ana leads from her view: the card menu, then Play
    mine = (await ana.click(fake.table_message(), fake.table_message().custom_ids()[0])).last
    assert not disabled(mine, "hhint")  # her turn: on
    low = next(o["value"] for o in next(c for row in mine.components
                                        for c in row["components"]
                                        if c.get("type") == 3)["options"])
    mine = (await ana.click(mine, comp(mine, "hcards"), [low])).last
    await ana.click(mine, comp(mine, "hplay"))
    await fake.idle()

    # Bo's view is redrawn for his turn: Hint on, and it answers
    view = fake.messages[view.id]
    assert table_of(fake).hand.turn == 1
    assert not disabled(view, "hhint")
    count = len(table_of(fake).hand.legal_plays(1))
    assert placeholder(view) == tn("select.cards", count, lang, n=count)
    old = copy.deepcopy(view)
    view = (await bo.click(view, comp(view, "hhint"))).last
    await fake.idle()
    view = fake.messages[view.id]
    assert "💡" in view.content and not_yours not in view.content, view.content

    # Bo passes; the Hint of the view drawn on his turn, pressed now, says why it is off
    view = (await bo.click(view, comp(view, "hpass"))).last
    await fake.idle()
    assert table_of(fake).hand.turn == 2
    view = fake.messages[view.id]
    assert disabled(view, "hhint")
    seq = table_of(fake).seq
    answer = (await bo.click(old, comp(old, "hhint"))).last
    assert not_yours in answer.content and "💡" not in answer.content, answer.content
    assert table_of(fake).seq == seq and table_of(fake).hand.turn == 2
    del cy


@pytest.mark.parametrize("locale", ["en-US", "es-ES"])
async def test_the_bid_hint_is_off_while_another_seat_bids(fake: FakeDiscord,
                                                           locale: str) -> None:
    ana, bo, _ = await seated_hand(fake)
    bo.locale = ana.locale = locale
    lang = locale[:2]
    waiting = (await bo.click(fake.table_message(), "My hand")).last
    assert disabled(waiting, "hhint")  # Ana bids first
    asked = (await ana.click(fake.table_message(), "My hand")).last
    assert not disabled(asked, "hhint")
    asked = (await ana.click(asked, comp(asked, "hhint"))).last
    await fake.idle()
    assert "💡" in fake.messages[asked.id].content
    asked = fake.messages[asked.id]
    await ana.click(asked, comp(asked, "hb1"))  # Ana bids 1 from her view
    await fake.idle()
    waiting = fake.messages[waiting.id]
    assert table_of(fake).hand.turn == 1 and not disabled(waiting, "hhint")
    assert not any("💡" in line for line in waiting.content.splitlines()), waiting.content
    assert t("hand.your_turn_bid", lang) in waiting.content
