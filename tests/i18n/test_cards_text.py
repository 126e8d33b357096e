"""``cards_text`` and ``t``: cards as a member reads them, the jokers named in the member's
language (docs/RULES.md §Notation), read back by ``parse_cards``."""

from __future__ import annotations

import pytest

from bot.i18n import cards_text, joker_words, t
from bot.rules import parse_cards, show_cards
from bot.rules.cards import ShownCards

WORDS = {"en": ("small joker", "big joker"), "es": ("comodín pequeño", "comodín grande"),
         "zh_CN": ("小王", "大王"), "zh_TW": ("小王", "大王")}


@pytest.mark.parametrize(("lang", "rocket", "kitty", "single"), [
    ("en", "small joker big joker", "2 small joker big joker", "10 10 JQ small joker"),
    ("es", "comodín pequeño comodín grande", "2 comodín pequeño comodín grande",
     "10 10 JQ comodín pequeño"),
    ("zh_CN", "小王 大王", "2 小王 大王", "10 10 JQ 小王"),
    ("zh_TW", "小王 大王", "2 小王 大王", "10 10 JQ 小王"),
])
def test_the_jokers_are_named_as_the_buttons_name_them(lang: str, rocket: str, kitty: str,
                                                       single: str) -> None:
    assert joker_words(lang) == WORDS[lang]
    assert cards_text("XD", lang) == rocket
    assert cards_text(parse_cards("2XD"), lang) == kitty
    assert cards_text("TTJQX", lang) == single
    assert t("card.small_joker", lang).lower() == WORDS[lang][0].lower()  # the button's word
    for text, cards in ((rocket, "XD"), (kitty, "2XD"), (single, "TTJQX")):
        assert parse_cards(text) == parse_cards(cards)  # what a member reads can be typed


def test_cards_without_jokers_are_as_show_cards_writes_them_in_every_language() -> None:
    for lang in WORDS:
        assert cards_text("333444 5T", lang) == "333444 5 10"
        assert cards_text(parse_cards("89TJQ"), lang) == "89 10 JQ"


@pytest.mark.parametrize(("locale", "expected"), [
    ("en-US", "You played small joker big joker."), ("es-ES", "Has jugado comodín pequeño."),
    ("zh-CN", "你出了 大王。"), ("zh-TW", "你出了 小王 大王。")])
def test_t_names_the_jokers_of_cards_it_fills_in(locale: str, expected: str) -> None:
    cards = {"en-US": "XD", "es-ES": "X", "zh-CN": "D", "zh-TW": "XD"}[locale]
    shown = show_cards(cards)
    assert isinstance(shown, ShownCards) and shown == cards  # the rules core stays notation
    assert t("ack.played", locale, cards=shown) == expected


def test_a_plain_string_is_never_rewritten() -> None:
    # a typed text, a name or a notation help keeps its letters: only show_cards' cards change
    assert t("ack.played", "zh-CN", cards="XD") == "你出了 XD。"
    assert t("table.shown_hand", "en", name="DX", cards=show_cards("3D")) == \
        "DX's hand, shown: 3 big joker"


@pytest.mark.parametrize(("lang", "expected"), [
    ("en", "Small joker does not beat big joker."), ("es", "Comodín pequeño no gana a comodín grande."),
    ("zh_CN", t("error.does_not_beat", "zh_CN", cards="小王", to_beat="大王"))])
def test_a_joker_that_opens_a_sentence_starts_with_a_capital(lang: str, expected: str) -> None:
    assert t("error.does_not_beat", lang, cards=show_cards("X"), to_beat=show_cards("D")) == expected
    assert t("error.does_not_beat", lang, cards=show_cards("3"), to_beat=show_cards("X")).startswith("3")
