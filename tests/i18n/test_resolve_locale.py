"""``resolve_locale`` answers the same for a Discord locale and its string, and remembers
both (it is asked for every message)."""

from __future__ import annotations

import discord

from bot.i18n.catalog import _RESOLVED, resolve_locale


def test_discord_locales_and_strings_resolve_alike_and_are_remembered() -> None:
    cases = {discord.Locale("es-ES"): "es", discord.Locale("es-419"): "es",
             discord.Locale("en-US"): "en", discord.Locale("fr"): "en",
             "es-ES": "es", "ES_es": "es", "pt-BR": "en", "": "en"}
    for locale, lang in cases.items():
        assert resolve_locale(locale) == lang, locale
        assert _RESOLVED[locale] == lang
    assert resolve_locale(None) == "en"
    assert resolve_locale(["es"]) == "en"  # unhashable: answered, never remembered
