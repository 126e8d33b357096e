"""``cards_text`` and ``t``: cards as a member reads them, the jokers named in the member's
language (docs/RULES.md §Notation), read back by ``parse_cards``."""

from __future__ import annotations

import string

import pytest

from bot.i18n import cards_text, catalog, joker_words, t
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
    ("en-US", "You played the rocket."), ("es-ES", "Has jugado el comodín pequeño."),
    ("zh-CN", "你出了 大王。"), ("zh-TW", "你出了 王炸。")])
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
    ("en", "The small joker does not beat the big joker."),
    ("es", "El comodín pequeño no gana al comodín grande."),
    ("zh_CN", t("error.does_not_beat", "zh_CN", cards="小王", to_beat="大王"))])
def test_a_joker_that_opens_a_sentence_starts_with_a_capital(lang: str, expected: str) -> None:
    assert t("error.does_not_beat", lang, cards=show_cards("X"), to_beat=show_cards("D")) == expected
    assert t("error.does_not_beat", lang, cards=show_cards("3"), to_beat=show_cards("X")).startswith("3")


LONE = {  # a lone joker in a sentence takes its article; a label, several cards stay bare
    "en": ("You played the small joker.", "Ana played the big joker (single).",
           "**It's your turn:** beat the small joker (single) from Ana, or pass.",
           "Nothing in your hand beats the big joker: pass.", "You don't hold the big joker.",
           "Selected: small joker", "You played 2 small joker.",
           "Ana played the rocket (both jokers)."),
    "es": ("Has jugado el comodín pequeño.", "Ana jugó el comodín grande (carta suelta).",
           "**Te toca:** gana al comodín pequeño (carta suelta) de Ana, o pasa.",
           "Nada en tu mano gana al comodín grande: pasa.", "No tienes el comodín grande.",
           "Seleccionadas: comodín pequeño", "Has jugado 2 comodín pequeño.",
           "Ana jugó el cohete (los dos comodines)."),
    "zh_CN": ("你出了 小王。", "Ana 出了 大王（单张）。", "**轮到你了：**管上 Ana 的 小王（单张），或者不出。",
              "你手里没有能管上 大王 的牌：要不起。", "你手里没有 大王。", "已选：小王", "你出了 2 小王。",
              "Ana 出了 王炸（大小王）。"),
}


@pytest.mark.parametrize("lang", sorted(LONE))
def test_a_lone_joker_in_a_sentence_takes_its_article(lang: str) -> None:
    # Play-test: "You played small joker." / "Ana played small joker (single)."
    # Play-test: "Ana played small joker big joker (rocket)."; the rocket is named as one
    single, rocket = t("kind.single", lang), t("kind.rocket_jokers", lang)
    assert (t("hand.played", lang, cards=show_cards("X")),
            t("table.last_play", lang, name="Ana", cards=show_cards("D"), kind=single),
            t("hand.your_turn_beat", lang, cards=show_cards("X"), kind=single, name="Ana"),
            t("error.no_legal_play", lang, to_beat=show_cards("D")),
            t("error.cards_not_in_hand", lang, cards=show_cards("D")),
            t("hand.selected", lang, cards=show_cards("X")),
            t("hand.played", lang, cards=show_cards("2X")),
            t("table.last_play", lang, name="Ana", cards=show_cards("XD"), kind=rocket)) == LONE[lang]
    for joker in "XD":  # what a member reads can be typed back, the article included
        assert parse_cards(t(f"card.the_{'small' if joker == 'X' else 'big'}_joker", lang)) == \
            parse_cards(joker)
    assert parse_cards(t("card.the_rocket", lang)) == parse_cards("XD")


def test_a_place_for_the_article_keeps_plain_values_and_unfilled_placeholders() -> None:
    assert t("hand.played", "en", cards="X") == "You played X."  # a plain string: as given
    assert t("hand.played", "es", cards=show_cards("33")) == "Has jugado 33."
    assert t("hand.your_turn_beat", "en", kind="single") == \
        "**It's your turn:** beat {cards:the} (single) from {name}, or pass."  # never raises
    assert t("puzzle.alt_hand", "es", name="Ana", role="x", cards="—") == "Ana (x) tiene —"


def test_only_the_article_spec_is_used_and_only_where_cards_go() -> None:
    # a catalog text with another spec ({n:d}) would raise on a value of another type
    for lang in ("en", "es", "zh_CN", "zh_TW"):
        for key, text in catalog(lang).items():
            for _, name, spec, _ in string.Formatter().parse(text):
                assert spec in (None, "", "the"), (lang, key, spec)
                if spec == "the":
                    assert name in ("cards", "to_beat"), (lang, key, name)
        assert [t(k, lang) for k in ("card.the_small_joker", "card.the_big_joker")] == {
            "en": ["the small joker", "the big joker"],
            "es": ["el comodín pequeño", "el comodín grande"],
            "zh_CN": ["小王", "大王"], "zh_TW": ["小王", "大王"]}[lang]
