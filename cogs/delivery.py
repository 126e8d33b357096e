"""How the public table message reaches Discord: on interaction tokens while one lives,
through the channel (and the global budget) otherwise (docs/DISCORD.md rows 1-17).

Discord counts channel endpoints (``POST``/``PATCH /channels/{id}/messages``) against
the bot token's global limit of 50 requests per second, all processes together;
interaction webhooks (``/webhooks/{application}/{token}/...``, for the 15 minutes a
token lives) are exempt. So every interaction in a table's channel is offered here
(``offer``): the newest answered ones post the next new message as a follow-up
(``send``), and a message is edited with the newest token that may edit it
(``edit``): the follow-up's own interaction, or a click on the message itself (a
deferred component update edits its message as ``@original``). Only when no such
token is alive (a restart, a hand outlasting 15 minutes, a token Discord refused)
does a request go to the channel, after ``GlobalBudget.take``.

* A token counts only once Discord confirmed its answer (``response.is_done()``), and a
  deferred "thinking" reply never posts a board: its first follow-up would fill the
  placeholder in (ephemeral if the defer was), and later ones would be replies to a
  message nobody else can load (``_Token.usable``).
* Each token has Discord's webhook bucket (``WEBHOOK_BUDGET``: 5 requests per 2 s, one
  kept for the interaction's own answers): a token without room is skipped for the next
  live one before the channel, and ``ready`` makes a redraw wait for room instead of
  queueing behind discord.py's per-token lock (the redraw then reads the latest state:
  the changes in between coalesce). Messages created by webhooks in one channel stay
  within ``CHANNEL_WEBHOOK_BUDGET`` (30 a minute), else the channel is used.
* Any 404 on a token (10015 Unknown Webhook, 50027 Invalid Webhook Token, 10008 Unknown
  Message: Discord answers it for a message that token cannot reach, and unexplained
  404s inside the 15 minutes) drops that token and repeats the request once through the
  channel: one error per token, never a retry loop. Only the channel's own 10008 says a
  message is deleted. 403 (permissions) and 30046 (edits of a message older than an
  hour) go up to the board as they are.

Tokens are secrets: they are kept only in memory (a restart falls back to the
channel until the next interaction) and never logged (``_Token`` has no repr of
its token; ``bot/logsafe.py`` masks tokens in discord.py's URLs).

Channel edits also wait for the channel's edit bucket (``EditBucket``: Discord's
per-channel limit), and a table message that got a 403 (a permission removed) is
left alone for a while (``PermissionBackoff``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import discord

from bot.service.budget import RESULT, GlobalBudget
from bot.service.metrics import METRICS
from cogs.tokens import TokenRef

log = logging.getLogger("cogs.ddz")

TOKEN_LIFETIME = 15 * 60.0
"""Seconds an interaction token lives at Discord (from the interaction's creation)."""
TOKEN_MARGIN = 60.0
"""A token is not used in its last minute: a redraw never races its expiry."""
READY_WAIT = 2.0
"""Seconds a new message waits for the channel's newest interaction to be answered
(``/ddz start`` answers the member first, then its lobby is the follow-up)."""
PRUNE_EVERY = 256
"""Offers between two sweeps of the expired tokens (memory stays bounded by the
interactions of the last 14 minutes)."""
TOKEN_ERRORS = frozenset({10015, 50027})
"""Discord's answers to a token it no longer takes: Unknown Webhook, Invalid Webhook Token
(any other 404 on a token also drops it: docs/DISCORD.md row 7)."""
OLD_MESSAGE_EDITS = 30046
"""Discord's code for "Maximum number of edits to messages older than 1 hour reached"."""
WEBHOOK_BUDGET = (4, 2.0)
"""Requests per seconds Delivery makes on one token: Discord's webhook bucket is 5 per 2 s
per interaction (docs/DISCORD.md row 12); one is left for the interaction's own answer."""
CHANNEL_WEBHOOK_BUDGET = (30, 60.0)
"""Messages created by webhooks per seconds in one channel (docs/DISCORD.md row 13)."""
TOKENS_KEPT = 4
"""Live tokens kept per channel (posters) and per message (editors), newest first."""
TOKEN_WAIT = 2.5
"""Longest wait ``ready`` makes for a token's bucket before the channel is used instead."""
EDIT_BUDGET = (5, 5.0)
"""Discord lets a bot edit messages of one channel about 5 times per 5 s; channel edits
wait for a slot (``EditBucket``)."""
BUDGET_MARGIN = 0.25
"""Seconds added to a wait for the edit bucket (Discord's clock is not ours)."""
FORBIDDEN_WAIT = (30.0, 600.0)
"""After a 403 (the bot lost a permission in the channel) the public message is
left alone for 30 s, doubling per further 403 up to 600 s, or until an interaction
from that channel shows the permissions are back (``PermissionBackoff``)."""


@dataclass(eq=False)
class _Token:
    """One interaction the bot may still speak through: its ``TokenRef`` (the token is
    inside, never shown; the interaction itself is not kept past its click)."""

    ref: TokenRef
    expires: float
    offered: float
    original: bool = False
    """True: edits its message as ``@original`` (a click deferred as an update)."""
    private: bool = False
    """A click in a member's ephemeral hand view, or "My hand": its own answers are
    private and keep its bucket busy; turn pings never use it (``send(public_only=True)``)."""

    def answered(self) -> bool:
        """Discord confirmed the initial response and no "thinking" placeholder waits for
        its answer (the first follow-up would fill the placeholder in, not post)."""
        return self.ref.answered()

    def usable(self) -> bool:
        """``answered``, and not a deferred "thinking" reply: its follow-ups would answer
        a message only its member sees (cogs/replies.py marks it ``ddz_deferred_reply``)."""
        return self.ref.answered() and not self.ref.deferred_reply()


class _Window:
    """At most ``limit`` events per ``window`` seconds (plus ``BUDGET_MARGIN``), by key."""

    def __init__(self, limit: int, window: float) -> None:
        self.limit, self.window = limit, window + BUDGET_MARGIN
        self.times: dict[int, deque[float]] = {}

    def _recent(self, key: int, now: float) -> deque[float]:
        times = self.times.setdefault(key, deque())
        while times and now - times[0] >= self.window:
            times.popleft()
        return times

    def wait(self, key: int, now: float) -> float:
        """Seconds until ``key`` has room for one more (0: now)."""
        times = self._recent(key, now)
        return 0.0 if len(times) < self.limit else times[0] + self.window - now

    def take(self, key: int, now: float) -> None:
        self._recent(key, now).append(now)

    def prune(self, now: float) -> None:
        for key in [k for k, times in self.times.items() if not self._recent(k, now)]:
            del self.times[key]


class Delivery:
    """Posts and edits the public table messages (see the module docstring).

    ``budget``: the process's ``GlobalBudget`` for channel requests (None: no waiting).
    ``clock``: monotonic seconds (default the event loop's). ``edits``: the channels'
    edit buckets that channel edits wait for (None: no waiting). Counters: ``by_token``
    / ``by_channel`` requests made each way, ``token_errors`` tokens Discord refused,
    ``skipped`` tokens passed over for want of room in their bucket.
    """

    def __init__(self, bot: discord.Client, budget: GlobalBudget | None = None,
                 clock: Callable[[], float] | None = None, *,
                 edits: EditBucket | None = None) -> None:
        self.bot = bot
        self.budget = budget
        self.edits = edits
        self._clock = clock
        self.posters: dict[int, list[_Token]] = {}
        """channel id → the newest interactions there (they may post follow-ups)."""
        self.editors: dict[int, list[_Token]] = {}
        """message id → the newest interactions that may edit that message."""
        self.tokens = _Window(*WEBHOOK_BUDGET)
        """interaction id → Delivery's recent requests on its token."""
        self.creates = _Window(*CHANNEL_WEBHOOK_BUDGET)
        """channel id → messages recently created there by follow-ups."""
        self.by_token = 0
        self.by_channel = 0
        self.token_errors = 0
        self.skipped = 0
        self._offers = 0

    def _now(self) -> float:
        return self._clock() if self._clock is not None else asyncio.get_running_loop().time()

    # ----- tokens -------------------------------------------------------------------

    def offer(self, interaction: discord.Interaction[Any], *, edits: int | None = None,
              private: bool = False) -> None:
        """Note ``interaction`` (answered now or soon) as the newest in its channel;
        ``edits``: the id of the message it may edit as ``@original`` (a component
        click on that message, deferred as an update); ``private``: a click whose own
        answer is ephemeral (a hand view), never used for turn pings."""
        if interaction.channel_id is None:
            return
        now = self._now()
        self._offers += 1
        if self._offers % PRUNE_EVERY == 0:
            self._prune(now)
        ref = TokenRef.of(interaction)
        token = _Token(ref, now + TOKEN_LIFETIME - TOKEN_MARGIN, now, private=private)
        _push(self.posters, interaction.channel_id, token)
        if edits is not None:
            _push(self.editors, edits, _Token(ref, token.expires, now, original=True))

    def _prune(self, now: float) -> None:
        """Forget every expired token (a deal's message keeps its editor until then)."""
        for table in (self.posters, self.editors):
            for key in list(table):
                table[key] = [token for token in table[key] if token.expires > now]
                if not table[key]:
                    del table[key]
        self.tokens.prune(now)
        self.creates.prune(now)

    def _live(self, tokens: list[_Token] | None) -> list[_Token]:
        now = self._now()
        return [token for token in tokens or () if token.expires > now and token.usable()]

    def _room(self, token: _Token) -> float:
        """Seconds until ``token`` has room in its bucket: Delivery's own requests plus
        those ``spend`` noted (hand views, answers) in the window (0: now)."""
        now, mono = self._now(), time.monotonic()
        window, limit = self.tokens.window, self.tokens.limit
        ends = [t + window - now for t in self.tokens._recent(token.ref.id, now)]
        ends += [t + window - mono for t in token.ref.spent if mono - t < window]
        if len(ends) < limit:
            return 0.0
        return max(sorted(ends)[len(ends) - limit], 0.001)

    def can_edit(self, message_id: int | None) -> bool:
        """True when ``message_id`` has a live token with room to be edited with now."""
        tokens = self.editors.get(message_id) if message_id is not None else None
        return any(self._room(token) == 0 for token in self._live(tokens))

    def forget_message(self, message_id: int) -> None:
        """The message is gone or retired: drop the tokens that edited it."""
        self.editors.pop(message_id, None)

    def forget_channel(self, channel_id: int) -> None:
        self.posters.pop(channel_id, None)

    async def ready(self, channel_id: int, message_id: int | None) -> None:
        """Wait until a request for ``message_id`` (None: a new message) may go: at once
        when a live token has room, after the shortest wait (≤ ``TOKEN_WAIT`` s) for one
        that will, else when the channel's edit bucket has room. Call it before reading
        the state to send, so that the wait coalesces changes."""
        if message_id is None:
            tokens = self._live(self.posters.get(channel_id))
        else:
            tokens = self._live(self.editors.get(message_id))
        waits = [self._room(token) for token in tokens]
        if waits and min(waits) <= TOKEN_WAIT:
            if min(waits) > 0:
                await asyncio.sleep(min(waits))
            return
        if self.edits is not None:
            await self.edits.wait(channel_id)

    async def _posters(self, channel_id: int, public_only: bool = False) -> list[_Token]:
        """The channel's live usable interactions with room, newest first (waiting up to
        ``READY_WAIT`` s for the newest, offered just now, to be answered)."""
        tokens = self.posters.get(channel_id) or []
        while tokens and not tokens[0].answered() and tokens[0].expires > self._now() \
                and self._now() - tokens[0].offered < READY_WAIT:
            await asyncio.sleep(0.02)
            tokens = self.posters.get(channel_id) or []
        live = [token for token in self._live(tokens) if not (public_only and token.private)]
        ready = [token for token in live if self._room(token) == 0]
        self.skipped += len(live) - len(ready)
        if ready and self.creates.wait(channel_id, self._now()) > 0:
            return []  # the channel's webhook messages are used up for this minute
        return ready

    def _refused(self, error: discord.HTTPException, token: _Token, what: str) -> bool:
        """True (and the token dropped) when ``error`` is a 404 on it: Discord no longer
        takes it, or it cannot reach that message (docs/DISCORD.md row 7)."""
        if error.status != 404 and error.code not in TOKEN_ERRORS:
            return False
        self.token_errors += 1
        for table in (self.posters, self.editors):
            for key in list(table):
                table[key] = [t for t in table[key] if t.ref is not token.ref]
                if not table[key]:
                    del table[key]
        log.info("an interaction token was refused while %s (%s %s); using the channel",
                 what, error.status, error.code)
        return True

    # ----- requests -----------------------------------------------------------------

    async def send(self, channel_id: int, guild_id: int | None, priority: int = RESULT,
                   *, public_only: bool = False, **kwargs: Any) -> int:
        """Post a public message (``discord.abc.Messageable.send`` keywords); returns its id.

        A follow-up of the channel's newest usable interaction with room, else a channel
        post after the budget's ``take(priority)``; ``public_only``: no ``private`` token
        (turn pings). Raises discord.HTTPException as Discord answers (a 404 on the token
        falls back to the channel first)."""
        for token in (await self._posters(channel_id, public_only))[:1]:
            now = self._now()
            self.tokens.take(token.ref.id, now)
            try:
                message = await token.ref.webhook.send(wait=True, **kwargs)
            except discord.HTTPException as error:
                if not self._refused(error, token, "posting"):
                    raise
                _rewind(kwargs)
            else:
                self.by_token += 1
                self.creates.take(channel_id, now)
                _push(self.editors, message.id,
                      _Token(token.ref, token.expires, token.offered))
                return message.id
        if self.budget is not None:
            await self.budget.take(priority)
        self.by_channel += 1
        METRICS.count_global_request()
        channel = self.bot.get_partial_messageable(channel_id, guild_id=guild_id)
        return (await channel.send(**kwargs)).id

    async def edit(self, channel_id: int, message_id: int, priority: int = RESULT,
                   **kwargs: Any) -> bool:
        """Edit a public message (``PartialMessage.edit`` keywords) with its newest live
        token that has room, else through the channel (after a slot of its ``edits``
        bucket and the budget's ``take(priority)``). Returns True when it went through
        the channel. Raises discord.HTTPException as Discord answers (a 404 on the token
        falls back to the channel first; a channel 10008 means the message is deleted)."""
        live = self._live(self.editors.get(message_id))
        ready = [token for token in live if self._room(token) == 0]
        self.skipped += len(live) - len(ready)
        for token in ready[:1]:
            self.tokens.take(token.ref.id, self._now())
            try:
                if token.original:
                    await token.ref.edit_original(**kwargs)
                else:
                    await token.ref.edit_message(message_id, **kwargs)
            except discord.HTTPException as error:
                if not self._refused(error, token, "editing"):
                    raise
                _rewind(kwargs)
            else:
                self.by_token += 1
                return False
        if self.edits is not None:
            await self.edits.take(channel_id)
        if self.budget is not None:
            await self.budget.take(priority)
        self.by_channel += 1
        METRICS.count_global_request()
        channel = self.bot.get_partial_messageable(channel_id)
        await channel.get_partial_message(message_id).edit(**kwargs)
        return True

    async def delete(self, channel_id: int, message_id: int, priority: int = RESULT) -> bool:
        """Delete a message the bot posted (a turn ping): with a live token that may
        reach it (the follow-up's own interaction; exempt from the global limit), waiting
        up to ``TOKEN_WAIT`` s for room in its bucket, else through the channel after the
        budget's ``take(priority)``. Any 404 on the token drops it and the channel is
        asked once; the channel's 404 means the message is gone already: deleted all the
        same. Returns True when it went through the channel. Raises
        discord.HTTPException for other refusals."""
        tokens = self._live(self.editors.pop(message_id, None))
        waits = [self._room(token) for token in tokens]
        if waits and 0 < min(waits) <= TOKEN_WAIT:
            await asyncio.sleep(min(waits))
        for token in [t for t in tokens if self._room(t) == 0][:1]:
            self.tokens.take(token.ref.id, self._now())
            try:
                if token.original:
                    await token.ref.delete_original()
                else:
                    await token.ref.webhook.delete_message(message_id)
            except discord.HTTPException as error:
                if not self._refused(error, token, "deleting"):
                    raise
            else:
                self.by_token += 1
                return False
        if self.budget is not None:
            await self.budget.take(priority)
        self.by_channel += 1
        METRICS.count_global_request()
        channel = self.bot.get_partial_messageable(channel_id)
        with contextlib.suppress(discord.NotFound):  # gone already: deleted all the same
            await channel.get_partial_message(message_id).delete()
        return True

    async def post(self, channel_id: int, guild_id: int | None, priority: int = RESULT,
                   **kwargs: Any) -> discord.Message:
        """Post a message in the channel itself, never as an interaction's follow-up (a
        feature's announcements, the new-match notice: each stands alone). After the budget's ``take(priority)``; counted as a global request.
        Raises discord.HTTPException as Discord answers."""
        if self.budget is not None:
            await self.budget.take(priority)
        self.by_channel += 1
        METRICS.count_global_request()
        channel = self.bot.get_partial_messageable(channel_id, guild_id=guild_id)
        return await channel.send(**kwargs)

    async def create_thread(self, channel_id: int, guild_id: int | None, name: str,
                            priority: int = RESULT) -> int:
        """Start a public thread (type 11) named ``name`` (1–100 characters) under the text
        channel ``channel_id``; returns its id (docs/DISCORD.md row 23: Create Public
        Threads needed, THREAD_CREATE follows). After the budget's ``take(priority)``;
        counted as a global request. Raises discord.HTTPException as Discord answers."""
        if self.budget is not None:
            await self.budget.take(priority)
        self.by_channel += 1
        METRICS.count_global_request()
        thread = await self.bot.http.start_thread_without_message(
            channel_id, name=name[:100] or "-", auto_archive_duration=1440, type=11,
            invitable=False)
        return int(thread["id"])

    async def archive_thread(self, thread_id: int, priority: int = RESULT) -> bool:
        """Archive and lock the thread ``thread_id`` (``PATCH /channels/{id}``, docs/DISCORD.md
        row 26): it leaves the server's active threads, and nobody without Manage Threads
        posts in it again. Locking needs Manage Threads; without it the thread is only
        archived (its creator may). Returns whether it is locked. After the budget's
        ``take(priority)``; counted as a global request (each try). Raises
        discord.HTTPException as Discord answers."""
        for lock in (True, False):
            if self.budget is not None:
                await self.budget.take(priority)
            self.by_channel += 1
            METRICS.count_global_request()
            try:
                if lock:
                    await self.bot.http.edit_channel(thread_id, archived=True, locked=True)
                else:
                    await self.bot.http.edit_channel(thread_id, archived=True)
            except discord.Forbidden:
                if not lock:
                    raise
                continue  # no Manage Threads: archived only
            return lock
        return False  # not reached: the second try returns or raises

    def outbox(self, channel_id: int, guild_id: int | None, priority: int = RESULT) -> Outbox:
        """``channel_id`` as a place to ``send`` to through ``post``."""
        return Outbox(self, channel_id, guild_id, priority)

    async def read_recent(self, channel_id: int, guild_id: int | None,
                      limit: int) -> list[discord.Message]:
        """The channel's last ``limit`` (≤ 100: one request) messages, newest first, after
        the budget's ``take(RESULT)``; counted as a global request (the restart repair's
        scan, cogs/board_repair.py). Raises discord.HTTPException (e.g. no Read Message
        History)."""
        if self.budget is not None:
            await self.budget.take(RESULT)
        METRICS.count_global_request()
        channel = self.bot.get_partial_messageable(channel_id, guild_id=guild_id)
        return [message async for message in channel.history(limit=limit)]


def spend(token: discord.Interaction[Any] | TokenRef) -> None:
    """Note one webhook request about to be made on an interaction's token (the
    interaction or its ``TokenRef``) outside Delivery (a hand view's edit, an answer's
    follow-up): Delivery counts it in the token's bucket (``WEBHOOK_BUDGET``,
    docs/DISCORD.md row 12)."""
    ref = token if isinstance(token, TokenRef) else TokenRef.of(token)
    ref.spend(time.monotonic())


def _push(table: dict[int, list[_Token]], key: int, token: _Token) -> None:
    """Put ``token`` first in ``table[key]`` (once per interaction), keeping ``TOKENS_KEPT``."""
    rest = [t for t in table.get(key, ()) if t.ref is not token.ref]
    table[key] = [token, *rest][:TOKENS_KEPT]


@dataclass(frozen=True)
class Outbox:
    """One channel to post in through ``Delivery.post`` (``send`` takes
    ``discord.abc.Messageable.send``'s keywords): what a feature's poster or announcer
    writes to."""

    delivery: Delivery
    channel_id: int
    guild_id: int | None
    priority: int = RESULT

    async def send(self, **kwargs: Any) -> discord.Message:
        """Post ``kwargs`` (``content=``, ``embed=``…); raises discord.HTTPException."""
        return await self.delivery.post(self.channel_id, self.guild_id, self.priority, **kwargs)


class EditBucket:
    """Each channel's edits in the last ``window`` seconds, at most ``limit``
    (``EDIT_BUDGET``): Discord's per-channel bucket for message edits, kept on our side so
    that a busy board waits instead of collecting 429s. Event-loop time."""

    def __init__(self, limit: int = EDIT_BUDGET[0], window: float = EDIT_BUDGET[1],
                 margin: float = BUDGET_MARGIN) -> None:
        self.limit, self.window, self.margin = limit, window, margin
        self.times: dict[int, deque[float]] = {}
        """channel id → when its recent edits went out (oldest first)."""

    async def wait(self, channel_id: int) -> None:
        """Wait until ``channel_id`` has room for one more edit (nothing is spent)."""
        times = self.times.setdefault(channel_id, deque())
        loop = asyncio.get_running_loop()
        while times and loop.time() - times[0] >= self.window:
            times.popleft()
        if len(times) >= self.limit:
            await asyncio.sleep(times[0] + self.window + self.margin - loop.time())

    async def take(self, channel_id: int) -> None:
        """``wait``, then spend one edit of ``channel_id`` now."""
        await self.wait(channel_id)
        self.times.setdefault(channel_id, deque()).append(asyncio.get_running_loop().time())


class PermissionBackoff:
    """Which public messages a 403 keeps us from (``FORBIDDEN_WAIT``), by key (the board
    uses table ids), and when to try again.

    ``refused(key, channel_id)`` after a 403 leaves ``key`` ``blocked`` for 30 s, doubling
    with each 403 in a row (``delivered`` ends the row) up to 600 s; then, or as soon as
    ``back(channel_id)`` says an interaction from that channel shows the permissions
    complete, ``retry(key)`` is called (a plain callback on the event loop). Private
    hand views don't need the channel: they go on meanwhile.
    """

    def __init__(self, retry: Callable[[str], None],
                 wait: tuple[float, float] = FORBIDDEN_WAIT) -> None:
        self.retry = retry
        self.wait = wait
        self.until: dict[str, tuple[int, float]] = {}
        """key → (channel id, event-loop time it is blocked until)."""
        self.refusals: dict[str, int] = {}
        """key → 403s in a row."""
        self.probes: dict[str, asyncio.TimerHandle] = {}

    def blocked(self, key: str) -> bool:
        """True while ``key``'s message must be left alone."""
        entry = self.until.get(key)
        return entry is not None and asyncio.get_running_loop().time() < entry[1]

    def refused(self, key: str, channel_id: int, error: Exception) -> float:
        """Discord answered 403 for ``key``'s message in ``channel_id``: block it; the
        seconds until the next try (``retry``)."""
        n = self.refusals[key] = self.refusals.get(key, 0) + 1
        wait: float = min(self.wait[0] * 2 ** (n - 1), self.wait[1])
        loop = asyncio.get_running_loop()
        self.until[key] = (channel_id, loop.time() + wait)
        log.warning("no permission to draw table %s in channel %s (%s); private views "
                    "go on, next try in %.0f s", key, channel_id, error, wait)
        old = self.probes.pop(key, None)
        if old is not None:
            old.cancel()
        self.probes[key] = loop.call_later(wait, self._probe, key)
        return wait

    def delivered(self, key: str) -> None:
        """``key``'s message went through: the next 403 waits the shortest again."""
        self.refusals.pop(key, None)

    def back(self, channel_id: int) -> None:
        """An interaction showed the bot's permissions in ``channel_id`` are complete:
        unblock its keys, cancel their timers and ``retry`` each now (once: the timer
        would only redraw the message again)."""
        for key in [k for k, (channel, _) in self.until.items() if channel == channel_id]:
            del self.until[key]
            probe = self.probes.pop(key, None)
            if probe is not None:
                probe.cancel()
            self.retry(key)

    def forget(self, key: str) -> None:
        """``key`` needs no more tries (its table closed or its channel is gone)."""
        probe = self.probes.pop(key, None)
        if probe is not None:
            probe.cancel()
        self.until.pop(key, None)
        self.refusals.pop(key, None)

    def _probe(self, key: str) -> None:
        self.probes.pop(key, None)
        self.until.pop(key, None)
        self.retry(key)


def _rewind(kwargs: dict[str, Any]) -> None:
    """Rewind the files of a request about to be sent again another way."""
    for key in ("files", "attachments"):
        for item in kwargs.get(key) or ():
            if isinstance(item, discord.File):
                item.reset()
