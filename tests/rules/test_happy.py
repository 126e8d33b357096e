"""The Happy rules' call-and-grab order and stakes: every example of docs/RULES.md
§Happy rules that the rules core decides alone."""

from __future__ import annotations

import pytest

from bot.rules.happy import Stake, auction, settle, show_factor, stake


def test_rules_example_call_grab_no_grab_grab_makes_the_caller_landlord_with_g_4() -> None:
    # Seats 0-1-2 from seat 0: call, grab (1), don't grab (2), grab (0).
    state = auction(0, [(0, True), (1, True), (2, False), (0, True)])
    assert (state.stage, state.landlord, state.grab_factor, state.turn) == ("done", 0, 4, None)


def test_the_caller_speaks_again_only_after_a_grab() -> None:
    assert auction(0, [(0, True), (1, True), (2, False)]).turn == 0
    nobody = auction(0, [(0, True), (1, False), (2, False)])
    assert (nobody.stage, nobody.landlord, nobody.grab_factor) == ("done", 0, 1)


def test_the_last_seat_that_grabbed_is_landlord() -> None:
    state = auction(1, [(1, True), (2, True), (0, True), (1, False)])
    assert (state.landlord, state.grab_factor) == (0, 4)


def test_three_grabs_at_most_give_g_8() -> None:
    state = auction(2, [(2, True), (0, True), (1, True), (2, True)])
    assert (state.stage, state.landlord, state.grabs, state.grab_factor) == ("done", 2, 3, 8)


def test_a_seat_that_said_dont_call_is_never_asked_to_grab() -> None:
    # Seat 0 declines, seat 1 calls: only seat 2 may grab, then seat 1 again.
    state = auction(0, [(0, False), (1, True)])
    assert (state.stage, state.turn, state.declined) == ("grab", 2, frozenset({0}))
    state = auction(0, [(0, False), (1, True), (2, True)])
    assert state.turn == 1
    state = auction(0, [(0, False), (1, True), (2, True), (1, False)])
    assert (state.stage, state.landlord, state.grab_factor) == ("done", 2, 2)
    with pytest.raises(ValueError):
        auction(0, [(0, False), (1, True), (0, True)])


def test_the_last_seat_to_call_becomes_landlord_at_once() -> None:
    state = auction(0, [(0, False), (1, False), (2, True)])
    assert (state.stage, state.landlord, state.grab_factor) == ("done", 2, 1)


def test_nobody_calls_redeal() -> None:
    state = auction(1, [(1, False), (2, False), (0, False)])
    assert (state.stage, state.turn, state.landlord) == ("redeal", None, None)


def test_a_decision_out_of_turn_or_after_the_end_is_refused() -> None:
    with pytest.raises(ValueError):
        auction(0, [(1, True)])
    with pytest.raises(ValueError):
        auction(0, [(0, True), (1, False), (2, False), (0, True)])


def test_show_factor_the_largest_applies_once() -> None:
    assert show_factor([]) == 1
    assert show_factor([2]) == 2
    assert show_factor([4, 4, 2]) == 4


def test_rules_example_settlement_peasants_win_with_different_doubles() -> None:
    # G = 2, S = 1, one bomb, f_L = 2, f_1 = 1, f_2 = 4, peasants win.
    first = stake(grab=2, show=1, doublings=1, landlord_double=2, double=1, cap=64)
    second = stake(grab=2, show=1, doublings=1, landlord_double=2, double=4, cap=64)
    assert (first.points, second.points) == (8, 32)
    assert settle(0, False, [None, first, second]) == (-40, 8, 32)


def test_the_cap_limits_each_stake_separately() -> None:
    # G = 4, S = 2, N = 2 (a bomb and an anti-spring), f_L = 2, f_1 = 1, f_2 = 4.
    first = stake(4, 2, 2, 2, 1, cap=64)
    second = stake(4, 2, 2, 2, 4, cap=64)
    assert (first.raw, first.points, first.capped) == (64, 64, False)
    assert (second.raw, second.points, second.capped) == (256, 64, True)
    assert settle(0, False, [None, first, second]) == (-128, 64, 64)
    assert stake(4, 2, 2, 2, 4, cap=32).points == 32
    assert stake(4, 2, 2, 2, 4, cap=128).points == 128
    assert stake(4, 2, 2, 2, 4, cap=None).points == 256


def test_landlord_wins_gains_the_sum_of_the_stakes() -> None:
    one, two = stake(1, 4, 0, 1, 2, cap=64), stake(1, 4, 0, 1, 1, cap=64)
    assert settle(1, True, [one, None, two]) == (-8, 12, -4)


def test_factors_the_rules_do_not_have_are_refused() -> None:
    for bad in ({"grab": 3}, {"show": 3}, {"double": 8}, {"landlord_double": 0}):
        values = {"grab": 1, "show": 1, "doublings": 0, "landlord_double": 1, "double": 1,
                  "cap": 64, **bad}
        with pytest.raises(ValueError):
            stake(**values)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        settle(0, True, [None, None, Stake(1, 1, 0, 1, 1, 1, 64, 1)])
