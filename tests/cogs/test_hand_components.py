"""The hand view's components are built as payload dicts (cogs.components.Components):
the same payload discord.ui would send for the same items, and routable by custom_id."""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.ai import ordered_plays
from bot.game.hand import Hand
from bot.game.table import Table
from bot.rules import DEFAULT_RULES, classify, parse_cards
from cogs.hand_view import build_screen
from cogs.items import HAND_TEMPLATE, SELECT_TEMPLATE, ViewState
from tests.support.fake_game import HANDS, KITTY
from tests.support.ui_items import HandButton, HandSelect


def with_discord_ui(components: list[dict[str, Any]]) -> discord.ui.View:
    """The same rows rebuilt from discord.ui items (HandButton / HandSelect)."""
    view = discord.ui.View(timeout=None)
    for row, action_row in enumerate(components):
        for item in action_row["components"]:
            match = re.fullmatch(HAND_TEMPLATE if item["type"] == 2 else SELECT_TEMPLATE,
                                 item["custom_id"])
            assert match is not None, item["custom_id"]
            state = ViewState.decode(match["mask"], match["sort"], match["hint"], match["back"])
            if item["type"] == 2:
                view.add_item(HandButton(match["table"], int(match["seq"]), match["verb"], state,
                                         label=item["label"], style=discord.ButtonStyle(item["style"]),
                                         disabled=item["disabled"], row=row))
            else:
                options = [discord.SelectOption(label=o["label"], value=o["value"],
                                                default=o["default"]) for o in item["options"]]
                view.add_item(HandSelect(match["table"], int(match["seq"]), state, options,
                                         placeholder=item["placeholder"], disabled=item["disabled"],
                                         row=row, verb=match["verb"],
                                         min_values=item["min_values"],
                                         max_values=item["max_values"]))
    return view


def table_at(phase: str) -> Table:
    hand = Hand.deal(DEFAULT_RULES, hands=HANDS, kitty=KITTY, first_bidder=0)
    if phase != "bidding":
        hand.bid(0, 3)
    if phase == "follow":
        hand.play(0, parse_cards("33"))
    return Table(guild_id=1, channel_id=2, starter_id=3, phase="playing", hand=hand, hand_no=4,
                 seq=17)


def test_components_are_the_payload_discord_ui_would_send() -> None:
    screens = []
    for phase in ("bidding", "lead", "follow"):
        table = table_at(phase)
        for seat in range(3):
            plays = ordered_plays(table.hand.observation(seat))
            held = table.hand.hand_of(seat)
            for state in (ViewState(), ViewState(frozenset(c.index for c in held[:2]), "groups", 2)):
                screens.append(build_screen(table, seat, state, "es", plays=plays))
    table = table_at("lead")
    fours = [c for c in table.hand.hand_of(0) if c.rank.symbol == "4"][:3]
    readings = classify(fours, table.rules)
    screens.append(build_screen(table, 0, ViewState(), "en", readings=readings))
    for screen in screens:
        sent = screen.view.to_components()
        assert sent == with_discord_ui(sent).to_components()
        assert not screen.view.is_dispatchable() and len(screen.view) == sum(
            len(row["components"]) for row in sent)
    selects = [c for s in screens for row in s.view.to_components() for c in row["components"]
               if c["type"] == 3]
    assert selects and all(1 <= len(c["options"]) <= 25 for c in selects)
