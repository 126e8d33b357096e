"""Every example of docs/RULES.md §Combinations, §Several readings and §Beating a play."""

import pytest

from bot.rules import ComboKind, RuleSet, classify, parse_cards

K = ComboKind
DISTINCT = RuleSet(kickers="distinct")


def readings(text, rules=RuleSet()):
    """(kind value, length, body rank symbol) of every reading, as classify orders them."""
    return [(c.kind.value, c.length, c.rank.symbol) for c in classify(parse_cards(text), rules)]


def one(text, rules=RuleSet()):
    combos = classify(parse_cards(text), rules)
    assert len(combos) == 1, combos
    return combos[0]


@pytest.mark.parametrize(
    ("text", "kind", "length", "rank"),
    [
        ("A", "single", 1, "A"),
        ("88", "pair", 1, "8"),
        ("999", "trio", 1, "9"),
        ("9994", "trio_single", 1, "9"),
        ("99944", "trio_pair", 1, "9"),
        ("34567", "straight", 5, "7"),
        ("TJQKA", "straight", 5, "A"),
        ("334455", "pair_chain", 3, "5"),
        ("333444", "airplane", 2, "4"),
        ("333444 58", "airplane_singles", 2, "4"),
        ("333444 5588", "airplane_pairs", 2, "4"),
        ("6666 39", "four_two_singles", 1, "6"),
        ("6666 3399", "four_two_pairs", 1, "6"),
        ("7777", "bomb", 1, "7"),
        ("XD", "rocket", 1, "D"),
    ],
)
def test_rules_table_examples_classify_in_both_variants(text, kind, length, rank):
    for rules in (RuleSet(), DISTINCT):
        assert readings(text, rules) == [(kind, length, rank)]


def test_kind_values_are_exactly_the_rules_table_names():
    assert [k.value for k in ComboKind] == [
        "single", "pair", "trio", "trio_single", "trio_pair", "straight", "pair_chain",
        "airplane", "airplane_singles", "airplane_pairs", "four_two_singles",
        "four_two_pairs", "bomb", "rocket",
    ]


def test_four_of_a_kind_is_a_bomb_not_a_trio_with_a_kicker():
    assert readings("3333") == [("bomb", 1, "3")]


@pytest.mark.parametrize("text", ["33334", "33334444", "3333444 5", "3333 4445"])
def test_a_kicker_never_has_a_rank_of_the_body(text):
    assert readings(text) == []


@pytest.mark.parametrize("text", ["333XD", "333444XD", "6666XD", "333444555 7XD"])
def test_both_jokers_are_never_kickers_together(text):
    assert readings(text) == [] and readings(text, DISTINCT) == []


@pytest.mark.parametrize(
    ("text", "kind"),
    [("3332", "trio_single"), ("33322", "trio_pair"), ("333X", "trio_single"),
     ("333D", "trio_single"), ("333444 2X", "airplane_singles"), ("6666 2D", "four_two_singles"),
     ("6666 22AA", "four_two_pairs")],
)
def test_twos_and_one_joker_may_be_kickers(text, kind):
    assert [r[0] for r in readings(text)] == [kind]


def test_single_wings_may_repeat_ranks_by_default_but_not_in_the_distinct_variant():
    assert readings("333444 55") == [("airplane_singles", 2, "4")]
    assert readings("6666 99") == [("four_two_singles", 1, "6")]
    assert readings("333444 55", DISTINCT) == []
    assert readings("6666 99", DISTINCT) == []


def test_pair_kickers_must_have_distinct_ranks():
    assert readings("6666 7777") == []
    assert readings("333444 5555") == []
    assert readings("66667777", DISTINCT) == []


def test_single_and_pair_wings_never_mix():
    assert readings("333444 55 6") == []
    assert readings("333444555 66 78") == []


def test_four_with_two_is_not_a_bomb():
    combo = one("6666 39")
    assert not combo.is_bomb
    assert one("7777").is_bomb and one("XD").is_bomb


def test_airplane_of_four_trios_has_three_readings():
    assert readings("333444555666") == [
        ("airplane", 4, "6"), ("airplane_singles", 3, "6"), ("airplane_singles", 3, "5"),
    ]
    wings = {c.rank.symbol: "".join(str(k) for k in c.kickers)
             for c in classify(parse_cards("333444555666")) if c.kind is K.AIRPLANE_SINGLES}
    assert wings == {"6": "333", "5": "666"}
    assert readings("333444555666", DISTINCT) == [("airplane", 4, "6")]


def test_airplane_with_wings_has_two_bodies():
    assert readings("3334445556667778") == [
        ("airplane_singles", 4, "7"), ("airplane_singles", 4, "6"),
    ]
    kickers = ["".join(str(k) for k in c.kickers) for c in classify(parse_cards("3334445556667778"))]
    assert kickers == ["3338", "7778"]


def test_a_bomb_may_serve_as_four_single_wings():
    assert readings("333444555666 7777") == [("airplane_singles", 4, "6")]
    assert readings("333444555666 7777", DISTINCT) == []


def test_airplane_wings_may_contain_a_trio():
    assert readings("333444555 777") == [("airplane_singles", 3, "5")]


def test_readings_ignore_input_order():
    assert readings("8 7 7 7 6 6 6 5 5 5 4 4 4 3 3 3") == readings("3334445556667778")
    assert readings("DX") == readings("XD") == [("rocket", 1, "D")]


@pytest.mark.parametrize(
    "text", ["JQKA2", "QKA23", "A2345", "KKAA22", "KKKAAA222", "34567X", "2XD", "KA2XD"]
)
def test_chains_never_contain_two_or_jokers_and_never_wrap(text):
    assert [r for r in readings(text) if r[0] in ("straight", "pair_chain", "airplane")] == []


@pytest.mark.parametrize(
    ("text", "kind", "length"),
    [
        ("3456789TJQKA", "straight", 12),
        ("33445566778899TTJJQQ", "pair_chain", 10),
        ("333444555666777888", "airplane", 6),
        ("333444555666777 89TJQ", "airplane_singles", 5),
        ("333444555666 77889TTJ", None, 0),
        ("333444555666 7788TTJJ", "airplane_pairs", 4),
    ],
)
def test_longest_chains_that_fit_a_twenty_card_hand(text, kind, length):
    result = readings(text)
    if kind is None:
        assert [r for r in result if r[0] == "airplane_pairs"] == []
    else:
        assert (kind, length) in [(r[0], r[1]) for r in result]


@pytest.mark.parametrize("text", ["3456", "3344", "33", "", "3456789TJQKA2", "334"])
def test_short_or_broken_shapes_are_not_combinations(text):
    expected = [] if text not in ("33",) else [("pair", 1, "3")]
    assert readings(text) == expected


def test_classify_refuses_a_card_given_twice():
    card = parse_cards("3")[0]
    with pytest.raises(ValueError):
        classify([card, card])


def test_combo_parts_body_and_kickers():
    combo = one("333444 58")
    assert "".join(str(c) for c in combo.body) == "333444"
    assert "".join(str(c) for c in combo.kickers) == "58"
    assert combo.notation == "33344458"
    assert [r.symbol for r in combo.body_ranks] == ["3", "4"]
