"""The ping wing's Discord side: ``/ddz ping`` and its one button, Points
(``ddz:pg:<table id>``: the table's stored points, to whoever clicks), declared through its
``Wing.routes`` (``cogs.items.ClickRoute``) — no core file knows the template."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.game.errors import GameError
from cogs import permissions
from cogs.context import CogContext, CommandMixin
from cogs.items import ClickRoute, RoutedButton
from cogs.replies import answer_error, defer, respond
from tests.support.ping_wing.service import PingService

POINTS_TEMPLATE = r"ddz:pg:(?P<table>[A-Za-z0-9]{1,16})"
"""custom_id of the Points button under ``/ddz ping``'s answer."""


def points_id(table_id: str) -> str:
    """The Points button's custom_id."""
    return f"ddz:pg:{table_id}"


class PingCommands(CommandMixin):
    """``/ddz ping`` (mixed into the ``ddz`` GroupCog). Its contract: ``ctx``."""

    ctx: CogContext

    @app_commands.command(name="ping", description="A ping table: you and two computers")
    async def ping(self, interaction: discord.Interaction) -> None:
        self.ctx.seen(interaction)
        await defer(interaction, ephemeral=True, thinking=True)
        table = await self.ctx.feature(PingService).open(
            permissions.guild_id(interaction), permissions.channel_id(interaction),
            interaction.user.id, interaction.user.display_name)
        view = discord.ui.View(timeout=None)
        view.add_item(RoutedButton(label="Points", custom_id=points_id(table.id)))
        await respond(interaction, f"pong {table.id}", view=view)


async def points_click(interaction: discord.Interaction, ctx: CogContext, table: str) -> None:
    """Points: ``points <table id>: <points>`` (``-`` while its hand is played); a table
    of another server, or none, is answered as stale."""
    rows = await ctx.feature(PingService).store.rows(permissions.guild_id(interaction))
    found = [points for table_id, _, points in rows if table_id == table]
    if not found:
        await answer_error(interaction, GameError("stale"))
        return
    shown = "-" if found[0] is None else str(found[0])
    await respond(interaction, f"points {table}: {shown}")


ROUTES = (ClickRoute("pingpoints", POINTS_TEMPLATE, points_click),)
"""The wing's components (its ``Wing.routes``)."""
