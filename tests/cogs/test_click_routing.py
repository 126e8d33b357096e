"""Clicks on every component of the bot (the table's buttons, the hand view, replay
pages, the forget and new-match questions) reach the cog's handlers through
``cogs.items.route_click`` (from ``DdzCog.on_interaction``), without discord.py
building a View of the message: same handler arguments as the DynamicItems gave."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import discord

from bot.features.daily import cog as daily
from bot.features.events import cog as events
from bot.features.events.cog import event_next_id
from cogs.forget import ForgetButton
from cogs.items import ClickRoute, RoutedButton, ViewState, route_click
from cogs.newmatch import NewMatchButton
from cogs.replay import ReplayButton
from tests.support.ui_items import HandButton, HandSelect, TableButton, click, message_with


class RecordingCog:
    """Stands in for DdzCog: records what each handler was called with."""

    def __init__(self) -> None:
        self.calls: list[tuple[Any, ...]] = []

    async def on_public_click(self, interaction: Any, table_id: str, seq: int,
                              action: str) -> None:
        self.calls.append(("public", table_id, seq, action))

    async def on_hand_click(self, interaction: Any, table_id: str, seq: int, verb: str,
                            state: ViewState, value: str | None) -> None:
        self.calls.append(("hand", table_id, seq, verb, state, value))

    async def on_replay_click(self, interaction: Any, hand_no: int, page: int, review: bool,
                              verb: str) -> None:
        self.calls.append(("replay", hand_no, page, review, verb))

    async def on_forget_click(self, interaction: Any, user_id: int, yes: bool) -> None:
        self.calls.append(("forget", user_id, yes))

    async def on_newmatch_click(self, interaction: Any, user_id: int, match_no: int,
                                yes: bool) -> None:
        self.calls.append(("newmatch", user_id, match_no, yes))

    async def on_feature_click(self, interaction: Any, route: ClickRoute,
                               arguments: tuple[Any, ...]) -> None:
        self.calls.append((FEATURE_CALLS[route.kind], *arguments))


FEATURE_CALLS = {"dailyreplay": "daily", "eventreplay": "event", "eventnext": "next"}
"""The features' routes recorded here (their wings' ``Wing.routes``), by kind."""
ROUTES = (*daily.ROUTES, *events.ROUTES)


def route(interaction: Any) -> tuple[bool, list[tuple[Any, ...]]]:
    cog = RecordingCog()
    handled = asyncio.run(route_click(cog, interaction, ROUTES))
    return handled, cog.calls


STATE = ViewState(frozenset({0, 5, 53}), "groups", 2)
TABLE_ITEMS = (TableButton("T1", 7, "join"), TableButton("T1", 7, "bid2"),
               TableButton("T1", 7, "hand"))
HAND_ITEMS = (HandButton("T1", 9, "r3", STATE), HandButton("T1", 9, "play", STATE),
              HandSelect("T1", 9, STATE, [discord.SelectOption(label="pair", value="2k")]))
OTHER_ITEMS = (ReplayButton(12, 3, True, "next"), ReplayButton(12, 0, False, "open"),
               ForgetButton(11, "yes"), NewMatchButton(11, 4, "no"))


def test_a_table_button_click_reaches_on_public_click_with_table_seq_and_action() -> None:
    message = message_with(*TABLE_ITEMS)
    assert route(click(message, "ddz:T1:7:bid2")) == (True, [("public", "T1", 7, "bid2")])


def test_a_hand_button_click_reaches_on_hand_click_with_the_decoded_state() -> None:
    message = message_with(*HAND_ITEMS)
    custom_id = HAND_ITEMS[0].custom_id
    assert route(click(message, custom_id)) == (True, [("hand", "T1", 9, "r3", STATE, None)])


def test_a_menu_pick_reaches_on_hand_click_with_the_chosen_value() -> None:
    message = message_with(*HAND_ITEMS)
    custom_id = HAND_ITEMS[2].custom_id
    assert route(click(message, custom_id, component_type=3, values=["2k"])) == (
        True, [("hand", "T1", 9, "pick", STATE, "2k")])
    assert route(click(message, custom_id, component_type=3, values=[])) == (
        True, [("hand", "T1", 9, "pick", STATE, None)])


def test_replay_forget_and_new_match_clicks_reach_their_handlers_parsed() -> None:
    message = message_with(*OTHER_ITEMS)
    assert [c.custom_id for c in OTHER_ITEMS] == [
        "ddz:rp:12:3:rnext", "ddz:rp:12:0:popen", "ddzforget:11:yes", "ddznew:11:4:no"]
    assert [route(click(message, c.custom_id)) for c in OTHER_ITEMS] == [
        (True, [("replay", 12, 3, True, "next")]), (True, [("replay", 12, 0, False, "open")]),
        (True, [("forget", 11, True)]), (True, [("newmatch", 11, 4, False)])]
    assert route(click(message, "ddzforget:12:yes")) == (True, [])  # forged: not on it


def test_daily_and_event_replay_clicks_reach_their_handlers_parsed() -> None:
    from bot.features.daily.cog import private_hand as daily_hand
    from bot.features.events.cog import private_hand as event_hand
    from bot.features.events.values import EventInfo
    from cogs.private_replay import PrivateReplayButton

    event = EventInfo(event_id="0a1b2c3d", guild_id=1, channel_id=2, name="Cup", deals=12,
                      level="hard", created_by=3, created_at=0.0, closes_at=1.0)
    member = 2 ** 63 - 1  # the largest id a custom_id may carry (cogs/items.py ID_MAX)
    items = (PrivateReplayButton(daily_hand("2026-12-01", 22), 4, True, "next", label="▶"),
             PrivateReplayButton(event_hand(event, 12, member), 999, False, "gif", label="A"))
    message = message_with(*items)
    ids = [c.custom_id for c in items]
    assert ids == ["ddz:dy:20261201:22:4:rnext",
                   f"ddz:ev:0a1b2c3d:12:{member}:999:pgif"]
    assert all(len(cid or "") <= 100 for cid in ids)
    assert [route(click(message, cid or "")) for cid in ids] == [
        (True, [("daily", "2026-12-01", 22, 4, True, "next")]),
        (True, [("event", "0a1b2c3d", 12, member, 999, False, "gif")])]
    assert route(click(message, "ddz:ev:0a1b2c3d:11:22:0:pgif")) == (True, [])  # not on it
    assert route(click(message, "ddz:ev:0A1B:1:22:0:pgif")) == (False, [])  # no template
    following = RoutedButton(label="Next deal", custom_id=event_next_id("0a1b2c3d", member))
    assert following.custom_id == f"ddz:en:0a1b2c3d:{member}"
    assert route(click(message_with(following), following.custom_id)) == (
        True, [("next", "0a1b2c3d", member)])


def test_a_forged_id_that_is_not_on_the_message_is_dropped_unanswered() -> None:
    """As discord.py's DynamicItem route did: the id matches a template, but the
    message clicked has no such component (or not of that type)."""
    message = message_with(*TABLE_ITEMS)
    assert route(click(message, "ddz:T1:7:start")) == (True, [])
    assert route(click(message, "ddz:T2:7:join")) == (True, [])
    assert route(click(message, "ddz:T1:7:join", component_type=3)) == (True, [])
    assert route(click(None, "ddz:T1:7:join")) == (True, [])


def test_other_components_and_commands_are_left_to_discord_py() -> None:
    message = message_with(*TABLE_ITEMS)
    assert route(click(message, "ddzreplay:abc:1")) == (False, [])
    assert route(click(message, "ddz:T1:7:nonsense")) == (False, [])
    assert route(click(message, "ddz:T1:7:join",
                       kind=discord.InteractionType.application_command)) == (False, [])
    no_id = SimpleNamespace(type=discord.InteractionType.component, data={}, message=message)
    assert route(no_id) == (False, [])


def test_discord_py_never_stores_or_routes_a_view_of_these_items() -> None:
    """Else a view sent with them would make discord.py dispatch each click a second
    time (a DynamicItem's template was registered by every view sent holding one)."""
    view = discord.ui.View(timeout=None)
    for item in (*TABLE_ITEMS, *HAND_ITEMS, *OTHER_ITEMS):
        view.add_item(item)
    assert not view.is_dispatchable()
