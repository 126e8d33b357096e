"""``/ddz daily``: the daily deal's answers (docs/RULES.md §Daily deal).

Thin over ``DailyService``: play (the private hand view of the member's table of the
day), the member's result once played, the standings of today or yesterday, and a
move-by-move replay of a member's hand once ``DailyService.may_see`` allows it.
Everything is ephemeral: nothing of a day's deal reaches a channel. The optional daily
channel gets one post a day (``post_day``): the day's opening and yesterday's podium.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING, Any

import discord

from bot.game.daily import DAILY_SEAT, moves_of
from bot.game.errors import GameError
from bot.game.hand import Hand
from bot.game.seat import Event
from bot.game.table import Table
from bot.i18n import resolve_locale, t, tn
from bot.rules import show_cards
from bot.service.daily import DailyService
from bot.values import DailyBoard, DailyEntry
from cogs import texts
from cogs.items import ViewState
from cogs.replies import defer, defer_soon, respond

if TYPE_CHECKING:  # annotations only: cogs.ddz imports this module
    from cogs.ddz import DdzCog

log = logging.getLogger(__name__)

COLOR = 0xD4A017
BOARD_ROWS = 20
"""Lines of the standings shown (Discord embeds take 4,096 characters)."""
PODIUM = 3
REPLAY_CHARS = 3_900
"""Most characters of a replay's text (an embed description takes 4,096)."""


async def command(interaction: discord.Interaction, cog: DdzCog, board: str | None,
                  member: discord.abc.User | None, day: str | None) -> None:
    """``/ddz daily [board:today|yesterday] [replay:@member] [day:today|yesterday]``."""
    daily = cog.ctx.daily
    guild_id = interaction.guild_id
    if guild_id is None:
        raise GameError("guild_only")
    lang = resolve_locale(interaction.locale)
    user = interaction.user
    if member is not None:
        await defer(interaction, ephemeral=True, thinking=True)
        the_day = await _pick_day(daily, guild_id, day or "yesterday")
        hand = await daily.hand(guild_id, the_day, member.id, user.id)
        if hand is None:
            if not await daily.may_see(guild_id, the_day, user.id):
                raise GameError("daily_not_yet")
            raise GameError("daily_no_hand")
        await respond(interaction, embed=replay_embed(hand, member.display_name, the_day, lang))
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
        async with cog.views.lock(table.id, user.id):
            await cog.show_hand(interaction, table, seat, ViewState(), lang, notice=notice)
        return
    assert opened.entry is not None
    embed = await board_embed(daily, guild_id, opened.day, user.id, lang)
    embed.description = result_text(opened.entry, lang) + "\n\n" + (embed.description or "")
    await respond(interaction, embed=embed)


async def table_changed(cog: DdzCog, table: Table, events: list[Event]) -> None:
    """A daily table changed (the service's listener): refresh the member's hand view; at
    the end, draw it once more with the result and stop tracking it."""
    user_id = table.seats[DAILY_SEAT].user_id
    if user_id is None:
        return
    if not any(event.kind == "daily_finished" for event in events):
        await cog.views.refresh(table)
        return
    key = (table.id, user_id)
    async with cog.views.lock(*key):
        entry = cog.views.views.get(key)
        if entry is not None and table.hand is not None and table.hand.result is not None:
            points = table.hand.result.points[DAILY_SEAT]
            notice = t("daily.result_won" if points > 0 else "daily.result_lost", entry.lang,
                       day=table.daily, points=texts.signed(points), moves=moves_of(table))
            await cog.views.redraw(table, user_id, entry.state,
                                   notice=notice + "\n" + t("daily.see_board", entry.lang))
    cog.views.forget_table(table.id)


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


def replay_embed(hand: Hand, name: str, day: str, lang: str) -> discord.Embed:
    """A daily hand, move by move, in docs/RULES.md notation: the three hands as dealt
    (the kitty apart), then every play and pass, then the result."""
    seats = [name, t("daily.computer", lang, n=1), t("daily.computer", lang, n=2)]
    lines = [t("daily.replay_dealt", lang, name=seats[i], cards=_cards(hand.dealt[i]))
             for i in range(3)]
    lines.append(t("daily.replay_kitty", lang, cards=_cards(hand.kitty)))
    for action in hand.history:
        if action.kind == "bid":
            continue
        what = show_cards(action.combo.notation) if action.combo is not None else t("daily.replay_pass", lang)
        lines.append(f"{seats[action.seat]}: {what}")
    if hand.result is not None:
        key = "daily.replay_won" if hand.result.winner == "landlord" else "daily.replay_lost"
        lines.append(t(key, lang, name=name, points=texts.signed(hand.result.points[0])))
    text = "\n".join(lines)
    if len(text) > REPLAY_CHARS:
        text = text[:REPLAY_CHARS] + "…"
    embed = discord.Embed(title=t("daily.replay_title", lang, name=name, day=day),
                          description=text, colour=COLOR)
    return embed


def _cards(cards: list) -> str:
    return show_cards(cards)


async def post_day(channel: discord.abc.Messageable, daily: DailyService, guild_id: int,
                   lang: str) -> bool:
    """Post the day's opening and yesterday's podium in the daily channel, once per
    server and day, and only after a day on which someone played. True when posted."""
    yesterday = await daily.yesterday(guild_id)
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
    await channel.send(embed=embed, allowed_mentions=discord.AllowedMentions.none())
    return True


POST_EVERY = 600.0
"""Seconds between two looks at the servers' daily channels (a day's post goes out
within that long after the day begins, or after the bot starts)."""


class DailyPoster:
    """Once a day per server with ``/ddz config daily_channel``: the day's opening and
    yesterday's podium (``post_day``). One task, started when the bot is ready; a
    failure is logged and the next look tries again (a post is claimed before it is
    sent: never two on one day, at worst none)."""

    def __init__(self, bot: Any, daily: DailyService, language: Any,
                 every: float = POST_EVERY) -> None:
        self.bot = bot
        self.daily = daily
        self.language = language
        """``async (guild_id) -> locale``: the server's language (``ServerLanguages.language``)."""
        self.every = every
        self.task: asyncio.Task[None] | None = None

    def start(self) -> None:
        if self.task is None:
            self.task = asyncio.create_task(self._run(), name="ddz-daily-poster")

    async def close(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
            self.task = None

    async def _run(self) -> None:
        await self.bot.wait_until_ready()
        while True:
            await self.post_all()
            await asyncio.sleep(self.every)

    async def post_all(self) -> int:
        """Post where a post is due now; how many were posted."""
        posted = 0
        for guild in list(self.bot.guilds):
            try:
                settings = await self.daily.tables.settings(guild.id)
                if not settings.daily_channel:
                    continue
                channel = guild.get_channel(settings.daily_channel)
                if channel is None or not hasattr(channel, "send"):
                    continue  # deleted, or of another server (a forged setting)
                if await post_day(channel, self.daily, guild.id, await self.language(guild.id)):
                    posted += 1
            except Exception:
                log.exception("daily post failed in guild %s", guild.id)
        return posted

