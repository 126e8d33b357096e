"""Stale clicks: a button is refused only when something it acts on changed
(docs/RULES.md §Controls; ``Table.is_current``)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from bot.game import GameError, Table
from tests.support.game_tables import ALICE, BOB, CAROL, refused, started

NonMove = Callable[[Table], object]

NON_MOVES: dict[str, NonMove] = {
    "Carol turns auto-play on": lambda t: t.set_autoplay(CAROL, True),
    "Carol turns auto-play on at pace 7": lambda t: t.set_autoplay(CAROL, True, 7.0),
    "Carol turns auto-play on, then off": lambda t: (t.set_autoplay(CAROL, True),
                                                    t.set_autoplay(CAROL, False)),
    "Carol leaves (a computer takes her seat over)": lambda t: t.leave(CAROL),
    "Carol leaves and comes back": lambda t: (t.leave(CAROL), t.join(CAROL, "Carol")),
    "Alice herself turns auto-play on and off": lambda t: (t.set_autoplay(ALICE, True),
                                                          t.set_autoplay(ALICE, False)),
}


@pytest.mark.parametrize("name", list(NON_MOVES))
def test_a_bid_drawn_before_a_non_move_action_of_any_seat_still_applies(name: str) -> None:
    table = started()
    drawn = table.seq
    NON_MOVES[name](table)
    assert table.seq > drawn and table.move_seq <= drawn
    table.bid(ALICE, 3, 101.0, seq=drawn)
    assert table.hand is not None and table.hand.landlord == 0


@pytest.mark.parametrize("name", list(NON_MOVES))
def test_a_play_drawn_before_a_non_move_action_of_any_seat_still_applies(name: str) -> None:
    table = started()
    table.bid(ALICE, 3, 101.0)
    drawn = table.seq
    NON_MOVES[name](table)
    table.play(ALICE, "3", 102.0, seq=drawn)
    assert table.hand is not None and table.hand.history[-1].cards[0].rank.symbol == "3"
    assert table.hand.turn == 1


def test_a_pass_drawn_before_another_seats_auto_play_toggle_still_applies() -> None:
    table = started()
    table.bid(ALICE, 3, 101.0)
    table.play(ALICE, "3", 102.0)
    drawn = table.seq
    table.set_autoplay(ALICE, True)
    table.pass_turn(BOB, 103.0, seq=drawn)
    assert table.hand is not None and table.hand.history[-1].kind == "pass"


@pytest.mark.parametrize(
    "twice",
    [
        lambda t, seq: t.bid(ALICE, 1, 101.0, seq=seq),
        lambda t, seq: t.bid(ALICE, 0, 101.0, seq=seq),
        lambda t, seq: t.stop_hand(ALICE, seq=seq),
    ],
    ids=["bid 1", "bid pass", "stop"],
)
def test_a_double_click_on_a_move_applies_once(twice: Callable[[Table, int], object]) -> None:
    table = started()
    drawn = table.seq
    twice(table, drawn)
    refused(table, lambda t: twice(t, drawn), "stale")


def test_a_double_click_on_play_and_on_pass_applies_once() -> None:
    table = started()
    table.bid(ALICE, 3, 101.0)
    drawn = table.seq
    table.play(ALICE, "3", 102.0, seq=drawn)
    # Alice's own cards, the play to beat and the turn all changed: the copy is stale
    refused(table, lambda t: t.play(ALICE, "4", 103.0, seq=drawn), "stale")
    drawn = table.seq
    table.pass_turn(BOB, 104.0, seq=drawn)
    refused(table, lambda t: t.pass_turn(CAROL, 105.0, seq=drawn), "stale")
    assert table.hand is not None
    assert [a.kind for a in table.hand.history[-2:]] == ["play", "pass"]


def test_a_double_click_on_auto_play_on_changes_nothing_the_second_time() -> None:
    table = started()
    assert [e.kind for e in table.set_autoplay(BOB, True, 4.0)] == ["autoplay_on"]
    before, seq = table.model_dump_json(), table.seq
    assert table.set_autoplay(BOB, True) == []
    assert table.model_dump_json() == before and table.seq == seq
    assert table.seats[1].autoplay and table.seats[1].pace == 4.0
    assert [e.kind for e in table.set_autoplay(BOB, False)] == ["autoplay_off"]
    assert table.set_autoplay(BOB, False) == []


def test_a_move_makes_every_view_drawn_before_it_stale() -> None:
    table = started()
    drawn = table.seq
    table.bid(ALICE, 1, 101.0, seq=drawn)
    refused(table, lambda t: t.bid(BOB, 2, 102.0, seq=drawn), "stale")
    table.bid(BOB, 2, 102.0, seq=table.seq)


def test_a_seq_from_the_future_is_stale() -> None:
    table = started()
    refused(table, lambda t: t.bid(ALICE, 1, 101.0, seq=table.seq + 1), "stale")


def test_lobby_seat_changes_make_the_lobby_buttons_stale() -> None:
    table = Table.open(10, 20, ALICE, "Alice")
    drawn = table.seq
    table.join(BOB, "Bob")
    refused(table, lambda t: t.add_computer(ALICE, seq=drawn), "stale")


def test_a_pace_outside_1_to_10_seconds_is_refused() -> None:
    table = started()
    refused(table, lambda t: t.set_autoplay(BOB, True, 0.5), "bad_pace")
    refused(table, lambda t: t.set_autoplay(BOB, True, 11.0), "bad_pace")


def test_a_table_stored_before_move_seq_existed_loads_with_move_seq_equal_to_seq() -> None:
    table = started()
    table.bid(ALICE, 1, 101.0)
    data = table.model_dump(mode="json")
    del data["move_seq"]
    loaded = Table.model_validate(data)
    assert loaded.move_seq == loaded.seq == table.seq
    with pytest.raises(GameError):
        loaded.bid(BOB, 2, 102.0, seq=table.seq - 1)
