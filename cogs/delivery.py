"""How the public table message reaches Discord: on interaction tokens while one lives,
through the channel (and the global budget) otherwise.

Discord counts channel endpoints (``POST``/``PATCH /channels/{id}/messages``) against
the bot token's global limit of 50 requests per second, all processes together;
interaction webhooks (``/webhooks/{application}/{token}/...``, for the 15 minutes a
token lives) are exempt. So every interaction in a table's channel is offered here
(``offer``): the newest answered one posts the next new message as a follow-up
(``send``), and a message is edited with the newest token that may edit it
(``edit``): the follow-up's own interaction, or a click on the message itself (a
deferred component update edits its message as ``@original``). Only when no such
token is alive (a restart, a hand outlasting 15 minutes, a token Discord refused)
does a request go to the channel, after ``GlobalBudget.take``. A refused token
(10015 Unknown Webhook, 50027 Invalid Webhook Token) is dropped at once and the
same request goes through the channel: one error per token, never a retry loop.

Tokens are secrets: they are kept only in memory (a restart falls back to the
channel until the next interaction) and never logged (``_Token`` has no repr of
its interaction; ``bot/logsafe.py`` masks tokens in discord.py's URLs).

Channel edits also wait for the channel's edit bucket (``EditBucket``: Discord's
per-channel limit), and a table message that got a 403 (a permission removed) is
left alone for a while (``PermissionBackoff``).
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.service.budget import RESULT, GlobalBudget
from bot.service.metrics import METRICS

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
"""Discord's answers to a token it no longer takes: Unknown Webhook, Invalid Webhook Token."""
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
    """One interaction the bot may still speak through (the token is inside, never shown)."""

    interaction: discord.Interaction[Any] = field(repr=False)
    expires: float
    offered: float
    original: bool = False
    """True: edits its message as ``@original`` (a click deferred as an update)."""

    def answered(self) -> bool:
        """The initial response is done and no "thinking" placeholder waits for its
        answer (the first follow-up would fill the placeholder in, not post)."""
        ix = self.interaction
        return ix.response.is_done() and not ix.extras.get("ddz_thinking")


class Delivery:
    """Posts and edits the public table messages (see the module docstring).

    ``budget``: the process's ``GlobalBudget`` for channel requests (None: no waiting).
    ``clock``: monotonic seconds (default the event loop's). ``edits``: the channels'
    edit buckets that channel edits wait for (None: no waiting). Counters: ``by_token``
    / ``by_channel`` requests made each way, ``token_errors`` tokens Discord refused.
    """

    def __init__(self, bot: discord.Client, budget: GlobalBudget | None = None,
                 clock: Callable[[], float] | None = None, *,
                 edits: EditBucket | None = None) -> None:
        self.bot = bot
        self.budget = budget
        self.edits = edits
        self._clock = clock
        self.posters: dict[int, _Token] = {}
        """channel id → the newest interaction there (it may post a follow-up)."""
        self.editors: dict[int, _Token] = {}
        """message id → the newest interaction that may edit that message."""
        self.by_token = 0
        self.by_channel = 0
        self.token_errors = 0
        self._offers = 0

    def _now(self) -> float:
        return self._clock() if self._clock is not None else asyncio.get_running_loop().time()

    # ----- tokens -------------------------------------------------------------------

    def offer(self, interaction: discord.Interaction[Any], *, edits: int | None = None) -> None:
        """Note ``interaction`` (answered now or soon) as the newest in its channel;
        ``edits``: the id of the message it may edit as ``@original`` (a component
        click on that message, deferred as an update)."""
        if interaction.channel_id is None:
            return
        now = self._now()
        self._offers += 1
        if self._offers % PRUNE_EVERY == 0:
            self._prune(now)
        token = _Token(interaction, now + TOKEN_LIFETIME - TOKEN_MARGIN, now)
        self.posters[interaction.channel_id] = token
        if edits is not None:
            self.editors[edits] = _Token(interaction, token.expires, now, original=True)

    def _prune(self, now: float) -> None:
        """Forget every expired token (a deal's message keeps its editor until then)."""
        for table in (self.posters, self.editors):
            for key in [k for k, token in table.items() if token.expires <= now]:
                del table[key]

    def can_edit(self, message_id: int | None) -> bool:
        """True when ``message_id`` has a live token to be edited with (no channel request)."""
        token = self.editors.get(message_id) if message_id is not None else None
        return token is not None and token.expires > self._now() and token.answered()

    def forget_message(self, message_id: int) -> None:
        """The message is gone or retired: drop the token that edited it."""
        self.editors.pop(message_id, None)

    def forget_channel(self, channel_id: int) -> None:
        self.posters.pop(channel_id, None)

    async def ready(self, channel_id: int, message_id: int | None) -> None:
        """Wait until a request for ``message_id`` (None: a new message) may go: at once
        when it has a live token, else when the channel's edit bucket has room. Call it
        before reading the state to send, so that the wait coalesces changes."""
        if self.edits is not None and not self.can_edit(message_id):
            await self.edits.wait(channel_id)

    async def _poster(self, channel_id: int) -> _Token | None:
        """The channel's newest live interaction once answered (waiting up to
        ``READY_WAIT`` s for one offered just now), else None."""
        token = self.posters.get(channel_id)
        while token is not None and not token.answered() and token.expires > self._now() \
                and self._now() - token.offered < READY_WAIT:
            await asyncio.sleep(0.02)
            token = self.posters.get(channel_id)
        if token is None or token.expires <= self._now() or not token.answered():
            return None
        return token

    def _refused(self, error: discord.HTTPException, token: _Token, what: str) -> bool:
        """True (and the token dropped) when ``error`` says Discord no longer takes it."""
        if error.code not in TOKEN_ERRORS:
            return False
        self.token_errors += 1
        for table in (self.posters, self.editors):
            for key, value in list(table.items()):
                if value.interaction is token.interaction:
                    del table[key]
        log.info("an interaction token was refused while %s (%s); using the channel",
                 what, error.code)
        return True

    # ----- requests -----------------------------------------------------------------

    async def send(self, channel_id: int, guild_id: int | None, priority: int = RESULT,
                   **kwargs: Any) -> int:
        """Post a public message (``discord.abc.Messageable.send`` keywords); returns its id.

        A follow-up of the channel's newest answered interaction, else a channel post
        after the budget's ``take(priority)``. Raises discord.HTTPException as Discord
        answers (a refused token falls back to the channel first)."""
        token = await self._poster(channel_id)
        if token is not None:
            try:
                message = await token.interaction.followup.send(wait=True, **kwargs)
            except discord.HTTPException as error:
                if not self._refused(error, token, "posting"):
                    raise
                _rewind(kwargs)
            else:
                self.by_token += 1
                self.editors[message.id] = _Token(token.interaction, token.expires, token.offered)
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
        token, else through the channel (after a slot of its ``edits`` bucket and the
        budget's ``take(priority)``). Returns True when it went through the channel."""
        token = self.editors.get(message_id)
        if token is not None and token.expires > self._now() and token.answered():
            try:
                if token.original:
                    await token.interaction.edit_original_response(**kwargs)
                else:
                    await token.interaction.followup.edit_message(message_id, **kwargs)
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
        wait = min(self.wait[0] * 2 ** (n - 1), self.wait[1])
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
