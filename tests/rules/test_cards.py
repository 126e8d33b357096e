"""Cards and the docs/RULES.md notation (docs/RULES.md §Notation)."""

import pytest

from bot.rules import DECK, Card, CardParseError, Rank, Suit, format_cards, parse_cards


def test_rank_order_is_three_low_big_joker_high():
    order = [Rank.from_symbol(s) for s in "3456789TJQKA2XD"]
    assert order == sorted(order)
    assert Rank.ACE < Rank.TWO < Rank.BLACK_JOKER < Rank.RED_JOKER
    assert [r.symbol for r in Rank] == list("3456789TJQKA2XD")


def test_parse_accepts_ten_as_10_lower_case_spaces_and_commas():
    assert format_cards(parse_cards("10, j q,k a 2 x d 3")) == "3TJQKA2XD"
    assert format_cards(parse_cards("t10")) == "TT"


def test_parse_gives_distinct_cards_sorted_low_to_high():
    cards = parse_cards("D 3 3 X 3 3")
    assert [c.code for c in cards] == ["3s", "3h", "3d", "3c", "X", "D"]
    assert len(set(cards)) == 6


@pytest.mark.parametrize(
    ("text", "token"), [("3 4 Z", "Z"), ("1", "1"), ("33 B", "B"), ("11", "1"), ("*", "*")]
)
def test_parse_names_the_bad_token(text, token):
    with pytest.raises(CardParseError) as err:
        parse_cards(text)
    assert err.value.token == token
    assert repr(token) in str(err.value)
    assert isinstance(err.value, ValueError)


@pytest.mark.parametrize("text", ["33333", "XX", "DD"])
def test_parse_refuses_more_copies_than_a_deck_holds(text):
    with pytest.raises(CardParseError, match="more copies"):
        parse_cards(text)


def test_format_is_canonical_whatever_the_input_order():
    assert format_cards(parse_cards("D2A3X")) == "3A2XD"
    assert format_cards([]) == ""


def test_deck_has_54_distinct_singleton_cards():
    assert len(DECK) == 54 and len(set(DECK)) == 54
    assert Card.from_index(7) is DECK[7]
    assert Card(Rank.TEN, Suit.HEARTS) is Card.from_code("Th")
    assert Card(Rank.RED_JOKER).code == "D" and Card(Rank.RED_JOKER).suit is None
    assert sum(1 for c in DECK if c.rank is Rank.ACE) == 4


def test_card_codes_round_trip():
    assert all(Card.from_code(card.code) is card for card in DECK)
    with pytest.raises(CardParseError):
        Card.from_code("Zz")
