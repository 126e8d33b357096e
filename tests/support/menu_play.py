"""A member's hand view read and played by hand in the fake Discord's tests: cards ticked
in the card menu, Play pressed, the Hint's line and the selection the image names."""

from __future__ import annotations

from bot.i18n import t
from bot.rules import Card, format_cards, parse_cards
from tests.support.fake_discord import FakeDiscord, Member, Message
from tests.support.fake_game import answered, comp


def option_values(options: list[dict[str, str]], cards: str) -> list[str]:
    """The values of a card menu's ``options`` (each a card index) for these ranks
    (docs/RULES.md notation), one option per card, lowest first as listed."""
    wanted = [card.rank.index for card in parse_cards(cards)]
    values = []
    for option in options:
        rank = Card.from_index(int(option["value"])).rank.index
        if rank in wanted:
            wanted.remove(rank)
            values.append(option["value"])
    assert not wanted, (cards, options)
    return values


def card_values(view: Message, cards: str) -> list[str]:
    """The card menu's values for these ranks (docs/RULES.md notation)."""
    menu = next(c for row in view.components for c in row["components"] if c["type"] == 3)
    return option_values(menu["options"], cards)


async def play_from_menu(member: Member, view: Message, cards: str) -> str:
    """``cards`` ticked in the card menu, then Play; the answer's text."""
    view = (await member.click(view, comp(view, "hcards"), card_values(view, cards))).last
    return (await member.click(view, comp(view, "hplay"))).text


async def first_hint(fake: FakeDiscord, member: Member, view: Message) -> str:
    """Hint pressed in ``view``: the Hint's line of its first answer (before any later
    edit with the search's pick)."""
    edits = view.edits
    fake.dispatch(member.click_payload(view, comp(view, "hhint")))
    await answered(fake, view, edits)
    return hint_line(fake.messages[view.id])


def hint_line(view: Message) -> str:
    return next(line for line in view.content.splitlines() if line.startswith("💡"))


def selected(view: Message, lang: str) -> str:
    """The selection the image's description names, in the compact notation ("XD")."""
    mark = t("alt.selected", lang, selected="")
    return format_cards(parse_cards(view.alt_texts[0].split(mark)[-1]))
