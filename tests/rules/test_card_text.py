"""Typed cards (issue 27 §5): full-width digits and letters (NFKC), invisible characters,
and the names players use for the jokers. docs/RULES.md §Notation."""

from __future__ import annotations

import pytest

from bot.rules import RANKS, CardParseError, format_cards, parse_ranks
from bot.rules.cards import is_invisible, is_pass_text, normalize_card_text


@pytest.mark.parametrize("typed,ranks", [
    ("４４", "44"), ("３３３４４", "33344"), ("１０ＪＱＫＡ", "TJQKA"), ("ｘｄ", "XD"),
    ("3\u200b3", "33"), ("\u20664\u2069 4\ufe0f", "44"), ("\ufeff5 5", "55"), ("7\u00ad7", "77"),
    ("small joker", "X"), ("Big Joker", "D"), ("black joker", "X"), ("red joker", "D"),
    ("comodín pequeño", "X"), ("Comodín grande", "D"), ("comodin rojo", "D"),
    ("jokers", "XD"), ("rocket", "XD"), ("comodines", "XD"), ("cohete", "XD"),
    ("333 small joker", "333X"), ("10 10 10", "TTT"), ("j q k", "JQK"),
])
def test_typed_cards_are_read_as_players_type_them(typed: str, ranks: str) -> None:
    assert format_cards(parse_ranks(typed)) == ranks


def test_a_bare_joker_is_the_joker_held_or_asks_which() -> None:
    assert format_cards(parse_ranks("333 joker", RANKS[14])) == "333D"
    assert format_cards(parse_ranks("comodín", RANKS[13])) == "X"
    with pytest.raises(CardParseError) as raised:
        parse_ranks("joker")
    assert (raised.value.token, raised.value.reason) == ("joker", "which joker")


@pytest.mark.parametrize("typed,token", [("3\u200bZ", "Z"), ("\u200b\u200d?", "?"), ("🂡", "🂡")])
def test_a_refusal_quotes_only_what_is_visible(typed: str, token: str) -> None:
    with pytest.raises(CardParseError) as raised:
        parse_ranks(typed)
    assert raised.value.token == token


def test_invisible_characters_are_dropped_and_visible_ones_kept() -> None:
    assert all(is_invisible(c) for c in "\u200b\u200c\u200d\u2060\ufeff\u200e\u202e\ufe0f\x07")
    assert not any(is_invisible(c) for c in "3 Tñ,\n")
    assert normalize_card_text("３\u200b３") == "33"


@pytest.mark.parametrize("typed,ranks", [
    ("大王", "D"), ("小王", "X"), ("王炸", "XD"), ("大王小王", "XD"), ("小鬼", "X"), ("大鬼", "D"),
    ("双王", "XD"), ("雙王", "XD"), ("對王", "XD"), ("火箭", "XD"), ("紅王", "D"),
    ("３３３小王", "333X"), ("３、３、３、４", "3334"), ("３，３", "33"), ("１０\u3000１０", "TT"),
    ("ＡＡ　大王", "AAD"), ("ｊｑｋ", "JQK"), ("３；４", "34"),
])
def test_chinese_typed_cards_are_read(typed: str, ranks: str) -> None:
    # docs/RULES.md §Notation: 大王 / 小王 / 王炸, full-width digits, letters and commas
    assert format_cards(parse_ranks(typed)) == ranks


def test_a_bare_chinese_joker_is_the_joker_held_or_asks_which() -> None:
    assert format_cards(parse_ranks("333王", RANKS[13])) == "333X"
    with pytest.raises(CardParseError) as raised:
        parse_ranks("王")
    assert raised.value.reason == "which joker"


def test_other_chinese_words_are_refused_by_their_first_character() -> None:
    with pytest.raises(CardParseError) as raised:
        parse_ranks("三带一")
    assert raised.value.token == "三"


@pytest.mark.parametrize("typed", ["不出", "不要", "过", "過", "要不起", "要不了", " 不出！", "不 出",
                                   "pass", "PASS", "ｐａｓｓ", "paso", "Pasar", "pasa."])
def test_the_words_for_passing_are_a_pass(typed: str) -> None:
    assert is_pass_text(typed)


@pytest.mark.parametrize("typed", ["33", "大王", "不", "出", "过过", "passe"])
def test_cards_and_other_words_are_not_a_pass(typed: str) -> None:
    assert not is_pass_text(typed)
