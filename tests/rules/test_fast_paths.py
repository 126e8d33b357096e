"""The engine's table-driven paths agree with brute force on hands chosen to reach them.

Each hand below is picked to hit one precomputed path of ``bot.rules.lookup``:
two-wing choices without repeats (jokers, pairs, the distinct variant), wings
from capped pools (3+ trios), trio kickers across rank segments, chains that
cross the 8/9 segment border, and the lazy card source.
"""

import pytest

from bot.rules import DECK, RuleSet, classify, legal_plays, parse_cards
from tests.support.rules_checks import key, sub_multisets

DEFAULT, DISTINCT = RuleSet(), RuleSet(kickers="distinct")

HANDS = [
    "333444 X D 5 5",  # airplane of two: single wings never both jokers; 55 as two wings
    "3333 X D 5 5 6",  # four with two singles beside the rocket
    "3333 4444 5 5",  # two quads: each other's cards as wings
    "333444555 6 X D",  # three trios: wings from a pool capped at 3 copies
    "888999TTT JJJ",  # airplane across the 8/9 segment border
    "8889 99 TT JJ Q",  # trios and pair chains across the border
    "222 X D 3 A A",  # trio of twos: kickers from all three segments
    "777 8888 99 X",  # quad next to a trio: wing ranks must leave the body out
]


def expected_leads(cards, rules):
    return {key(c) for sub in sub_multisets(cards) for c in classify(sub, rules)}


@pytest.mark.parametrize("rules", [DEFAULT, DISTINCT], ids=["default", "distinct"])
@pytest.mark.parametrize("hand", HANDS)
def test_leads_of_chosen_hands_equal_brute_force(hand, rules):
    cards = parse_cards(hand)
    plays = legal_plays(cards, None, rules)
    assert len({key(p) for p in plays}) == len(plays)
    assert {key(p) for p in plays} == expected_leads(cards, rules)


@pytest.mark.parametrize("rules", [DEFAULT, DISTINCT], ids=["default", "distinct"])
@pytest.mark.parametrize("hand", HANDS)
def test_answers_to_every_lead_of_another_hand_equal_brute_force(hand, rules):
    cards = parse_cards(hand)
    subs = list(sub_multisets(cards))
    table_hand = parse_cards("444555666 777 9 9 T J Q K 2 2")
    for to_beat in legal_plays(table_hand, None, rules):
        expected = {key(c) for sub in subs for c in classify(sub, rules) if c.beats(to_beat)}
        assert {key(p) for p in legal_plays(cards, to_beat, rules)} == expected, to_beat


def test_cards_come_from_the_hand_as_it_was_when_asked():
    hand = parse_cards("33 44 55 66 X D")
    plays = legal_plays(hand)
    hand.clear()  # the caller reuses its list; plays keep their own cards
    pair_chain = next(p for p in plays if p.kind.value == "pair_chain" and p.length == 4)
    assert [c.code for c in pair_chain.cards] == ["3s", "3h", "4s", "4h", "5s", "5h", "6s", "6h"]


def test_classify_takes_any_iterable_in_any_order_and_sorts_the_cards():
    cards = parse_cards("3 3 3 4")
    combos = classify(reversed(cards))
    assert len(combos) == 1
    assert combos[0].cards == tuple(cards)
    assert combos[0].notation == "3334"


def test_classify_refuses_a_repeated_card_among_many():
    cards = [*DECK[:19], DECK[7]]
    with pytest.raises(ValueError):
        classify(cards)
