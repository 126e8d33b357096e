"""The result text writes a loss with the minus sign the result image draws (U+2212).
Before: the text read "Bo: -6 → match total -6" (an ASCII hyphen) beside an image that
reads "−6". The members play a hand from their hand views (a pair picked in the card menu,
Play, two passes), auto-play finishes it, and everyone reads the result, in English and
Spanish. The web pages keep ``%+d`` (a number copied from a table into a spreadsheet)."""

from __future__ import annotations

import re

import pytest

from bot.rules import Card
from tests.support.fake_discord import FakeDiscord
from tests.support.fake_game import comp, deal_for, pick_id, three_members_ana_leads

READ = {"en-US": (r"{name}: −(\d+) → match total −(\d+)", r"{name} −(\d+), total −(\d+)"),
        "es-ES": (r"{name}: −(\d+) → total de la partida −(\d+)",
                  r"{name} −(\d+), total −(\d+)")}


@pytest.mark.parametrize("locale", sorted(READ))
async def test_a_peasants_loss_reads_with_the_images_minus_sign(fake: FakeDiscord,
                                                                  locale: str) -> None:
    line, alt_line = READ[locale]
    fake.deal = {"hands": deal_for("XD2222AAAAKKKKQQQ", "QJJ"), "kitty": "QJJ", "first_bidder": 0}
    ana, bo, cy = await three_members_ana_leads(fake, locale)
    view = (await ana.slash("hand")).last
    menu = next(c for row in view.components for c in row["components"] if c["type"] == 3)
    jacks = [o["value"] for o in menu["options"]
             if Card.from_index(int(o["value"])).rank.symbol == "J"]
    await ana.click(view, pick_id(view), jacks)
    await ana.click(fake.messages[view.id], comp(fake.messages[view.id], "hplay"))
    for member in (bo, cy):
        hand_view = (await member.slash("hand")).last
        await member.click(hand_view, comp(hand_view, "hpass"))
    for member in (ana, bo, cy):
        await member.slash("autoplay", mode="on")
    await fake.idle()
    result = fake.table_message()
    for name in ("Bo", "Cy"):  # the peasants lost: the text and the image's words say −N
        found = re.search(line.format(name=name), result.content)
        assert found is not None and found[1] == found[2] != "0", result.content
        alt = re.search(alt_line.format(name=name), result.alt_texts[0])
        assert alt is not None and alt[1] == found[1], result.alt_texts
    assert not re.search(r"(?<![\w-])-\d", result.content + result.alt_texts[0]), result.content
