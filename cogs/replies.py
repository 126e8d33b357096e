"""One way to answer an interaction, and one place that turns errors into replies.

* ``defer(interaction, ...)`` acknowledges within Discord's 3 s before any
  rendering or database work (no-op when already answered).
* ``respond(interaction, ...)`` sends the answer: the initial response when none
  was sent yet, otherwise ``edit_original_response`` (``edit=True``, for a deferred
  component update or a deferred "thinking" reply) or a followup message.
* ``error_message(exc, locale)`` maps a ``GameError`` / ``CardParseError`` code to
  its localized ``error.<code>`` text; anything else is an apology.
* ``answer_error`` sends that message ephemerally and logs unexpected errors with
  their context (guild, channel, table, user), never with cards.
"""

from __future__ import annotations

import io
import logging
from typing import Any

import discord
from discord.utils import MISSING

from bot.game.errors import GameError
from bot.i18n import has_key, t
from bot.rules import CardParseError

log = logging.getLogger("cogs.ddz")


ECHO_LIMIT = 40
"""Characters of the user's own input a refusal may quote back (a message is ≤ 2000)."""


def _clip(value: object) -> object:
    """Shorten quoted user input so a refusal always fits in one Discord message."""
    if isinstance(value, str) and len(value) > ECHO_LIMIT:
        return value[: ECHO_LIMIT - 1] + "…"
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
    return t("error.internal", locale)


def png_file(data: bytes, filename: str, description: str) -> discord.File:
    """A PNG attachment with alt text (``description``, ≤ 1024 characters)."""
    return discord.File(io.BytesIO(data), filename=filename, description=description[:1024])


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
        interaction.extras["ddz_thinking"] = True


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
            return
        await interaction.response.send_message(
            content, ephemeral=ephemeral, allowed_mentions=mentions, **sendable)
        return
    if interaction.extras.pop("ddz_thinking", False) or edit:
        await interaction.edit_original_response(
            content=content, embeds=embeds, attachments=files, allowed_mentions=mentions,
            **({} if view is MISSING else {"view": view}))
        return
    await interaction.followup.send(content or MISSING, ephemeral=ephemeral,
                                    allowed_mentions=mentions, **sendable)


def context_of(interaction: discord.Interaction, table_id: str | None = None) -> str:
    """``guild=… channel=… table=… user=…`` for logs (ids only, never cards)."""
    return (f"guild={interaction.guild_id} channel={interaction.channel_id} "
            f"table={table_id or '-'} user={interaction.user.id if interaction.user else '-'}")


async def answer_error(interaction: discord.Interaction, exc: BaseException,
                       table_id: str | None = None) -> None:
    """Answer a refusal or a failure ephemerally in the user's language; log failures.

    Never raises: a Discord error while apologizing is logged and dropped.
    """
    if not isinstance(exc, GameError | CardParseError):
        log.error("interaction failed (%s)", context_of(interaction, table_id), exc_info=exc)
    try:
        await respond(interaction, error_message(exc, interaction.locale), ephemeral=True)
    except discord.HTTPException as http_error:
        log.warning("could not answer the error (%s): %s", context_of(interaction, table_id),
                    http_error)
    except Exception:
        log.exception("could not answer the error (%s)", context_of(interaction, table_id))
