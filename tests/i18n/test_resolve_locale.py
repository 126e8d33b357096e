"""``resolve_locale`` answers the same for a Discord locale and its string, and remembers
both (it is asked for every message)."""

from __future__ import annotations

import discord
import pytest

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


def test_t_answers_the_same_text_from_memory_for_every_kind_of_locale(
    caplog: pytest.LogCaptureFixture,
) -> None:
    from bot.i18n.catalog import _FOUND, log, t

    for locale in ("es", discord.Locale.spain_spanish, ["es"], None):
        first = t("btn.play", locale)
        assert t("btn.play", locale) == first
        assert first == ("Play" if locale in (None, ["es"]) else "Jugar")
    assert _FOUND["btn.play", "es"] == "Jugar"
    assert t("btn.bid", "es", n=3) != t("btn.bid", "es", n=2)  # params still filled in
    with caplog.at_level("WARNING", logger=log.name):
        assert t("no.such.key", "en") == "no.such.key"
        assert t("no.such.key", "en") == "no.such.key"
    assert [r.getMessage() for r in caplog.records].count("missing message 'no.such.key'") == 2
