"""docs/RULES.md §Match: signed totals, the 30-point target, shared wins, reset."""

from bot.game.match import Match
from bot.rules import RuleSet

A, B, C = 101, 202, 303


def test_totals_are_signed_and_accumulate():
    match = Match()
    assert match.apply({A: 8, B: -4, C: -4}) == []
    assert match.apply({A: -2, B: 1, C: 1}) == []
    assert match.totals == {A: 6, B: -3, C: -3}
    assert match.hands == 2


def test_24_plus_8_reaches_the_target_and_wins():
    match = Match(totals={A: 24, B: -12, C: -12})
    assert match.apply({A: 8, B: -4, C: -4}) == [A]
    assert match.total(A) == 32


def test_both_peasants_reaching_the_target_share_the_win():
    match = Match(totals={A: -50, B: 26, C: 28})
    assert match.apply({A: -8, B: 4, C: 4}) == [C, B]


def test_settle_returns_the_result_and_starts_a_new_match_at_zero():
    match = Match(totals={A: 28, B: -14, C: -14}, hands=5)
    result = match.settle({A: 4, B: -2, C: -2})
    assert result.winners == (A,)
    assert result.totals == {A: 32, B: -16, C: -16}
    assert (result.number, result.hands) == (1, 6)
    assert match.totals == {} and match.hands == 0 and match.number == 2
    assert match.settle({A: 2, B: -1, C: -1}) is None


def test_target_comes_from_the_rules():
    match = Match.for_rules(RuleSet(target_points=10))
    assert match.apply({A: 12, B: -6, C: -6}) == [A]


def test_fixed_hand_count_variant_picks_the_highest_total_and_ties_share():
    match = Match.for_rules(RuleSet(match_hands=2))
    assert match.apply({A: 4, B: -2, C: -2}) == []
    assert match.apply({A: -4, B: 2, C: 2}) == [A, B, C]
    other = Match(hands_limit=1)
    assert other.apply({A: -2, B: 1, C: 1}) == [B, C]


def test_match_round_trips_through_json_with_int_keys():
    match = Match(totals={A: 3, B: -1, C: -2}, hands=2, number=4)
    assert Match.model_validate_json(match.model_dump_json()) == match
