"""A hand shown at the deal (明牌开始, docs/RULES.md §Happy rules) on the fake Discord, in
Spanish and Chinese: Ana presses Show hand in her view; Bo, in his own view, reads her
cards face up, and the board (text and the image's alt text) names them too, with the
Happy words (call the landlord, not "bid"). Issue 52: the shown hand was only a line of
text, and the board said "your turn to bid"."""

from __future__ import annotations

import pytest

from bot.rules import format_cards, parse_cards
from tests.support.fake_discord import FakeDiscord, Member
from tests.support.fake_game import deal_for

ANA = "45TTJQQKKKAA222XD"
WORDS = {  # Show hand ×4 button; Bo's line; the board's turn line; the image's status
    "es": ("Mostrar la mano (puntos ×4)", "Mano mostrada de Ana: ",
           "te toca cantar el terrateniente", "Le toca cantar el terrateniente a Ana"),
    "zh-CN": ("明牌（4倍）", "Ana 的明牌：", "轮到你叫地主了", "Ana 叫地主"),
}


def cards_after(prefix: str, text: str) -> str:
    assert prefix in text, (prefix, text)
    rest = text.split(prefix, 1)[1].splitlines()[0].rstrip("。.")
    return format_cards(sorted(parse_cards(rest)))


@pytest.mark.parametrize("locale", sorted(WORDS))
async def test_bo_reads_anas_shown_hand_in_his_view_and_on_the_board(
        fake: FakeDiscord, locale: str) -> None:
    show, shown, turn, status = WORDS[locale]
    ana = Member(fake, 11, "Ana", locale, locale, admin=True)
    bo = Member(fake, 22, "Bo", locale, locale)
    await ana.slash("config", language="es" if locale == "es" else "zh_CN")
    fake.deal = {"hands": deal_for(ANA, "AA2"), "kitty": "AA2", "first_bidder": 0}
    await ana.slash("start", rules="happy")
    await bo.click(fake.table_message(), fake.table_message().custom_ids()[0])  # Join
    await ana.click(fake.table_message(), fake.table_message().custom_ids()[2])  # a computer
    await ana.click(fake.table_message(), fake.table_message().custom_ids()[3])  # Start
    view = (await ana.slash("hand")).last
    assert show in view.buttons(), list(view.buttons())
    await ana.click(view, show)
    board = fake.table_message()
    assert cards_after(shown, board.content) == format_cards(sorted(parse_cards(ANA)))
    assert turn in board.content, board.content
    (alt,) = [a for a in board.alt_texts if status in a]
    assert cards_after(shown, alt) == format_cards(sorted(parse_cards(ANA))), alt
    mine = (await bo.slash("hand")).last
    assert cards_after(shown, mine.content) == format_cards(sorted(parse_cards(ANA)))
    assert shown not in view.content  # Ana's own view does not list her own hand
