"""``/ddz tournament``: tournaments with people (docs/RULES.md §Tournaments), thin over
``TournamentService`` (``bot/features/tournaments/service.py``).

``create``, ``start``, ``drop`` and ``cancel`` need Manage Server; ``join``, ``leave`` and
``standings`` are everyone's. ``create`` posts the public sign-up message (Join / Leave,
``ddz:tn:<tournament>:<join|leave>``, ``SIGNUP_TEMPLATE``, and the entrant count) in its
channel; each round's
tables play in public threads under that channel, which ``TournamentDiscord`` (the
service's ``TournamentPoster``) creates through ``cogs/delivery.py``, like every other
channel request (the global budget). The tables' boards are ordinary boards
(``cogs/board.py``) in their threads. ``TournamentTicker`` runs ``TournamentService.tick``
when the bot is ready and every ``TICK_EVERY`` seconds (scheduled starts; whatever a
restart left to do).

Every answer to a command or a button is ephemeral; the public posts (sign-up, rounds,
threads' openings, final standings, cancellation) are in the server's language.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import discord
from discord import app_commands

from bot.features.tournaments.limits import DEFAULT_HANDS, MAX_HANDS, MAX_ROUNDS
from bot.features.tournaments.scoring import StandingRow
from bot.features.tournaments.service import LEVELS as LEVEL_NAMES
from bot.features.tournaments.service import Standings, ThreadRefused, TournamentService
from bot.features.tournaments.values import TournamentEntrant, TournamentInfo, TournamentTable
from bot.features.tournaments.web import tournament_url
from bot.game.errors import GameError
from bot.i18n import decimal, resolve_locale, t, tn
from bot.rules import RuleSet
from bot.service.budget import RESULT
from bot.service.links import WebLinks
from bot.values import NO_ORGANISER
from cogs import permissions
from cogs.background import Background
from cogs.components import Components
from cogs.context import CogContext, CommandMixin
from cogs.delivery import Delivery
from cogs.happy_texts import rules_name
from cogs.items import ClickRoute
from cogs.replies import answer_error, defer, respond
from cogs.translator import cmd

log = logging.getLogger(__name__)

COLOR = 0xC0392B
BOARD_ROWS = 25
"""Lines of standings shown (an embed's description takes 4,096 characters)."""
TICK_EVERY = 10.0
"""Seconds between two ``TournamentService.tick`` (a settled hand moves a tournament on
at once; the tick starts scheduled tournaments and finishes what a restart left)."""
NEEDED = ("create_public_threads", "send_messages_in_threads")
"""What ``create`` needs in its channel beyond a table's (cogs/permissions.py)."""
DRAWN_WAIT = 15.0
"""Seconds a finished table's thread waits for its board to show the result before it is
archived (and the round's end or the final standings posted)."""
MEDALS = ("🥇", "🥈", "🥉")
CLASSIC = RuleSet()
Choice = app_commands.Choice
LEVELS = [Choice(name=cmd(level, f"choice.level.{level}"), value=level) for level in LEVEL_NAMES]
RULES = [Choice(name=cmd("classic (bids 1-3)", "choice.rules.classic"), value="classic"),
         Choice(name=cmd("Happy (call, grab, double)", "choice.rules.happy"), value="happy")]
"""The organiser's choice of the tables' rule set (docs/RULES.md §Happy rules)."""


SIGNUP_TEMPLATE = r"ddz:tn:(?P<tournament>[0-9a-f]{32}):(?P<verb>join|leave)"
"""custom_id of Join / Leave under a tournament's public sign-up (the tournament re-checked
as this server's open one, any other answered as stale)."""


def signup_id(tournament_id: str, verb: str) -> str:
    """custom_id of the sign-up's Join / Leave button (≤ 45 characters)."""
    return f"ddz:tn:{tournament_id}:{verb}"


def name_of(info: TournamentInfo) -> str:
    return discord.utils.escape_markdown(info.name)


def points_text(value: Fraction, lang: str) -> str:
    """Match points with one decimal (docs/RULES.md §Tournaments: 4/3 → 1.3, 1,3)."""
    return decimal(float(value), lang)


class TournamentCommands(CommandMixin):
    """The ``/ddz tournament …`` subcommands, mixed into the ``ddz`` GroupCog. Its contract,
    the only attribute used: ``ctx`` (cogs/context.py)."""

    ctx: CogContext

    tournament = app_commands.Group(name=cmd("tournament", "cmd.tournament.name"),
                                    description=cmd("Tournaments: rounds of tables of three",
                                                    "cmd.tournament.description"))

    @tournament.command(name=cmd("create", "cmd.tournament_create.name"),
                        description=cmd("Create a tournament (Manage Server)",
                                        "cmd.tournament_create.description"))
    @app_commands.rename(name=cmd("name", "param.tournament_name.name"),
                         rounds=cmd("rounds", "param.rounds.name"),
                         hands=cmd("hands", "param.hands.name"),
                         level=cmd("level", "param.level.name"),
                         start_in_minutes=cmd("start_in_minutes", "param.start_in_minutes.name"),
                         rules=cmd("rules", "param.rules.name"))
    @app_commands.describe(
        name=cmd("The tournament's name", "param.tournament_name.description"),
        rounds=cmd("Number of rounds (1-9)", "param.rounds.description"),
        hands=cmd("Hands per round at each table (1-12, default 3)",
                  "param.tournament_hands.description"),
        level=cmd("Level of the computers in empty seats (default normal)",
                  "param.tournament_level.description"),
        start_in_minutes=cmd("Start by itself after this many minutes",
                             "param.start_in_minutes.description"),
        rules=cmd("Rules of its tables (default classic)",
                  "param.tournament_rules.description"))
    @app_commands.choices(level=LEVELS, rules=RULES)
    async def tournament_create(self, interaction: discord.Interaction,
                                name: app_commands.Range[str, 1, 60],
                                rounds: app_commands.Range[int, 1, MAX_ROUNDS],
                                hands: app_commands.Range[int, 1, MAX_HANDS] = DEFAULT_HANDS,
                                level: Choice[str] | None = None,
                                start_in_minutes: app_commands.Range[int, 1, 10080] | None = None,
                                rules: Choice[str] | None = None,
                                ) -> None:
        self.ctx.seen(interaction)
        await create(interaction, self.ctx, name, rounds, hands,
                     level.value if level else "normal", start_in_minutes,
                     rules.value if rules else "classic")

    @tournament.command(name=cmd("join", "cmd.tournament_join.name"),
                        description=cmd("Enter the server's tournament",
                                        "cmd.tournament_join.description"))
    async def tournament_join(self, interaction: discord.Interaction) -> None:
        self.ctx.seen(interaction)
        await join(interaction, self.ctx.feature(TournamentService), None)

    @tournament.command(name=cmd("leave", "cmd.tournament_leave.name"),
                        description=cmd("Leave the tournament (after the start: withdraw)",
                                        "cmd.tournament_leave.description"))
    async def tournament_leave(self, interaction: discord.Interaction) -> None:
        self.ctx.seen(interaction)
        await leave(interaction, self.ctx.feature(TournamentService), None)

    @tournament.command(name=cmd("start", "cmd.tournament_start.name"),
                        description=cmd("Close the sign-up and seat round 1 (Manage Server)",
                                        "cmd.tournament_start.description"))
    async def tournament_start(self, interaction: discord.Interaction) -> None:
        self.ctx.seen(interaction)
        await start(interaction, self.ctx.feature(TournamentService))

    @tournament.command(name=cmd("standings", "cmd.tournament_standings.name"),
                        description=cmd("The tournament's standings",
                                        "cmd.tournament_standings.description"))
    async def tournament_standings(self, interaction: discord.Interaction) -> None:
        self.ctx.seen(interaction)
        guild_id = permissions.guild_id(interaction)
        await defer(interaction, ephemeral=True, thinking=True)
        lang = resolve_locale(interaction.locale)
        board = await self.ctx.feature(TournamentService).standings(guild_id)
        web = (await self.ctx.service.settings(guild_id)).web
        await respond(interaction, web_line(board.info, self.ctx.web_links, web, lang),
                      embed=standings_embed(board, lang))

    @tournament.command(name=cmd("drop", "cmd.tournament_drop.name"),
                        description=cmd("Take a member out at once (Manage Server)",
                                        "cmd.tournament_drop.description"))
    @app_commands.rename(member=cmd("member", "param.member.name"))
    @app_commands.describe(member=cmd("Who leaves the tournament",
                                      "param.tournament_member.description"))
    async def tournament_drop(self, interaction: discord.Interaction,
                              member: discord.User) -> None:
        self.ctx.seen(interaction)
        guild_id = permissions.guild_id(interaction)
        if not permissions.is_admin(interaction):
            raise GameError("tournament_admin_only")
        await defer(interaction, ephemeral=True, thinking=True)
        lang = resolve_locale(interaction.locale)
        answer = await self.ctx.feature(TournamentService).drop(guild_id, member.id)
        await respond(interaction, t(f"tournament.drop_{answer}", lang,
                                     member=member.mention))

    @tournament.command(name=cmd("cancel", "cmd.tournament_cancel.name"),
                        description=cmd("End the tournament now (Manage Server)",
                                        "cmd.tournament_cancel.description"))
    async def tournament_cancel(self, interaction: discord.Interaction) -> None:
        self.ctx.seen(interaction)
        guild_id = permissions.guild_id(interaction)
        if not permissions.is_admin(interaction):
            raise GameError("tournament_admin_only")
        await defer(interaction, ephemeral=True, thinking=True)
        lang = resolve_locale(interaction.locale)
        info = await self.ctx.feature(TournamentService).cancel(guild_id)
        await respond(interaction, t("tournament.cancelled_ack", lang, name=name_of(info)))


def missing_for_threads(interaction: discord.Interaction) -> list[str]:
    """The permissions a tournament needs in this channel that the bot lacks: a table's
    (cogs/permissions.py), Create Public Threads and Send Messages in Threads."""
    perms = interaction.app_permissions
    names = [*permissions.REQUIRED, *NEEDED]
    return [name for name in names if not getattr(perms, name)]


async def create(interaction: discord.Interaction, ctx: CogContext, name: str, rounds: int,
                 hands: int, level: str, start_in_minutes: int | None,
                 variant: str = "classic") -> None:
    """``/ddz tournament create`` (Manage Server): checks the channel's permissions (naming
    what is missing, nothing created), then the tournament (its tables play ``variant``,
    ``classic`` or ``happy``) and its public sign-up message."""
    guild_id = permissions.guild_id(interaction)
    if not permissions.is_admin(interaction):
        raise GameError("tournament_admin_only")
    lang = resolve_locale(interaction.locale)
    if permissions.is_thread(interaction):
        raise GameError("tournament_in_thread")
    missing = missing_for_threads(interaction)
    if missing:
        await respond(interaction, permissions.missing_text(missing, lang))
        return
    await defer(interaction, ephemeral=True, thinking=True)
    service = ctx.feature(TournamentService)
    info = await service.create(guild_id, interaction.channel_id or 0, interaction.user.id,
                                name, rounds, hands, level, start_in_minutes, variant)
    public = await ctx.languages.language(guild_id)
    try:
        message_id = await ctx.board.delivery.send(
            info.channel_id, guild_id, RESULT, **signup_message(info, 0, public))
        await service.set_signup(info.tournament_id, message_id)
    except discord.HTTPException as error:
        log.warning("tournament %s: no sign-up message: %s", info.tournament_id, error)
    await respond(interaction, t("tournament.created", lang, name=name_of(info),
                                 channel=f"<#{info.channel_id}>"))


def signup_message(info: TournamentInfo, entrants: int, lang: str,
                   closed: bool = False) -> dict[str, Any]:
    """The sign-up message's keywords: text with the entrant count, Join / Leave (kept
    once closed: a click then says the sign-up is over), no mentions."""
    level = t(f"choice.level.{info.level}", lang)
    lines = [t("tournament.signup", lang, name=name_of(info), rounds=info.rounds,
               hands=info.hands, level=level),
             t("tournament.rules", lang, rules=rules_name(info.rules or CLASSIC, lang)),
             tn("tournament.entrants", entrants, lang, count=entrants)]
    if closed:
        lines.append(t("tournament.signup_closed", lang))
    elif info.starts_at is not None:
        lines.append(t("tournament.starts_at", lang, when=f"<t:{int(info.starts_at)}:R>"))
    else:
        lines.append(t("tournament.starts_by_hand", lang))
    view = Components()
    view.button(signup_id(info.tournament_id, "join"), t("btn.tournament_join", lang), 0,
                discord.ButtonStyle.success)
    view.button(signup_id(info.tournament_id, "leave"), t("btn.tournament_leave", lang), 0)
    return {"content": "\n".join(lines), "view": view,
            "allowed_mentions": discord.AllowedMentions.none()}


async def join(interaction: discord.Interaction, service: TournamentService,
               tournament_id: str | None) -> None:
    """``join`` or the sign-up's Join (``tournament_id``: the button's, re-checked)."""
    guild_id = permissions.guild_id(interaction)
    await defer(interaction, ephemeral=True, thinking=True)
    lang = resolve_locale(interaction.locale)
    info = await service.join(guild_id, interaction.user.id, interaction.user.display_name,
                              tournament_id)
    await respond(interaction, t("tournament.joined", lang, name=name_of(info)))


async def leave(interaction: discord.Interaction, service: TournamentService,
                tournament_id: str | None) -> None:
    """``leave`` or the sign-up's Leave: before the start the entry goes; after it, a
    withdrawal (the seat plays on auto-play until the round ends)."""
    guild_id = permissions.guild_id(interaction)
    await defer(interaction, ephemeral=True, thinking=True)
    lang = resolve_locale(interaction.locale)
    answer = await service.leave(guild_id, interaction.user.id, tournament_id)
    await respond(interaction, t(f"tournament.{answer}", lang))


async def start(interaction: discord.Interaction, service: TournamentService) -> None:
    guild_id = permissions.guild_id(interaction)
    if not permissions.is_admin(interaction):
        raise GameError("tournament_admin_only")
    await defer(interaction, ephemeral=True, thinking=True)
    lang = resolve_locale(interaction.locale)
    info = await service.start(guild_id)
    await respond(interaction, t("tournament.started", lang, name=name_of(info),
                                 seed=info.seed))


async def on_signup_click(interaction: discord.Interaction, ctx: CogContext,
                          tournament_id: str, verb: str) -> None:
    """Join / Leave under a sign-up: the server re-checks guild, tournament (this server's
    open one; any other is stale) and member; refusals are polite and ephemeral."""
    try:
        service = ctx.feature(TournamentService)
        if verb == "join":
            await join(interaction, service, tournament_id)
        else:
            await leave(interaction, service, tournament_id)
    except Exception as exc:
        await answer_error(interaction, exc)


def standings_lines(rows: Sequence[StandingRow], entrants: Sequence[TournamentEntrant],
                    lang: str, limit: int = BOARD_ROWS) -> list[str]:
    """One line per member, best first: medal or place, name (withdrawn / dropped said),
    match points (one decimal), points won, Buchholz, tables played."""
    by_id = {e.user_id: e for e in entrants}
    lines = []
    for row in rows[:limit]:
        entrant = by_id.get(row.user_id)
        name = discord.utils.escape_markdown((entrant.name if entrant else None) or "?")
        status = ("" if entrant is None or entrant.status == "in"
                  else " " + t(f"tournament.status_{entrant.status}", lang))
        # members equal on every measure share the place: 🥇 🥇 🥉, "=4." (docs/RULES.md
        # §Tournaments); the list keeps the join order between them
        place = (MEDALS[row.shown - 1] if row.shown <= len(MEDALS)
                 else f"={row.shown}." if row.shared else f"{row.shown}.")
        lines.append(t("tournament.board_line", lang, place=place, name=name, status=status,
                       mp=points_text(row.match_points, lang),
                       points=f"{row.points:+d}" if row.points else "0",
                       buchholz=points_text(row.buchholz, lang), tables=row.tables))
    return lines


def web_line(info: TournamentInfo, links: WebLinks | None, web: bool, lang: str) -> str | None:
    """The tournament's web page (standings, each round's tables, the hands' replays),
    when the bot runs the web page and the server turned it on (``/ddz config web``),
    else None (docs/WEB.md)."""
    if links is None or not web or not info.number:
        return None
    return t("tournament.web", lang, url=tournament_url(links, info.guild_id, info.number))


def standings_embed(board: Standings, lang: str) -> discord.Embed:
    """The standings (``/ddz tournament standings``, the final post)."""
    info = board.info
    embed = discord.Embed(title=t("tournament.board_title", lang, name=name_of(info)),
                          colour=COLOR)
    head = tn(f"tournament.state_{info.status}", info.rounds, lang, round=info.current_round,
              rounds=info.rounds)
    body = "\n".join(standings_lines(board.rows, board.entrants, lang)) or t(
        "tournament.board_empty", lang)
    embed.description = f"{head}\n\n{body}"
    embed.set_footer(text=t("tournament.board_footer", lang, seed=info.seed))
    return embed


async def stats_fields(service: TournamentService, guild_id: int, user_id: int,
                       lang: str) -> list[tuple[str, str]]:
    """The tournaments' field of ``/ddz stats`` (``Wing.stats``): the last ten of
    ``stats_lines``, once the member entered one that is over."""
    lines = await stats_lines(service, guild_id, user_id, lang)
    if not lines:
        return []
    return [(t("stats.tournaments", lang), "\n".join(lines[-10:])[:1024])]


async def stats_lines(service: TournamentService, guild_id: int, user_id: int,
                      lang: str) -> list[str]:
    """``/ddz stats``: one line per tournament the member entered that is over, oldest
    first: name, when, their place among its members (or cancelled)."""
    lines = []
    for info, row, field in await service.of_member(guild_id, user_id):
        when = f"<t:{int(info.ended_at or info.created_at)}:d>"
        if info.status == "cancelled":
            lines.append(t("tournament.stats_cancelled", lang, name=name_of(info), when=when))
        else:
            key = "tournament.stats_line_shared" if row and row.shared else "tournament.stats_line"
            lines.append(t(key, lang, name=name_of(info), when=when,
                           place=row.shown if row else "—", field=field))
    return lines


def _refusal(error: discord.HTTPException) -> ThreadRefused:
    """Discord's refusal of a thread as the service's ``ThreadRefused`` (docs/DISCORD.md rows
    23 and 26): 160006/160007 the server's active threads, 403 a missing permission."""
    if error.code in (160006, 160007):
        return ThreadRefused("limit", f"{error.code}")
    if error.status == 403:
        return ThreadRefused("permission", f"{error.status}/{error.code}")
    return ThreadRefused("other", f"{error.status}/{error.code}")


class TournamentDiscord:
    """The service's ``TournamentPoster`` on Discord: every request through ``delivery``
    (the global budget), texts in the server's language (``language``)."""

    def __init__(self, delivery: Delivery, language: Any, links: WebLinks | None = None,
                 settings: Any = None, drawn: Any = None) -> None:
        self.delivery = delivery
        self.language = language
        """``async (guild_id) -> locale`` (``ServerLanguages.language``)."""
        self.links = links
        self.settings = settings
        """``async (guild_id) -> GuildSettings`` (``TableService.settings``), None: no link."""
        self.drawn = drawn
        """``async (table_id, seq, timeout) -> bool`` (``Board.drawn``): whether a table's
        board shows that state; None: nothing to wait for."""

    async def signup_changed(self, info: TournamentInfo, entrants: int) -> None:
        if info.signup_message_id is None:
            return
        lang = await self.language(info.guild_id)
        await self.delivery.edit(info.channel_id, info.signup_message_id, RESULT,
                                 **signup_message(info, entrants, lang,
                                                  closed=info.status != "open"))

    async def open_thread(self, info: TournamentInfo, table: TournamentTable) -> int:
        """The table's public thread, named after tournament, round and table, and one
        message in it mentioning its members (the only notification they get)."""
        lang = await self.language(info.guild_id)
        title = t("tournament.thread_name", lang, name=info.name, round=table.round_no,
                  table=table.table_no)[:100]
        try:
            thread_id = await self.delivery.create_thread(info.channel_id, info.guild_id, title)
        except discord.HTTPException as error:
            raise _refusal(error) from None
        members = [user for user in table.seats if user is not None]
        try:
            await self.delivery.post(
                thread_id, info.guild_id, RESULT,
                content=t("tournament.thread_open", lang, name=name_of(info),
                          round=table.round_no, table=table.table_no,
                          members=" ".join(f"<@{m}>" for m in members),
                          hands=tn("tournament.hands", info.hands, lang, count=info.hands)),
                allowed_mentions=discord.AllowedMentions(
                    users=[discord.Object(m) for m in members], roles=False, everyone=False))
        except discord.Forbidden as error:  # no Send Messages in Threads: no thread kept
            with contextlib.suppress(discord.HTTPException):
                await self.delivery.archive_thread(thread_id)
            raise _refusal(error) from None
        return thread_id

    async def thread_refused(self, info: TournamentInfo, reason: str, retry_in: float) -> None:
        """In the tournament's channel, mentioning its organiser: what Discord refused and
        what to do (``ThreadRefused.reason``: ``limit``, ``permission``, ``other``)."""
        lang = await self.language(info.guild_id)
        organiser = info.created_by if info.created_by != NO_ORGANISER else None
        content = t(f"tournament.thread_refused_{reason}", lang, name=name_of(info),
                    organiser=f"<@{organiser}> " if organiser is not None else "",
                    wait=round(retry_in), create=t("perm.create_public_threads", lang),
                    send=t("perm.send_messages_in_threads", lang))
        await self.delivery.post(
            info.channel_id, info.guild_id, RESULT, content=content,
            allowed_mentions=discord.AllowedMentions(
                users=[discord.Object(organiser)] if organiser is not None else False,
                roles=False, everyone=False))

    async def close_thread(self, info: TournamentInfo, thread_id: int,
                           shown: tuple[str, int] | None) -> None:
        """Once the table's board shows ``shown`` (at most ``DRAWN_WAIT`` seconds), archive
        and lock its thread (``Delivery.archive_thread``; archived only without Manage
        Threads)."""
        if shown is not None and self.drawn is not None:
            table_id, seq = shown
            if not await self.drawn(table_id, seq, DRAWN_WAIT):
                log.warning("tournament %s: table %s not drawn within %.0f s; archiving its "
                            "thread anyway", info.tournament_id, table_id, DRAWN_WAIT)
        await self.delivery.archive_thread(thread_id)

    async def round_seated(self, info: TournamentInfo, round_no: int,
                           tables: Sequence[TournamentTable]) -> None:
        lang = await self.language(info.guild_id)
        lines = [tn("tournament.round_seated", len(tables), lang, name=name_of(info),
                    round=round_no, rounds=info.rounds, tables=len(tables))]
        if round_no == 1:
            lines.append(t("tournament.seed", lang, seed=info.seed))
            await self._close_signup(info, sum(1 for table in tables for user in table.seats
                                               if user is not None), lang)
        for table in tables:
            seats = [f"<@{user}>" if user is not None else t("tournament.computer", lang)
                     for user in table.seats]
            lines.append(t("tournament.round_table", lang, table=table.table_no,
                           seats=t("sep.list", lang).join(seats)))
        await self.delivery.post(info.channel_id, info.guild_id, RESULT,
                                 content="\n".join(lines)[:2000],
                                 allowed_mentions=discord.AllowedMentions.none())

    async def _close_signup(self, info: TournamentInfo, entrants: int, lang: str) -> None:
        if info.signup_message_id is None:
            return
        try:
            await self.delivery.edit(info.channel_id, info.signup_message_id, RESULT,
                                     **signup_message(info, entrants, lang, closed=True))
        except discord.HTTPException as error:
            log.warning("tournament %s: sign-up not closed: %s", info.tournament_id, error)

    async def start_refused(self, info: TournamentInfo, entrants: int) -> None:
        lang = await self.language(info.guild_id)
        await self.delivery.post(info.channel_id, info.guild_id, RESULT,
                                 content=tn("tournament.start_refused", entrants, lang,
                                            name=name_of(info), count=entrants),
                                 allowed_mentions=discord.AllowedMentions.none())

    async def finished(self, info: TournamentInfo, rows: Sequence[StandingRow],
                       entrants: Sequence[TournamentEntrant]) -> None:
        lang = await self.language(info.guild_id)
        board = Standings(info.model_copy(update={"status": "finished"}), list(rows),
                          list(entrants))
        web = self.settings is not None and (await self.settings(info.guild_id)).web
        link = web_line(info, self.links, web, lang)
        content = t("tournament.final", lang, name=name_of(info))
        await self.delivery.post(info.channel_id, info.guild_id, RESULT,
                                 content=content + ("\n" + link if link else ""),
                                 embed=standings_embed(board, lang),
                                 allowed_mentions=discord.AllowedMentions.none())

    async def cancelled(self, info: TournamentInfo) -> None:
        lang = await self.language(info.guild_id)
        await self.delivery.post(info.channel_id, info.guild_id, RESULT,
                                 content=t("tournament.cancelled", lang, name=name_of(info)),
                                 allowed_mentions=discord.AllowedMentions.none())


class TournamentTicker(Background):
    """``TournamentService.tick`` when the bot is ready (after the restored tables) and
    every ``every`` seconds (cogs/background.py)."""

    name = "ddz-tournaments"

    def __init__(self, bot: Any, service: TournamentService, every: float = TICK_EVERY) -> None:
        super().__init__(bot, every)
        self.service = service

    async def once(self) -> None:
        await self.service.tick(self._serves)

    def _serves(self, guild_id: int) -> bool:
        """Whether the server is on one of this process's shards (Discord's shard formula)."""
        count = getattr(self.bot, "shard_count", None) or 1
        shards = getattr(self.bot, "shard_ids", None) or [getattr(self.bot, "shard_id", 0) or 0]
        return (guild_id >> 22) % count in shards


ROUTES = (ClickRoute("tournament", SIGNUP_TEMPLATE, on_signup_click),)
"""The tournaments' components (their ``Wing.routes``; the clicks get the template's groups:
tournament id, verb)."""


RULES_PARTS = ("rules.tournaments",)
"""Its part of ``/ddz rules`` (``Wing.rules``; docs/RULES.md §Tournaments)."""
