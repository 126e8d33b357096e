"""Open private hand views, kept current while their interaction token is valid.

Each player's latest click (or "My hand") gives a fresh interaction whose token
may edit that ephemeral message for 15 minutes. After every public redraw the
views of that table are re-rendered when the table moved on (seq changed). A
view whose token is about to expire is edited one last time to say so and
forgotten; "My hand" then opens a fresh one. A refresh whose hand image would
not change (another player moved) edits only the text and components and keeps
the attachment: no drawing, no upload. One lock per (table, user)
serializes clicks and refreshes of the same view. Discord errors are logged
and the view is dropped; they never touch the game.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, replace
from typing import Any

import discord

from bot.game.table import Table
from bot.i18n import t
from bot.rules import Combo
from bot.service import Decision, TableService
from bot.service.lru import Lru
from cogs.components import Components
from cogs.delivery import TOKEN_LIFETIME, spend
from cogs.hand_actions import hint_reason, hint_state
from cogs.hand_view import Screen
from cogs.items import ViewState
from cogs.replies import answer_message, png_file, updates_clicked
from cogs.tokens import TokenRef

log = logging.getLogger("cogs.ddz")
MARGIN = 45.0
LATEST_KEPT = 4096
"""Tables whose newest refreshed state ``OpenViews`` keeps (a view tracked late catches up)."""
HINT_WAIT = 10.0
"""Seconds a quick Hint answer waits for the hard search's pick before keeping itself."""

Key = tuple[str, int]
Renderer = Callable[..., Awaitable[Screen]]
"""``render(table, seat, state, lang, shown=image_key | None) -> Screen`` (png None:
the image ``shown`` is still right)."""


@dataclass
class OpenView:
    """One tracked hand view: its latest interaction's token, state, ``seq`` drawn and image key."""

    token: TokenRef
    touched: float
    state: ViewState
    seq: int
    lang: str
    expiry: asyncio.TimerHandle | asyncio.Task[None] | None = None
    """A timer until the token's last minute, then the task that says the view expired."""
    image: tuple[object, ...] | None = None
    message: int | None = None
    """The id of the view's message (``cogs.replies.answer_message``), None if unknown."""


class OpenViews:
    """Registry of open hand views: ``track`` after each answer, ``refresh`` after a redraw."""

    def __init__(self, render: Renderer, lifetime: float = TOKEN_LIFETIME,
                 margin: float = MARGIN) -> None:
        self.render = render
        self.lifetime = lifetime
        self.margin = margin
        self.views: dict[Key, OpenView] = {}
        self._of_table: dict[str, dict[int, None]] = {}
        """Member ids with a tracked view, by table id, in the order they were tracked
        (``refresh`` runs after every move and looks at one table's views only)."""
        self.locks: dict[Key, asyncio.Lock] = {}
        self._hints: set[asyncio.Task[None]] = set()
        self._latest: Lru[str, Table] = Lru(LATEST_KEPT)
        """Each table's newest state a refresh was asked for: a view answered from an older
        state and tracked only after that refresh (the first view of a table has no key
        for it to wait on) is refreshed once more when tracked (``track``)."""

    def lock(self, table_id: str, user_id: int) -> asyncio.Lock:
        """The lock serializing clicks and refreshes of this member's view."""
        return self.locks.setdefault((table_id, user_id), asyncio.Lock())

    def track(self, table_id: str, user_id: int, interaction: discord.Interaction,
              screen: Screen, lang: str) -> None:
        """Remember the freshest interaction of this user's view (call under ``lock``):
        its token only (``TokenRef``), never the interaction."""
        key = (table_id, user_id)
        old = self.views.get(key)
        if old is not None and old.expiry is not None:
            old.expiry.cancel()
        message = answer_message(interaction)
        if old is not None and old.token is not TokenRef.of(interaction) \
                and self._another_message(old, interaction, message):
            self._spawn(self._supersede(old), f"ddz-view-superseded-{table_id}-{user_id}")
        # Later edits need the token only: the interaction (its member, payload and the
        # response that refers back to it) would otherwise stay on the heap for 15
        # minutes, where every full garbage collection scans it (docs/PERFORMANCE.md
        # §Collector).
        loop = asyncio.get_running_loop()
        entry = OpenView(TokenRef.of(interaction), loop.time(), screen.state, screen.seq, lang,
                         image=screen.image_key if screen.png is not None else None,
                         message=message)
        wait = max(0.0, self.lifetime - self.margin)
        # A timer, not a sleeping task: a view is tracked again on every click.
        entry.expiry = loop.call_later(wait, self._start_expiry, key, entry)
        self.views[key] = entry
        self._of_table.setdefault(table_id, {})[user_id] = None
        latest = self._latest.peek(table_id)
        if latest is not None and latest.seq > screen.seq:  # the table moved on meanwhile
            self._spawn(self.refresh(latest), f"ddz-view-catch-up-{table_id}-{user_id}")

    def _spawn(self, work: Coroutine[Any, Any, None], name: str) -> None:
        task = asyncio.create_task(work, name=name)
        self._hints.add(task)
        task.add_done_callback(self._hints.discard)

    @staticmethod
    def _another_message(old: OpenView, interaction: discord.Interaction,
                         message: int | None) -> bool:
        """Whether the view answered now is another message than ``old``'s: a new one
        (``My hand``, ``/ddz hand``), or a click in another view (an older one, brought up
        to date). Both ids are known whenever Discord sent them back (discord.py asks for
        the callback's message, ``with_response``); a click when ``old``'s is not is
        taken for ``old`` itself."""
        if not updates_clicked(interaction):
            return True
        return old.message is not None and message is not None and old.message != message

    async def _supersede(self, old: OpenView) -> None:
        """A newer view of the same member took ``old``'s place, and is the one kept
        current: ``old``'s text says so in place of its turn and timer (a Discord
        relative timestamp, ``<t:…:R>``, that the member's client would go on counting
        into the past: "Time runs out 8 minutes ago"). Its image and buttons stay: a click
        there is checked as any other (docs/RULES.md §Out-of-date buttons) and redraws
        it, the current view again."""
        spend(old.token)
        try:
            await old.token.edit_original(content=t("hand.superseded", old.lang))
        except discord.HTTPException as error:  # gone, or its token expired: nothing to say
            log.info("superseded hand view not edited: %s", error)

    def _start_expiry(self, key: Key, entry: OpenView) -> None:
        if self.views.get(key) is entry:
            entry.expiry = asyncio.create_task(self._expire(key, entry),
                                               name=f"ddz-view-expiry-{key[0]}-{key[1]}")

    def forget_table(self, table_id: str) -> None:
        """Drop every view (and lock) of a closed table."""
        self._latest.pop(table_id)
        for user_id in list(self._of_table.get(table_id, ())):
            key = (table_id, user_id)
            entry = self._pop(key)
            if entry is not None and entry.expiry is not None:
                entry.expiry.cancel()
            self.locks.pop(key, None)

    async def close(self) -> None:
        """Forget every view and cancel their expiry tasks, pending Hint updates and
        catch-up refreshes."""
        for key in list(self.views):
            entry = self._pop(key)
            if entry is not None and entry.expiry is not None:
                entry.expiry.cancel()
        for task in list(self._hints):
            task.cancel()
        await asyncio.gather(*self._hints, return_exceptions=True)

    def show_better_hint(self, service: TableService, table_id: str, user_id: int, seq: int,
                         shown: ViewState, later: asyncio.Task[list[Decision]]) -> None:
        """After a first Hint answered before the hard search was done: when the
        search's pick arrives (within ``HINT_WAIT`` seconds) and differs from the cards
        shown (a bid's or a Happy decision's: always, its reason is the search's), show it
        instead, if the member's view still shows that answer at that position (``seq``,
        or a later one nothing the view acts on changed since, ``Table.is_current``). A
        search that failed, was cancelled or came late changes nothing."""
        task = asyncio.create_task(self._better_hint(service, table_id, user_id, seq, shown, later),
                                   name=f"ddz-hint-view-{table_id}-{user_id}")
        self._hints.add(task)
        task.add_done_callback(self._hints.discard)

    async def _better_hint(self, service: TableService, table_id: str, user_id: int, seq: int,
                           shown: ViewState, later: asyncio.Task[list[Decision]]) -> None:
        await asyncio.wait({later}, timeout=HINT_WAIT)
        if not later.done() or later.cancelled() or later.exception() is not None:
            return
        options = later.result()
        if not options:
            return
        state = hint_state(shown, options[0])
        if state.selected == shown.selected and isinstance(options[0].action, Combo):
            return  # the quick answer was that play already (a bid's or a Happy decision's
            # reason is the search's own: it replaces the quick look's)
        async with self.lock(table_id, user_id):
            entry = self.views.get((table_id, user_id))
            table = service.get(table_id)
            # another seat's double (the Happy rules' doubling) bumps ``seq`` but changes
            # nothing this view acts on (``Table.is_current``): the pick still answers it
            if (table is None or entry is None or not table.is_current(seq) or entry.seq != seq
                    or entry.state != shown):
                return  # the game or the member moved on: keep what they see
            await self.redraw(table, user_id, state, hint=hint_reason(options[0], entry.lang))

    async def refresh(self, table: Table) -> None:
        """Re-render the open views of ``table`` whose seq is behind (the selection kept,
        the Hint's cycle back to its first suggestion). A view already
        drawn at a newer seq (its member clicked while this redraw was on its way) is
        left alone: redrawing it from the older ``table`` would undo the click's answer."""
        latest = self._latest.peek(table.id)
        if latest is None or latest.seq < table.seq:
            self._latest.put(table.id, table)
        keys = [(table.id, user_id) for user_id in self._of_table.get(table.id, ())]
        for key in keys:
            async with self.lock(*key):
                entry = self.views.get(key)
                if entry is None or entry.seq >= table.seq:  # current, or ``table`` is older
                    continue
                # a new position: its Hint starts again from the first suggestion (a Hint
                # asked while bidding made the first play's Hint the second one)
                await self.redraw(table, key[1], replace(entry.state, hint=0))

    async def redraw(self, table: Table, user_id: int, state: ViewState, *,
                     buttons: Components | None = None, **extra: Any) -> None:
        """Re-render this member's tracked view of ``table`` with ``state`` (call under
        ``lock``); ``extra``: the renderer's notice / hint; ``buttons``: components in
        place of the view's own (a private table's finished hand: Next deal). The image is
        uploaded only when it changed. Discord errors drop the view; nothing is raised."""
        key = (table.id, user_id)
        entry = self.views.get(key)
        if entry is None:
            return
        seat = table.seat_of(user_id)
        spend(entry.token)  # one edit of its token, counted in Delivery's bucket
        try:
            if seat is None:
                await entry.token.edit_original(
                    content=t("error.not_seated", entry.lang), view=None, attachments=[])
                self._drop(key)
                return
            screen = await self.render(table, seat, state, entry.lang, shown=entry.image, **extra)
            if buttons is not None:
                screen.view = buttons
            if screen.png is None:  # same image: keep the attachment
                await entry.token.edit_original(  # Components: a View's payload
                    content=screen.content, view=screen.view)
            else:
                file = png_file(screen.png, "hand.png", screen.alt)
                await entry.token.edit_original(  # Components: a View's payload
                    content=screen.content, view=screen.view,
                    attachments=[file])
                entry.image = screen.image_key
            entry.seq, entry.state = screen.seq, screen.state
            if table.phase in ("finished", "closed"):
                self._drop(key)
        except discord.HTTPException as error:
            log.info("hand view refresh failed (table=%s user=%s): %s", key[0], key[1], error)
            self._drop(key)
        except Exception:
            log.exception("hand view refresh failed (table=%s user=%s)", *key)
            self._drop(key)

    def _pop(self, key: Key) -> OpenView | None:
        """Forget the tracked view ``key`` (its expiry left as it is); the entry or None."""
        entry = self.views.pop(key, None)
        users = self._of_table.get(key[0])
        if users is not None:
            users.pop(key[1], None)
            if not users:
                del self._of_table[key[0]]
        return entry

    def _drop(self, key: Key) -> None:
        entry = self._pop(key)
        if entry is not None and entry.expiry is not None and entry.expiry is not asyncio.current_task():
            entry.expiry.cancel()

    async def _expire(self, key: Key, entry: OpenView) -> None:
        async with self.lock(*key):
            if self.views.get(key) is not entry:
                return
            self._pop(key)
            spend(entry.token)
            with contextlib.suppress(discord.HTTPException):
                await entry.token.edit_original(
                    content=t("hand.expired", entry.lang), view=None, attachments=[])
