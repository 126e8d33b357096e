"""Issue 26 §1-2: auto-play that lasts across deals, released seats, leaving frees you.

docs/RULES.md §Timers: auto-play a member chose stays on for the next deals; auto-play
from timeouts lasts into the next deal, and a seat that played a whole hand on it is
released at Play again (to a computer, or freed, as the lobby's ``fill`` says); a
member who left during a hand is free once it is over.
"""

from __future__ import annotations

import pytest

from bot.game import GameError, Table
from tests.support.game_tables import ALICE, BOB, CAROL, DAVE, lobby, points_by_player, refused


def _act(table: Table, absent: set[int], now: float) -> None:
    """One move of the seat to act: absent members and auto seats time out or are played
    by the computer (the first legal play / a pass); present members act themselves."""
    hand = table.hand
    assert hand is not None and hand.turn is not None
    index = hand.turn
    seat = table.seats[index]
    user = seat.user_id
    member_acts = user is not None and user not in absent and not seat.automatic
    if hand.phase == "bidding":
        if member_acts and user == ALICE and hand.winning_bid == 0:
            table.bid(ALICE, 1, now)
        elif member_acts:
            table.bid(user, 0, now)
        else:
            table.auto_act(0 if hand.winning_bid or index != 0 else 1, now,
                           timed_out=user is not None and not seat.autoplay)
        return
    plays = hand.legal_plays(index)
    lead = hand.to_beat_for(index) is None
    combo = plays[0] if plays and (lead or index == hand.landlord) else None
    if member_acts:
        if combo is None:
            table.pass_turn(user, now)
        else:
            table.play(user, combo, now)
    else:
        table.auto_act(combo, now, timed_out=user is not None and not seat.autoplay)


def play_out(table: Table, absent: set[int] = frozenset(), now: float = 100.0) -> Table:
    """Play the current hand to its result (absent members time out)."""
    for step in range(400):
        if table.phase != "playing":
            return table
        _act(table, set(absent), now + step)
    raise AssertionError("the hand did not end")


def dealt(fill: str = "computer") -> Table:
    table = lobby()
    if fill != "computer":
        table.set_fill(ALICE, fill)
    table.start(ALICE, 0.0, seed=7)
    return table


def test_chosen_auto_play_and_its_pace_last_across_deals():
    table = dealt()
    table.set_autoplay(BOB, True, 4.0)
    play_out(table)
    assert table.phase == "finished"
    table.play_again(ALICE, 200.0, seed=8)
    bob = table.seats[1]
    assert table.phase == "playing" and table.hand_no == 2
    assert (bob.user_id, bob.autoplay, bob.pace, bob.timeout_hand) == (BOB, True, 4.0, None)
    play_out(table)
    table.play_again(CAROL, 300.0, seed=9)
    assert table.seats[1].user_id == BOB and table.seats[1].autoplay  # still his, still on
    table.set_autoplay(BOB, False)
    assert not table.seats[1].autoplay


def test_timeout_auto_play_lasts_one_deal_then_the_seat_goes_to_a_computer():
    table = dealt()
    play_out(table, absent={CAROL})
    carol = table.seats[2]
    assert carol.autoplay and carol.timeout_hand == 1
    assert table.released_seats() == []  # auto-play began during hand 1: not a whole hand
    table.play_again(ALICE, 200.0, seed=8)
    assert table.seats[2].user_id == CAROL and table.seats[2].autoplay  # still absent
    play_out(table, absent={CAROL})
    assert table.released_seats() == [2]
    assert table.holds(CAROL)  # released at Play again, not before
    events = table.play_again(BOB, 300.0, seed=9)
    released = [e for e in events if e.kind == "released"]
    assert [(e.seat, e.params) for e in released] == [
        (2, {"user": CAROL, "name": "Carol", "reason": "timeouts", "fill": "computer"})]
    assert table.seats[2].computer == "normal" and table.seat_of(CAROL) is None
    assert table.phase == "playing" and table.hand_no == 3


def test_the_lobby_option_wait_frees_a_released_seat_for_someone_to_join():
    table = dealt("wait")
    table.leave(CAROL)  # left during hand 1
    play_out(table)
    events = table.play_again(ALICE, 200.0)
    assert [e.kind for e in events] == ["released", "lobby"]
    assert events[0].params["reason"] == "left" and events[0].params["fill"] == "wait"
    assert table.phase == "lobby" and table.seats[2].is_empty
    table.join(DAVE, "Dave")
    assert table.seat_of(DAVE) == 2


def test_only_the_starter_sets_the_fill_and_only_in_the_lobby():
    table = lobby()
    refused(table, lambda t: t.set_fill(BOB, "wait"), "not_starter")
    refused(table, lambda t: t.set_fill(ALICE, "nobody"), "bad_option")
    table.set_fill(BOB, "wait", is_admin=True)
    assert table.fill == "wait"
    table.start(ALICE, 0.0, seed=7)
    refused(table, lambda t: t.set_fill(ALICE, "computer"), "wrong_phase")
    assert Table.model_validate_json(table.model_dump_json()) == table


def test_acting_or_turning_auto_off_keeps_a_timed_out_seat():
    table = dealt()
    play_out(table, absent={CAROL})
    table.play_again(ALICE, 200.0, seed=8)
    table.set_autoplay(CAROL, False)  # she is back before the hand ends
    play_out(table, absent={CAROL})  # and times out again from here on
    assert table.seats[2].timeout_hand == 2 and table.released_seats() == []
    table.set_autoplay(CAROL, True)  # now her own choice: it lasts
    assert table.seats[2].timeout_hand is None
    table.play_again(ALICE, 300.0, seed=9)
    assert table.seats[2].user_id == CAROL


def test_the_member_who_presses_play_again_is_back_from_timeouts():
    table = dealt()
    play_out(table, absent={CAROL})
    events = table.play_again(CAROL, 200.0, seed=8)
    assert events[0].kind == "autoplay_off" and events[0].seat == 2
    assert not table.seats[2].autoplay and table.seats[2].timeout_hand is None


def test_a_member_who_left_is_free_once_the_hand_is_over():
    table = dealt()
    table.leave(BOB)
    assert table.holds(BOB)  # the hand still plays on for him
    play_out(table)
    assert table.phase == "finished" and points_by_player(table)[BOB] != 0
    assert not table.holds(BOB) and table.seat_of(BOB) == 1  # his name stays on the result
    with pytest.raises(GameError) as error:
        table.play_again(BOB, 200.0)
    assert error.value.code == "not_seated"
    table.play_again(ALICE, 200.0, seed=8)
    assert table.seats[1].computer == "normal" and table.seat_of(BOB) is None


def test_the_starter_released_passes_the_role_to_who_pressed():
    table = dealt()
    table.leave(ALICE)
    play_out(table)
    table.play_again(CAROL, 200.0, seed=8)
    assert table.starter_id == CAROL and table.seats[0].computer == "normal"
