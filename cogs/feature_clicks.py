"""The click handlers of the replay, forget and new-match buttons and of every feature's own
components, mixed into ``DdzCog``: each hands the parsed click (``cogs/items.py``
``route_click``) to its module with the ``CogContext``, never the cog; a feature's
(``on_feature_click``) notes the interaction (``CogContext.seen``) and goes to the handler of
the wing's ``ClickRoute`` (docs/ARCHITECTURE.md §add a feature).
"""

from __future__ import annotations

from typing import Any

import discord

from cogs import forget, newmatch, replay
from cogs.context import CogContext
from cogs.items import ClickRoute


class FeatureClicks:
    """The ``Clicks`` handlers but the table's and the hand view's (cogs/items.py). Its
    contract: ``ctx``."""

    ctx: CogContext

    async def on_replay_click(self, interaction: discord.Interaction, hand_no: int, page: int,
                              review: bool, verb: str) -> None:
        """A replay button (custom_id ``ddz:rp:<hand no>:<page>:<mode><verb>``)."""
        self.ctx.seen(interaction)
        await replay.on_click(interaction, self.ctx, hand_no, page, review, verb)

    async def on_feature_click(self, interaction: discord.Interaction, route: ClickRoute,
                               arguments: tuple[Any, ...]) -> None:
        """A click on a component a feature declared (its wing's ``ClickRoute``, matched
        and parsed by ``route_click``): handed to its handler with the ``CogContext``."""
        self.ctx.seen(interaction)
        await route.handle(interaction, self.ctx, *arguments)

    async def on_forget_click(self, interaction: discord.Interaction, user_id: int,
                              yes: bool) -> None:
        """``/ddz forget``'s Delete / Keep (custom_id ``ddzforget:<user>:<yes|no>``)."""
        await forget.answer(interaction, self.ctx.service, user_id, yes)

    async def on_newmatch_click(self, interaction: discord.Interaction, user_id: int,
                                match_no: int, yes: bool) -> None:
        """``/ddz newmatch``'s Start / Keep (custom_id ``ddznew:<user>:<match>:<yes|no>``)."""
        await newmatch.answer(interaction, self.ctx, user_id, match_no, yes)
