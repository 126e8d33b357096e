"""The public table message: one per deal, redrawn by a per-table coalescing task.

``Board.notify(table_id)`` marks a table dirty; one task per table redraws it at
most once per ``MIN_INTERVAL`` seconds, always from the latest state (last state
wins). A new message is posted for the lobby, for each deal (and redeal) — Discord
limits edits of old messages — and the previous message loses its buttons. Discord
errors are logged and retried a few times; they never block the game, whose state
lives in the TableService. Every request goes through ``cogs.delivery.Delivery``:
on interaction tokens while one lives (exempt from Discord's global rate limit),
else through the channel within the process's ``GlobalBudget``.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import discord
from discord.ext import commands

from bot.faults import crash_point
from bot.game.errors import GameError
from bot.game.seat import Event
from bot.game.table import Table
from bot.i18n import t
from bot.service import TableService
from bot.service.budget import RESULT, GlobalBudget
from bot.service.renderer import Renderer
from bot.values import Settlement
from cogs import texts
from cogs.board_repair import repair
from cogs.delivery import Delivery, EditBucket, PermissionBackoff
from cogs.languages import ServerLanguages
from cogs.public_message import compose
from cogs.public_view import message_key
from cogs.replay import result_buttons
from cogs.replies import png_file

log = logging.getLogger("cogs.ddz")

MIN_INTERVAL = 1.0
RETRIES = 5
"""Tries of one redraw on a Discord error (after discord.py's own retries of 429 and
500/502), waiting ``interval × 2^(try-1)`` seconds between them: 1, 2, 4, 8 s."""


def _left_behind(table: Table, old: tuple[Any, ...] | None, new: tuple[Any, ...],
                 lang: str) -> str | None:
    """What a table message says once a new one (``message_key`` ``new``) replaces it:
    the lobby after the deal, a deal after a redeal (the title and where the game went);
    None for a result, which stays as it was."""
    if old is None or new[0] != "hand":
        return None
    if old[0] == "lobby":
        notice = t("table.dealt_below", lang)
    elif old[:2] == new[:2]:  # the same hand dealt again
        notice = t("table.new_message", lang)
    else:
        return None
    return t("table.title_playing", lang, table=table.id, hand=table.hand_no) + "\n" + notice


@dataclass
class _State:
    message_id: int | None = None
    key: tuple[Any, ...] | None = None
    dirty: bool = False
    task: asyncio.Task[None] | None = None
    last_draw: float = -1e9
    events: list[Event] = field(default_factory=list)
    settlements: dict[int, Settlement] = field(default_factory=dict)
    announce: list[str] = field(default_factory=list)
    failures: int = 0
    table: Table | None = None
    result_no: int | None = None
    """Server hand number of the result the current message shows (its Replay /
    Review buttons stay when a newer message takes over)."""
    scan: bool = False
    gone: bool = False
    lost: set[int] = field(default_factory=set)
    """Ids of this table's messages Discord said are deleted (10008): never edited again,
    even while the service's Table still names one until the new message is saved."""


class Board:
    """Owns the public messages of every table (in memory; message ids also go
    to ``TableService.set_message_id``)."""

    def __init__(self, bot: commands.Bot, service: TableService, renderer: Renderer,
                 after_redraw: Callable[[Table | None], Awaitable[None]] | None = None,
                 interval: float = MIN_INTERVAL, budget: GlobalBudget | None = None,
                 languages: ServerLanguages | None = None) -> None:
        self.bot = bot
        self.languages = languages or ServerLanguages(bot, service)
        """Each server's public language (``/ddz config language`` or its locale)."""
        self.delivery = Delivery(bot, budget, edits=EditBucket())
        """Tokens and channel: how each post and edit reaches Discord."""
        self.backoff = PermissionBackoff(self._unblocked)
        """The tables whose message a 403 blocked (cogs/delivery.py); their private
        views go on."""
        self.service = service
        self.renderer = renderer
        """Draws the images (the bot's worker processes; threads without one)."""
        self.after_redraw = after_redraw
        """Called after each redraw of a table (drawn, failed or blocked), with the state
        drawn; raises nothing: the hand-view refresh (cogs/hand_refresh.py)."""
        self.interval = interval
        self.states: dict[str, _State] = {}

    # ----- scheduling -------------------------------------------------------------

    def notify(self, table: Table, events: Sequence[Event] = (),
               settlement: Settlement | None = None) -> None:
        """Schedule a redraw of ``table``'s public message (coalesced)."""
        state = self.states.setdefault(table.id, _State(message_id=None))
        if (state.message_id is None and state.key is None and table.message_id
                and table.message_id not in state.lost):
            state.message_id, state.key = table.message_id, message_key(table)
        state.table = table
        state.events.extend(events or ())
        if settlement is not None:
            state.settlements[table.hand_no] = settlement
            if settlement.match_over and not settlement.replayed:
                state.announce.append("match")
        state.dirty = True
        if state.gone:
            return
        if table.phase == "closed" and state.message_id is None and state.key is None:
            self.backoff.forget(table.id)  # closed before it ever had a message
            if state.task is None or state.task.done():
                self.states.pop(table.id, None)
                return
        if state.task is None or state.task.done():
            state.task = asyncio.create_task(self._run(table.id), name=f"ddz-board-{table.id}")

    def channel_gone(self, table_id: str) -> None:
        """The table's channel or server is gone: never touch its messages again."""
        state = self.states.setdefault(table_id, _State())
        state.gone = True  # a running redraw stops at its next step (never cancelled:
        self.backoff.forget(table_id)  # it may be inside a storage write)

    def _unblocked(self, table_id: str) -> None:
        """A 403's wait is over, or the permissions are back: redraw now."""
        state = self.states.get(table_id)
        if state is not None and state.table is not None and not state.gone:
            self.notify(state.table)

    def restored(self, table: Table) -> None:
        """Redraw a table reloaded after a restart, first making sure it has exactly one
        live message (``cogs/board_repair.py``: a crash between posting and saving the id)."""
        state = self.states.setdefault(table.id, _State())
        state.scan = True
        self.notify(table)

    async def flush(self, table: Table) -> bool:
        """Redraw now-ish and wait for it (used right after ``/ddz start``); True when
        the table has a public message."""
        self.notify(table)
        state = self.states[table.id]
        if state.task is not None:
            await asyncio.shield(state.task)
        return state.message_id is not None

    async def close(self) -> None:
        """Cancel every redraw task and wait for them."""
        tasks = [s.task for s in self.states.values() if s.task and not s.task.done()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def _run(self, table_id: str) -> None:
        loop = asyncio.get_running_loop()
        state = self.states[table_id]
        while state.dirty and not state.gone:
            wait = state.last_draw + self.interval - loop.time()
            if wait > 0:
                await asyncio.sleep(wait)
            if state.table is not None:  # the channel's edit bucket, unless on a token
                await self.delivery.ready(state.table.channel_id, state.message_id)
            state.dirty = False
            events, state.events = state.events, []
            table = self.service.get(table_id) or state.table
            if state.gone:
                break
            if self.backoff.blocked(table_id):  # no permission: private views only
                await self._views(table)
                continue
            try:
                if state.scan and table is not None:  # restored: one live message
                    state.scan = False
                    await repair(self.bot, self.delivery, table, state.message_id,
                                 functools.partial(self._adopt, table, state))
                await self._draw(table_id, table, state, events)
                state.failures = 0
                self.backoff.delivered(table_id)
            except discord.NotFound as error:
                if error.code == 10003 and table is not None:  # Unknown Channel
                    await self._close_gone(table, state)
                    return
                log.warning("table message of %s is gone; posting a new one", table_id)
                if state.message_id is not None:
                    state.lost.add(state.message_id)
                    self.delivery.forget_message(state.message_id)
                state.message_id, state.key, state.dirty = None, None, True
            except discord.Forbidden as error:
                state.dirty = True
                if table is not None:
                    self.backoff.refused(table_id, table.channel_id, error)
                await self._views(table)
                return
            except discord.HTTPException as error:
                state.failures += 1
                log.warning("drawing table %s failed (%s, try %d)", table_id, error, state.failures)
                if state.failures < RETRIES:
                    state.dirty = True
                    state.last_draw = loop.time() + (2 ** (state.failures - 1) - 1) * self.interval
                    continue
                log.error("giving up drawing table %s after %d tries; the next change redraws it",
                          table_id, state.failures)
                state.failures = 0
            except Exception:
                log.exception("drawing table %s failed", table_id)
            state.last_draw = loop.time()
            await self._views(table)
        if table_id in self.states and self.states[table_id].key == ("closed",):
            self.states.pop(table_id, None)
            self.backoff.forget(table_id)

    async def _views(self, table: Table | None) -> None:
        if self.after_redraw is not None:
            await self.after_redraw(table)

    async def _close_gone(self, table: Table, state: _State) -> None:
        """Discord says the channel is gone (10003): close the table without points."""
        log.warning("channel %s of table %s is gone; closing the table", table.channel_id,
                    table.id)
        state.gone = True
        with contextlib.suppress(GameError):  # already closed
            await self.service.cancel(table.id, table.starter_id, True)

    # ----- drawing -------------------------------------------------------------------

    async def _draw(self, table_id: str, table: Table | None, state: _State,
                    events: list[Event]) -> None:
        channel_id = table.channel_id if table else None
        if table is None or table.phase == "closed":
            if state.message_id is not None and channel_id is not None:
                lang = await self.languages.language(table.guild_id) if table else "en"
                content = compose(table, lang).content if table else ""
                await self.delivery.edit(channel_id, state.message_id, content=content or None,
                                 view=None, attachments=[])
            state.key = ("closed",)
            return
        lang = await self.languages.language(table.guild_id)
        settlement = state.settlements.get(table.hand_no)
        if settlement is None and table.phase == "finished" and table.hand is not None:
            settlement = await self._stored_settlement(table)
            if settlement is not None:
                state.settlements[table.hand_no] = settlement
        shown = compose(table, lang, events, settlement)  # what it says: cogs/public_message.py
        key, content, ping, view, hand_no = (shown.key, shown.content, shown.ping, shown.view,
                                             shown.hand_no)
        files: list[discord.File] = []
        if shown.image is not None:
            draw = self.renderer.result if shown.image == "result" else self.renderer.table
            png = await draw(shown.model, locale=lang)
            files.append(png_file(png, shown.filename, shown.alt))
        mentions = (discord.AllowedMentions(users=[discord.Object(id=ping)], roles=False,
                                            everyone=False)
                    if ping else discord.AllowedMentions.none())
        if state.message_id is None or state.key != key:
            old, left_behind = state.message_id, _left_behind(table, state.key, key, lang)
            kwargs: dict[str, Any] = {"content": content, "allowed_mentions": mentions,
                                      "files": files}
            if view is not None:
                kwargs["view"] = view
            message_id = await self.delivery.send(table.channel_id, table.guild_id, RESULT,
                                                  **kwargs)
            crash_point("table")
            state.message_id, state.key = message_id, key
            await self._remember(table, message_id)
            if old is not None:
                kept = state.result_no
                keep = (result_buttons(discord.ui.View(timeout=None), kept, lang)
                        if kept is not None else None)
                try:
                    if left_behind is not None:  # not a result: its text is out of date
                        await self.delivery.edit(table.channel_id, old, content=left_behind, view=keep,
                                         attachments=[])
                    else:
                        await self.delivery.edit(table.channel_id, old, view=keep)
                except discord.HTTPException as error:
                    log.info("could not clear buttons of old message %s: %s", old, error)
                self.delivery.forget_message(old)
        else:
            await self.delivery.edit(table.channel_id, state.message_id, shown.priority, content=content,
                             view=view, attachments=files, allowed_mentions=mentions)
        state.result_no = hand_no
        while state.announce and settlement is not None:
            state.announce.pop()
            await self.delivery.send(table.channel_id, table.guild_id, RESULT,
                                     content=texts.match_won_text(table, settlement, lang),
                                     allowed_mentions=discord.AllowedMentions.none())
            crash_point("announce")

    async def _stored_settlement(self, table: Table) -> Settlement | None:
        """The recorded Settlement of the table's finished hand (after a restart the
        in-memory one is gone), or None when storage has none or fails."""
        try:
            return await self.service.records.settlement_of(table.hand_id)
        except Exception:
            log.exception("reading the settlement of hand %s failed", table.hand_id)
            return None

    async def _adopt(self, table: Table, state: _State, message_id: int) -> None:
        """Make ``message_id`` (found by the restart repair) the table's message."""
        state.message_id, state.key = message_id, message_key(table)
        await self._remember(table, message_id)

    async def _remember(self, table: Table, message_id: int) -> None:
        try:
            await self.service.set_message_id(table.id, message_id)
        except GameError as error:  # e.g. the table closed meanwhile: a normal race
            log.debug("message id of table %s not saved: %s", table.id, error.code)
        except Exception:
            log.exception("saving the message id of table %s failed", table.id)
