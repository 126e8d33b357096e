"""Any play in two interactions (issue 27 §1): the card menu, a multi-select of the cards
held, and the rank buttons' Take back. State stays in the custom_ids."""

from __future__ import annotations

import asyncio
import re
from typing import Any

import discord
import pytest

from bot.game.errors import GameError
from bot.game.hand import Hand
from bot.game.table import Table
from bot.rules import DEFAULT_RULES, parse_cards
from cogs.hand_view import add_rank, build_screen, choose_cards, take_back
from cogs.items import HAND_TEMPLATE, SELECT_TEMPLATE, ViewState, route_click
from tests.support.fake_game import HANDS, KITTY
from tests.support.ui_items import HandSelect, click, message_with

AIRPLANE = parse_cards("333444")  # a 20-card landlord's 333444 58: 9 clicks by rank buttons


def landlord_lead() -> Table:
    hand = Hand.deal(DEFAULT_RULES, hands=HANDS, kitty=KITTY, first_bidder=0)
    hand.bid(0, 3)
    return Table(guild_id=1, channel_id=2, starter_id=3, phase="playing", hand=hand, hand_no=1,
                 seq=5)


def components(table: Table, state: ViewState, lang: str = "en") -> list[dict[str, Any]]:
    screen = build_screen(table, 0, state, lang)
    assert screen.view is not None
    return [c for row in screen.view.to_components() for c in row["components"]]


def by_verb(items: list[dict[str, Any]], verb: str) -> dict[str, Any]:
    return next(c for c in items if c["custom_id"].split(":h", 1)[1].split(".")[0] == verb)


def test_the_card_menu_lists_each_of_the_20_cards_once_and_takes_them_all() -> None:
    table = landlord_lead()
    held = table.hand.hand_of(0)
    menu = by_verb(components(table, ViewState()), "cards")
    assert menu["type"] == 3 and (menu["min_values"], menu["max_values"]) == (0, 20)
    assert [o["value"] for o in menu["options"]] == [str(c.index) for c in held]
    labels = [o["label"] for o in menu["options"]]
    assert labels[:3] == ["3♠", "3♥", "3♦"] and "10♠" in labels
    assert labels[-2:] == ["2♥", "Big joker"] or labels[-1] == "Big joker"
    assert not any(o["default"] for o in menu["options"])


def test_ticked_cards_are_the_selection_and_the_menu_shows_them_ticked() -> None:
    table = landlord_lead()
    held = table.hand.hand_of(0)
    wings = [c for c in held if c.rank.symbol == "5"][:1] + [c for c in held if c.rank.symbol == "8"][:1]
    chosen = [c for c in held if c.rank.symbol in "34"][:6] + wings
    state = choose_cards(held, ViewState(), ",".join(str(c.index) for c in chosen))
    assert state.selected == frozenset(c.index for c in chosen)
    menu = by_verb(components(table, state), "cards")
    assert {o["value"] for o in menu["options"] if o["default"]} == {str(c.index) for c in chosen}
    assert "Selected: 33344458 (airplane with single wings: 333444 + 58)" in build_screen(
        table, 0, state, "en").content  # one interaction; Play is the second
    assert choose_cards(held, state, "") == ViewState()  # nothing ticked: nothing selected


@pytest.mark.parametrize("value,code", [
    ("99", "bad_option"), ("BO", "cards_not_in_hand"),  # 99: no card (issue 37); BO: Bo's
    ("1,1", "bad_option"), ("x", "bad_option"), ("-1", "bad_option"), ("１", "bad_option"),
    (",".join(str(i) for i in range(21)), "bad_option"), ("123", "bad_option")])
def test_a_forged_card_menu_value_is_refused_and_selects_nothing(value: str, code: str) -> None:
    table = landlord_lead()
    held = table.hand.hand_of(0)
    if value == "BO":
        value = str(table.hand.hand_of(1)[0].index)
        assert int(value) not in {c.index for c in held}
    with pytest.raises(GameError) as raised:
        choose_cards(held, ViewState(), value)
    assert raised.value.code == code


def test_take_back_removes_the_last_card_added_and_marks_no_other_button() -> None:
    # Issue 48: Take back turned on a mode that put a minus on every rank button, even
    # ranks with nothing selected. Now one click takes back the last card added.
    table = landlord_lead()
    held = table.hand.hand_of(0)
    state = ViewState()
    for rank in (0, 0, 1):  # 3, 3, then a 4
        state = add_rank(held, state, rank)
    assert state.added == (0, 0, 1)
    items = components(table, state)
    assert by_verb(items, "back")["label"] == "↩ Take back" and not by_verb(items, "back")["disabled"]
    state = take_back(held, state)  # the 4 goes, both 3s stay
    assert [c.rank.index for c in held if c.index in state.selected] == [0, 0]
    items = components(table, state)
    labels = [c.get("label") for c in items if c["type"] == 2]
    assert not any(str(label).startswith("−") for label in labels)
    assert by_verb(items, "r0")["label"] == "3 2/3" and not by_verb(items, "r1")["disabled"]
    state = take_back(held, take_back(held, state))
    assert state == ViewState()
    assert take_back(held, state) == state  # nothing selected: nothing to take back
    assert by_verb(components(table, state), "back")["disabled"]
    assert by_verb(components(table, state, "es"), "back")["label"] == "↩ Quitar la última"


def test_take_back_after_the_card_menu_takes_the_last_card_chosen_there() -> None:
    table = landlord_lead()
    held = table.hand.hand_of(0)
    fours = [c.index for c in held if c.rank.index == 1]
    state = add_rank(held, ViewState(), 0)  # a 3 by its button, then two 4s in the menu
    state = choose_cards(held, state, ",".join(str(i) for i in [*sorted(state.selected), *fours[:2]]))
    assert state.added == (0, 1, 1)
    state = take_back(held, state)
    assert state.added == (0, 1) and len(state.selected) == 2


def test_the_order_added_is_in_the_custom_id_and_ids_of_older_versions_still_parse() -> None:
    state = ViewState(frozenset(), "groups", 2).with_selected(frozenset({0, 4, 1}))
    assert state.added == (0, 0, 1) and state.encode().endswith(".g2")  # the cards' order
    state = ViewState(frozenset({0, 4, 1}), "groups", 2, (1, 0, 0))  # a 4, then two 3s
    custom_id = f"ddz:T1:9:hr0.{state.encode()}"
    match = re.fullmatch(HAND_TEMPLATE, custom_id)
    assert match is not None and custom_id.endswith(".g2m100")
    assert ViewState.decode(match["mask"], match["sort"], match["hint"], match["back"]) == state
    old = re.fullmatch(HAND_TEMPLATE, "ddz:T1:9:hr0.3.g2")
    assert ViewState.decode(old["mask"], old["sort"], old["hint"], old["back"]) == \
        ViewState(frozenset({0, 1}), "groups", 2, (0, 0))
    mode = re.fullmatch(HAND_TEMPLATE, "ddz:T1:9:hr0.3.g2m")  # Take back's mode, before
    assert ViewState.decode(mode["mask"], mode["sort"], mode["hint"], mode["back"]).added == (0, 0)
    forged = re.fullmatch(HAND_TEMPLATE, "ddz:T1:9:hr0.3.g2meee")  # ranks not selected
    assert ViewState.decode(forged["mask"], forged["sort"], forged["hint"],
                            forged["back"]).added == (0, 0)
    assert re.fullmatch(SELECT_TEMPLATE, "ddz:T1:9:hcards.3.r0")["verb"] == "cards"
    assert re.fullmatch(HAND_TEMPLATE, "ddz:T1:9:hcards.3.r0") is None


def test_a_card_menu_click_reaches_on_hand_click_with_every_value() -> None:
    state = ViewState(frozenset({0}))
    menu = HandSelect("T1", 9, state, [discord.SelectOption(label=str(i), value=str(i))
                                       for i in range(20)], verb="cards", min_values=0,
                      max_values=20)
    message = message_with(menu)
    calls: list[tuple[Any, ...]] = []

    class Cog:
        async def on_hand_click(self, *args: Any) -> None:
            calls.append(args[1:])

    for values, expected in ((["0", "5", "12"], "0,5,12"), ([], "")):
        asyncio.run(route_click(Cog(), click(message, menu.custom_id, 3, values)))  # type: ignore[arg-type]  # a stand-in cog
        assert calls.pop() == ("T1", 9, "cards", state, expected)


def test_the_jokers_rank_buttons_say_which_joker() -> None:
    # Issue 48: the rank buttons read "X" and "D", and nothing said which is the big one.
    hand = Hand.deal(DEFAULT_RULES, hands=["333444555666777XD", "888999TTTJJJQQQKK",
                                           "3456789TJQKKAAAA2"], kitty="222", first_bidder=0)
    hand.bid(0, 3)
    table = Table(guild_id=1, channel_id=2, starter_id=3, phase="playing", hand=hand, seq=5)
    held = hand.hand_of(0)
    state = ViewState().with_selected(frozenset({c.index for c in held if c.rank.index == 14}))
    labels = [c.get("label") for c in components(table, state)]
    assert "Small joker" in labels and "Big joker 1/1" in labels and "X" not in labels
    labels = [c.get("label") for c in components(table, ViewState(), "es")]
    assert "Comodín pequeño" in labels and "Comodín grande" in labels
