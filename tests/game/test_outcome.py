"""bot.game.outcome: the facts a settlement records (docs/RULES.md §Scoring)."""

import pytest

from bot.game.hand import Hand
from bot.game.outcome import outcome_of
from bot.game.seat import Seat, computer_seat
from bot.game.table import Table
from bot.rules import DEFAULT_RULES

# Seat 0 holds four bombs; the kitty gives it the rocket. Every other card is split
# between seats 1 and 2 (docs/RULES.md notation).
LANDLORD = "33334444555566667"
KITTY = "XD8"
REST = "7778889999TTTTJJJJQQQQKKKKAAAA2222"  # 34 cards = 2 × 17
PLAYS = ["3333", "4444", "5555", "6666", "XD", "7", "8"]


def finished_table() -> Table:
    hand = Hand.deal(DEFAULT_RULES, hands=[LANDLORD, REST[0::2], REST[1::2]], kitty=KITTY,
                     first_bidder=0)
    hand.bid(0, 3)
    for k, cards in enumerate(PLAYS):
        hand.play(0, cards)
        if k < len(PLAYS) - 1:
            hand.pass_turn(1)
            hand.pass_turn(2)
    seats = [Seat(user_id=11, name="Ana"), computer_seat(1, "easy"), computer_seat(2, "hard")]
    return Table(guild_id=1, channel_id=2, starter_id=11, phase="finished", hand=hand,
                 hand_no=1, seats=seats)


def test_bombs_and_the_rocket_count_for_the_seat_that_played_them_and_spring_for_the_winner():
    outcome = outcome_of(finished_table())
    assert outcome.winner == "landlord"
    ana, easy, hard = outcome.seats
    assert (ana.user_id, ana.role, ana.bombs, ana.won, ana.spring) == (11, "landlord", 5, True, True)
    # P = 3 × 2^(5 bombs + spring) = 192: landlord +2P, each peasant −P
    assert (ana.points, easy.points, hard.points) == (384, -192, -192)
    assert (easy.computer, easy.bombs, easy.spring, hard.computer) == ("easy", 0, False, "hard")


def test_a_hand_that_is_not_finished_has_no_outcome():
    table = finished_table()
    table.hand = Hand.deal(DEFAULT_RULES, seed=1)
    with pytest.raises(ValueError):
        outcome_of(table)
