"""What a player sees while bidding: hand-view buttons, table image model, plain status."""

from __future__ import annotations

import io
from typing import Any

from PIL import Image

from bot.rules import parse_cards
from cogs import texts
from cogs.hand_view import build_screen, render_screen
from cogs.items import ViewState
from rendering import render_hand
from rendering.hand import WIDTH as HAND_WIDTH
from rendering.hand import hand_height
from tests.support.fake_game import bidding_table


def components(screen: Any) -> list[list[dict[str, Any]]]:
    return [row["components"] for row in screen.view.to_components()]


def verbs(row: list[dict[str, Any]]) -> list[str]:
    return [c["custom_id"].split(":")[3].split(".")[0] for c in row]


def labels(rows: list[list[dict[str, Any]]]) -> list[str]:
    return [c.get("label", "") for row in rows for c in row]


def test_bidding_view_shows_bids_ranks_hint_sort_but_no_play_or_play_pass() -> None:
    table = bidding_table()
    rows = components(build_screen(table, 0, ViewState(), "en"))
    assert [c["label"] for c in rows[0]] == ["Pass", "Bid 1", "Bid 2", "Bid 3"]
    assert verbs(rows[-1]) == ["hhint", "hsort"]
    assert labels(rows).count("Pass") == 1 and "Play" not in labels(rows)
    assert verbs(rows[1])[:3] == ["hr0", "hr1", "hr2"]  # 3 4 5 ...
    assert len(rows) <= 5 and all(len(r) <= 5 for r in rows)


def test_bidding_view_offers_clear_once_cards_are_selected() -> None:
    table = bidding_table()
    threes = frozenset(c.index for c in parse_cards("333"))
    rows = components(build_screen(table, 0, ViewState(threes), "en"))
    assert verbs(rows[-1]) == ["hhint", "hclear", "hsort"]
    assert [c.get("disabled", False) for c in rows[-1]] == [False, False, False]


def test_playing_view_keeps_play_pass_hint_clear_sort() -> None:
    table = bidding_table()
    table.bid(11, 3, 0.0)
    rows = components(build_screen(table, 0, ViewState(), "en"))
    assert verbs(rows[-1]) == ["hplay", "hpass", "hhint", "hclear", "hsort"]
    assert [c["label"] for c in rows[-1]] == ["Play", "Pass", "Hint", "Clear", "Sort: rank"]


def test_table_image_model_shows_each_seats_bid_while_bidding() -> None:
    table = bidding_table()
    view = texts.table_view(table, "en")
    assert view.bidding and [s.bid for s in view.seats] == [None, None, None]
    assert [s.is_turn for s in view.seats] == [True, False, False]
    table.bid(11, 1, 0.0)
    table.auto_act(0, 0.0)  # Bot 2 passes
    view = texts.table_view(table, "en")
    assert [s.bid for s in view.seats] == [1, 0, None] and view.seats[2].is_turn
    alt = texts.table_alt(table, view, "en")
    assert alt.startswith(f"Bot 3 to bid. Table {table.id}: Ana, 17 cards, bid 1; Bot 2, 17 "
                          "cards, passed; Bot 3, 17 cards, no bid yet.")
    assert texts.table_alt(table, view, "es").startswith(
        f"Le toca apostar a Bot 3. Mesa {table.id}: Ana, 17 cartas, apostó 1; Bot 2, 17 "
        "cartas, pasó;")


def test_table_image_model_stops_bidding_once_there_is_a_landlord() -> None:
    table = bidding_table()
    table.bid(11, 3, 0.0)
    view = texts.table_view(table, "en")
    assert not view.bidding and view.seats[0].is_landlord and view.seats[0].bid == 3


def test_table_image_status_is_plain_text_in_both_phases_and_languages() -> None:
    table = bidding_table()
    en = texts.table_view(table, "en").status
    assert en == "Ana to bid"
    assert texts.table_view(table, "es-ES").status == "Le toca apostar a Ana"
    table.bid(11, 3, 0.0)
    statuses = [texts.table_view(table, lang).status for lang in ("en", "es")]
    assert statuses == ["Ana to play: lead any combination",
                        "Le toca a Ana: abre con cualquier combinación"]
    for status in [en, *statuses]:
        assert not any(mark in status for mark in ("`", "*", "<@", "<t:"))


async def test_hand_image_has_no_position_labels_and_shows_the_selection() -> None:
    table = bidding_table()
    threes = frozenset(c.index for c in parse_cards("333"))
    screen = await render_screen(build_screen(table, 0, ViewState(threes), "en"), "en")
    cards = table.hand.hand_of(0)
    assert screen.png == render_hand(cards, selected=threes, show_indices=False)
    assert screen.png != render_hand(cards, selected=threes, show_indices=True)
    assert Image.open(io.BytesIO(screen.png)).size == (HAND_WIDTH, hand_height(False))


def test_hand_text_says_no_bid_yet_instead_of_a_zero_bid() -> None:
    table = bidding_table()
    assert build_screen(table, 0, ViewState(), "en").content.splitlines()[1] == "Bidding: no bid yet."
    table.bid(11, 1, 0.0)
    lines = build_screen(table, 0, ViewState(), "es").content.splitlines()
    assert lines[1] == "Apuestas: la más alta hasta ahora es 1."
