"""cogs/languages.py: the language of a server's public messages."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import discord

from bot.values import GuildSettings
from cogs.languages import ServerLanguages, public_language


class Settings:
    """What ServerLanguages reads of the TableService: ``settings(guild_id)``."""

    def __init__(self, language: str | None = None, fail: bool = False) -> None:
        self.language, self.fail = language, fail

    async def settings(self, guild_id: int) -> GuildSettings:
        if self.fail:
            raise OSError("database is locked")
        return GuildSettings(language=self.language)


def languages(settings: Settings, guilds: dict[int, Any] | None = None) -> ServerLanguages:
    bot = SimpleNamespace(get_guild=(guilds or {}).get)
    return ServerLanguages(bot, settings)  # type: ignore[arg-type]  # the two fakes above


def test_the_setting_wins_over_the_server_locale_and_english_is_the_last_resort() -> None:
    assert public_language("es", discord.Locale.american_english) == "es"
    assert public_language(None, discord.Locale.spain_spanish) == "es"
    assert public_language("", "es-419") == "es"
    assert public_language(None, None) == "en"
    assert public_language(None, "ko") == "en"  # no catalog: English


async def test_a_server_without_a_setting_speaks_its_preferred_locale() -> None:
    guild = SimpleNamespace(preferred_locale=discord.Locale.spain_spanish)
    assert await languages(Settings(), {5: guild}).language(5) == "es"
    assert await languages(Settings("en"), {5: guild}).language(5) == "en"


async def test_an_uncached_server_speaks_the_locale_its_last_interaction_carried() -> None:
    found = languages(Settings())
    assert await found.language(5) == "en"
    found.remember(5, discord.Locale.latin_american_spanish)
    found.remember(None, discord.Locale.british_english)  # a DM: nothing to note
    found.remember(6, None)
    assert found.locales == {5: "es-419"} and await found.language(5) == "es"


async def test_unreadable_settings_fall_back_to_the_remembered_locale() -> None:
    found = languages(Settings("en", fail=True))
    found.remember(5, "es-ES")
    assert await found.language(5) == "es" and await found.language(6) == "en"
