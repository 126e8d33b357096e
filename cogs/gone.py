"""The channel, thread or server of a table goes away: close it cleanly.

CHANNEL_DELETE / THREAD_DELETE for a table's channel, or GUILD_DELETE when the bot
is removed from a server (not a mere outage: discord.py then dispatches
``on_guild_unavailable`` instead), close the tables there without points
(docs/RULES.md: an abandoned hand adds nothing). The public message is never
touched again (``Board.channel_gone``): nothing is retried. Stored scores stay.
"""

from __future__ import annotations

import logging

import discord
from discord.ext import commands

from bot.game.errors import GameError
from bot.game.table import Table
from cogs.context import CogContext
from cogs.open_views import OpenViews

log = logging.getLogger("cogs.ddz")


class GoneListeners:
    """Mixed into ``DdzCog`` (which sets ``ctx`` and ``views``)."""

    ctx: CogContext
    views: OpenViews

    async def _close_gone(self, tables: list[Table], why: str) -> None:
        """Close tables whose channel or server is gone: no points, no Discord calls."""
        for table in tables:
            log.warning("%s: closing table %s without points", why, table.id)
            self.ctx.board.channel_gone(table.id)
            self.ctx.service.pings.abandon(table.id)  # its turn ping went with the channel
            self.views.forget_table(table.id)
            try:
                await self.ctx.service.cancel(table.id, table.starter_id, True)
            except GameError:
                pass  # closed meanwhile
            except Exception:
                log.exception("closing table %s failed", table.id)

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        await self._close_gone([t for t in self.ctx.service.tables() if t.channel_id == channel.id],
                               f"channel {channel.id} deleted")

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        await self._close_gone(
            [t for t in self.ctx.service.tables() if t.channel_id == payload.thread_id],
            f"thread {payload.thread_id} deleted")

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        """The bot was removed from a server: its tables close; its scores stay stored."""
        await self._close_gone([t for t in self.ctx.service.tables() if t.guild_id == guild.id],
                               f"removed from server {guild.id}")
