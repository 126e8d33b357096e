"""``/ddz daily``: the daily deal's answers (docs/RULES.md §Daily deal).

Thin over ``DailyService``: play (the private hand view of the member's table of the
day), the member's result once played, the standings of today or yesterday, and a
member's hand replayed page by page (the table replays' images and animation, through
the Renderer) and reviewed (one's own, ``ReplayService.review``) once
``DailyService.may_see`` allows it (buttons ``ddz:dy:…``, ``REPLAY_TEMPLATE``; the paging is
cogs/private_replay.py's, shared with event deals).
Everything is ephemeral: nothing of a day's deal reaches a channel. The optional daily
channel gets one post a day (``post_day``): the day's opening and yesterday's podium.
"""

from __future__ import annotations

import datetime as dt
import functools
import logging
import re
from collections.abc import Mapping
from typing import Any

import discord
from discord import app_commands

from bot.features.daily.rules import DAILY_SEAT, table_day
from bot.features.daily.service import DailyService
from bot.features.daily.values import DailyBoard, DailyEntry, DailySettings
from bot.game.errors import GameError
from bot.game.private import moves_of
from bot.game.seat import Event
from bot.game.table import Table
from bot.i18n import resolve_locale, t, tn
from bot.service.budget import COSMETIC
from bot.service.replays import Replay
from bot.values import GuildSettings
from cogs import permissions, private_replay, texts
from cogs.background import Background
from cogs.components import Components
from cogs.context import CogContext, CommandMixin
from cogs.delivery import Delivery, Outbox
from cogs.items import ClickRoute, ViewState
from cogs.private_replay import PRIVATE_REPLAY_VERBS, PrivateHand
from cogs.private_view import private_table_changed
from cogs.replies import defer, defer_soon, respond
from cogs.translator import cmd

log = logging.getLogger(__name__)
Choice = app_commands.Choice

COLOR = 0xD4A017
BOARD_ROWS = 20
"""Lines of the standings shown (Discord embeds take 4,096 characters)."""
PODIUM = 3


async def command(interaction: discord.Interaction, ctx: CogContext, board: str | None,
                  member: discord.abc.User | None, day: str | None) -> None:
    """``/ddz daily [board:today|yesterday] [replay:@member] [day:today|yesterday]``."""
    daily = ctx.feature(DailyService)
    guild_id = permissions.guild_id(interaction)
    lang = resolve_locale(interaction.locale)
    user = interaction.user
    if member is not None:
        await defer(interaction, ephemeral=True, thinking=True)
        the_day = await _pick_day(daily, guild_id, day or "yesterday")
        hand, found = await find_replay(ctx, guild_id, the_day, member.id, user.id)
        await private_replay.show_page(interaction, ctx, hand, found, 0, None, lang)
        return
    if board is not None:
        await defer(interaction, ephemeral=True, thinking=True)
        the_day = await _pick_day(daily, guild_id, board)
        await respond(interaction, embed=await board_embed(daily, guild_id, the_day, user.id,
                                                           lang))
        return
    defer_soon(interaction, ephemeral=True, thinking=True)
    opened = await daily.open(guild_id, user.id, user.display_name, str(interaction.locale))
    if opened.table is not None:
        table = opened.table
        seat = table.seat_of(user.id)
        assert seat is not None
        notice = t("daily.opened" if opened.fresh else "daily.again", lang, day=opened.day)
        async with ctx.hands.views.lock(table.id, user.id):
            await ctx.hands.show(interaction, table, seat, ViewState(), lang, notice=notice)
        return
    assert opened.entry is not None
    embed = await board_embed(daily, guild_id, opened.day, user.id, lang)
    embed.description = result_text(opened.entry, lang) + "\n\n" + (embed.description or "")
    await respond(interaction, embed=embed, view=result_buttons(opened.day, user.id, lang))


async def table_changed(ctx: CogContext, table: Table, events: list[Event]) -> None:
    """A daily table changed (the service's listener): refresh the member's hand view; at
    the end, draw it once more with the result and stop tracking it."""
    await private_table_changed(ctx.hands, table, events, seat=DAILY_SEAT, finished="daily_finished",
                                notice=_result_notice)


def _result_notice(table: Table, lang: str) -> str:
    assert table.hand is not None and table.hand.result is not None
    points = table.hand.result.points[DAILY_SEAT]
    notice = t("daily.result_won" if points > 0 else "daily.result_lost", lang,
               day=table_day(table), points=texts.signed(points), moves=moves_of(table))
    return notice + "\n" + t("daily.see_board", lang)


async def _pick_day(daily: DailyService, guild_id: int, which: str) -> str:
    if which == "today":
        return await daily.today(guild_id)
    if which == "yesterday":
        return await daily.yesterday(guild_id)
    raise GameError("bad_option")  # a value no Discord client sends


def result_text(entry: DailyEntry, lang: str) -> str:
    """"You won the daily deal of 2026-12-01: +12 points in 7 moves." (or lost)."""
    key = "daily.result_won" if entry.won else "daily.result_lost"
    return t(key, lang, day=entry.day, points=texts.signed(entry.points), moves=entry.moves)


def board_lines(board: DailyBoard, lang: str, limit: int = BOARD_ROWS) -> list[str]:
    """One line per finished hand, best first: place, name, points, moves, streaks."""
    lines = []
    for row in board.rows[:limit]:
        entry = row.entry
        lines.append(t("daily.board_line", lang, place=row.place,
                       name=discord.utils.escape_markdown(entry.name or "?"),
                       points=texts.signed(entry.points), moves=entry.moves,
                       streak=row.streak, best=row.best_streak))
    return lines


async def board_embed(daily: DailyService, guild_id: int, day: str, viewer_id: int,
                      lang: str) -> discord.Embed:
    """The standings of ``day`` for ``viewer_id``: the lines when they may see the day
    (``DailyService.may_see``), else only how many have played."""
    embed = discord.Embed(title=t("daily.board_title", lang, day=day), colour=COLOR)
    board = await daily.visible_board(guild_id, day, viewer_id)
    if board is None:
        count = await daily.played_count(guild_id, day)
        embed.description = tn("daily.board_hidden", count, lang, count=count)
    elif not board.rows:
        embed.description = t("daily.board_empty", lang)
    else:
        embed.description = "\n".join(board_lines(board, lang))
    embed.set_footer(text=t("daily.board_footer", lang))
    return embed


REPLAY_TEMPLATE = (r"ddz:dy:(?P<day>\d{8}):(?P<user>[1-9]\d{0,19}):(?P<page>\d{1,3}):"
                   rf"(?P<mode>[pr])(?P<verb>{'|'.join(PRIVATE_REPLAY_VERBS)})")
"""custom_id of a daily replay button, ``ddz:dy:<YYYYMMDD>:<member>:<page>:<mode><verb>``: a
member's hand of a day's daily deal, ``mode`` ``p`` (plain pages) or ``r`` (with the
review's marks), ``verb`` one of ``prev next gif rev open`` (no Share: a daily hand is
shown privately)."""


def daily_replay_id(day: str, user_id: int, page: int, review: bool, verb: str) -> str:
    """custom_id of a daily replay button (``day`` ``"YYYY-MM-DD"``; ≤ 100 characters)."""
    return f"ddz:dy:{day.replace('-', '')}:{user_id}:{page}:{'r' if review else 'p'}{verb}"


def private_hand(day: str, user_id: int) -> PrivateHand:
    """The member's hand of ``day`` as cogs/private_replay.py pages it: "Daily deal of
    2026-12-01", buttons ``ddz:dy:…`` (``daily_replay_id``)."""
    return PrivateHand("daily", {"day": day},
                       functools.partial(daily_replay_id, day, user_id))


async def find_replay(ctx: CogContext, guild_id: int, day: str, user_id: int,
                      viewer_id: int) -> tuple[PrivateHand, Replay]:
    """``user_id``'s hand of ``day`` for ``viewer_id``, ready to page, animate and review
    (``DailyService.record`` → ``ReplayService.rebuilt``). Raises GameError
    ``daily_not_yet`` (``may_see`` refuses) or ``daily_no_hand``."""
    record = await ctx.feature(DailyService).record(guild_id, day, user_id, viewer_id)
    if record is None:
        if not await ctx.feature(DailyService).may_see(guild_id, day, viewer_id):
            raise GameError("daily_not_yet")
        raise GameError("daily_no_hand")
    return private_hand(day, user_id), await ctx.replays.rebuilt(record)


def result_buttons(day: str, user_id: int, lang: str) -> Components:
    """Replay and Review of the member's own hand of ``day`` (each opens a new message)."""
    return private_replay.open_buttons(private_hand(day, user_id), lang)


async def on_replay_click(interaction: discord.Interaction, ctx: CogContext, day: str, user_id: int,
                          page: int, review: bool, verb: str) -> None:
    """A daily replay button: re-check guild, day, who may see it (``may_see``) and the
    page, then page, animate or review (``private_replay.on_click``)."""

    async def locate(guild_id: int) -> tuple[PrivateHand, Replay]:
        try:
            dt.date.fromisoformat(day)
        except ValueError as error:
            raise GameError("stale") from error
        return await find_replay(ctx, guild_id, day, user_id, interaction.user.id)

    await private_replay.on_click(interaction, ctx, locate, page, review, verb)


def parse_replay(match: re.Match[str], data: Mapping[str, Any]) -> tuple[Any, ...]:
    """``on_replay_click``'s arguments from a ``REPLAY_TEMPLATE`` match."""
    day = match["day"]
    return (f"{day[:4]}-{day[4:6]}-{day[6:]}", int(match["user"]), int(match["page"]),
            match["mode"] == "r", match["verb"])


async def post_day(outbox: Outbox, daily: DailyService, guild_id: int, lang: str) -> bool:
    """Post the day's opening and yesterday's podium in the daily channel (``outbox``:
    ``Delivery.outbox``, anything with ``send(**kwargs)``), once per server and day, and
    only after a day on which someone played; while a member still plays yesterday's deal
    (begun before midnight) the post waits for their result, at most ``POST_GRACE``
    (``DailyService.podium_ready``). True when posted."""
    yesterday = await daily.yesterday(guild_id)
    if not await daily.podium_ready(guild_id, yesterday):
        return False
    board = await daily.board(guild_id, yesterday)
    if not board.rows:
        return False
    today = await daily.today(guild_id)
    if not await daily.claim_post(guild_id, today):
        return False
    embed = discord.Embed(title=t("daily.post_title", lang, day=today),
                          description=t("daily.post_body", lang), colour=COLOR)
    embed.add_field(name=t("daily.post_podium", lang, day=yesterday),
                    value="\n".join(board_lines(board, lang, PODIUM)), inline=False)
    await outbox.send(embed=embed, allowed_mentions=discord.AllowedMentions.none())
    return True


POST_EVERY = 600.0
"""Seconds between two looks at the servers' daily channels (a day's post goes out
within that long after the day begins, or after the bot starts)."""


class DailyPoster(Background):
    """Once a day per server with ``/ddz config daily_channel`` (``DailySettings.channel``): the day's opening and
    yesterday's podium (``post_day``). One task, started when the bot is ready
    (cogs/background.py); a failure is logged and the next look tries again (a post is
    claimed before it is sent: never two on one day, at worst none)."""

    name = "ddz-daily-poster"

    def __init__(self, bot: Any, daily: DailyService, language: Any, delivery: Delivery,
                 every: float = POST_EVERY) -> None:
        super().__init__(bot, every)
        self.daily = daily
        self.delivery = delivery
        """The posts go through it (the global budget, the request metric)."""
        self.language = language
        """``async (guild_id) -> locale``: the server's language (``ServerLanguages.language``)."""

    async def once(self) -> int:
        return await self.post_all()

    async def post_all(self) -> int:
        """Post where a post is due now; how many were posted."""
        posted = 0
        for guild in list(self.bot.guilds):
            try:
                settings = DailySettings.of(await self.daily.tables.settings(guild.id))
                if not settings.channel:
                    continue
                channel = guild.get_channel(settings.channel)
                if channel is None or not hasattr(channel, "send"):
                    continue  # deleted, or of another server (a forged setting)
                outbox = self.delivery.outbox(channel.id, guild.id, COSMETIC)
                if await post_day(outbox, self.daily, guild.id, await self.language(guild.id)):
                    posted += 1
            except Exception:
                log.exception("daily post failed in guild %s", guild.id)
        return posted


class DailyCommands(CommandMixin):
    """``/ddz daily`` (mixed into the ``ddz`` GroupCog). Its contract: ``ctx``."""

    ctx: CogContext

    @app_commands.command(name=cmd("daily", "cmd.daily.name"),
                          description=cmd("Today's deal: the same cards for everyone, once a day",
                                          "cmd.daily.description"))
    @app_commands.rename(board=cmd("board", "param.board.name"),
                         replay=cmd("replay", "param.replay.name"), day=cmd("day", "param.day.name"))
    @app_commands.describe(
        board=cmd("Show the standings of today or yesterday", "param.board.description"),
        replay=cmd("Show this member's hand move by move (once the day is over)",
                   "param.replay.description"),
        day=cmd("Which day's hand to replay (default yesterday)", "param.day.description"))
    @app_commands.choices(
        board=[Choice(name=cmd("today", "choice.day.today"), value="today"),
               Choice(name=cmd("yesterday", "choice.day.yesterday"), value="yesterday")],
        day=[Choice(name=cmd("today", "choice.day.today"), value="today"),
             Choice(name=cmd("yesterday", "choice.day.yesterday"), value="yesterday")])
    async def daily(self, interaction: discord.Interaction, board: Choice[str] | None = None,
                    replay: discord.User | None = None, day: Choice[str] | None = None) -> None:
        """The daily deal (docs/RULES.md §Daily deal): play it (a private table, landlord at
        bid 3 against two computers), or see the result, the standings or a replay."""
        self.ctx.seen(interaction)
        await command(interaction, self.ctx, board.value if board else None, replay,
                            day.value if day else None)


ROUTES = (ClickRoute("dailyreplay", REPLAY_TEMPLATE, on_replay_click, parse_replay),)
"""The daily deal's components (its ``Wing.routes``)."""


async def stats_fields(service: DailyService, guild_id: int, user_id: int,
                       lang: str) -> list[tuple[str, str]]:
    """The daily deal's field of ``/ddz stats`` (``Wing.stats``), when the member has played
    one (docs/RULES.md §Daily deal: apart from table play)."""
    daily = await service.summary(guild_id, user_id)
    if not daily.played:
        return []
    return [(t("stats.daily", lang), t(
        "stats.daily_value", lang, played=daily.played, won=daily.won,
        points=texts.signed(daily.points), streak=daily.streak, best=daily.best_streak))]


def settings_lines(settings: GuildSettings, lang: str) -> list[str]:
    """The daily deal's lines of ``/ddz config``'s answer (``Wing.settings``): its
    computers' level and its channel (``DailySettings``)."""
    daily = DailySettings.of(settings)
    return [t("config.daily_level", lang, value=t(f"choice.level.{daily.level}", lang)),
            (t("config.daily_channel", lang, channel=f"<#{daily.channel}>")
             if daily.channel else t("config.daily_channel_none", lang))]
