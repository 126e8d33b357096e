"""The copy ``TableService`` makes before every change (``Table.copy_for_change``), and
deep copies: immutable parts are shared (``bot.rules.Immutable``), everything a change
can touch is copied (docs/PERFORMANCE.md §Sharing)."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from pydantic import BaseModel

from bot.game import Table
from bot.game.models import HandResult
from bot.rules import DEFAULT_RULES, Immutable, classify, parse_cards
from tests.support.game_tables import ALICE, BOB, CAROL, started


def _mid_hand():
    table = started()
    table.bid(ALICE, 3, 101.0)
    table.play(ALICE, "3", 102.0)
    table.pass_turn(BOB, 103.0)
    table.pass_turn(CAROL, 104.0)
    return table


def test_a_deep_copy_shares_the_history_and_the_rules_but_not_the_holdings() -> None:
    table = _mid_hand()
    work = table.model_copy(deep=True)
    assert work == table
    assert work.hand is not None and table.hand is not None
    assert work.hand.history[1] is table.hand.history[1]
    assert work.hand.history[1].combo is table.hand.history[1].combo
    assert work.rules is table.rules and work.hand.rules is table.hand.rules
    assert work.hand is not table.hand
    assert work.hand.history is not table.hand.history
    assert work.hand.holdings is not table.hand.holdings
    assert work.hand.holdings[0] is not table.hand.holdings[0]
    assert work.seats[0] is not table.seats[0]


def test_a_change_to_the_copy_leaves_the_original_as_it_was() -> None:
    table = _mid_hand()
    before = table.model_dump_json()
    work = table.model_copy(deep=True)
    work.play(ALICE, "4", 105.0)
    work.set_autoplay(BOB, True)
    assert table.model_dump_json() == before
    assert work.hand is not None and table.hand is not None
    assert len(work.hand.history) == len(table.hand.history) + 1
    assert len(work.hand.holdings[0]) == len(table.hand.holdings[0]) - 1
    assert not table.seats[1].autoplay


def test_immutable_values_are_their_own_deep_copy() -> None:
    combo = classify(parse_cards("3334"), DEFAULT_RULES)[0]
    result = HandResult(winner="landlord", landlord=0, out_seat=0, base=3, doublings=1,
                        bombs=1, rockets=0, spring=False, anti_spring=False, points=(12, -6, -6))
    for value in (combo, result, DEFAULT_RULES):
        assert copy.deepcopy(value) is value
    assert copy.copy(combo) is combo


def _mutables(value: Any, path: str = "table") -> dict[str, Any]:
    """Every list and model reachable from ``value`` (not through an Immutable), by path."""
    found: dict[str, Any] = {}
    if isinstance(value, Immutable):
        return found
    if isinstance(value, BaseModel):
        found[path] = value
        for name in type(value).model_fields:
            found.update(_mutables(getattr(value, name), f"{path}.{name}"))
    elif isinstance(value, list | dict | set):
        found[path] = value
        items = value.items() if isinstance(value, dict) else enumerate(value)
        for key, item in items:
            found.update(_mutables(item, f"{path}[{key}]"))
    return found


COPIES = {"copy_for_change": Table.copy_for_change,
          "deep copy": lambda table: table.model_copy(deep=True)}


@pytest.mark.parametrize("how", list(COPIES))
def test_a_copy_is_equal_and_shares_no_list_or_model_with_the_original(how: str) -> None:
    for table in (started(), _mid_hand()):
        work = COPIES[how](table)
        assert work == table and work.model_dump_json() == table.model_dump_json()
        mine, theirs = _mutables(table), _mutables(work)
        assert mine.keys() == theirs.keys() and len(mine) > 10
        shared = [path for path in mine if mine[path] is theirs[path]]
        assert shared == []


def test_every_action_on_a_copy_for_change_leaves_the_original_as_it_was() -> None:
    table = _mid_hand()
    before = table.model_dump_json()
    work = table.copy_for_change()
    work.play(ALICE, "4", 105.0)
    work.pass_turn(BOB, 106.0)
    work.set_autoplay(CAROL, True)
    work.leave(BOB)
    assert table.model_dump_json() == before


def test_a_saved_play_is_serialized_once_and_reads_back_the_same() -> None:
    from bot.game import models
    from bot.rules import classify, parse_cards

    (combo,) = [c for c in classify(parse_cards("333444TJ")) if c.kind.value == "airplane_singles"]
    first = models._combo_to_json(combo)  # noqa: SLF001
    assert first == {"kind": "airplane_singles", "length": 2, "rank": "4",
                     "cards": ["3s", "3h", "3d", "4s", "4h", "4d", "Ts", "Js"]}
    assert models._combo_to_json(combo) is first  # noqa: SLF001  (made once)
    assert models.to_combo(first).cards == combo.cards
    (twin,) = [c for c in classify(parse_cards("333444TJ")) if c.kind.value == "airplane_singles"]
    assert twin is not combo and models._combo_to_json(twin) == first  # noqa: SLF001
