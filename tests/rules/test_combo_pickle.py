"""A Combo crosses a worker process's pipe as its reading and card ids
(``Combo.__reduce__``), and comes back equal, with the same cards."""

from __future__ import annotations

import pickle

from bot.rules import DEFAULT_RULES, RuleSet, classify, legal_plays, parse_cards


def test_every_legal_play_of_a_hand_comes_back_equal_with_its_cards() -> None:
    hand = tuple(parse_cards("3334445556789TJQKK2XD"))
    plays = legal_plays(hand, None, DEFAULT_RULES)  # lazy: cards taken from the hand on read
    back = pickle.loads(pickle.dumps(plays, protocol=pickle.HIGHEST_PROTOCOL))
    assert back == plays
    assert [c.cards for c in back] == [c.cards for c in plays]
    assert [(c.kind, c.rank, c.length, c.ranks) for c in back] == \
        [(c.kind, c.rank, c.length, c.ranks) for c in plays]


def test_a_pickled_play_holds_its_own_cards_not_the_hand_behind_it() -> None:
    hand = tuple(parse_cards("3334445556789TJQKK2XD"))
    single = next(c for c in legal_plays(hand, None, DEFAULT_RULES) if c.notation == "3")
    assert len(pickle.dumps(single, protocol=pickle.HIGHEST_PROTOCOL)) < 120  # 413 bytes before
    (airplane,) = [c for c in classify(parse_cards("333444TJ"), DEFAULT_RULES)
                   if c.kind.value == "airplane_singles"]
    again = pickle.loads(pickle.dumps(airplane))
    assert again.reading == airplane.reading and again.cards == airplane.cards
    assert again.beats(classify(parse_cards("33"), DEFAULT_RULES)[0]) is False


def test_a_rule_set_comes_back_equal_and_one_object_per_value() -> None:
    rules = RuleSet(kickers="distinct", bidding="until_two_passes", target_points=12,
                    match_hands=4)
    back = pickle.loads(pickle.dumps(rules, protocol=pickle.HIGHEST_PROTOCOL))
    assert back == rules and back.model_dump() == rules.model_dump()
    assert pickle.loads(pickle.dumps(rules)) is back  # validated once per value
    assert pickle.loads(pickle.dumps(DEFAULT_RULES)) is DEFAULT_RULES  # the fast paths' object
