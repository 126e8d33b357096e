"""The table image says what to beat (issue 27 §2): the play to beat marked with who made
it, the turn marker kept when the turn comes back to a seat that played this round,
bombs and the rocket tagged, and the same in words in the status line and alt text."""

from __future__ import annotations

from dataclasses import replace

from bot.rules import parse_cards
from cogs import texts
from rendering import render_table
from rendering.compose import DANGER, GOLD
from rendering.table import HEADER_H, PAD, WIDTH
from tests.support.fake_game import bidding_table
from tests.support.pngs import colour_count, decode


def landlord_table():  # Ana (seat 0): 3334445566778899T + 2XD, Bot 2 and Bot 3 follow
    table = bidding_table()
    table.bid(11, 3, 0.0)
    return table


def test_the_play_to_beat_and_who_made_it_in_the_image_model_and_in_words() -> None:
    table = landlord_table()
    table.play(11, parse_cards("33344458"), 0.0)  # the input of the issue: 333444 58
    view = texts.table_view(table, "en")
    assert [s.to_beat for s in view.seats] == [True, False, False]
    assert view.status == "Bot 2 to play: beat 333444 58 or pass"
    assert texts.table_view(table, "es").status == "Le toca a Bot 2: supera 333444 58 o pasa"
    # the alt text writes the cards one by one, for a screen reader (docs/RULES.md §Notation)
    assert texts.table_alt(table, view, "en").startswith(
        "Bot 2 to play: beat 3 3 3 4 4 4 5 8 or pass. ")
    assert "Ana (landlord), 12 cards, played 3 3 3 4 4 4 5 8" in texts.table_alt(table, view, "en")


def test_the_turn_back_at_a_seat_that_played_keeps_its_marker_and_a_rocket_is_tagged() -> None:
    table = landlord_table()
    table.play(11, parse_cards("55"), 0.0)
    hand = table.hand
    jacks = [c for c in hand.hand_of(1) if c.rank.symbol == "J"]
    table.auto_act(hand.readings_for(1, jacks)[0], 0.0)  # Bot 2 answers JJ
    table.auto_act(None, 0.0)  # Bot 3 passes: the turn is back at Ana, her 55 still shown
    view = texts.table_view(table, "en")
    assert view.seats[0].is_turn and view.seats[0].last_action is not None
    assert [s.to_beat for s in view.seats] == [False, True, False]
    assert view.status == "Ana to play: beat JJ or pass"
    row = HEADER_H + 4
    name_row = (WIDTH // 3, row + 8, WIDTH - PAD, row + 40)
    marked = colour_count(decode(render_table(view)), name_row, GOLD, tol=20)
    before = colour_count(decode(render_table(replace(view, seats=(
        replace(view.seats[0], is_turn=False), *view.seats[1:])))), name_row, GOLD, tol=20)
    assert marked > before + 3000  # "▶ to play" beside the landlord badge
    table.play(11, parse_cards("XD"), 0.0)
    view = texts.table_view(table, "en")
    assert view.seats[0].last_tag == "rocket" and view.seats[0].to_beat
    assert view.status == "Bot 2 to play: beat the rocket or pass"
    assert "Ana played the rocket (both jokers)." in texts.public_text(table, "en")[0]
    tagged = colour_count(decode(render_table(view)), name_row, DANGER, tol=30)
    assert tagged > 500
