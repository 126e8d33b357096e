"""One way to answer an interaction, and one place that turns errors into replies.

* ``defer(interaction, ...)`` acknowledges within Discord's 3 s before any
  rendering or database work (no-op when already answered).
* ``defer_soon(interaction, ...)`` defers only if no answer is sent within
  ``ANSWER_WITHIN_SECONDS``: a hand view drawn in time is the interaction's one
  response (no deferral round trip; docs/PERFORMANCE.md §Answers).
* ``respond(interaction, ...)`` sends the answer: the initial response when none
  was sent yet, otherwise ``edit_original_response`` (``edit=True``, for a deferred
  component update or a deferred "thinking" reply) or a followup message.
* ``error_message(exc, locale)`` maps a ``GameError`` / ``CardParseError`` code to
  its localized ``error.<code>`` text; anything else is an apology.
* ``answer_error`` sends that message ephemerally and logs unexpected errors with
  their context (guild, channel, table, user), never with cards.
"""

from __future__ import annotations

import asyncio
import io
import logging
from typing import Any

import discord
from discord.utils import MISSING

from bot.game.errors import GameError
from bot.i18n import has_key, t
from bot.rules import CardParseError
from bot.service import StorageUnavailable
from cogs import metering
from cogs.delivery import spend

log = logging.getLogger("cogs.ddz")


ECHO_LIMIT = 40
"""Characters of the user's own input a refusal may quote back (a message is ≤ 2000)."""


def _clip(value: object) -> object:
    """Shorten quoted user input so a refusal always fits in one Discord message."""
    if isinstance(value, str) and len(value) > ECHO_LIMIT:
        return type(value)(value[: ECHO_LIMIT - 1] + "…")  # cards stay cards (jokers named by ``t``)
    return value


def error_message(exc: BaseException, locale: object) -> str:
    """The localized text of a refusal (``error.<code>`` with its params, each ≤ 40 chars)."""
    if isinstance(exc, GameError):
        key = f"error.{exc.code}"
        if has_key(key):
            return t(key, locale, **{k: _clip(v) for k, v in exc.params.items()})
        return t("error.unknown", locale, code=_clip(exc.code))
    if isinstance(exc, CardParseError):
        return t("error.bad_card", locale, token=_clip(exc.token))
    if isinstance(exc, StorageUnavailable):  # a full disk, a read-only or silent database
        return t("error.try_again", locale)
    return t("error.internal", locale)


class Upload(io.BytesIO):
    """An attachment's bytes that leave no reference cycle behind once sent.

    ``discord.File`` stubs its buffer's ``close`` while uploading and, when done
    (``File.close``), sets it back to the buffer's own bound ``close``. Kept in a plain
    ``BytesIO``'s ``__dict__`` that is a cycle (buffer → dict → bound method → buffer)
    that only the cyclic collector frees, and never if it was frozen while in flight
    (``bot.client.FreezeAfterFull``; 0.03 cycles a click at 1,000 tables,
    docs/PERFORMANCE.md §Collector). Here setting ``close`` back to the buffer's own
    removes the stub instead, so reference counting frees the buffer."""

    def __setattr__(self, name: str, value: Any) -> None:
        if name == "close" and getattr(value, "__self__", None) is self:
            self.__dict__.pop("close", None)  # the class's own close again
            return
        super().__setattr__(name, value)


def png_file(data: bytes, filename: str, description: str) -> discord.File:
    """A PNG attachment with alt text (``description``, ≤ 1024 characters)."""
    return discord.File(Upload(data), filename=filename, description=description[:1024])


async def defer(interaction: discord.Interaction, *, ephemeral: bool = True,
                thinking: bool = False) -> None:
    """Acknowledge now. Component clicks without ``thinking``: a deferred update of
    their message; otherwise a deferred reply ("thinking…") that the next
    ``respond`` replaces."""
    if interaction.response.is_done():
        return
    if interaction.type is discord.InteractionType.component and not thinking:
        await interaction.response.defer()
    else:
        await interaction.response.defer(ephemeral=ephemeral, thinking=True)
        # ddz_thinking: the placeholder waits for its answer (until Discord confirmed it);
        # ddz_deferred_reply stays: such a token never posts a board (cogs/delivery.py).
        interaction.extras["ddz_thinking"] = interaction.extras["ddz_deferred_reply"] = True
    metering.first_response(interaction, "deferred")


ANSWER_WITHIN_SECONDS = 0.15
"""How long ``defer_soon`` waits for the answer before deferring (seconds; Discord
allows 3 s for the first response)."""


class _LateDefer:
    """A deferral armed by ``defer_soon``: ``fire`` defers unless ``respond`` (holding
    ``lock``) answered first; ``respond`` cancels ``handle`` before answering."""

    def __init__(self, interaction: discord.Interaction, ephemeral: bool, thinking: bool) -> None:
        self.interaction, self.ephemeral, self.thinking = interaction, ephemeral, thinking
        self.lock = asyncio.Lock()
        self.handle: asyncio.TimerHandle | None = None

    def fire(self) -> None:
        task = asyncio.ensure_future(self._defer())
        _LATE_TASKS.add(task)
        task.add_done_callback(_LATE_TASKS.discard)

    async def _defer(self) -> None:
        async with self.lock:
            try:
                await defer(self.interaction, ephemeral=self.ephemeral, thinking=self.thinking)
            except discord.HTTPException as error:  # the answer's own request will say more
                log.warning("could not defer (%s): %s", context_of(self.interaction), error)
            except Exception:  # e.g. a dropped connection: logged here, never unretrieved
                log.exception("could not defer (%s)", context_of(self.interaction))


_LATE_TASKS: set[asyncio.Task[None]] = set()
"""Deferrals under way (a reference, so that none is collected mid-request)."""


def defer_soon(interaction: discord.Interaction, *, ephemeral: bool = True,
               thinking: bool = False, within: float | None = None) -> None:
    """``defer`` (same arguments) after ``within`` seconds, unless ``respond`` answered
    ``interaction`` by then: its answer is then the one initial response (a component's
    message updated, or the reply sent), one request instead of two (``within``: default
    ``ANSWER_WITHIN_SECONDS``, read at the call). The deferral and
    the answer never cross: both hold the same lock, and each looks whether the other
    already answered. Every path after it must ``respond`` (errors: ``answer_error``)."""
    if interaction.response.is_done() or "ddz_late_defer" in interaction.extras:
        return
    late = _LateDefer(interaction, ephemeral, thinking)
    wait = ANSWER_WITHIN_SECONDS if within is None else within
    late.handle = asyncio.get_running_loop().call_later(wait, late.fire)
    interaction.extras["ddz_late_defer"] = late


async def respond(
    interaction: discord.Interaction,
    content: str | None = None,
    *,
    ephemeral: bool = True,
    edit: bool = False,
    embed: discord.Embed | None = None,
    file: discord.File | None = None,
    view: Any = MISSING,
    allowed_mentions: discord.AllowedMentions | None = None,
) -> None:
    """Send ``content``/``embed``/``file``/``view`` as the answer to ``interaction``.

    Not answered yet: the initial response (``edit`` on a component: update its
    message). Deferred "thinking": replace the placeholder. Deferred update with
    ``edit``: edit the component's message. Otherwise a followup message.
    ``view=None`` removes the components of an edited message.
    """
    late: _LateDefer | None = interaction.extras.get("ddz_late_defer")
    if late is not None:
        if late.handle is not None:
            late.handle.cancel()
        async with late.lock:
            if late.thinking and not interaction.response.is_done():
                # The reply the "thinking" deferral stood for: never an update of the
                # clicked message (a hand view must not replace the public table).
                edit, ephemeral = False, late.ephemeral
            await _respond(interaction, content, ephemeral=ephemeral, edit=edit, embed=embed,
                           file=file, view=view, allowed_mentions=allowed_mentions)
            if interaction.response.is_done():  # answered: the deferral has nothing left to do
                del interaction.extras["ddz_late_defer"]  # (and a tracked view keeps no cycle)
        return
    await _respond(interaction, content, ephemeral=ephemeral, edit=edit, embed=embed, file=file,
                   view=view, allowed_mentions=allowed_mentions)


async def _respond(
    interaction: discord.Interaction,
    content: str | None,
    *,
    ephemeral: bool,
    edit: bool,
    embed: discord.Embed | None,
    file: discord.File | None,
    view: Any,
    allowed_mentions: discord.AllowedMentions | None,
) -> None:
    mentions = allowed_mentions or discord.AllowedMentions.none()
    embeds = [embed] if embed is not None else []
    files = [file] if file is not None else []
    sendable: dict[str, Any] = {} if view is MISSING or view is None else {"view": view}
    if embeds:
        sendable["embeds"] = embeds
    if files:
        sendable["files"] = files
    if not interaction.response.is_done():
        if edit and interaction.type is discord.InteractionType.component:
            await interaction.response.edit_message(
                content=content, embeds=embeds, attachments=files,
                **({} if view is MISSING else {"view": view}))
        else:
            sent = await interaction.response.send_message(
                content, ephemeral=ephemeral, allowed_mentions=mentions, **sendable)
            _answered_in(interaction, getattr(sent, "message_id", None))
        metering.first_response(interaction, "answered")
        return
    spend(interaction)  # a webhook request on its token (Delivery's bucket counts it)
    if interaction.extras.get("ddz_thinking") or edit:
        edited = await interaction.edit_original_response(
            content=content, embeds=embeds, attachments=files, allowed_mentions=mentions,
            **({} if view is MISSING else {"view": view}))
        _answered_in(interaction, getattr(edited, "id", None))
        # Only now is the placeholder filled (a failed edit leaves it waiting: the next
        # answer still goes to it, and no follow-up may fill it with something else).
        interaction.extras.pop("ddz_thinking", None)
        return
    await interaction.followup.send(content or MISSING, ephemeral=ephemeral,
                                    allowed_mentions=mentions, **sendable)


ANSWER_MESSAGE = "ddz_answer_message"
"""``interaction.extras`` key: the id of the message that holds the interaction's answer
(its original response), when Discord said it (``answer_message``)."""


def _answered_in(interaction: discord.Interaction, message_id: int | None) -> None:
    if isinstance(message_id, int):
        interaction.extras[ANSWER_MESSAGE] = message_id


def answer_message(interaction: discord.Interaction) -> int | None:
    """The id of the message the interaction's original response is (the one its token
    edits): the clicked message when the answer updated it, else the new message's id
    when Discord sent it back (``respond``), else None."""
    message = getattr(interaction, "message", None)
    if message is not None and updates_clicked(interaction):
        return int(message.id)
    found = interaction.extras.get(ANSWER_MESSAGE)
    return found if isinstance(found, int) else None


def updates_clicked(interaction: discord.Interaction) -> bool:
    """Whether the interaction's answer updated the message clicked (a click in a view
    answered in place), not a new message."""
    kind = getattr(getattr(interaction, "response", None), "type", None)
    return kind in (discord.InteractionResponseType.message_update,
                    discord.InteractionResponseType.deferred_message_update)


def context_of(interaction: discord.Interaction, table_id: str | None = None) -> str:
    """``guild=… channel=… table=… user=…`` for logs (ids only, never cards)."""
    return (f"guild={interaction.guild_id} channel={interaction.channel_id} "
            f"table={table_id or '-'} user={interaction.user.id if interaction.user else '-'}")


async def answer_error(interaction: discord.Interaction, exc: BaseException,
                       table_id: str | None = None) -> None:
    """Answer a refusal or a failure ephemerally in the user's language; log failures.

    Never raises: a Discord error while apologizing is logged and dropped.
    """
    if isinstance(exc, StorageUnavailable):  # one line: it passes by itself
        log.warning("database unavailable (%s): %s", context_of(interaction, table_id), exc)
    elif not isinstance(exc, GameError | CardParseError):
        log.error("interaction failed (%s)", context_of(interaction, table_id), exc_info=exc)
    metering.ended(interaction, exc)
    try:
        await respond(interaction, error_message(exc, interaction.locale), ephemeral=True)
    except discord.HTTPException as http_error:
        log.warning("could not answer the error (%s): %s", context_of(interaction, table_id),
                    http_error)
    except Exception:
        log.exception("could not answer the error (%s)", context_of(interaction, table_id))
