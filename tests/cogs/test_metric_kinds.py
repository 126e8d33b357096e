"""The ``kind`` label of ``/metrics``: stamped by the click router from the template a
custom_id matched (``cogs.items.click_kind``), read back by ``cogs.metering``. Every
template has a kind of its own (issue 34 §1: daily and event replays and Next deal were
counted as ``other``); a forged id adds no label value (issue 36 §4: 200 forged ids made
201 ``kind`` values, all permanent)."""

from __future__ import annotations

import asyncio
import re
import string
from types import SimpleNamespace
from typing import Any

import discord

from bot.features.daily import cog as daily
from bot.features.daily.cog import daily_replay_id
from bot.features.events import cog as events
from bot.features.events.cog import event_next_id, event_replay_id
from bot.features.puzzles import cog as puzzles
from bot.features.puzzles.cog import puzzle_id
from bot.features.tournaments import cog as tournaments
from bot.features.tournaments.cog import signup_id
from bot.game.errors import GameError
from bot.service.metrics import METRICS
from cogs import metering
from cogs.items import (
    KINDS,
    PUBLIC_ACTIONS,
    REPLAY_VERBS,
    TEMPLATES,
    ViewState,
    click_kind,
    forget_id,
    newmatch_id,
    public_id,
    replay_id,
    route_click,
)
from cogs.private_replay import PRIVATE_REPLAY_VERBS as DAILY_REPLAY_VERBS
from tests.support.ui_items import hand_id

HAND_VERBS = ("r0", "r14", "play", "pass", "hint", "clear", "sort", "a0", "a1", "auto", "b0",
              "b3", "rd0", "rd2", "back", "cards", "pick")
"""Every hand-view verb the bot draws (cogs/items.py's grammar)."""


ROUTES = (*daily.ROUTES, *events.ROUTES, *puzzles.ROUTES, *tournaments.ROUTES)
"""The features' own templates (their wings' ``Wing.routes``), tried after the core's."""


def every_drawn_id() -> list[str]:
    """One custom_id per verb of every template, as the bot's id builders write them."""
    state = ViewState(frozenset({0, 5, 53}), "groups", 2, (14, 0, 1))  # an order to undo
    return [
        *(public_id("T1", 7, action) for action in PUBLIC_ACTIONS),
        *(hand_id("T1", 9, verb, state) for verb in HAND_VERBS),
        *(replay_id(12, 3, review, verb) for verb in REPLAY_VERBS for review in (True, False)),
        *(daily_replay_id("2026-12-01", 22, 4, True, verb) for verb in DAILY_REPLAY_VERBS),
        *(event_replay_id("0a1b2c3d", 12, 22, 0, False, verb) for verb in DAILY_REPLAY_VERBS),
        event_next_id("0a1b2c3d", 22),
        forget_id(11, "yes"), forget_id(11, "no"),
        newmatch_id(11, 4, "yes"), newmatch_id(11, 4, "no"),
        *(puzzle_id("0123456789ab", 3, verb, frozenset({0, 53}))
          for verb in ("cards", "play", "pass", "clear", "r0", "r14")),
        *(signup_id("0a1b" * 8, verb) for verb in ("join", "leave")),
    ]


class Quiet:
    """Stands in for DdzCog: every handler does nothing."""

    def __getattr__(self, name: str) -> Any:
        async def handler(*args: Any) -> None:
            return None
        return handler


def clicked(custom_id: str) -> Any:
    """A component click on a message that holds that id (so the router takes it)."""
    component = SimpleNamespace(custom_id=custom_id, type=SimpleNamespace(value=2), children=())
    return SimpleNamespace(type=discord.InteractionType.component, extras={},
                           data={"custom_id": custom_id, "component_type": 2},
                           message=SimpleNamespace(components=[component]))


def kinds_counted() -> set[str]:
    """The ``kind`` label values of ``ddz_interactions_total`` so far."""
    return {sample.labels["kind"] for family in METRICS.interactions.collect()
            for sample in family.samples}


def test_every_template_has_a_kind_of_its_own_never_other() -> None:
    ids = every_drawn_id()
    templates = {*TEMPLATES, *(route.template for route in ROUTES)}
    matched = {template for template in templates for cid in ids if re.fullmatch(template, cid)}
    assert matched == templates  # every template is tried
    kinds = {cid: click_kind(cid, ROUTES) for cid in ids}
    assert [cid for cid, kind in kinds.items() if kind == "other"] == []
    assert set(kinds.values()) <= KINDS | {route.kind for route in ROUTES}
    assert kinds[daily_replay_id("2026-12-01", 22, 4, True, "next")] == "dailyreplay"
    assert kinds[event_replay_id("0a1b2c3d", 12, 22, 0, False, "gif")] == "eventreplay"
    assert kinds[event_next_id("0a1b2c3d", 22)] == "eventnext"
    assert kinds[signup_id("0a1b" * 8, "join")] == "tournament"
    assert kinds[public_id("T1", 7, "bid3")] == "bid3"
    assert kinds[puzzle_id("0123456789ab", 3, "play", frozenset({0, 53}))] == "puzzle"
    assert click_kind(hand_id("T1", 9, "r14", ViewState())) == "hr"


def test_the_router_stamps_the_kind_the_metrics_count() -> None:
    for cid in every_drawn_id():
        interaction = clicked(cid)
        assert asyncio.run(route_click(Quiet(), interaction, ROUTES))
        assert interaction.extras[metering.KIND] == click_kind(cid, ROUTES)
        assert metering.kind_of(interaction) == click_kind(cid, ROUTES)


def forged_ids(n: int) -> list[str]:
    """``n`` distinct forged ids: words no template knows, in the shapes the old parser
    read a verb from (``ddz:<table>:<seq>:<word>`` and a hand view's ``h<word>``)."""
    letters = string.ascii_lowercase
    words = [letters[i // 26 % 26] + letters[i % 26] + "zq" for i in range(n)]
    return [f"ddz:T{i}:1:{word}" if i % 2 else f"ddz:T1:1:h{word}.0.r0"
            for i, word in enumerate(words)]


def test_two_hundred_forged_ids_add_no_kind_to_the_metrics() -> None:
    before = kinds_counted()
    for cid in forged_ids(200):
        interaction = clicked(cid)
        asyncio.run(route_click(Quiet(), interaction, ROUTES))  # DdzCog.on_interaction's first step
        metering.ended(interaction, GameError("stale"))  # answered as stale
        metering.first_response(interaction, "answered")
    assert kinds_counted() - before <= {"other"}
