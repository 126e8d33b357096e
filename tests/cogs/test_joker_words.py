"""The jokers named in words in what a member reads (docs/RULES.md §Notation). Before: the
table line "Ana 出了 X（单张）" and the hand view "管上 Ana 的 X" while the card button said 小王.
A member in Chinese reads 小王/大王, one in English "small joker"/"big joker", one in Spanish
"comodín pequeño"/"comodín grande", as the
card buttons and the card menu name them; X/D stay the notation a member types.

Play-test: "You played small joker." / "Ana played small joker (single)." read without an
article; a lone joker in a sentence now takes one ("You played the small joker.", "Has
jugado el comodín pequeño.", "gana al comodín pequeño"), and so does the hand view's
selection, named as the table names a play ("Selected: the small joker (single)", was
"Selected: small joker — single: small joker"), while several cards ("Your hand: … big
joker") name them bare."""

from __future__ import annotations

import pytest

from bot.i18n import t
from tests.support.fake_discord import FakeDiscord
from tests.support.fake_game import comp, deal_for, three_members_ana_leads

READ = {
    "en-US": {
        "selected": "Selected: the small joker (single)",
        "played": "You played the small joker.",
        "table_small": "Ana played the small joker (single).",
        "to_beat": "**It's your turn:** beat the small joker (single) from Ana, or pass.",
        "alt": "Your hand: 4 6 8 8 10 10 J J Q Q K K A A 2 2 big joker.",
        "played_big": "You played the big joker.",
        "table_big": "Cy played the big joker (single).",
    },
    "zh-CN": {
        "selected": "已选：小王（单张）",
        "played": "你出了 小王。",
        "table_small": "Ana 出了 小王（单张）。",
        "to_beat": "**轮到你了：**管上 Ana 的 小王（单张），或者不出。",
        "alt": "你的手牌：4 6 8 8 10 10 J J Q Q K K A A 2 2 大王。",
        "played_big": "你出了 大王。",
        "table_big": "Cy 出了 大王（单张）。",
    },
    "es-ES": {
        "selected": "Seleccionadas: el comodín pequeño (carta suelta)",
        "played": "Has jugado el comodín pequeño.",
        "table_small": "Ana jugó el comodín pequeño (carta suelta).",
        "to_beat": "**Te toca:** gana al comodín pequeño (carta suelta) de Ana, o pasa.",
        "alt": "Tu mano: 4 6 8 8 10 10 J J Q Q K K A A 2 2 comodín grande.",
        "played_big": "Has jugado el comodín grande.",
        "table_big": "Cy jugó el comodín grande (carta suelta).",
    },
}


@pytest.mark.parametrize("locale", sorted(READ))
async def test_a_member_beats_a_joker_single_from_the_hand_view_and_reads_the_jokers_named(
        fake: FakeDiscord, locale: str) -> None:
    read = READ[locale]
    # Ana (the landlord) holds the small joker, Cy the big one (deal_for: the last card to seat 2)
    fake.deal = {"hands": deal_for("3334445556667778X", "999"), "kitty": "999", "first_bidder": 0}
    ana, bo, cy = await three_members_ana_leads(fake, locale)
    view = (await ana.slash("hand")).last
    assert t("card.small_joker", locale) in view.buttons()  # the card button's word…
    view = (await ana.click(view, comp(view, "hr13"))).last
    assert read["selected"] in view.content, view.content  # …is the texts' word
    reply = await ana.click(view, comp(view, "hplay"))
    assert read["played"] in reply.text, reply.text
    table = fake.table_message().content
    assert read["table_small"] in table and "X" not in table, table

    bo_view = (await bo.slash("hand")).last
    assert read["to_beat"] in bo_view.content, bo_view.content
    await bo.click(bo_view, comp(bo_view, "hpass"))

    cy_view = (await cy.slash("hand")).last
    assert read["to_beat"] in cy_view.content, cy_view.content
    assert cy_view.alt_texts[0].startswith(read["alt"]), cy_view.alt_texts
    cy_view = (await cy.click(cy_view, comp(cy_view, "hr14"))).last  # the big joker's button
    reply = await cy.click(cy_view, comp(cy_view, "hplay"))
    assert read["played_big"] in reply.text, reply.text
    table = fake.table_message().content
    assert read["table_big"] in table and "D（" not in table and "D (" not in table, table


async def test_typed_cards_keep_the_notation_and_the_answer_names_the_jokers(
        fake: FakeDiscord) -> None:
    fake.deal = {"hands": deal_for("3334445556667778X", "999"), "kitty": "999", "first_bidder": 0}
    ana, _, _ = await three_members_ana_leads(fake, "es-ES")
    reply = await ana.slash("play", cards="X")  # the notation is still typed (docs/RULES.md)
    assert reply.text == "Has jugado el comodín pequeño.", reply.text


ROCKET = {
    "en-US": ("Selected: the rocket (both jokers)", "You played the rocket.", "Ana played the rocket (both jokers).",
              "**It's your turn:** beat the rocket (both jokers) from Ana, or pass.",
              "On the table: the rocket (both jokers) from Ana.", "You passed."),
    "es-ES": ("Seleccionadas: el cohete (los dos comodines)", "Has jugado el cohete.", "Ana jugó el cohete (los dos comodines).",
              "**Te toca:** gana al cohete (los dos comodines) de Ana, o pasa.",
              "En la mesa: el cohete (los dos comodines) de Ana.", "Has pasado."),
    "zh-CN": ("已选：王炸（大小王）", "你出了 王炸。", "Ana 出了 王炸（大小王）。",
              "**轮到你了：**管上 Ana 的 王炸（大小王），或者不出。",
              "桌面上：Ana 出的 王炸（大小王）。", "你选择了不出。"),
}
"""Play-test: "Ana played small joker big joker (rocket)." The rocket is named as one play,
with the cards it is where the sentence names the kind; picked in the hand view, the
selection read "Selected: small joker big joker — rocket: small joker big joker"."""


@pytest.mark.parametrize("locale", sorted(ROCKET))
async def test_a_member_plays_the_rocket_from_the_card_menu_and_everyone_reads_the_rocket(
        fake: FakeDiscord, locale: str) -> None:
    selected, played, line, to_beat, waiting, passed = ROCKET[locale]
    fake.deal = {"hands": deal_for("333444555666777XD", "999"), "kitty": "999", "first_bidder": 0}
    ana, bo, cy = await three_members_ana_leads(fake, locale)
    view = (await ana.slash("hand")).last
    menu = next(c for row in view.components for c in row["components"] if c["type"] == 3)
    jokers = [o["value"] for o in menu["options"] if int(o["value"]) >= 52]  # Card.index
    assert len(jokers) == 2, menu["options"]
    view = (await ana.click(view, comp(view, "hcards"), jokers)).last
    assert selected in view.content.splitlines(), view.content
    reply = await ana.click(view, comp(view, "hplay"))
    assert played in reply.text, reply.text
    table = fake.table_message().content
    assert line in table and "(rocket)" not in table and "（王炸）" not in table, table
    cy_view = (await cy.slash("hand")).last
    assert waiting in cy_view.content, cy_view.content
    bo_view = (await bo.slash("hand")).last
    assert to_beat in bo_view.content, bo_view.content
    assert passed in (await bo.click(bo_view, comp(bo_view, "hpass"))).text
    cy_view = (await cy.slash("hand")).last
    assert to_beat in cy_view.content, cy_view.content
    assert passed in (await cy.click(cy_view, comp(cy_view, "hpass"))).text
    hand = fake.bot.service.table_in_channel(fake.channel_id).hand
    assert [a.kind for a in hand.history if a.kind != "bid"] == ["play", "pass", "pass"]
    assert hand.turn == 0  # the rocket won the trick: Ana leads again
