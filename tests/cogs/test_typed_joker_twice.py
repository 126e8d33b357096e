"""Typed cards no deck holds are refused as not a valid selection (docs/RULES.md §Notation).

Play-test: a new player typed `XX` and read "You don't hold small joker small joker.", as if
a second small joker could be somewhere. A deck has one small joker and one big joker (and
four cards of each rank): the answer now says so, in the member's language, and nothing
changes; the member then plays the joker from the hand view."""

from __future__ import annotations

from typing import Any

import pytest

from bot.i18n import t
from bot.rules import show_cards
from tests.support.fake_discord import FakeDiscord, Member, Message
from tests.support.fake_game import comp, deal_for, three_members_ana_leads
from tests.support.forge import table_of

JOKER_TWICE = {
    "en-US": "That is not a valid selection: the deck has only one small joker and one big joker.",
    "es-ES": "Esa no es una selección válida: la baraja solo tiene un comodín pequeño y un comodín"
             " grande.",
    "zh-CN": "这不是有效的选牌：一副牌只有一张小王和一张大王。",
}
RANK_FIVE_TIMES = {
    "en-US": "That is not a valid selection: the deck has only four cards of each rank.",
    "es-ES": "Esa no es una selección válida: la baraja solo tiene cuatro cartas de cada valor.",
    "zh-CN": "这不是有效的选牌：一副牌每个点数只有四张。",
}
TYPED = {  # what members type for two small jokers, in their words too (docs/RULES.md §Notation)
    "en-US": ["XX", "DD", "xx", "X X", "small joker small joker", "jokers jokers", "XXD"],
    "es-ES": ["XX", "DD", "comodín pequeño comodín pequeño", "comodines comodines"],
    "zh-CN": ["XX", "DD", "小王小王", "大王 大王", "王炸王炸"],
}


def lang_of(locale: str) -> str:
    return "zh_CN" if locale == "zh-CN" else locale[:2]


def options(view: Message) -> list[dict[str, Any]]:
    return list(next(c for row in view.components for c in row.get("components", [])
                     if c.get("type") == 3)["options"])


async def refused(fake: FakeDiscord, member: Member, typed: str, answer: str) -> None:
    before = table_of(fake)
    reply = await member.slash("play", cards=typed)
    assert reply.last.ephemeral and reply.text == answer, (typed, reply.text)
    after = table_of(fake)
    assert after.seq == before.seq and after.hand == before.hand, typed  # nothing changed


@pytest.mark.parametrize("locale", sorted(JOKER_TWICE))
async def test_two_of_a_joker_typed_are_not_a_selection_and_the_joker_plays_from_the_view(
        fake: FakeDiscord, locale: str) -> None:
    lang = lang_of(locale)
    # Ana (the landlord) holds the small joker, Cy the big one (deal_for: the last card to seat 2)
    fake.deal = {"hands": deal_for("3334445556667778X", "999"), "kitty": "999", "first_bidder": 0}
    ana, bo, cy = await three_members_ana_leads(fake, locale)
    for typed in TYPED[locale]:
        await refused(fake, ana, typed, JOKER_TWICE[locale])
    await refused(fake, ana, "33333", RANK_FIVE_TIMES[locale])  # she holds three: the deck first
    assert (await ana.slash("play", cards="XXX")).text == JOKER_TWICE[locale]

    # then as a person plays: the small joker ticked in the card menu, Play
    view = (await ana.slash("hand")).last
    small = [o["value"] for o in options(view) if o["label"] == t("card.small_joker", lang)]
    assert len(small) == 1  # one small joker, one option
    view = (await ana.click(view, comp(view, "hcards"), small)).last
    reply = await ana.click(view, comp(view, "hplay"))
    assert t("hand.played", lang, cards=show_cards("X")) in reply.text, reply.text
    assert table_of(fake).hand.turn == 1

    mine = (await bo.slash("hand")).last
    reply = await bo.click(mine, comp(mine, "hpass"))
    assert t("hand.passed", lang) in reply.text, reply.text

    # Cy holds the big joker: "DD" is refused the same way, on his turn too; D plays it
    await refused(fake, cy, "DD", JOKER_TWICE[locale])
    reply = await cy.slash("play", cards="D")
    assert reply.text == t("ack.played", lang, cards=show_cards("D")), reply.text
    assert table_of(fake).hand.turn == 0
