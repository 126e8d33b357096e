"""Image descriptions write the cards one by one, for a screen reader (docs/RULES.md
§Notation). Before: the hand image's alt text read "Tu mano: 3455679 10 10 10 JQQQKAAA2
comodín grande." and a screen reader read "3455679" as three million four hundred…; now
"Tu mano: 3 4 5 5 6 7 9 10 10 10 J Q Q Q K A A A 2 comodín grande." The chat texts keep
the compact notation. The member opens the hand view, picks a straight in the card menu,
plays it, another passes from the view, and everyone reads the table's and the result's
alt texts, in English, Spanish and zh-CN; ``parse_cards`` reads every alt text back."""

from __future__ import annotations

import re

import pytest

from bot.game.table import Table
from bot.i18n import t
from bot.rules import Card, parse_cards
from cogs import texts
from tests.support.fake_discord import FakeDiscord, Message
from tests.support.fake_game import comp, deal_for, pick_id, three_members_ana_leads

HAND = "3455679TTTJQQQKAA"
KITTY = "A2D"
"""The hand of the report: 20 cards once the landlord takes the kitty."""

READ = {
    "en-US": {
        "hand": "Your hand: 3 4 5 5 6 7 9 10 10 10 J Q Q Q K A A A 2 big joker.",
        "selected": "Selected: 3 4 5 6 7",
        "chat_selected": "Selected: 34567",  # the chat text keeps the compact notation
        "played": "Ana (landlord), 15 cards, played 3 4 5 6 7",
        "left": "Cards left: ",
    },
    "es-ES": {
        "hand": "Tu mano: 3 4 5 5 6 7 9 10 10 10 J Q Q Q K A A A 2 comodín grande.",
        "selected": "Seleccionadas: 3 4 5 6 7",
        "chat_selected": "Seleccionadas: 34567",
        "played": "Ana (terrateniente), 15 cartas, jugó 3 4 5 6 7",
        "left": "Cartas restantes: ",
    },
    "zh-CN": {
        "hand": "你的手牌：3 4 5 5 6 7 9 10 10 10 J Q Q Q K A A A 2 大王。",
        "selected": "已选：3 4 5 6 7",
        "chat_selected": "已选：34567",
        "played": "出了 3 4 5 6 7",
        "left": "剩余手牌：",
    },
}

RUN_TOGETHER = re.compile(r"(?:[2-9JQKA]|10)(?:[2-9JQKA]|10)")
"""Two cards with no space between them ("55", "10J")."""


def menu_values(view: Message, ranks: str) -> list[str]:
    """The card menu's values of one card of each rank in ``ranks``."""
    menu = next(c for row in view.components for c in row["components"] if c["type"] == 3)
    wanted = {card.rank.index for card in parse_cards(ranks)}
    values: dict[int, str] = {}
    for option in menu["options"]:
        rank = Card.from_index(int(option["value"])).rank.index
        if rank in wanted and rank not in values:
            values[rank] = option["value"]
    assert set(values) == wanted, menu["options"]
    return list(values.values())


@pytest.mark.parametrize("locale", sorted(READ))
async def test_a_member_reads_the_cards_one_by_one_in_every_image_description(
        fake: FakeDiscord, locale: str) -> None:
    read = READ[locale]
    fake.deal = {"hands": deal_for(HAND, KITTY), "kitty": KITTY, "first_bidder": 0}
    ana, bo, cy = await three_members_ana_leads(fake, locale)
    view = (await ana.slash("hand")).last
    alt = view.alt_texts[0]
    assert alt.startswith(read["hand"]), alt
    cards = alt[len(read["hand"].split("3 4")[0]):].split(t("sep.sentence", locale))[0]
    assert sorted(parse_cards(cards)) == sorted(parse_cards(HAND + KITTY))  # read back
    view = (await ana.click(view, pick_id(view), menu_values(view, "34567"))).last
    assert read["selected"] in view.alt_texts[0], view.alt_texts
    assert read["chat_selected"] in view.content, view.content
    await ana.click(view, comp(view, "hplay"))
    board = fake.table_message()
    assert read["played"] in board.alt_texts[0], board.alt_texts
    bo_view = (await bo.slash("hand")).last
    await bo.click(bo_view, comp(bo_view, "hpass"))
    for member in (ana, bo, cy):
        assert (await member.slash("autoplay", mode="on")).last.ephemeral
    await fake.idle()
    result = fake.table_message()
    alt = result.alt_texts[0]
    assert read["left"] in alt, alt  # the result image's hands, in words too
    left = alt.split(read["left"])[1]
    assert not RUN_TOGETHER.search(left), left
    outs = {t("result.out", locale, name=name) for name in ("Ana", "Bo", "Cy")}
    for entry in left.split(t("sep.items", locale)):
        assert entry in outs or parse_cards(re.split("[:：] ?", entry, maxsplit=1)[1]), entry


LONG = ("Ana" * 11)[:32], ("Bo" * 16)[:32], ("Cy" * 16)[:32]
"""Display names as long as Discord allows (32 characters)."""


def lost_with_most_cards() -> Table:
    """The longest result description: three long names, the landlord lost holding 19
    cards (both jokers, four tens), the other peasant all 17 of theirs. Bo goes out with
    four bombs and an 8 after the landlord's lead of a 3."""
    landlord, bo = "3TTTTJJJJQQQQKKKAAXD", "44445555666677778"
    table = Table.open(1, 2, 11, LONG[0])
    table.join(22, LONG[1])
    table.join(33, LONG[2])
    table.start(11, 0.0, hands=[landlord[:17], bo, _rest(landlord + bo)], kitty=landlord[17:],
                first_bidder=0)
    table.bid(11, 3, 0.0)
    table.play(11, parse_cards("3"), 0.0)
    for bomb in ("4444", "5555", "6666", "7777"):
        table.play(22, parse_cards(bomb), 0.0)
        table.pass_turn(33, 0.0)
        table.pass_turn(11, 0.0)
    table.play(22, parse_cards("8"), 0.0)
    assert table.hand is not None and table.hand.result is not None
    assert table.hand.result.winner == "peasants"
    return table


def _rest(taken: str) -> str:
    """The deck's cards not in ``taken`` (docs/RULES.md notation)."""
    counts = {symbol: 4 for symbol in "3456789TJQKA2"} | {"X": 1, "D": 1}
    for symbol in taken:
        counts[symbol] -= 1
    return "".join(symbol * n for symbol, n in counts.items())


@pytest.mark.parametrize("lang", ["en", "es", "zh_CN", "zh_TW"])
def test_the_longest_result_description_fits_discords_limit_untrimmed(lang: str) -> None:
    table = lost_with_most_cards()
    alt = texts.result_alt(table, lang, None)
    big = t("card.big_joker", lang)
    assert len(alt) <= 1024 and alt.endswith("3 3 3 8 8 8 9 9 9 9 K A A 2 2 2 2"), alt  # whole
    assert (big[:1].lower() + big[1:]) in alt
    assert all(name in alt for name in LONG)
    left = alt.split(t("result.left", lang, cards=""))[1]
    assert not RUN_TOGETHER.search(left), left
    landlord = left.split(t("sep.items", lang))[0].split(LONG[0])[1].lstrip(":： ")
    assert len(parse_cards(landlord)) == 19, landlord
