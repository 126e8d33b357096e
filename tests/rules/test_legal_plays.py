"""legal_plays: leading, following, bombs and the rocket (docs/RULES.md §Play, §Beating a play)."""

from bot.rules import ComboKind, RuleSet, classify, legal_plays, parse_cards

K = ComboKind


def plays(hand, lead=None, rules=RuleSet()):
    to_beat = classify(parse_cards(lead), rules)[0] if lead else None
    return sorted(f"{p.kind.value}:{p.notation}" for p in legal_plays(parse_cards(hand), to_beat, rules))


def test_following_a_single_offers_higher_singles_bombs_and_the_rocket():
    assert plays("3 5 9 9 9 9 X D", "8") == [
        "bomb:9999", "rocket:XD", "single:9", "single:D", "single:X",
    ]


def test_nothing_answers_the_rocket():
    assert plays("2222 X 3 4", "XD") == []


def test_only_higher_bombs_and_the_rocket_answer_a_bomb():
    assert plays("3333 5555 2 2 X D", "4444") == ["bomb:5555", "rocket:XD"]


def test_following_a_straight_needs_the_same_length():
    assert plays("4 5 6 7 8 9", "34567") == ["straight:45678", "straight:56789"]


def test_following_respects_the_declared_reading_of_an_airplane():
    table = classify(parse_cards("333444555666"))[1]  # airplane_singles body 4-6, wings 333
    assert (table.kind, table.length, table.rank.symbol) == (K.AIRPLANE_SINGLES, 3, "6")
    found = legal_plays(parse_cards("555666777888 9TJQ"), table)
    assert {(p.kind, p.length, p.rank.symbol) for p in found} == {
        (K.AIRPLANE_SINGLES, 3, "7"), (K.AIRPLANE_SINGLES, 3, "8"),
    }
    assert all(len(p.cards) == 12 and p.beats(table) for p in found)


def test_a_free_lead_lists_every_reading_of_the_same_cards():
    found = [p for p in legal_plays(parse_cards("333444555666"))
             if len(p.cards) == 12]
    assert sorted((p.kind.value, p.rank.symbol) for p in found) == [
        ("airplane", "6"), ("airplane_singles", "5"), ("airplane_singles", "6"),
    ]


def test_distinct_variant_drops_repeated_single_kickers():
    default = plays("666699", None)
    distinct = plays("666699", None, RuleSet(kickers="distinct"))
    assert "four_two_singles:666699" in default
    assert "four_two_singles:666699" not in distinct


def test_worst_case_hand_counts():
    hand = "333444555666789TJQKA"
    found = legal_plays(parse_cards(hand))
    kinds = {}
    for p in found:
        kinds[p.kind.value] = kinds.get(p.kind.value, 0) + 1
    assert kinds["single"] == 12 and kinds["pair"] == 4 and kinds["trio"] == 4
    assert kinds["straight"] == 36  # every run of length 5..12 in 3..A: 8+7+...+1
    assert kinds["airplane"] == 6  # 3-4, 4-5, 5-6, 3-5, 4-6, 3-6
    assert len(found) == len(set(found))
