"""cogs/languages.py: the language of a server's public messages."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot.i18n import available_locales
from bot.values import GuildSettings
from cogs.languages import ServerLanguages, public_language
from tests.support.locales import throwaway_locales


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


async def test_chinese_servers_and_the_chinese_settings_pick_each_script(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with throwaway_locales(tmp_path, monkeypatch, {"zh_CN": {"btn.play": "出牌"},
                                                   "zh_TW": {"btn.play": "出牌"}}):
        guild = SimpleNamespace(preferred_locale=discord.Locale.taiwan_chinese)
        assert await languages(Settings(), {5: guild}).language(5) == "zh_TW"
        assert await languages(Settings("zh_CN"), {5: guild}).language(5) == "zh_CN"
        assert await languages(Settings("es"), {5: guild}).language(5) == "es"
        found = languages(Settings())
        found.remember(6, "zh-CN")
        assert await found.language(6) == "zh_CN"
    assert public_language("zh_TW", None) == public_language(None, "zh-TW") == (
        "zh_TW" if "zh_TW" in available_locales() else "en")


def test_config_offers_both_chinese_scripts_by_their_catalogs() -> None:
    from cogs.config import ConfigCommands

    param = next(p for p in ConfigCommands.config.parameters if p.name == "language")
    assert [c.value for c in param.choices] == ["server", "en", "es", "zh_CN", "zh_TW"]
    assert [c.name for c in param.choices][3:] == ["中文 (简体)", "中文 (繁體)"]
    assert GuildSettings().with_changes(language="zh_TW").language == "zh_TW"
