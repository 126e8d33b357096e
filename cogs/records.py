"""Answers of ``/ddz score`` and ``/ddz stats``: leaderboards, ratings and the stats chart.

Reads go through the RecordsService (``score``: match standings, all-time leaderboard or
skill ratings; ``stats``: the member's record, rating and last 50 hands). The chart
is drawn by the Renderer's worker processes (bot/service/renderer.py) and attached with alt text
that states its numbers. Spec: docs/RATINGS.md.
"""

from __future__ import annotations

from collections.abc import Sequence

import discord
from discord import app_commands

from bot.service.records import RecordsService
from bot.service.renderer import Renderer
from cogs import info
from cogs.context import CogContext, CommandMixin
from cogs.replies import defer, png_file, respond
from cogs.translator import cmd
from rendering.stats import stats_alt_text

Choice = app_commands.Choice

CHART_HANDS = 50
"""Hands shown on the ``/ddz stats`` chart (the most recent)."""
CHART_FILE = "stats.png"


async def send_score(interaction: discord.Interaction, records: RecordsService,
                     scope: str | None, lang: str) -> None:
    """The public ``/ddz score`` answer for ``scope`` (None, "match", "alltime", "rating",
    "previous": the last finished match, e.g. one ended by ``/ddz newmatch``), in ``lang``:
    the server's language, as every public message (docs/ARCHITECTURE.md §Languages)."""
    assert interaction.guild_id is not None
    if scope == "rating":
        embed = info.rating_embed(await records.rating_board(interaction.guild_id), lang)
    elif scope == "previous":
        embed = info.previous_embed(await records.previous_match(interaction.guild_id), lang)
    else:
        standings = await records.match_standings(interaction.guild_id)
        leaders = await records.leaderboard(interaction.guild_id)
        embed = info.score_embed(standings, leaders, lang, scope)
    await respond(interaction, embed=embed, ephemeral=False)


async def send_stats(interaction: discord.Interaction, records: RecordsService,
                     renderer: Renderer, who: discord.abc.User, lang: str,
                     fields: Sequence[tuple[str, str]] = ()) -> None:
    """The public ``/ddz stats`` answer for the member ``who``: record, rating and chart,
    and the features' ``fields`` about them (name, value: ``cogs.wing.Wing.stats``; never a
    card of an open deal), in ``lang``: the server's language (docs/ARCHITECTURE.md
    §Languages)."""
    guild_id = interaction.guild_id
    assert guild_id is not None
    record = await records.player_stats(guild_id, who.id)
    rank = None
    if record is not None and record.rating is not None:
        board = await records.rating_board(guild_id)
        places = [i for i, row in enumerate(board) if row.user_id == who.id]
        rank = (places[0] + 1, len(board)) if places else None
    embed = info.stats_embed(record, who.display_name, lang, rank, fields)
    if record is None or not record.hands:
        await respond(interaction, embed=embed, ephemeral=False)
        return
    history = await records.hand_history(guild_id, who.id, CHART_HANDS)
    view = info.chart_view(record, history, who.display_name)
    png = await renderer.stats(view, locale=lang)
    embed.set_image(url=f"attachment://{CHART_FILE}")
    await respond(interaction, embed=embed, ephemeral=False,
                  file=png_file(png, CHART_FILE, stats_alt_text(view, locale=lang)))


class RecordsCommands(CommandMixin):
    """``/ddz score`` and ``/ddz stats`` (mixed into the ``ddz`` GroupCog). Its contract:
    ``ctx``."""

    ctx: CogContext

    @app_commands.command(name=cmd("score", "cmd.score.name"),
                          description=cmd("This server's leaderboard and match totals",
                                          "cmd.score.description"))
    @app_commands.rename(scope=cmd("scope", "param.scope.name"))
    @app_commands.describe(scope=cmd("Current match, all time, skill rating or previous match",
                                     "param.scope.description"))
    @app_commands.choices(scope=[
        Choice(name=cmd("current match", "choice.scope.match"), value="match"),
        Choice(name=cmd("all time", "choice.scope.alltime"), value="alltime"),
        Choice(name=cmd("skill rating", "choice.scope.rating"), value="rating"),
        Choice(name=cmd("previous match", "choice.scope.previous"), value="previous")])
    async def score(self, interaction: discord.Interaction, scope: Choice[str] | None = None) -> None:
        self.ctx.seen(interaction)
        await defer(interaction, ephemeral=False, thinking=True)
        assert interaction.guild_id is not None
        lang = await self.ctx.languages.language(interaction.guild_id)
        await send_score(interaction, self.ctx.records, scope.value if scope else None, lang)

    @app_commands.command(name=cmd("stats", "cmd.stats.name"),
                          description=cmd("One player's record", "cmd.stats.description"))
    @app_commands.rename(member=cmd("member", "param.member.name"))
    @app_commands.describe(member=cmd("Whose record (default: you)", "param.member.description"))
    async def stats(self, interaction: discord.Interaction, member: discord.User | None = None) -> None:
        self.ctx.seen(interaction)
        await defer(interaction, ephemeral=False, thinking=True)
        assert interaction.guild_id is not None
        lang = await self.ctx.languages.language(interaction.guild_id)
        who = member or interaction.user
        fields = [found for fields_of in self.ctx.stats
                  for found in await fields_of(interaction.guild_id, who.id, lang)]
        await send_stats(interaction, self.ctx.records, self.ctx.board.renderer, who, lang,
                         fields)
