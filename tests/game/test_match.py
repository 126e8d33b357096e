"""docs/RULES.md §Match: the 30-point target, shared wins, the fixed-hands variant."""

from bot.game.match import match_winners
from bot.rules import RuleSet

A, B, C = 101, 202, 303
TARGET_30 = RuleSet()


def test_nobody_below_the_target_wins_and_totals_are_signed():
    assert match_winners({A: 6, B: -3, C: -3}, 2, TARGET_30) is None


def test_24_plus_8_reaches_the_target_and_wins():
    assert match_winners({A: 32, B: -16, C: -16}, 5, TARGET_30) == [A]


def test_both_peasants_reaching_the_target_share_the_win():
    assert match_winners({A: -58, B: 30, C: 32}, 9, TARGET_30) == [C, B]


def test_target_comes_from_the_rules():
    assert match_winners({A: 12, B: -6, C: -6}, 1, RuleSet(target_points=10)) == [A]
    assert match_winners({A: 12, B: -6, C: -6}, 1, TARGET_30) is None


def test_fixed_hand_count_variant_picks_the_highest_total_and_ties_share():
    two_hands = RuleSet(match_hands=2)
    assert match_winners({A: 4, B: -2, C: -2}, 1, two_hands) is None
    assert match_winners({A: 0, B: 0, C: 0}, 2, two_hands) == [A, B, C]
    assert match_winners({A: -2, B: 1, C: 1}, 1, RuleSet(match_hands=1)) == [B, C]
    assert match_winners({A: 40, B: -20, C: -20}, 1, two_hands) is None  # the target is off


def test_a_lone_member_who_lost_to_the_computers_does_not_win_a_fixed_hand_match():
    # One member and two computers, a one-hand match: the member (landlord) lost 12.
    # Computers keep no total, so the member's -12 was the only total in the ledger
    # and used to be "the highest": the member was announced as the match winner.
    assert match_winners({A: -12}, 1, RuleSet(match_hands=1)) == []
    assert match_winners({A: -2, B: -4}, 3, RuleSet(match_hands=3)) == []  # both behind
    assert match_winners({A: 6}, 1, RuleSet(match_hands=1)) == [A]
