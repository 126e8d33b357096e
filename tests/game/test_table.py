"""Tables: lobby, start, seq, deadlines, timeouts/autoplay, leaving, play again."""

import pytest

from bot.game import GameError, Table
from tests.support.deals import make_deal
from tests.support.game_tables import (
    ALICE,
    BOB,
    CAROL,
    DAVE,
    DEAL,
    HANDS,
    lobby,
    points_by_player,
    refused,
    started,
)


def test_open_seats_the_starter_and_the_computers():
    table = Table.open(10, 20, ALICE, "Alice", computers=2, level="hard")
    assert table.seats[0].user_id == ALICE
    assert [s.computer for s in table.seats] == [None, "hard", "hard"]
    assert table.phase == "lobby"
    assert len(table.id) == 8


def test_lobby_join_leave_and_seq_counts_every_accepted_action():
    table = Table.open(10, 20, ALICE, "Alice")
    assert table.seq == 0
    events = table.join(BOB, "Bob")
    assert events[0].kind == "joined" and events[0].seat == 1
    table.leave(BOB)
    table.join(BOB, "Bob")
    assert table.seq == 3
    assert table.seat_of(BOB) == 1


def test_lobby_refusals_change_nothing():
    table = lobby()
    refused(table, lambda t: t.join(BOB, "Bob"), "already_seated")
    with pytest.raises(GameError) as seated:
        table.join(BOB, "Bob")
    assert seated.value.params == {"table": table.id, "channel": table.channel_id}
    refused(table, lambda t: t.join(DAVE, "Dave"), "table_full")
    refused(table, lambda t: t.add_computer(ALICE), "table_full")
    refused(table, lambda t: t.leave(DAVE), "not_seated")
    refused(table, lambda t: t.start(DAVE, 0.0), "not_seated")
    refused(table, lambda t: t.join(DAVE, "Dave", seq=0), "stale")
    refused(table, lambda t: t.cancel(BOB), "not_starter")
    table.leave(CAROL)
    refused(table, lambda t: t.start(ALICE, 0.0), "not_enough_players")
    refused(table, lambda t: t.add_computer(ALICE, "expert"), "bad_level")


def test_any_seated_member_may_start_and_the_deadline_is_the_bid_timer():
    table = lobby()
    events = table.start(BOB, 100.0, seed=5, first_bidder=1)
    assert events[0].kind == "started"
    assert table.phase == "playing"
    assert table.hand_no == 1
    assert table.hand_id == f"{table.id}:1"
    assert table.turn_seat == 1
    assert table.deadline == 130.0


def test_a_whole_hand_through_the_table_reaches_finished_and_is_settleable():
    table = started()
    table.bid(ALICE, 1, 101.0)
    events = table.bid(BOB, 0, 102.0)
    assert [e.kind for e in events] == ["bid"]
    events = table.pass_turn(CAROL, 103.0)
    assert [e.kind for e in events] == ["bid", "landlord"]
    assert events[1].seat == 0 and events[1].params["base"] == 1
    assert table.deadline == 163.0
    table.play(ALICE, "3", 104.0)
    table.play(BOB, "2", 105.0)
    table.pass_turn(CAROL, 106.0)
    events = table.pass_turn(ALICE, 107.0)
    assert [e.kind for e in events] == ["pass", "cleared"]
    table.play(BOB, "56789TJQKA", 108.0)
    table.pass_turn(CAROL, 109.0)
    table.pass_turn(ALICE, 110.0)
    events = table.play(BOB, "666777", 111.0)
    assert events[-1].kind == "finished" and events[-1].params["winner"] == "peasants"
    assert table.phase == "finished" and table.settleable
    assert table.deadline is None
    assert points_by_player(table) == {ALICE: -4, BOB: 2, CAROL: 2}


def test_hand_refusals_through_the_table_change_nothing():
    table = started()
    refused(table, lambda t: t.bid(BOB, 1, 101.0), "not_your_turn")
    refused(table, lambda t: t.bid(DAVE, 1, 101.0), "not_seated")
    refused(table, lambda t: t.bid(ALICE, 1, 101.0, seq=table.seq - 1), "stale")
    refused(table, lambda t: t.play(ALICE, "3", 101.0), "wrong_phase")
    refused(table, lambda t: t.join(DAVE, "Dave"), "wrong_phase")
    refused(table, lambda t: t.add_computer(ALICE), "wrong_phase")


def test_all_pass_redeals_at_once_with_the_next_first_bidder():
    table = started()
    table.bid(ALICE, 0, 1.0)
    table.bid(BOB, 0, 2.0)
    events = table.bid(CAROL, 0, 3.0)
    assert events[-1].kind == "redeal"
    assert table.hand.phase == "bidding"
    assert table.hand.first_bidder == 1 and table.turn_seat == 1
    assert table.hand.redeals == 1
    assert table.deadline == 33.0


def test_two_timeouts_in_a_row_put_the_seat_on_autoplay_until_the_member_acts():
    table = started()
    events = table.auto_act(0, 131.0, timed_out=True)
    assert [e.kind for e in events] == ["timeout", "bid"]
    assert table.seats[0].timeouts == 1
    table.bid(BOB, 0, 132.0)
    table.auto_act(0, 163.0, timed_out=True)  # Carol times out once
    assert table.seats[2].timeouts == 1 and not table.seats[2].autoplay
    # redeal; Bob (seat 1) bids first; Bob acts, Carol times out again
    assert table.turn_seat == 1
    table.bid(BOB, 0, 164.0)
    events = table.auto_act(0, 200.0, timed_out=True)
    assert [e.kind for e in events][:2] == ["timeout", "autoplay_on"]
    assert table.seats[2].autoplay and table.computer_to_act is False
    table.bid(ALICE, 0, 201.0)  # redeal, Carol first
    assert table.computer_to_act
    table.set_autoplay(CAROL, True)
    events = table.bid(CAROL, 1, 202.0)
    assert events[0].kind == "autoplay_off"
    assert not table.seats[2].autoplay and table.seats[2].timeouts == 0


def test_leaving_during_a_hand_hands_the_seat_to_autoplay_and_coming_back_retakes_it():
    table = started()
    events = table.leave(BOB)
    assert events[0].params == {"during_hand": 1}
    seat = table.seats[1]
    assert seat.user_id == BOB and seat.autoplay and seat.away
    events = table.join(BOB, "Bob")
    assert events[0].kind == "rejoined"
    assert not table.seats[1].autoplay and not table.seats[1].away


def test_play_again_keeps_seats_and_frees_those_who_left():
    table = lobby()
    table.set_fill(ALICE, "wait")
    table.start(ALICE, 100.0, hands=HANDS, kitty=DEAL.kitty, first_bidder=0)
    table.stop_hand(ALICE)
    assert table.phase == "finished" and not table.settleable
    table.play_again(BOB, 0.0, seed=3)
    assert table.phase == "playing" and table.hand_no == 2
    table.leave(CAROL)
    table.stop_hand(BOB, is_admin=True)
    events = table.play_again(ALICE, 0.0)
    assert [e.kind for e in events] == ["released", "lobby"]
    assert table.phase == "lobby" and table.seats[2].is_empty


def test_stop_and_cancel_need_the_starter_or_an_admin():
    table = started()
    refused(table, lambda t: t.stop_hand(BOB), "not_starter")
    table.cancel(BOB, is_admin=True)
    assert table.phase == "closed" and table.deadline is None
    refused(table, lambda t: t.join(DAVE, "Dave"), "table_closed")


def test_the_starter_leaving_the_lobby_passes_the_role_and_the_last_leaver_closes():
    table = lobby()
    table.leave(ALICE)
    assert table.starter_id == BOB
    table.leave(BOB)
    events = table.leave(CAROL)
    assert events[-1].kind == "closed" and table.phase == "closed"


def test_auto_act_plays_a_combo_for_a_computer_seat():
    table = Table.open(10, 20, ALICE, "Alice", computers=2)
    table.start(ALICE, 0.0, hands=HANDS, kitty=DEAL.kitty, first_bidder=0)
    table.bid(ALICE, 3, 1.0)
    table.play(ALICE, "3", 2.0)
    assert table.computer_to_act
    combo = table.hand.legal_plays(1)[0]
    events = table.auto_act(combo, 3.0)
    assert events[0].kind == "play" and events[0].params["auto"] == 1
    assert table.hand.last_play.combo == combo
    assert table.hand.history[-1].auto


def test_computer_seats_are_left_out_of_the_players_points():
    spring = make_deal("3334445 6789TJQKA 2", kitty="622")
    table = Table.open(10, 20, ALICE, "Alice", computers=2)
    table.start(ALICE, 0.0, hands=spring.dealt, kitty=spring.kitty, first_bidder=0)
    table.bid(ALICE, 3, 1.0)
    for cards in ("6789TJQKA", "222"):
        table.play(ALICE, cards, 2.0)
        table.auto_act(None, 3.0)
        table.auto_act(None, 4.0)
    table.play(ALICE, "33344456", 5.0)
    assert table.hand.result.spring
    assert points_by_player(table) == {ALICE: 12}


def test_table_round_trips_through_json_in_every_phase():
    table = lobby()
    assert Table.model_validate_json(table.model_dump_json()) == table
    table = started()
    table.bid(ALICE, 2, 1.0)
    assert Table.model_validate_json(table.model_dump_json()) == table
