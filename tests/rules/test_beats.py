"""docs/RULES.md §Beating a play."""

import pytest

from bot.rules import RuleSet, classify, parse_cards


def play(text, index=0):
    return classify(parse_cards(text), RuleSet())[index]


@pytest.mark.parametrize(
    ("follow", "lead", "beats"),
    [
        ("9998", "888A", True),
        ("45678", "34567", True),
        ("456789", "34567", False),
        ("TJQKA", "33344", False),
        ("AA", "K", False),
        ("K", "K", False),
        ("2", "A", True),
        ("X", "2", True),
        ("D", "X", True),
        ("X", "D", False),
        ("99", "88", True),
        ("88", "99", False),
        ("445566", "334455", True),
        ("44556677", "334455", False),
        ("444555 66", "333444 KK", True),
        ("444555 6677", "333444 55AA", True),
        ("444555 6677", "333444 58", False),
        ("7777 33", "6666 AA", True),
        ("7777 3344", "6666 AAKK", True),
        ("7777 34", "6666 3399", False),
    ],
)
def test_same_kind_same_count_higher_body_beats(follow, lead, beats):
    assert play(follow).beats(play(lead)) is beats


def test_comparison_is_by_the_body_never_by_the_wings():
    assert play("444555666 789").beats(play("333444555 777"))
    assert not play("333444555 AKQ").beats(play("333444555 789"))
    assert play("99922").beats(play("888AA"))
    assert not play("888AA").beats(play("99933"))


def test_a_bomb_beats_every_normal_combination():
    bomb = play("3333")
    for text in ["2", "22", "222", "2223", "AAA22", "3456789TJQKA", "6666 39", "6666 3399",
                 "333444555666777888"]:
        assert bomb.beats(play(text)), text
        assert not play(text).beats(bomb), text


def test_a_higher_bomb_beats_a_lower_one_and_equal_never_beats():
    assert play("4444").beats(play("3333"))
    assert not play("3333").beats(play("4444"))
    assert play("2222").beats(play("AAAA"))


def test_the_rocket_beats_everything_and_nothing_beats_it():
    rocket, reversed_rocket = play("XD"), play("DX")
    for text in ["2222", "3333", "2", "3456789TJQKA"]:
        assert rocket.beats(play(text))
        assert not play(text).beats(rocket)
    assert not rocket.beats(reversed_rocket)


def test_bombs_never_answer_a_rocket():
    for text in ["3333", "2222", "AAAA"]:
        assert not play(text).beats(play("DX"))
