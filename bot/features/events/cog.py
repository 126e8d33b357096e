"""``/ddz event``: duplicate events (docs/RULES.md §Events), thin over ``EventService``.

``create`` and ``close`` (Manage Server), ``join``, ``play`` (the member's next deal on a
private table: the hand view, ephemeral, as in the daily deal), ``standings`` and
``replay`` (a member's deal as the table replays' image pages, its Animation and, one's
own, a review, once ``EventService.may_see`` allows it; buttons ``ddz:ev:…``, ``ROUTES``, paged by
cogs/private_replay.py like the daily's).
Every answer but the results is ephemeral. The results are posted once in the channel
where the event was created (``EventAnnouncer``), at the close by command or by time.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import re
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

import discord
from discord import app_commands

from bot.features.events.rules import EVENT_SEAT, MAX_DEALS, role_of, shown_score
from bot.features.events.service import MAX_HOURS, MAX_NAME, EventService
from bot.features.events.values import EventDeal, EventInfo, EventStandings
from bot.game.errors import GameError
from bot.game.private import moves_of
from bot.game.seat import Event
from bot.game.table import Table
from bot.i18n import decimal_mark, resolve_locale, t, tn
from bot.service.budget import RESULT
from bot.service.replays import Replay
from cogs import permissions, private_replay, texts
from cogs.background import Background
from cogs.components import Components
from cogs.context import CogContext, CommandMixin
from cogs.delivery import Delivery, Outbox
from cogs.items import ClickRoute, ViewState
from cogs.private_replay import PRIVATE_REPLAY_VERBS, PrivateHand
from cogs.private_view import private_table_changed
from cogs.replies import answer_error, defer, defer_soon, respond
from cogs.translator import cmd

log = logging.getLogger(__name__)

COLOR = 0x2E86C1
BOARD_ROWS = 20
"""Lines of the standings shown (an embed's description takes 4,096 characters)."""
Choice = app_commands.Choice
LEVELS = [Choice(name=cmd("easy", "choice.level.easy"), value="easy"),
          Choice(name=cmd("normal", "choice.level.normal"), value="normal"),
          Choice(name=cmd("hard", "choice.level.hard"), value="hard")]


class EventCommands(CommandMixin):
    """The ``/ddz event …`` subcommands, mixed into the ``ddz`` GroupCog. Its contract,
    the only attribute used: ``ctx`` (cogs/context.py; the results' poster, ``EventAnnouncer``
    below, is its ``part``)."""

    ctx: CogContext

    event = app_commands.Group(name=cmd("event", "cmd.event.name"),
                               description=cmd("Duplicate events: the same deals for everyone",
                                               "cmd.event.description"))

    @event.command(name=cmd("create", "cmd.event_create.name"),
                   description=cmd("Create a duplicate event (Manage Server)",
                                   "cmd.event_create.description"))
    @app_commands.rename(name=cmd("name", "param.event_name.name"),
                         deals=cmd("deals", "param.deals.name"),
                         level=cmd("level", "param.level.name"),
                         hours=cmd("hours", "param.hours.name"))
    @app_commands.describe(name=cmd("The event's name", "param.event_name.description"),
                           deals=cmd("Number of deals (1-12)", "param.deals.description"),
                           level=cmd("Level of the computers (default hard)",
                                     "param.event_level.description"),
                           hours=cmd("Hours until it closes (1-336)", "param.hours.description"))
    @app_commands.choices(level=LEVELS)
    async def event_create(self, interaction: discord.Interaction,
                           name: app_commands.Range[str, 1, MAX_NAME],
                           deals: app_commands.Range[int, 1, MAX_DEALS],
                           hours: app_commands.Range[int, 1, MAX_HOURS],
                           level: Choice[str] | None = None) -> None:
        self.ctx.seen(interaction)
        await create(interaction, self.ctx, name, deals, level.value if level else "hard",
                     hours)

    @event.command(name=cmd("join", "cmd.event_join.name"),
                   description=cmd("Enter the server's event", "cmd.event_join.description"))
    async def event_join(self, interaction: discord.Interaction) -> None:
        self.ctx.seen(interaction)
        await join(interaction, self.ctx.feature(EventService))

    @event.command(name=cmd("play", "cmd.event_play.name"),
                   description=cmd("Play your next deal of the event (private)",
                                   "cmd.event_play.description"))
    async def event_play(self, interaction: discord.Interaction) -> None:
        self.ctx.seen(interaction)
        await play(interaction, self.ctx)

    @event.command(name=cmd("standings", "cmd.event_standings.name"),
                   description=cmd("The event's standings", "cmd.event_standings.description"))
    async def event_standings(self, interaction: discord.Interaction) -> None:
        self.ctx.seen(interaction)
        await standings(interaction, self.ctx.feature(EventService))

    @event.command(name=cmd("close", "cmd.event_close.name"),
                   description=cmd("Close the event now (Manage Server)",
                                   "cmd.event_close.description"))
    async def event_close(self, interaction: discord.Interaction) -> None:
        self.ctx.seen(interaction)
        await close(interaction, self.ctx, self.ctx.part(EventAnnouncer))

    @event.command(name=cmd("replay", "cmd.event_replay.name"),
                   description=cmd("A member's deal replayed page by page (once you may see it)",
                                   "cmd.event_replay.description"))
    @app_commands.rename(member=cmd("member", "param.member.name"),
                         deal=cmd("deal", "param.deal.name"))
    @app_commands.describe(member=cmd("Whose deal", "param.event_member.description"),
                           deal=cmd("Deal number", "param.deal.description"))
    async def event_replay(self, interaction: discord.Interaction, member: discord.User,
                           deal: app_commands.Range[int, 1, MAX_DEALS]) -> None:
        self.ctx.seen(interaction)
        await replay(interaction, self.ctx, member, deal)


async def create(interaction: discord.Interaction, ctx: CogContext, name: str,
                 deals: int, level: str, hours: int) -> None:
    """``/ddz event create``: Manage Server only; the results go to this channel. The
    admin is answered privately, and the members learn of the event from a public
    message in this channel, in the server's language (through ``cogs/delivery.py``; a
    refused post is logged, the event stands)."""
    guild_id = permissions.guild_id(interaction)
    if not permissions.is_admin(interaction):
        raise GameError("event_admin_only")
    await defer(interaction, ephemeral=True, thinking=True)
    lang = resolve_locale(interaction.locale)
    event = await ctx.feature(EventService).create(guild_id, interaction.channel_id or 0,
                                            interaction.user.id, name, deals, level, hours)
    await respond(interaction, t("event.created", lang, name=_name(event), deals=event.deals,
                                 level=t(f"choice.level.{event.level}", lang),
                                 closes=f"<t:{int(event.closes_at)}:f>",
                                 channel=f"<#{event.channel_id}>"))
    public = await ctx.languages.language(guild_id)
    try:
        await ctx.board.delivery.send(
            event.channel_id, guild_id, RESULT,
            content=t("event.announce_created", public, name=_name(event), deals=event.deals,
                      level=t(f"choice.level.{event.level}", public),
                      closes=f"<t:{int(event.closes_at)}:f>"),
            allowed_mentions=discord.AllowedMentions.none())
    except discord.HTTPException as error:
        log.warning("event %s not announced in its channel: %s", event.event_id, error)


async def join(interaction: discord.Interaction, events: EventService) -> None:
    guild_id = permissions.guild_id(interaction)
    await defer(interaction, ephemeral=True, thinking=True)
    lang = resolve_locale(interaction.locale)
    event, fresh = await events.join(guild_id, interaction.user.id,
                                     interaction.user.display_name)
    key = "event.joined" if fresh else "event.joined_already"
    await respond(interaction, t(key, lang, name=_name(event), deals=event.deals,
                                 closes=f"<t:{int(event.closes_at)}:R>"))


async def play(interaction: discord.Interaction, ctx: CogContext) -> None:
    """``/ddz event play``: the hand view of the member's deal (private), or, every deal
    played, their place so far."""
    guild_id = permissions.guild_id(interaction)
    events = ctx.feature(EventService)
    defer_soon(interaction, ephemeral=True, thinking=True)
    lang = resolve_locale(interaction.locale)
    user = interaction.user
    opened = await events.play(guild_id, user.id, user.display_name, str(interaction.locale))
    if opened.table is None:
        board = await events.standings(guild_id, user.id)
        embed = standings_embed(board, lang) if board is not None else None
        await respond(interaction, t("event.all_played", lang, name=_name(opened.event)),
                      embed=embed)
        return
    assert opened.deal is not None
    notice = t("event.deal_opened" if opened.fresh else "event.deal_again", lang,
               deal=opened.deal, deals=opened.event.deals,
               role=t(f"event.role_{role_of(opened.deal)}", lang))
    async with ctx.hands.views.lock(opened.table.id, user.id):
        table = ctx.service.get(opened.table.id) or opened.table
        await ctx.hands.show(interaction, table, EVENT_SEAT, ViewState(), lang, notice=notice)
    # A computer landlord leads at once: a move made while the view was being drawn found
    # no view of this member to refresh yet, so bring it up to date now.
    latest = ctx.service.get(table.id)
    if latest is not None and latest.seq > table.seq:
        await ctx.hands.views.refresh(latest)


async def standings(interaction: discord.Interaction, events: EventService) -> None:
    guild_id = permissions.guild_id(interaction)
    await defer(interaction, ephemeral=True, thinking=True)
    lang = resolve_locale(interaction.locale)
    board = await events.standings(guild_id, interaction.user.id)
    if board is None:
        raise GameError("no_event")
    await respond(interaction, embed=standings_embed(board, lang))


async def close(interaction: discord.Interaction, ctx: CogContext,
                announcer: EventAnnouncer) -> None:
    """``/ddz event close`` (Manage Server): closed now; the results follow in the
    event's channel once the deals being played end."""
    guild_id = permissions.guild_id(interaction)
    if not permissions.is_admin(interaction):
        raise GameError("event_admin_only")
    await defer(interaction, ephemeral=True, thinking=True)
    lang = resolve_locale(interaction.locale)
    event = await ctx.feature(EventService).close(guild_id)
    await respond(interaction, t("event.closed", lang, name=_name(event),
                                 channel=f"<#{event.channel_id}>"))
    announcer.poke()


REPLAY_TEMPLATE = (r"ddz:ev:(?P<event>[0-9a-f]{1,16}):(?P<deal>[1-9]\d?):"
                   r"(?P<user>[1-9]\d{0,19}):(?P<page>\d{1,3}):"
                   rf"(?P<mode>[pr])(?P<verb>{'|'.join(PRIVATE_REPLAY_VERBS)})")
"""custom_id of an event replay button, ``ddz:ev:<event id>:<deal>:<member>:<page>:<mode><verb>``:
a member's hand of one deal of a duplicate event, ``mode`` and ``verb`` as for the daily
replay (paged by cogs/private_replay.py like the daily's)."""
NEXT_TEMPLATE = r"ddz:en:(?P<event>[0-9a-f]{1,16}):(?P<user>[1-9]\d{0,19})"
"""custom_id of Next deal, ``ddz:en:<event id>:<member>``: under the result of a member's
event deal, deals them their next deal of that event."""


def event_replay_id(event_id: str, deal: int, user_id: int, page: int, review: bool,
                    verb: str) -> str:
    """custom_id of an event replay button (≤ 100 characters: an 8-hex event id, at most
    57 with the longest member id)."""
    return f"ddz:ev:{event_id}:{deal}:{user_id}:{page}:{'r' if review else 'p'}{verb}"


def event_next_id(event_id: str, user_id: int) -> str:
    """custom_id of the Next deal button under an event deal's result (≤ 48 characters)."""
    return f"ddz:en:{event_id}:{user_id}"


def private_hand(event: EventInfo, deal: int, user_id: int) -> PrivateHand:
    """The member's hand of ``deal`` as cogs/private_replay.py pages it: "Deal 2 of Winter
    cup", buttons ``ddz:ev:…`` (``event_replay_id``)."""
    return PrivateHand("event", {"event": event.name, "deal": deal},
                       functools.partial(event_replay_id, event.event_id, deal, user_id))


async def find_replay(ctx: CogContext, event: EventInfo, deal: int, user_id: int,
                      viewer_id: int) -> tuple[PrivateHand, Replay]:
    """``user_id``'s hand of ``deal`` for ``viewer_id``, ready to page, animate and review
    (``EventService.hand_record`` → ``ReplayService.rebuilt``). Raises GameError
    ``event_not_yet`` (``EventService.may_see`` refuses), ``event_not_yet_playing`` (closed,
    but the viewer's own play of that deal goes on) or ``event_no_hand``."""
    events = ctx.feature(EventService)
    record = await events.hand_record(event, deal, user_id, viewer_id)
    if record is None:
        if 1 <= deal <= event.deals and not await events.may_see(event, deal, viewer_id):
            if event.is_closed(events.now()):  # closed: only their own play is unfinished
                raise GameError("event_not_yet_playing", deal=str(deal))
            raise GameError("event_not_yet")
        raise GameError("event_no_hand")
    return private_hand(event, deal, user_id), await ctx.replays.rebuilt(record)


async def replay(interaction: discord.Interaction, ctx: CogContext,
                 member: discord.abc.User, deal: int) -> None:
    """``/ddz event replay member: deal:``: the first image page of the member's deal of
    the server's current event, with ◀ ▶, the Animation and (one's own) Review."""
    guild_id = permissions.guild_id(interaction)
    await defer(interaction, ephemeral=True, thinking=True)
    lang = resolve_locale(interaction.locale)
    event = await ctx.feature(EventService).current(guild_id)
    if event is None:
        raise GameError("no_event")
    hand, found = await find_replay(ctx, event, deal, member.id, interaction.user.id)
    await private_replay.show_page(interaction, ctx, hand, found, 0, None, lang)


async def on_replay_click(interaction: discord.Interaction, ctx: CogContext, event_id: str,
                          deal: int, user_id: int, page: int, review: bool, verb: str) -> None:
    """An event replay button: re-check guild, event (this server's), deal, who may see it
    (``EventService.may_see``) and the page, then page, animate or review
    (``private_replay.on_click``)."""

    async def locate(guild_id: int) -> tuple[PrivateHand, Replay]:
        event = await ctx.feature(EventService).event_of(guild_id, event_id)
        if event is None:
            raise GameError("stale")  # unknown, or another server's: forged
        return await find_replay(ctx, event, deal, user_id, interaction.user.id)

    await private_replay.on_click(interaction, ctx, locate, page, review, verb)


async def table_changed(ctx: CogContext, announcer: EventAnnouncer, table: Table,
                        events: list[Event]) -> None:
    """An event table changed (the service's listener): refresh the member's hand view; at
    the end, draw it once more with the result and, when the event has a next deal for
    the member, a **Next deal** button; then look for results due (the last deal of a
    closed event may have ended)."""
    following: EventInfo | None = None
    played = EventDeal.of(table)
    if any(e.kind == "event_finished" for e in events) and played is not None:
        event = await ctx.feature(EventService).event_of(table.guild_id, played.event_id)
        if (event is not None and played.deal < event.deals
                and not event.is_closed(ctx.feature(EventService).now())):
            following = event
    user_id = table.seats[EVENT_SEAT].user_id

    def notice(done: Table, lang: str) -> str:
        return _result_notice(done, lang, following is not None)

    def buttons(lang: str) -> Components | None:
        if following is None or user_id is None:
            return None
        view = Components()
        view.button(event_next_id(following.event_id, user_id), t("btn.event_next", lang), 0,
                    discord.ButtonStyle.primary)
        return view

    if await private_table_changed(ctx.hands, table, events, seat=EVENT_SEAT,
                                   finished="event_finished", notice=notice, buttons=buttons):
        announcer.poke()


def _result_notice(table: Table, lang: str, more: bool) -> str:
    assert table.hand is not None and table.hand.result is not None
    played = EventDeal.of(table)
    notice = t("event.result", lang, deal=0 if played is None else played.deal,
               points=texts.signed(table.hand.result.points[EVENT_SEAT]),
               moves=moves_of(table, EVENT_SEAT))
    return notice + "\n" + t("event.next_button" if more else "event.next", lang)


async def on_next_click(interaction: discord.Interaction, ctx: CogContext, event_id: str,
                        user_id: int) -> None:
    """Next deal under an event deal's result: re-check the clicker (the member who played
    it), the guild and the event (this server's, still the open one), then deal the
    member's next deal as ``/ddz event play`` does (a new private message)."""
    try:
        guild_id = permissions.guild_id(interaction)
        if interaction.user.id != user_id:
            raise GameError("event_next_other")
        current = await ctx.feature(EventService).current(guild_id)
        if current is None or current.event_id != event_id:
            raise GameError("stale")  # an event that is over, or another server's: forged
        await play(interaction, ctx)
    except Exception as exc:
        await answer_error(interaction, exc)


def _name(event: EventInfo) -> str:
    return discord.utils.escape_markdown(event.name)


def standings_lines(board: EventStandings, lang: str, limit: int = BOARD_ROWS) -> list[str]:
    """One line per entrant, best first: place (shared by equal totals), name, duplicate
    total, raw points, deals played."""
    return [t("event.board_line", lang, place=row.place,
              name=discord.utils.escape_markdown(row.name or "?"),
              score=shown_score(Fraction(row.exact), decimal_mark(lang)),
              points=texts.signed(row.points),
              played=row.played, deals=board.event.deals)
            for row in board.rows[:limit]]


def standings_embed(board: EventStandings, lang: str) -> discord.Embed:
    """The standings: final once closed and no deal is being played, provisional while
    one begun before the close goes on, else over the deals the viewer has played."""
    event = board.event
    embed = discord.Embed(title=t("event.board_title", lang, name=_name(event)), colour=COLOR)
    lines = standings_lines(board, lang)
    if board.final:
        head = t("event.board_final", lang, deals=event.deals)
    elif board.provisional:
        head = t("event.board_provisional", lang,
                 deals=t("sep.list", lang).join(map(str, board.deals_seen)) or "—")
    elif board.deals_seen:
        head = t("event.board_partial", lang, deals=t("sep.list", lang).join(map(str, board.deals_seen)),
                 closes=f"<t:{int(event.closes_at)}:R>")
    else:
        head = t("event.board_hidden", lang, closes=f"<t:{int(event.closes_at)}:R>")
    count = tn("event.entrants", board.entrants, lang, count=board.entrants)
    body = "\n".join(lines) if lines else t("event.board_empty", lang)
    embed.description = f"{head}\n{count}\n\n{body}"
    embed.set_footer(text=t("event.board_footer", lang))
    return embed


ANNOUNCE_EVERY = 60.0
"""Seconds between two looks for events whose results are due (a close by command or
the end of the last deal being played looks at once)."""
SEND_TRIES = 3
"""Attempts at posting the results (1 s, then 2 s between them)."""


class EventAnnouncer(Background):
    """Posts each closed event's final standings once, in the channel where it was
    created. One task, started when the bot is ready (cogs/background.py); ``poke``
    makes it look now. The
    announcement is claimed in the database right before it is sent (never twice, even
    across processes and restarts); a Discord failure is retried ``SEND_TRIES`` times."""

    name = "ddz-event-announcer"

    def __init__(self, bot: Any, events: EventService, language: Any, delivery: Delivery,
                 every: float = ANNOUNCE_EVERY) -> None:
        super().__init__(bot, every)
        self.events = events
        self.delivery = delivery
        """The results go through it (the global budget, the request metric)."""
        self.language = language
        """``async (guild_id) -> locale``: the server's language (``ServerLanguages.language``)."""

    async def once(self) -> int:
        return await self.announce_all()

    async def announce_all(self) -> int:
        """Post the results of every due event of the servers this process serves; how
        many were posted."""
        posted = 0
        for event in await self.events.due():
            if not self._serves(event.guild_id):
                continue  # another shard's
            final = await self.events.announce(event)
            if final is None:
                continue
            outbox = self.delivery.outbox(event.channel_id, event.guild_id)
            lang = await self.language(event.guild_id)
            if await self._send(outbox, final, lang):
                posted += 1
        return posted

    def _serves(self, guild_id: int) -> bool:
        """Whether the server is on one of this process's shards (Discord's shard formula)."""
        count = getattr(self.bot, "shard_count", None) or 1
        shards = getattr(self.bot, "shard_ids", None) or [getattr(self.bot, "shard_id", 0) or 0]
        return (guild_id >> 22) % count in shards

    async def _send(self, outbox: Outbox, final: EventStandings, lang: str) -> bool:
        embed = standings_embed(final, lang)
        text = t("event.announce", lang, name=_name(final.event))
        for attempt in range(SEND_TRIES):
            try:
                await outbox.send(content=text, embed=embed,
                                  allowed_mentions=discord.AllowedMentions.none())
                return True
            except (discord.NotFound, discord.Forbidden) as error:  # no channel to post in
                log.warning("event %s results not posted: %s", final.event.event_id, error)
                return False
            except discord.HTTPException as error:
                log.warning("event %s results not posted (try %s): %s",
                            final.event.event_id, attempt + 1, error)
                await asyncio.sleep(2 ** attempt)
        return False


def parse_replay(match: re.Match[str], data: Mapping[str, Any]) -> tuple[Any, ...]:
    """``on_replay_click``'s arguments from a ``REPLAY_TEMPLATE`` match."""
    return (match["event"], int(match["deal"]), int(match["user"]), int(match["page"]),
            match["mode"] == "r", match["verb"])


def parse_next(match: re.Match[str], data: Mapping[str, Any]) -> tuple[Any, ...]:
    """``on_next_click``'s arguments from a ``NEXT_TEMPLATE`` match."""
    return match["event"], int(match["user"])


ROUTES = (ClickRoute("eventreplay", REPLAY_TEMPLATE, on_replay_click, parse_replay),
          ClickRoute("eventnext", NEXT_TEMPLATE, on_next_click, parse_next))
"""The duplicate events' components (their ``Wing.routes``)."""


async def stats_fields(service: EventService, guild_id: int, user_id: int,
                       lang: str) -> list[tuple[str, str]]:
    """The duplicate events' field of ``/ddz stats`` (``Wing.stats``), once the member has
    entered one that is over (an open event's scores show only in its standings;
    docs/RULES.md §Events)."""
    events = await service.summary(guild_id, user_id)
    if not events.events:
        return []
    return [(t("stats.events", lang), t(
        "stats.events_value", lang, events=events.events, won=events.won, deals=events.deals,
        score=shown_score(Fraction(events.score).limit_denominator(1000), decimal_mark(lang))))]
