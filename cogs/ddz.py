"""The ``/ddz`` command group and the click handlers: thin adapters over TableService.

Every handler acknowledges first (within Discord's 3 s: ``defer``, or for hand views
``defer_soon``, which defers only when the view is not drawn within 0.15 s), calls
the service (which checks seat, turn and seq under the table lock and commits), and
answers through ``cogs.replies``. Refusals (GameError) become a localized ephemeral reason;
anything unexpected is logged with its context and answered with an apology.
The public table message is redrawn by ``Board`` from listener events.
"""

from __future__ import annotations

import logging
import re
import types
from collections.abc import Sequence
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.game.errors import GameError
from bot.game.seat import Event
from bot.game.table import Table
from bot.i18n import resolve_locale, t
from bot.rules import is_pass_text, show_cards
from bot.service import TableService
from bot.service.budget import GlobalBudget
from bot.service.features import Features
from bot.service.links import WebLinks
from bot.service.renderer import Renderer
from bot.service.replays import ReplayService
from bot.values import Settlement
from cogs import forget, info, newmatch, permissions
from cogs.board import MIN_INTERVAL, Board
from cogs.config import ConfigCommands
from cogs.context import CogContext
from cogs.feature_clicks import FeatureClicks
from cogs.gone import GoneListeners
from cogs.hand_actions import autoplay_ack, handle_hand_verb
from cogs.hand_refresh import HandRefresh
from cogs.hand_screens import HandScreens
from cogs.items import KINDS, TEMPLATES, ClickRoute, ViewState, route_click
from cogs.languages import ServerLanguages
from cogs.pings import TurnPinger
from cogs.records import RecordsCommands
from cogs.replay import ReplayCommands
from cogs.replies import answer_error, context_of, defer, defer_soon, respond
from cogs.tokens import release
from cogs.translator import cmd
from cogs.wing import DiscordFeature, PrivateChange, TableClosing, Wing, WingHost

KNOWN_IDS = tuple(re.compile(p) for p in TEMPLATES)
"""Every custom_id the bot draws (cogs/items.py)."""

log = logging.getLogger("cogs.ddz")
Choice = app_commands.Choice


_is_admin = permissions.is_admin


GROUP = {"name": "ddz", "group_name": cmd("ddz", "cmd.ddz.name"),
         "group_description": cmd("Play Dou Dizhu (Fight the Landlord)", "cmd.ddz.description")}
"""The ``/ddz`` GroupCog's class arguments (``DdzCog`` and ``ddz_cog``'s class over it)."""

CARDS_TEXT_MAX = 60
"""The longest ``cards:`` text (the option's own limit); longer is refused unquoted."""


@app_commands.guild_only()
class DdzCog(ReplayCommands, ConfigCommands, RecordsCommands, FeatureClicks, GoneListeners,
             commands.GroupCog, **GROUP):
    """``/ddz …`` commands, public buttons and the private hand view; each feature's
    commands come with its mixin (``ddz_cog``)."""

    def __init__(self, bot: commands.Bot, service: TableService, features: Features,
                 wings: Sequence[DiscordFeature], replays: ReplayService, renderer: Renderer,
                 web_links: WebLinks | None = None, budget: GlobalBudget | None = None,
                 board_interval: float = MIN_INTERVAL) -> None:
        """``features``: the services of the installed features and ``wings`` those
        features (``bot.features.installed.FEATURES``: their Discord sides, attached here). ``budget``: the bot token's global rate limit
        (shared with its other processes through PostgreSQL, else this process's), for the
        public messages' channel requests (None: unpaced). ``board_interval``: seconds at
        least between two redraws of a table's message (``Settings.board_interval``)."""
        self.bot = bot
        self.service = service
        self.replays = replays
        self.languages = ServerLanguages(bot, service)
        """Each server's public language (cogs/languages.py)."""
        self.hands = HandScreens(service, renderer)
        """The private hand screens (cogs/hand_screens.py), shared with the features."""
        self.views = self.hands.views
        self.board = Board(bot, service, renderer, after_redraw=HandRefresh(self.views),
                           interval=board_interval, budget=budget, languages=self.languages)
        service.pings.sender = TurnPinger(self.board.delivery, self.languages)
        """Turn pings: the service decides when, this posts and deletes (cogs/pings.py)."""
        self.ctx = CogContext(service, service.records, replays, self.board, features,
                              self.languages, self.hands, web_links)
        """Handed to every item handler and router (cogs/context.py)."""
        host = WingHost(bot, self.ctx, self.board.delivery, self.languages.language, web_links)
        self.wings: dict[str, Wing] = {wing.name: wing.attach(host) for wing in wings}
        """Each feature's Discord side by its name (``cogs.wing.Wing``)."""
        for wing in self.wings.values():
            self.ctx.parts.extend(wing.parts)
            if wing.stats is not None:
                self.ctx.stats.append(wing.stats)
            if wing.settings is not None:
                self.ctx.settings.append(wing.settings)
        self.rule_parts = tuple(key for wing in self.wings.values() for key in wing.rules)
        """The features' parts of ``/ddz rules`` (catalog keys, ``Wing.rules``)."""
        self.private: dict[str, PrivateChange] = {
            kind: change for wing in self.wings.values() for kind, change in wing.private.items()}
        """What a change of a private table does, by ``Table.kind`` (the feature's own)."""
        self.closing: dict[str, TableClosing] = {
            kind: closing for wing in self.wings.values() for kind, closing in wing.closing.items()}
        """What the closing of a public table does before its views are forgotten, by
        ``Table.kind`` (the feature's own)."""
        self.routes: tuple[ClickRoute, ...] = tuple(
            route for wing in self.wings.values() for route in wing.routes)
        """The features' own component templates (``Wing.routes``), tried after the core's."""
        kinds = [route.kind for route in self.routes]
        if len(set(kinds)) < len(kinds) or KINDS & set(kinds):
            raise ValueError(f"a click kind taken twice: {sorted(kinds)}")
        super().__init__()

    async def cog_load(self) -> None:
        self._old_tree_error = self.bot.tree.on_error
        self.bot.tree.on_error = self.on_tree_error  # type: ignore[method-assign]  # discord.py's documented way to replace it
        for wing in self.wings.values():
            for task in wing.tasks:
                task.start()

    async def cog_unload(self) -> None:
        self.bot.tree.on_error = self._old_tree_error  # type: ignore[method-assign]  # as above
        for wing in self.wings.values():
            for task in wing.tasks:
                await task.close()
        await self.board.close()
        await self.views.close()

    # ----- service listener (bot.client re-dispatches TableService notifications) -----

    @commands.Cog.listener("on_ddz_table_changed")
    async def on_ddz_table_changed(self, table: Table, events: list[Event]) -> None:
        private = self.private.get(table.kind)
        if private is not None:  # no public message, only the member's view
            await private(table, events)
            return
        self.board.notify(table, events)
        if table.phase == "closed":
            closing = self.closing.get(table.kind)
            if closing is not None:  # its feature's last word to the members' views
                await closing(table)
            self.views.forget_table(table.id)

    @commands.Cog.listener("on_ddz_hand_settled")
    async def on_ddz_hand_settled(self, table: Table, settlement: Settlement) -> None:
        self.board.notify(table, settlement=settlement)

    async def redraw_restored(self, tables: list[Table]) -> None:
        """Redraw the public message of each restored table (after a restart)."""
        for table in tables:
            if not table.private:  # a private table has no public message
                self.board.restored(table)

    # ----- helpers ----------------------------------------------------------------------

    async def tell_release_notes(self, interaction: discord.Interaction) -> None:
        """After the answer to a member's interaction: tell them, privately and once, of
        each seat of theirs that Play again gave up while they were away (docs/RULES.md
        §Timers; an absent member has no interaction to answer until they come back)."""
        if interaction.guild_id is None or not interaction.response.is_done():
            return
        notes = self.service.take_release_notes(interaction.guild_id, interaction.user.id)
        if not notes:
            return
        lang = resolve_locale(interaction.locale)
        text = "\n".join(t("note.released", lang, channel=f"<#{n.channel_id}>") for n in notes)
        try:
            await interaction.followup.send(text, ephemeral=True,
                                            allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException as error:
            log.info("release note not sent: %s", error)

    @commands.Cog.listener()
    async def on_app_command_completion(self, interaction: discord.Interaction,
                                        command: object) -> None:
        try:
            await self.tell_release_notes(interaction)
        finally:
            release(interaction)  # handled: see on_interaction

    def _table_by_id(self, interaction: discord.Interaction, table_id: str, *,
                     same_channel: bool = False) -> Table:
        """The table a custom_id names, re-checked against where the click came from.

        A forged custom_id may name any table: one of another server (or, for the
        public buttons, another channel) is refused as closed. Raises GameError.
        """
        table = self.service.get(table_id)
        if table is None or table.guild_id != interaction.guild_id or (
                same_channel and table.channel_id != interaction.channel_id):
            raise GameError("table_closed")
        return table

    def _table_for(self, interaction: discord.Interaction) -> Table:
        """This channel's table when the caller is seated there (a feature's table in a
        thread, where the member may still hold a seat at a channel's table too), else the
        caller's table in this server, else this channel's; GameError otherwise."""
        here = self.service.table_in_channel(permissions.channel_id(interaction))
        if here is not None and here.holds(interaction.user.id):
            return here
        table = self.service.table_of_user(permissions.guild_id(interaction), interaction.user.id)
        if table is None:
            table = here
        if table is None:
            raise GameError("no_table_of_user")
        return table

    async def open_hand(self, interaction: discord.Interaction, table_id: str | None) -> None:
        """``My hand`` / ``/ddz hand``: a fresh ephemeral hand view."""
        defer_soon(interaction, ephemeral=True, thinking=True)
        table = (self._table_by_id(interaction, table_id) if table_id
                 else self._table_for(interaction))
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            raise GameError("not_seated")
        if table.hand is None:
            raise GameError("wrong_phase")
        lang = resolve_locale(interaction.locale)
        async with self.views.lock(table.id, interaction.user.id):
            await self.hands.show(interaction, table, seat, ViewState(), lang)

    # ----- components -------------------------------------------------------------------

    async def on_public_click(self, interaction: discord.Interaction, table_id: str, seq: int,
                              action: str) -> None:
        """A public table-message button (custom_id ``ddz:<table>:<seq>:<action>``)."""
        self.ctx.seen(interaction)
        try:
            if interaction.guild_id is None:
                raise GameError("guild_only")
            self._table_by_id(interaction, table_id, same_channel=True)
            if action == "hand":
                self.board.delivery.offer(interaction, private=True)
                await self.open_hand(interaction, table_id)
                return
            await defer(interaction)
            # Deferred as an update of the clicked message: its token edits that message
            # (exempt from the global rate limit) and posts the next one (cogs/delivery.py).
            message = interaction.message
            self.board.delivery.offer(interaction, edits=message.id if message else None)
            user = interaction.user
            svc = self.service
            # Join and Leave are idempotent by seat (already_seated / not_seated), so two
            # members joining at once both get in; the other buttons carry the seq check.
            if action == "join":
                await svc.join(table_id, user.id, user.display_name, str(interaction.locale))
            elif action == "leave":
                await svc.leave(table_id, user.id)
            elif action == "cpu":
                await svc.add_computer(table_id, user.id, seq=seq)
            elif action == "start":
                await svc.start(table_id, user.id, seq=seq)
            elif action == "cancel":
                await svc.cancel(table_id, user.id, _is_admin(interaction), seq=seq)
            elif action.startswith("bid"):
                await svc.bid(table_id, user.id, int(action[3:]), seq=seq)
            elif action == "again":
                await svc.play_again(table_id, user.id, seq=seq)
            elif action == "fill":
                table = self._table_by_id(interaction, table_id)
                fill = "wait" if table.fill == "computer" else "computer"
                await svc.set_fill(table_id, user.id, fill, _is_admin(interaction), seq=seq)
        except Exception as exc:
            await answer_error(interaction, exc, table_id)
        await self.tell_release_notes(interaction)

    async def on_hand_click(self, interaction: discord.Interaction, table_id: str, seq: int,
                            verb: str, state: ViewState, value: str | None) -> None:
        """A hand-view component (custom_id ``ddz:<table>:<seq>:h<verb>.<state>``)."""
        self.ctx.seen(interaction)
        try:
            message = interaction.message
            if message is not None and not message.flags.ephemeral:
                # A hand-view id forged onto a public message: never draw a hand there.
                raise GameError("stale")
            defer_soon(interaction)
            # may post the table's next message (not a turn ping: its answers are private)
            self.board.delivery.offer(interaction, private=True)
            lang = resolve_locale(interaction.locale)
            async with self.views.lock(table_id, interaction.user.id):
                table = self.service.get(table_id)
                if table is None or table.guild_id != interaction.guild_id:
                    await respond(interaction, t("error.table_closed", lang), edit=True, view=None)
                    return
                seat = table.seat_of(interaction.user.id)
                if seat is None:
                    await respond(interaction, t("error.not_seated", lang), edit=True, view=None)
                    return
                outcome = await handle_hand_verb(self.service, table, seat, interaction.user.id,
                                                 seq, verb, state, value, lang)
                await self.hands.show(interaction, outcome.table or table, seat, outcome.state, lang,
                                     notice=outcome.notice, hint=outcome.hint,
                                     readings=outcome.readings)
                if outcome.later is not None:  # a quick Hint: the search's pick may follow
                    self.views.show_better_hint(self.service, table_id, interaction.user.id,
                                                (outcome.table or table).seq, outcome.state,
                                                outcome.later)
        except Exception as exc:
            await answer_error(interaction, exc, table_id)
        await self.tell_release_notes(interaction)

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Route a click on any of the bot's components (``route_click``), and
        answer a ``ddz:`` component id that no button or menu template matches.

        Only a forged or outdated client sends the latter; without this it would get no
        answer at all ("This interaction failed").
        """
        if interaction.type is not discord.InteractionType.component:
            return
        try:
            if await route_click(self, interaction, self.routes):
                # Answered. The interaction and the clicked message discord.py parsed for
                # it (≈ 25 components and 25 menu options) were a reference cycle that
                # only the garbage collector freed, often after they had aged into older
                # generations; without the message both go at once (docs/PERFORMANCE.md
                # §Collector).
                interaction.message = None
                return
            data: Any = interaction.data or {}  # a component's payload (a TypedDict union)
            custom_id = str(data.get("custom_id", ""))
            if custom_id.startswith("ddz:") and not any(
                    pattern.fullmatch(custom_id) for pattern in KNOWN_IDS):
                await answer_error(interaction, GameError("stale"))
        finally:
            # Handled, answered included: what is kept of the click (a tracked view, a
            # board token) keeps its token only (cogs/tokens.py), and the interaction goes
            # young. Released before the answer, a forged id got none (its response had
            # let go of the interaction).
            release(interaction)

    # ----- error handling -------------------------------------------------------------------

    async def cog_app_command_error(self, interaction: discord.Interaction,
                                    error: app_commands.AppCommandError) -> None:
        await self.on_tree_error(interaction, error)

    async def on_tree_error(self, interaction: discord.Interaction,
                            error: app_commands.AppCommandError) -> None:
        """``tree.on_error``: refusals → reason; failures → logged apology."""
        original: BaseException = getattr(error, "original", error)
        if isinstance(error, app_commands.NoPrivateMessage):
            original = GameError("guild_only")
        elif isinstance(error, app_commands.MissingPermissions):
            original = GameError("not_admin")
        elif isinstance(error, app_commands.TransformerError):
            original = GameError("bad_option")  # a value no Discord client would send
        if interaction.extras.get("ddz_error_answered"):
            return
        interaction.extras["ddz_error_answered"] = True
        try:
            await answer_error(interaction, original)
        finally:
            release(interaction)  # handled: see on_interaction

    # ----- commands -------------------------------------------------------------------

    @app_commands.command(name=cmd("start", "cmd.start.name"),
                          description=cmd("Open a table in this channel", "cmd.start.description"))
    @app_commands.rename(computers=cmd("computers", "param.computers.name"),
                         level=cmd("level", "param.level.name"),
                         rules=cmd("rules", "param.rules.name"),
                         deal=cmd("deal", "param.dealing.name"))
    @app_commands.describe(
        computers=cmd("Computer players to seat at once (0-2)", "param.computers.description"),
        level=cmd("Level of the computer players (default normal)", "param.level.description"),
        rules=cmd("Rules of this table (default: the server's)", "param.rules.description"),
        deal=cmd("How the hands after the first are dealt (default: the server's)",
                 "param.dealing.description"))
    @app_commands.choices(
        level=[Choice(name=cmd("easy", "choice.level.easy"), value="easy"),
               Choice(name=cmd("normal", "choice.level.normal"), value="normal"),
               Choice(name=cmd("hard", "choice.level.hard"), value="hard")],
        rules=[Choice(name=cmd("classic (bids 1-3)", "choice.rules.classic"), value="classic"),
               Choice(name=cmd("Happy (call, grab, double)", "choice.rules.happy"),
                      value="happy")],
        deal=[Choice(name=cmd("shuffled", "choice.deal.shuffled"), value="shuffled"),
              Choice(name=cmd("no shuffle (more bombs)", "choice.deal.no_shuffle"),
                     value="no-shuffle")])
    async def start(self, interaction: discord.Interaction,
                    computers: app_commands.Range[int, 0, 2] = 0,
                    level: Choice[str] | None = None,
                    rules: Choice[str] | None = None,
                    deal: Choice[str] | None = None) -> None:
        """Open a lobby; ``level`` is used for these computers and for "Add computer";
        ``rules`` and ``deal`` are this table's over the server's (docs/RULES.md §Happy
        rules, §No-shuffle deals)."""
        self.ctx.seen(interaction)
        await defer(interaction, ephemeral=True, thinking=True)
        lacking = permissions.missing(interaction)
        if lacking:  # checked first: no half-open table blocks the channel
            await respond(interaction, permissions.missing_text(lacking, interaction.locale))
            return
        user = interaction.user
        table = await self.service.open_table(
            permissions.guild_id(interaction), permissions.channel_id(interaction),
            user.id, user.display_name,
            str(interaction.locale), computers=computers,
            level=level.value if level is not None else "normal",  # type: ignore[arg-type]  # the choices are LEVELS
            chosen={key: choice.value for key, choice in (("variant", rules), ("deal", deal))
                    if choice is not None})
        # The lobby is posted before the answer (which fills the "thinking" placeholder in;
        # this interaction's first follow-up would replace it): by a live token of the
        # channel, else in the channel (cogs/delivery.py). Later messages may go on this one.
        if not await self.board.flush(table):  # could not post after all: undo
            await self.service.cancel(table.id, user.id, True)
            raise GameError("cannot_post")
        await respond(interaction, t("ack.opened", interaction.locale, table=table.id))
        self.board.delivery.offer(interaction)

    @app_commands.command(name=cmd("hand", "cmd.hand.name"),
                          description=cmd("Open your private hand view", "cmd.hand.description"))
    async def hand(self, interaction: discord.Interaction) -> None:
        self.ctx.seen(interaction)
        await self.open_hand(interaction, None)

    @app_commands.command(name=cmd("play", "cmd.play.name"),
                          description=cmd("Play cards by typing them (e.g. 33344)",
                                          "cmd.play.description"))
    @app_commands.rename(cards=cmd("cards", "param.cards.name"))
    @app_commands.describe(cards=cmd("Cards: 3-9, 10 (or T), J, Q, K, A, 2, X, D, e.g. 33344",
                                     "param.cards.description"))
    async def play(self, interaction: discord.Interaction,
                   cards: app_commands.Range[str, 1, 60]) -> None:
        self.ctx.seen(interaction)
        await defer(interaction, ephemeral=True, thinking=True)
        table = self._table_for(interaction)
        if is_pass_text(cards):  # cards:pass, paso, 不出 (docs/RULES.md §Names in Chinese)
            await self.service.pass_turn(table.id, interaction.user.id)
            await respond(interaction, t("ack.passed_typed", interaction.locale))
            return
        if len(cards) > CARDS_TEXT_MAX:  # Discord keeps to the option's 60; a client may not
            raise GameError("cards_too_long")
        done = await self.service.play(table.id, interaction.user.id, cards)
        played = done.hand.history[-1] if done.hand and done.hand.history else None
        notation = show_cards(played.combo.notation) if played is not None and played.combo else cards
        await respond(interaction, t("ack.played", interaction.locale, cards=notation))

    @app_commands.command(name=cmd("pass", "cmd.pass.name"),
                          description=cmd("Pass your turn", "cmd.pass.description"))
    async def pass_(self, interaction: discord.Interaction) -> None:
        self.ctx.seen(interaction)
        await defer(interaction, ephemeral=True, thinking=True)
        table = self._table_for(interaction)
        await self.service.pass_turn(table.id, interaction.user.id)
        await respond(interaction, t("ack.passed", interaction.locale))

    @app_commands.command(name=cmd("rules", "cmd.rules.name"),
                          description=cmd("The rules, in short", "cmd.rules.description"))
    async def rules(self, interaction: discord.Interaction) -> None:
        self.ctx.seen(interaction)
        await defer(interaction, ephemeral=True, thinking=True)
        settings = await self.service.settings(permissions.guild_id(interaction))
        embed = info.rules_embed(resolve_locale(interaction.locale), settings.rules,
                                 self.rule_parts)
        await respond(interaction, embed=embed)

    @app_commands.command(name=cmd("stop", "cmd.stop.name"),
                          description=cmd("Abandon the current hand (starter or admin)",
                                          "cmd.stop.description"))
    async def stop(self, interaction: discord.Interaction) -> None:
        self.ctx.seen(interaction)
        await defer(interaction, ephemeral=True, thinking=True)
        table = (self.service.table_in_channel(permissions.channel_id(interaction))
                 or self._table_for(interaction))
        await self.service.stop_hand(table.id, interaction.user.id, _is_admin(interaction))
        await respond(interaction, t("ack.stopped", interaction.locale))

    @app_commands.command(name=cmd("autoplay", "cmd.autoplay.name"),
                          description=cmd("Let the computer play for you", "cmd.autoplay.description"))
    @app_commands.rename(mode=cmd("mode", "param.mode.name"), pace=cmd("pace", "param.pace.name"))
    @app_commands.describe(
        mode=cmd("On or off", "param.mode.description"),
        pace=cmd("Seconds between the computer's moves for you (1-10, default: your last, else 2)",
                 "param.pace.description"))
    @app_commands.choices(mode=[Choice(name=cmd("on", "choice.mode.on"), value="on"),
                                Choice(name=cmd("off", "choice.mode.off"), value="off")])
    async def autoplay(self, interaction: discord.Interaction, mode: Choice[str],
                       pace: app_commands.Range[int, 1, 10] | None = None) -> None:
        """Auto-play on (at ``pace`` seconds per move, stored for next time; default the
        seat's last pace) or off (docs/RULES.md §Controls)."""
        self.ctx.seen(interaction)
        await defer(interaction, ephemeral=True, thinking=True)
        table = self._table_for(interaction)
        on = mode.value == "on"
        done = await self.service.set_autoplay(table.id, interaction.user.id, on,
                                               pace if on else None)
        seat = done.seat_of(interaction.user.id)
        await respond(interaction, autoplay_ack(done, seat or 0, on,
                                                resolve_locale(interaction.locale)))

    @app_commands.command(name=cmd("notify", "cmd.notify.name"),
                          description=cmd("Turn pings: a message that mentions you when your "
                                          "turn waits", "cmd.notify.description"))
    @app_commands.rename(mode=cmd("mode", "param.mode.name"))
    @app_commands.describe(mode=cmd("On or off", "param.mode.description"))
    @app_commands.choices(mode=[Choice(name=cmd("on", "choice.mode.on"), value="on"),
                                Choice(name=cmd("off", "choice.mode.off"), value="off")])
    async def notify(self, interaction: discord.Interaction, mode: Choice[str]) -> None:
        """The member's own turn pings in this server, on (default) or off (docs/RULES.md
        §Turn pings); the answer also says the server's ``/ddz config turn_ping``."""
        self.ctx.seen(interaction)
        await defer(interaction, ephemeral=True, thinking=True)
        guild_id = permissions.guild_id(interaction)
        if mode.value not in ("on", "off"):  # a forged interaction
            raise GameError("bad_option")
        on = mode.value == "on"
        await self.service.pings.set_notify(guild_id, interaction.user.id, on)
        lang = resolve_locale(interaction.locale)
        settings = await self.service.settings(guild_id)
        text = t("ack.notify_on" if on else "ack.notify_off", lang)
        if on:
            text += " " + info.turn_ping_line(settings, lang)
        await respond(interaction, text)

    @app_commands.command(name=cmd("newmatch", "cmd.newmatch.name"),
                          description=cmd("Start a new match: every total back to zero "
                                          "(Manage Server)", "cmd.newmatch.description"))
    @app_commands.default_permissions(manage_guild=True)
    async def newmatch(self, interaction: discord.Interaction) -> None:
        """Admins: confirm, then every current match total goes to zero (cogs/newmatch.py)."""
        self.ctx.seen(interaction)
        await newmatch.ask(interaction, self.ctx)

    @app_commands.command(name=cmd("forget", "cmd.forget.name"),
                          description=cmd("Delete your scores and stats in this server",
                                          "cmd.forget.description"))
    async def forget(self, interaction: discord.Interaction) -> None:
        self.ctx.seen(interaction)
        await forget.ask(interaction, self.service)


__all__ = ["DdzCog", "context_of"]


def ddz_cog(wings: Sequence[DiscordFeature]) -> type[DdzCog]:
    """The ``/ddz`` cog's class with each feature's command mixin among its bases (the
    first feature's first), so that their commands are the group's (discord.py's
    ``CogMeta`` collects the commands of every base)."""
    mixins = tuple(wing.commands for wing in wings if wing.commands is not None)
    if not mixins:
        return DdzCog
    cls: type[DdzCog] = types.new_class("DdzCog", (*mixins, DdzCog), dict(GROUP))
    cls.__doc__, cls.__module__ = DdzCog.__doc__, __name__
    return cls
