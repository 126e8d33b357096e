"""The app-command translator: localized /ddz command names, descriptions and choices.

Commands declare their strings as ``locale_str("default English", key="cmd.start.name")``;
this translator looks the key up in the catalog of the user's language. For the
default language it returns None (Discord then shows the default text).
"""

from __future__ import annotations

import discord
from discord import app_commands

from bot.i18n import DEFAULT_LOCALE, catalog, resolve_locale


def cmd(default: str, key: str) -> app_commands.locale_str:
    """A translatable command string whose catalog key is ``key``."""
    return app_commands.locale_str(default, key=key)


class DdzTranslator(app_commands.Translator):
    """Serves ``locale_str`` keys from the ``.po`` catalogs (``es-ES``/``es-419`` → es)."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        key = string.extras.get("key")
        lang = resolve_locale(locale)
        if not key or lang == DEFAULT_LOCALE:
            return None
        return catalog(lang).get(key)
