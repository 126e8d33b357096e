"""A member's hand view read and played by hand in the fake Discord's tests: cards ticked
in the card menu, Play pressed, the Hint's line and the selection the image names."""

from __future__ import annotations

from bot.i18n import t
from bot.rules import Card, format_cards, parse_cards
from tests.support.fake_discord import Member, Message
from tests.support.fake_game import comp


def card_values(view: Message, cards: str) -> list[str]:
    """The card menu's values for these ranks (docs/RULES.md notation)."""
    menu = next(c for row in view.components for c in row["components"] if c["type"] == 3)
    wanted = [card.rank.index for card in parse_cards(cards)]
    values = []
    for option in menu["options"]:
        rank = Card.from_index(int(option["value"])).rank.index
        if rank in wanted:
            wanted.remove(rank)
            values.append(option["value"])
    assert not wanted, (cards, menu["options"])
    return values


async def play_from_menu(member: Member, view: Message, cards: str) -> str:
    """``cards`` ticked in the card menu, then Play; the answer's text."""
    view = (await member.click(view, comp(view, "hcards"), card_values(view, cards))).last
    return (await member.click(view, comp(view, "hplay"))).text


def hint_line(view: Message) -> str:
    return next(line for line in view.content.splitlines() if line.startswith("💡"))


def selected(view: Message, lang: str) -> str:
    """The selection the image's description names, in the compact notation ("XD")."""
    mark = t("alt.selected", lang, selected="")
    return format_cards(parse_cards(view.alt_texts[0].split(mark)[-1]))
