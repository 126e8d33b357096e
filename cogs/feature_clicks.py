"""The feature buttons' click handlers, mixed into ``DdzCog``: each notes the interaction
(``CogContext.seen``) and hands the parsed click (``cogs/items.py`` ``route_click``) to its
feature module with the ``CogContext``, never the cog (docs/ARCHITECTURE.md §add a feature).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import discord

from cogs import forget, newmatch, replay
from cogs.context import CogContext
from cogs.items import ClickRoute


class FeatureClicks:
    """The ``Clicks`` handlers of the feature modules (cogs/items.py). Its contract: ``ctx``."""

    ctx: CogContext

    async def on_replay_click(self, interaction: discord.Interaction, hand_no: int, page: int,
                              review: bool, verb: str) -> None:
        """A replay button (custom_id ``ddz:rp:<hand no>:<page>:<mode><verb>``)."""
        self.ctx.seen(interaction)
        await replay.on_click(interaction, self.ctx, hand_no, page, review, verb)

    async def on_daily_replay_click(self, interaction: discord.Interaction, day: str,
                                    user_id: int, page: int, review: bool, verb: str) -> None:
        """A daily replay button (custom_id ``ddz:dy:<day>:<member>:<page>:<mode><verb>``)."""
        self.ctx.seen(interaction)
        await self.ctx.clicks["dailyreplay"](interaction, self.ctx, day, user_id, page,
                                             review, verb)

    async def on_event_replay_click(self, interaction: discord.Interaction, event_id: str,
                                    deal: int, user_id: int, page: int, review: bool,
                                    verb: str) -> None:
        """An event replay button (custom_id
        ``ddz:ev:<event>:<deal>:<member>:<page>:<mode><verb>``)."""
        self.ctx.seen(interaction)
        await self.ctx.clicks["eventreplay"](interaction, self.ctx, event_id, deal, user_id,
                                             page, review, verb)

    async def on_event_next_click(self, interaction: discord.Interaction, event_id: str,
                                  user_id: int) -> None:
        """Next deal under an event deal's result (custom_id ``ddz:en:<event>:<member>``)."""
        self.ctx.seen(interaction)
        await self.ctx.clicks["eventnext"](interaction, self.ctx, event_id, user_id)

    async def on_tournament_click(self, interaction: discord.Interaction, tournament_id: str,
                                  verb: str) -> None:
        """Join / Leave under a tournament's sign-up (custom_id ``ddz:tn:<id>:<verb>``)."""
        self.ctx.seen(interaction)
        await self.ctx.clicks["tournament"](interaction, self.ctx, tournament_id, verb)

    async def on_feature_click(self, interaction: discord.Interaction, route: ClickRoute,
                               match: re.Match[str], data: Mapping[str, Any]) -> None:
        """A click on a component a feature declared (its wing's ``ClickRoute``, matched by
        ``route_click``): handed to it with the ``CogContext``."""
        self.ctx.seen(interaction)
        await route.handle(interaction, self.ctx, match, data)

    async def on_forget_click(self, interaction: discord.Interaction, user_id: int,
                              yes: bool) -> None:
        """``/ddz forget``'s Delete / Keep (custom_id ``ddzforget:<user>:<yes|no>``)."""
        await forget.answer(interaction, self.ctx.service, user_id, yes)

    async def on_newmatch_click(self, interaction: discord.Interaction, user_id: int,
                                match_no: int, yes: bool) -> None:
        """``/ddz newmatch``'s Start / Keep (custom_id ``ddznew:<user>:<match>:<yes|no>``)."""
        await newmatch.answer(interaction, self.ctx, user_id, match_no, yes)

    async def on_puzzle_click(self, interaction: discord.Interaction, attempt_id: str,
                              plies: int, verb: str, selected: frozenset[int],
                              value: str | None) -> None:
        """A puzzle view component (custom_id ``ddz:pz:<attempt>:<plies>:<verb>.<mask>``)."""
        self.ctx.seen(interaction)
        await self.ctx.clicks["puzzle"](interaction, self.ctx, attempt_id, plies, verb,
                                        selected, value)
