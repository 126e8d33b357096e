"""Every control of the hand view is there in every hand and phase, and every Discord
component limit holds (issue 27 §8): the views of many random positions are built and
checked. The input that showed it: a 20-card hand holding all 15 ranks had no Auto."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from bot.ai import choose_bid, choose_play
from bot.game.hand import Hand
from bot.game.selfplay import play_out
from bot.game.table import Table
from bot.rules import DEFAULT_RULES, classify, parse_cards
from cogs.hand_view import build_screen
from cogs.items import HAND_TEMPLATE, SELECT_TEMPLATE, ViewState

ALL_RANKS = "3456789TJQKA2XD" + "33344"  # 20 cards, all 15 ranks: Auto went missing


def verb_of(item: dict[str, Any]) -> str:
    return item["custom_id"].split(":h", 1)[1].split(".", 1)[0]


def check_limits(rows: list[dict[str, Any]], state: ViewState) -> None:
    """Discord's limits for a message's components, and our custom_id form."""
    assert 1 <= len(rows) <= 5
    ids = []
    for row in rows:
        items = row["components"]
        assert row["type"] == 1 and 1 <= len(items) <= 5
        if any(c["type"] == 3 for c in items):
            assert len(items) == 1, "a select menu fills its row"
        for item in items:
            custom_id = item["custom_id"]
            ids.append(custom_id)
            assert len(custom_id) <= 100
            match = re.fullmatch(SELECT_TEMPLATE if item["type"] == 3 else HAND_TEMPLATE, custom_id)
            assert match is not None, custom_id
            decoded = ViewState.decode(match["mask"], match["sort"], match["hint"], match["back"])
            assert decoded == state
            if item["type"] == 2:
                assert 1 <= len(item["label"]) <= 80
            else:
                options = item["options"]
                assert 1 <= len(options) <= 25 and len(item["placeholder"]) <= 150
                assert 0 <= item["min_values"] <= item["max_values"] <= len(options)
                assert all(1 <= len(o["label"]) <= 100 and 1 <= len(o["value"]) <= 100
                           for o in options)
                assert len({o["value"] for o in options}) == len(options)
                assert sum(o["default"] for o in options) <= item["max_values"]
    assert len(ids) == len(set(ids)) <= 25


def check_controls(table: Table, seat: int, state: ViewState, rows: list[dict[str, Any]],
                   readings: bool) -> None:
    """Each control a player needs in this phase is reachable; every card can be chosen."""
    hand = table.hand
    items = [c for row in rows for c in row["components"]]
    verbs = {verb_of(c) for c in items}
    held = hand.hand_of(seat)
    auto = "a0" if table.seats[seat].autoplay else "a1"
    assert {"hint", "sort", "back", auto} <= verbs, verbs
    ranks = {int(v[1:]) for v in verbs if re.fullmatch(r"r\d+", v)}
    assert {c.rank_index for c in held if c.rank_index < 13} <= ranks
    if hand.phase == "bidding":
        assert {"b0", "b1", "b2", "b3"} <= verbs
        assert ("clear" in verbs) == bool(state.selected)
        return
    assert {"play", "pass", "clear"} <= verbs
    if readings:
        assert "rd0" in verbs
        return
    menu = next(c for c in items if verb_of(c) == "cards")
    assert sorted(int(o["value"]) for o in menu["options"]) == sorted(c.index for c in held)
    assert menu["max_values"] == len(held)
    ticked = {int(o["value"]) for o in menu["options"] if o["default"]}
    assert ticked == state.selected


def positions(deals: int) -> list[Hand]:
    rng = random.Random(27)
    out: list[Hand] = []
    for _ in range(deals):
        seen: list[Hand] = []
        play_out(Hand.deal(seed=rng.randrange(2**31)), lambda o: choose_bid(o, "normal").action,
                 lambda o: choose_play(o, "normal").action,
                 before_action=lambda hand, seen=seen: seen.append(hand.model_copy(deep=True)))
        out.extend(seen[::3])
    return out


@pytest.mark.parametrize("lang", ["en", "es"])
def test_every_control_and_limit_over_many_random_positions(lang: str) -> None:
    rng = random.Random(lang)
    checked = 0
    for hand in positions(12):
        table = Table(guild_id=1, channel_id=2, starter_id=3).model_copy(
            update={"hand": hand, "phase": "playing", "seq": rng.randrange(10**6),
                    "id": "".join(rng.choice("abcdef0123456789") for _ in range(16))})
        for seat in range(3):
            held = hand.hand_of(seat)
            if not held:
                continue
            table.seats[seat].autoplay = rng.random() < 0.3
            picked = frozenset(c.index for c in held if rng.random() < 0.4)
            state = ViewState(frozenset(), rng.choice(["rank", "groups"]),
                              rng.randrange(1000)).with_selected(picked)
            found = classify(sorted(c for c in held if c.index in picked), table.rules) \
                if picked and hand.phase == "playing" else []
            readings = found if len(found) > 1 and rng.random() < 0.5 else None
            screen = build_screen(table, seat, state, lang, readings=readings)
            assert screen.view is not None
            rows = screen.view.to_components()
            check_limits(rows, state)
            check_controls(table, seat, state, rows, bool(readings))
            checked += 1
    assert checked > 300


def test_a_hand_with_all_15_ranks_keeps_auto_take_back_and_every_card() -> None:
    others = [c for c in parse_cards("3456789TJQKA2" * 4 + "XD") if c not in parse_cards(ALL_RANKS)]
    hands = ["".join(str(c) for c in others[:17]), "".join(str(c) for c in others[17:34])]
    hand = Hand.deal(DEFAULT_RULES, hands=[ALL_RANKS[:17], *hands], kitty=ALL_RANKS[17:],
                     first_bidder=0)
    hand.bid(0, 3)
    table = Table(guild_id=1, channel_id=2, starter_id=3, phase="playing", hand=hand, seq=3)
    assert len({c.rank_index for c in hand.hand_of(0)}) == 15
    for state in (ViewState(), ViewState().with_selected(frozenset({hand.hand_of(0)[0].index}))):
        screen = build_screen(table, 0, state, "en")
        rows = screen.view.to_components()
        check_limits(rows, state)
        check_controls(table, 0, state, rows, False)
        labels = [c.get("label") for row in rows for c in row["components"]]
        assert "Auto: off" in labels and "↩ Take back" in labels
    assert "/ddz autoplay" not in screen.content
