"""The result message writes P = B × 2ᴺ as its image does (docs/RULES.md §Scoring).

Play-test: a new player read "P = 3 × 2^0 = 3" in the result message, where `^` reads like
code, above an image that said "P = 3 × 2⁰ = 3". Both now write the exponent in superscript
digits, in every language. ``/ddz rules`` wrote the general formula "P = bid × 2^N"
too; it now writes 2ᴺ, says what N counts and gives the result's own example."""

from __future__ import annotations

from typing import Any

import pytest

from bot.i18n import superscript, t
from cogs.texts import result_view
from rendering.result import formula
from tests.support.embeds import embed_text
from tests.support.fake_discord import FakeDiscord, Member, Message
from tests.support.fake_game import comp, deal_for, three_members_ana_leads
from tests.support.forge import table_of

LINE = {  # Ana's bomb 2222 from the menu, then auto-play's bombs, the rocket and a spring
    "en-US": "Bid 3 · doublings: bomb by Ana, bomb by Ana, bomb by Ana, bomb by Ana, rocket by Ana,"
             " spring · P = 3 × 2⁶ = 192",
    "es-ES": "Apuesta 3 · duplicaciones: bomba de Ana, bomba de Ana, bomba de Ana, bomba de Ana,"
             " cohete de Ana, primavera · P = 3 × 2⁶ = 192",
    "zh-CN": "叫3分 · 翻倍：Ana 的炸弹、Ana 的炸弹、Ana 的炸弹、Ana 的炸弹、Ana 的王炸、春天"
             " · P = 3 × 2⁶ = 192",
}

RULES = {  # the score part of /ddz rules, read before the hand
    "en-US": "**Score** P = bid × 2ᴺ, where N counts the doublings: one for each bomb or rocket"
             " played, one for a spring or an anti-spring (a bid of 3 and one bomb: P = 3 × 2¹"
             " = 6). Landlord wins: +2P, peasants −P each; otherwise the reverse.",
    "es-ES": "**Puntuación** P = apuesta × 2ᴺ, donde N cuenta las duplicaciones: una por cada"
             " bomba o cohete jugado, una por la primavera o la contraprimavera (apuesta 3 y una"
             " bomba: P = 3 × 2¹ = 6). Si gana el terrateniente: +2P y −P para cada campesino;"
             " si no, al revés.",
    "zh-CN": "**计分** P = 叫分 × 2ᴺ，N 是翻倍次数：每出一个炸弹或王炸、打出春天或反春，各算一次"
             "（叫3分、出了一个炸弹：P = 3 × 2¹ = 6）。地主赢：地主 +2P，两个农民各 −P；农民赢则反过来。",
}
"""Play-test: "**Score.** P = bid × 2^N; each bomb or rocket played … double it." """


def menu_options(view: Message) -> list[dict[str, Any]]:
    return list(next(c for row in view.components for c in row.get("components", [])
                     if c.get("type") == 3)["options"])


async def pick(member: Member, view: Message, rank: str) -> Message:
    """Tick every card of ``rank`` in the card menu (labels "2♠", "2♥"…)."""
    values = [o["value"] for o in menu_options(view) if o["label"].rstrip("♠♥♦♣") == rank]
    return (await member.click(view, comp(view, "hcards"), values)).last


@pytest.mark.parametrize("locale", sorted(LINE))
async def test_the_result_message_writes_the_power_as_its_image_does(
        fake: FakeDiscord, locale: str) -> None:
    fake.deal = {"hands": deal_for("XD2222AAAAKKKKQQQ", "QJJ"), "kitty": "QJJ", "first_bidder": 0}
    ana, bo, cy = await three_members_ana_leads(fake, locale)
    rules = embed_text((await ana.slash("rules")).last.embeds[0])
    assert RULES[locale] in rules.split("\n\n"), rules
    assert "^" not in rules, rules
    view = await pick(ana, (await ana.slash("hand")).last, "2")
    await ana.click(view, comp(view, "hplay"))  # the bomb 2222: one doubling
    for member in (bo, cy):
        mine = (await member.slash("hand")).last
        await member.click(mine, comp(mine, "hpass"))
    for member in (ana, bo, cy):
        await member.slash("autoplay", mode="on")
    await fake.idle()

    table = table_of(fake)
    assert table.hand is not None and table.hand.result is not None
    n, p = table.hand.result.doublings, table.hand.result.p
    assert n >= 1 and p == 3 * 2 ** n
    content = fake.table_message().content
    lang = locale.replace("-", "_") if locale == "zh-CN" else locale[:2]
    image = formula(result_view(table, lang, None), lang)
    assert image == f"P = 3 × 2{superscript(n)} = {p}"  # "P = 3 × 2¹ = 6"
    assert image in content and "^" not in content, content
    assert LINE[locale] in content.splitlines(), content
    assert t("result.points", lang, bid=3, n=superscript(n), p=p, doublings="").endswith(image)


def test_the_exponent_is_written_in_superscript_digits() -> None:
    assert [superscript(n) for n in (0, 1, 2, 10, 13)] == ["⁰", "¹", "²", "¹⁰", "¹³"]
