"""The language of a server's public messages (the table message, the daily posts, the
public notices): ``/ddz config language``, else the server's locale, else English.

``public_language`` is the rule, pure; ``ServerLanguages`` looks up its inputs: the
server's settings (``TableService.settings``) and its locale (the cached guild's
``preferred_locale``, else the ``guild_locale`` the server's last interaction carried).
"""

from __future__ import annotations

import logging

import discord

from bot.i18n import resolve_locale
from bot.service import TableService

log = logging.getLogger("cogs.ddz")


def public_language(chosen: str | None, server_locale: object | None) -> str:
    """The catalog language (``"en"``, ``"es"``) of public messages: ``chosen`` (the
    setting, None or "" for "the server's language"), else ``server_locale`` (a
    ``discord.Locale`` or its value), else English."""
    return resolve_locale(chosen if chosen else server_locale)


class ServerLanguages:
    """Each server's public language (see the module docstring)."""

    def __init__(self, bot: discord.Client, service: TableService) -> None:
        self.bot = bot
        self.service = service
        self.locales: dict[int, str] = {}
        """guild id → the locale its last interaction carried (the fallback)."""

    def remember(self, guild_id: int | None, locale: object) -> None:
        """Note the server's locale from an interaction (``interaction.guild_locale``)."""
        if guild_id is not None and locale is not None:
            self.locales[guild_id] = str(getattr(locale, "value", locale))

    async def language(self, guild_id: int) -> str:
        """The public language of ``guild_id``. Raises nothing: when its settings can't
        be read (logged), the remembered locale decides."""
        try:
            chosen = (await self.service.settings(guild_id)).language
        except Exception:
            log.exception("reading settings of guild %s failed", guild_id)
            return resolve_locale(self.locales.get(guild_id))
        if chosen:
            return public_language(chosen, None)
        guild = self.bot.get_guild(guild_id)
        return public_language(None, guild.preferred_locale if guild is not None
                               else self.locales.get(guild_id))
