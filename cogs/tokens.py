"""An interaction's token kept past its click, without the interaction.

A tracked hand view (``cogs/open_views.py``) and the board's delivery tokens
(``cogs/delivery.py``) speak through an interaction's token for up to 15 minutes.
discord.py's ``Interaction`` and its ``InteractionResponse`` refer to each other, so
an interaction kept that long ages into the garbage collector's oldest generation with
its member, user, payload and response, and only a full collection, which stops the
event loop, can free it (docs/PERFORMANCE.md §Collector). What is kept instead is a
``TokenRef``: the interaction's id, channel, its follow-up webhook (the application id
and the token, the webhook of ``Interaction.followup``) and what its answer showed.
While the click is handled it reads the live interaction; ``release`` (the click is
over) keeps the last state and lets the interaction go, which then dies young.
"""

from __future__ import annotations

from collections import deque
from typing import Any

import discord
from discord.http import handle_message_parameters
from discord.webhook.async_ import async_context

KEY = "ddz_token"
"""``interaction.extras`` key: the interaction's one ``TokenRef``."""
THINKING = "ddz_thinking"
"""``interaction.extras`` key (``cogs/replies.py``): a deferred "thinking" placeholder
still waits for its answer."""
DEFERRED_REPLY = "ddz_deferred_reply"
"""``interaction.extras`` key (``cogs/replies.py``): the interaction was deferred as a
"thinking" reply (its follow-ups would answer a message only its member sees)."""
SPENT_KEPT = 5
"""Webhook requests remembered per token (``spend``; Delivery's bucket holds 4)."""


class TokenRef:
    """One interaction's token for later requests (see the module docstring).

    ``id``, ``channel_id``: the interaction's; ``spent``: ``time.monotonic()`` of the
    webhook requests made on the token outside Delivery (``cogs.delivery.spend``).
    Get it with ``TokenRef.of(interaction)`` (one per interaction); never shown in a
    repr or a log (the token is a secret)."""

    __slots__ = ("id", "channel_id", "_spent", "_webhook", "_interaction", "_answered",
                 "_deferred_reply")

    def __init__(self, interaction: discord.Interaction[Any]) -> None:
        self.id: int = interaction.id
        self.channel_id: int | None = interaction.channel_id
        self._spent: deque[float] | None = None  # made at the first request
        self._webhook: discord.Webhook | None = None
        self._interaction: discord.Interaction[Any] | None = interaction
        self._answered = False
        self._deferred_reply = False

    @classmethod
    def of(cls, interaction: discord.Interaction[Any]) -> TokenRef:
        """``interaction``'s token reference (made on first use, then the same one).
        Once the interaction is ``answered`` nothing it shows changes any more (a
        "thinking" deferral comes before any answer), so the reference lets it go at once;
        else at ``release``, when its click is handled."""
        ref: TokenRef | None = interaction.extras.get(KEY)
        if ref is None:
            ref = interaction.extras[KEY] = cls(interaction)
        if ref._interaction is not None and ref.answered():
            ref.release()
        return ref

    @property
    def spent(self) -> deque[float] | tuple[()]:
        """``time.monotonic()`` of the last webhook requests made on the token outside
        Delivery (``cogs.delivery.spend``), oldest first."""
        return self._spent if self._spent is not None else ()

    def spend(self, when: float) -> None:
        """Note a webhook request made on the token at ``when`` (``time.monotonic()``)."""
        if self._spent is None:
            self._spent = deque(maxlen=SPENT_KEPT)
        self._spent.append(when)

    def __repr__(self) -> str:
        return f"<TokenRef id={self.id} channel={self.channel_id}>"

    def answered(self) -> bool:
        """Discord confirmed the initial response and no "thinking" placeholder waits
        for its answer (the first follow-up would fill the placeholder in, not post)."""
        ix = self._interaction
        if ix is None:
            return self._answered
        return ix.response.is_done() and not ix.extras.get(THINKING)

    def deferred_reply(self) -> bool:
        """The interaction was deferred as a "thinking" reply."""
        ix = self._interaction
        return self._deferred_reply if ix is None else bool(ix.extras.get(DEFERRED_REPLY))

    def release(self) -> None:
        """The click is handled: keep what its answer showed and the webhook, and let
        the interaction go (nothing kept refers to it). Idempotent."""
        ix = self._interaction
        if ix is None:
            return
        self._answered, self._deferred_reply = self.answered(), self.deferred_reply()
        self._webhook = ix.followup
        self._interaction = None

    @property
    def webhook(self) -> discord.Webhook:
        """The interaction's follow-up webhook (``Interaction.followup``)."""
        if self._webhook is None:
            ix = self._interaction
            assert ix is not None  # released refs always keep their webhook
            self._webhook = ix.followup
        return self._webhook

    async def edit_original(self, **kwargs: Any) -> None:
        """Edit the interaction's original response: the request of
        ``Interaction.edit_original_response`` (its keywords: content, embeds,
        attachments, view, allowed_mentions), through the same webhook adapter; the
        message Discord sends back is not parsed (nobody reads it). Raises
        discord.HTTPException."""
        hook = self.webhook
        state: Any = hook._state  # the client's ConnectionState (Interaction.followup's)
        with handle_message_parameters(
                previous_allowed_mentions=getattr(state, "allowed_mentions", None),
                **kwargs) as params:
            await async_context.get().edit_original_interaction_response(
                hook.id, str(hook.token), session=hook.session, proxy=hook.proxy,
                proxy_auth=hook.proxy_auth, payload=params.payload,
                multipart=params.multipart, files=params.files)

    async def edit_message(self, message_id: int, **kwargs: Any) -> None:
        """Edit the follow-up message ``message_id`` of this token: the request of
        ``Webhook.edit_message`` (same keywords), through the same webhook adapter; the
        message Discord sends back is not parsed (nobody reads it: a public table
        message is redrawn about once a second). Raises discord.HTTPException."""
        hook = self.webhook
        state: Any = hook._state
        view = kwargs.get("view")
        with handle_message_parameters(
                previous_allowed_mentions=getattr(state, "allowed_mentions", None),
                **kwargs) as params:
            await async_context.get().edit_webhook_message(
                hook.id, str(hook.token), message_id, session=hook.session, proxy=hook.proxy,
                proxy_auth=hook.proxy_auth, payload=params.payload,
                multipart=params.multipart, files=params.files, with_components=bool(view))

    async def delete_original(self) -> None:
        """Delete the interaction's original response (``Interaction.delete_original_response``'s
        request). Raises discord.HTTPException."""
        hook = self.webhook
        await async_context.get().delete_original_interaction_response(
            hook.id, str(hook.token), session=hook.session, proxy=hook.proxy,
            proxy_auth=hook.proxy_auth)


def release(interaction: discord.Interaction[Any]) -> None:
    """The click of ``interaction`` is handled: its ``TokenRef`` (if one was made) lets
    the interaction go, and so does its ``InteractionResponse`` (which still says
    ``is_done()``; nothing answers the click any more: later requests go through its
    token). Without the response's reference back, the interaction is no cycle and goes
    as soon as the last reference to it does, even when a full collection ran while the
    click was handled and the heap was frozen (``bot.client``, docs/PERFORMANCE.md
    §Collector)."""
    ref: TokenRef | None = interaction.extras.get(KEY)
    if ref is not None:
        ref.release()
    response: Any = interaction.response
    response._parent = None  # discord.py's InteractionResponse → Interaction
