"""The ping wing's Discord side: ``/ddz ping``."""

from __future__ import annotations

import discord
from discord import app_commands

from cogs import permissions
from cogs.context import CogContext, CommandMixin
from cogs.replies import defer, respond
from tests.support.ping_wing.service import PingService


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
        await respond(interaction, f"pong {table.id}")
