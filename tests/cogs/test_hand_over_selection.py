"""Once the hand is over, a member's hand view keeps no selection (docs/RULES.md
§Controls).

Play-test (sandbox, English): Alice, a peasant, had ticked her 9 when the landlord went
out; her hand view then read "The hand is over." and still "Selected: 9 — single: 9",
with the 9 raised in the image and "Selected: 9" in its description, though nothing could
be played any more. Now the view drops the selection with the hand. Here Bo ticks a card
while Ana, the landlord, leads; Ana picks her whole hand in the card menu and plays it
(an airplane with pairs, a spring); Bo's open view is redrawn with the result, in
English, Spanish and zh-CN."""

from __future__ import annotations

import pytest

from bot.i18n import t
from bot.rules import Card
from tests.support.fake_discord import FakeDiscord, Message
from tests.support.fake_game import comp, deal_for, pick_id, three_members_ana_leads

HAND = "33344455566677889"
KITTY = "9TT"
"""Ana's 20 cards once she takes the kitty: trios 3 to 6 with the pairs 77 88 99 1010."""

LOCALES = {"en-US": "en", "es-ES": "es", "zh-CN": "zh_CN"}


def menu_options(view: Message) -> list[str]:
    menu = next(c for row in view.components for c in row["components"] if c["type"] == 3)
    return [option["value"] for option in menu["options"]]


def selection_prefix(lang: str) -> str:
    """"Selected: " in ``lang``, as the view's text and its image description write it."""
    return t("hand.selected", lang, cards="").rstrip()


@pytest.mark.parametrize("locale", sorted(LOCALES))
async def test_a_peasants_ticked_card_is_dropped_when_the_landlord_goes_out(
        fake: FakeDiscord, locale: str) -> None:
    lang = LOCALES[locale]
    fake.deal = {"hands": deal_for(HAND, KITTY), "kitty": KITTY, "first_bidder": 0}
    ana, bo, _ = await three_members_ana_leads(fake, locale)

    # Bo, waiting for the landlord's lead, ticks his lowest card
    bo_view = (await bo.slash("hand")).last
    low = menu_options(bo_view)[0]
    bo_view = (await bo.click(bo_view, pick_id(bo_view), [low])).last
    picked = Card.from_index(int(low))
    assert selection_prefix(lang) in bo_view.content, bo_view.content
    assert t("alt.selected", lang, selected="").rstrip() in bo_view.alt_texts[0]

    # Ana ticks all her 20 cards and plays them: the hand is over
    view = (await ana.slash("hand")).last
    values = menu_options(view)
    assert len(values) == 20
    view = (await ana.click(view, pick_id(view), values)).last
    await ana.click(view, comp(view, "hplay"))
    await fake.idle()
    table = fake.bot.service.table_in_channel(fake.channel_id)
    assert table is not None and table.phase == "finished"
    assert table.hand is not None and table.hand.result is not None

    # Bo's open view, redrawn with the result: no selection in the text nor in the image
    bo_view = fake.messages[bo_view.id]
    assert t("hand.over", lang) in bo_view.content, bo_view.content
    assert selection_prefix(lang) not in bo_view.content, bo_view.content
    assert t("alt.selected", lang, selected="").rstrip() not in bo_view.alt_texts[0], \
        bo_view.alt_texts
    assert picked.index in {c.index for c in table.hand.hand_of(1)}  # still in his hand
