"""The public table messages: when each table's message is redrawn, and by whom.

``Board.notify(table)`` marks a table dirty; one task per table redraws it at most
once per ``MIN_INTERVAL`` seconds from the latest state (last state wins); while the
render workers are behind, a lobby's and a hand's moves wait longer, up to
``bot.service.renderer.BOARD_MAX_INTERVAL``, so that more of them show in one table
image (``Renderer.board_interval``), and wait for room in the render backlog before
reading the table (``Renderer.board_room``: the image shows the moves made meanwhile);
a hand's end (result, redeal) and the close never do (docs/PERFORMANCE.md §Fewer table
images while the render backlog is long).
It hands each job to its module: the restart repair (``cogs/board_repair.py``); what the
message shows and putting it there (``cogs/table_message.py``, over the pure
``cogs/public_message.py`` and ``cogs/languages.py``); tokens, channel, budget and
the 403 back-off (``cogs/delivery.py``); then the players' hand views
(``after_redraw``, ``cogs/hand_refresh.py``). Discord errors are logged and retried a
few times (``RETRIES``); they never block the game, whose state lives in the
TableService (docs/ARCHITECTURE.md §The public message: from a change to Discord).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field

import discord
from discord.ext import commands

from bot.game.errors import GameError
from bot.game.seat import Event
from bot.game.table import Table
from bot.service import TableService
from bot.service.budget import GlobalBudget
from bot.service.lru import Lru
from bot.service.renderer import Renderer
from bot.values import Settlement
from cogs.board_repair import repair
from cogs.delivery import Delivery, EditBucket, PermissionBackoff
from cogs.languages import ServerLanguages
from cogs.table_message import BoardLost, Shown, TableMessages

log = logging.getLogger("cogs.ddz")

MIN_INTERVAL = 1.0
DRAWN_KEPT = 4096
"""Tables whose last drawn ``seq`` the board remembers (``Board.drawn``)."""
RETRIES = 5
"""Tries of one redraw on a Discord error (after discord.py's own retries of 429 and
500/502), waiting ``interval × 2^(try-1)`` seconds between them: 1, 2, 4, 8 s."""


@dataclass
class _State(Shown):
    """One table's message (``Shown``) and its redraw task."""

    dirty: bool = False
    task: asyncio.Task[None] | None = None
    last_draw: float = -1e9
    events: list[Event] = field(default_factory=list)
    failures: int = 0
    table: Table | None = None
    scan: bool = False
    """Restored after a restart: run the repair before the next redraw."""
    gone: bool = False
    wake: asyncio.Future[None] | None = None
    """Set while the redraw task waits for its next redraw (``Board._wait``): a state
    that may not wait longer than the base interval wakes it."""


class Board:
    """Owns the public messages of every table (in memory; message ids also go
    to ``TableService.set_message_id``)."""

    def __init__(self, bot: commands.Bot, service: TableService, renderer: Renderer,
                 after_redraw: Callable[[Table | None], Awaitable[None]] | None = None,
                 interval: float = MIN_INTERVAL, budget: GlobalBudget | None = None,
                 languages: ServerLanguages | None = None) -> None:
        self.bot = bot
        self.service = service
        self.renderer = renderer
        """Draws the images (the bot's worker processes; threads without one)."""
        self.delivery = Delivery(bot, budget, edits=EditBucket())
        self.backoff = PermissionBackoff(self._unblocked)
        """The tables whose message a 403 blocked; their private views go on."""
        self.messages = TableMessages(service, renderer, self.delivery,
                                      languages or ServerLanguages(bot, service))
        self.after_redraw = after_redraw
        """Called after each redraw of a table (drawn, failed or blocked) with the state
        drawn; raises nothing."""
        self.interval = interval
        self.states: dict[str, _State] = {}
        self.drawn_seq: Lru[str, int] = Lru(DRAWN_KEPT)
        """Each table's last ``Table.seq`` shown on its message (``drawn``), closed tables
        too (their state is gone once drawn)."""
        self._waiting: dict[str, list[tuple[int, asyncio.Future[None]]]] = {}

    # ----- scheduling -------------------------------------------------------------

    def notify(self, table: Table, events: Sequence[Event] = (),
               settlement: Settlement | None = None) -> None:
        """Schedule a redraw of ``table``'s public message (coalesced)."""
        state = self.states.setdefault(table.id, _State())
        state.note(table, settlement)
        state.table = table
        state.events.extend(events or ())
        state.dirty = True
        if state.gone:
            return
        if state.wake is not None and not state.wake.done() and not self._may_wait(state):
            state.wake.set_result(None)  # a result or a new message: at the base pace
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

    async def drawn(self, table_id: str, seq: int, timeout: float) -> bool:
        """Wait until the table's message shows its state ``seq`` or a newer one (a feature
        that closes its table's thread or posts after its last hand waits for it);
        False after ``timeout`` seconds (the message could not be drawn: a 403, Discord
        down)."""
        if (self.drawn_seq.peek(table_id) or -1) >= seq:
            return True
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        waiter = (seq, future)
        self._waiting.setdefault(table_id, []).append(waiter)
        try:
            await asyncio.wait_for(asyncio.shield(future), timeout)
            return True
        except TimeoutError:
            return False
        finally:
            left = self._waiting.get(table_id, [])
            if waiter in left:
                left.remove(waiter)
            if not left:
                self._waiting.pop(table_id, None)

    def _shown(self, table: Table) -> None:
        """``table``'s state is on its message now: wake who waits for it (``drawn``)."""
        self.drawn_seq.put(table.id, max(table.seq, self.drawn_seq.peek(table.id) or -1))
        for seq, future in self._waiting.get(table.id, []):
            if seq <= table.seq and not future.done():
                future.set_result(None)

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
            await self._wait(state)
            if state.table is not None:  # the channel's edit bucket, unless on a token
                await self.delivery.ready(state.table.channel_id, state.message_id)
            if self._may_wait(state):  # room in the render backlog, then the newest state
                await self.renderer.board_room()
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
                                 functools.partial(self.messages.adopt, table, state))
                await self.messages.show(table, state, events)
                state.failures = 0
                self.backoff.delivered(table_id)
                if table is not None:
                    self._shown(table)
            except BoardLost as lost:  # deleted, or too old to edit: a fresh board at once
                log.warning("table message of %s is %s; posting a new one", table_id,
                            lost.reason)
                self.delivery.forget_message(lost.message_id)
                if state.message_id == lost.message_id:
                    state.message_lost()
                state.dirty = True
                state.last_draw = -1e9
                continue
            except discord.Forbidden as error:
                # Blocked now: the loop goes on with private views only (the ``blocked``
                # branch above), so that changes notified while this request and the
                # views' refresh were on their way still reach the views. Returning here
                # left them to the back-off's probe, 30 s later (a member's turn unseen).
                if table is not None:
                    self.backoff.refused(table_id, table.channel_id, error)
                state.last_draw = loop.time()
                await self._views(table)
                continue
            except discord.HTTPException as error:
                if error.status == 404 and error.code == 10003 and table is not None:
                    await self._close_gone(table, state)  # Unknown Channel
                    return
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

    async def _wait(self, state: _State) -> None:
        """Until ``state``'s next redraw is due: ``interval`` seconds after the last one,
        or ``Renderer.board_interval`` seconds (longer while the render workers are
        behind, taken when the wait starts) for a state that may wait (``_may_wait``);
        ``notify`` of a state that may not wakes it to the base interval."""
        loop = asyncio.get_running_loop()
        longer = self.renderer.board_interval(self.interval)
        while not state.gone:
            pace = longer if self._may_wait(state) else self.interval
            wait = state.last_draw + pace - loop.time()
            if wait <= 0:
                return
            wake = state.wake = loop.create_future()
            timer = loop.call_later(wait, _done, wake)
            try:
                await wake
            finally:
                timer.cancel()
                state.wake = None

    @staticmethod
    def _may_wait(state: _State) -> bool:
        """Whether the state to draw may wait longer than the base interval: a lobby's or
        a hand's moves on a table that has a message. Not a hand's end, a result or a
        redeal (always drawn at the base pace, before a next deal can replace it: a
        feature's pause between hands may be as short as three base intervals), nor the
        close."""
        table = state.table
        if table is None or state.message_id is None:
            return False
        if table.phase == "lobby":
            return True
        return (table.phase == "playing" and table.hand is not None
                and table.hand.phase not in ("finished", "redeal"))

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


def _done(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)
