"""Every localized command string of every catalog keeps Discord's rules, and the test says
which locale and key broke one (Discord's sync error doesn't; docs/DISCORD.md row 26).

The rules are the loopback's (``sandbox/loopback/command_rules.py``), which answer the
bot's sync with 400 / 50035 as Discord does: names match
``^[-_'\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$`` and are lowercase where the script has
case, descriptions and choice names have 1-100 characters.
"""

from __future__ import annotations

from typing import Any

import discord
import pytest

from bot.i18n import available_locales, catalog
from cogs.translator import DdzTranslator
from sandbox.loopback.command_rules import command_problems, name_problem
from sandbox.loopback.emulator import Emulator
from tests.support.emulator_calls import call
from tests.support.fake_discord import FakeDiscord

DISCORD_LOCALE = {"en": discord.Locale.american_english, "es": discord.Locale.spain_spanish,
                  "zh_CN": discord.Locale.chinese, "zh_TW": discord.Locale.taiwan_chinese}
"""A Discord locale each catalog serves."""


def _command_keys(lang: str) -> dict[str, str]:
    return {k: v for k, v in catalog(lang).items() if k.startswith(("cmd.", "param.", "choice."))}


def _problems(lang: str) -> list[str]:
    problems = []
    for key, text in sorted(_command_keys(lang).items()):
        if key.endswith(".name") and not key.startswith("choice."):
            why = name_problem(text)
        elif key.endswith(".description") or key.startswith("choice."):
            why = None if 1 <= len(text) <= 100 else f"{len(text)} characters, at most 100"
        else:
            continue
        if why:
            problems.append(f"{lang} {key}: {why}")
    return problems


@pytest.mark.parametrize("lang", available_locales())
def test_every_localized_name_description_and_choice_keeps_discords_rules(lang: str) -> None:
    assert _problems(lang) == []


def test_every_catalog_is_served_to_a_discord_locale() -> None:
    assert set(available_locales()) <= set(DISCORD_LOCALE)


def test_the_rules_name_the_locale_and_key_that_broke() -> None:
    assert name_problem("开始") is None  # CJK letters: \p{L}, uncased
    assert name_problem("เริ่ม") is None  # Thai vowels are marks: \p{sc=Thai}
    assert name_problem("शुरू") is None  # Devanagari vowel signs: \p{sc=Deva}
    assert name_problem("don't-stop_2") is None
    assert name_problem("Start") == "'Start' must be lowercase"
    assert "does not match" in str(name_problem("开 始"))  # a space
    assert "does not match" in str(name_problem("出牌！"))  # full-width punctuation
    assert "does not match" in str(name_problem("x" * 33))
    assert "does not match" in str(name_problem(""))
    bad = {"type": 1, "name": "ddz", "description": "Dou Dizhu",
           "options": [{"type": 1, "name": "start", "description": "Open a table",
                        "name_localizations": {"zh-CN": "开 始", "zh-TW": "開始"},
                        "description_localizations": {"zh-TW": "開" * 101}}]}
    assert command_problems(bad) == [
        "ddz: options[0].name_localizations[zh-CN]: '开 始' does not match "
        "^[-_'\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$",
        "ddz: options[0].description_localizations[zh-TW]: must be 1-100 characters"]


def test_a_localized_option_name_may_not_be_another_options_name() -> None:
    clash = {"type": 1, "name": "ddz", "description": "d", "options": [
        {"type": 3, "name": "cards", "description": "d", "name_localizations": {"zh-CN": "牌"}},
        {"type": 3, "name": "hand", "description": "d", "name_localizations": {"zh-CN": "牌"}},
        {"type": 3, "name": "seat", "description": "d", "name_localizations": {"es-ES": "hand"}}]}
    assert command_problems(clash) == [
        "ddz: options[0].name_localizations[zh-CN]: '牌' is another option's name",
        "ddz: options[1].name_localizations[zh-CN]: '牌' is another option's name",
        "ddz: options[2].name_localizations[es-ES]: 'hand' is another option's name"]


async def _payloads(fake: FakeDiscord) -> list[dict[str, Any]]:
    tree = fake.bot.tree
    translator = DdzTranslator()
    await tree.set_translator(translator)
    return [await command.get_translated_payload(tree, translator)
            for command in tree.get_commands()]


async def test_the_whole_tree_takes_every_catalogs_words_within_discords_rules(
        fake: FakeDiscord) -> None:
    payloads = await _payloads(fake)
    assert [p for payload in payloads for p in command_problems(payload)] == []
    ddz = next(p for p in payloads if p["name"] == "ddz")
    for lang in available_locales():
        if lang == "en":
            continue
        locale = DISCORD_LOCALE[lang].value
        assert ddz["description_localizations"][locale] == catalog(lang)["cmd.ddz.description"]
        start = next(o for o in ddz["options"] if o["name"] == "start")
        assert start["name_localizations"][locale] == catalog(lang)["cmd.start.name"], lang


async def test_the_loopback_refuses_a_tree_with_a_bad_localized_name_and_says_where(
        emulator: Emulator) -> None:
    bad = [{"type": 1, "name": "ddz", "description": "d",
            "name_localizations": {"zh-TW": "鬥地主 遊戲"}}]
    path = f"/applications/{emulator.application_id}/commands"
    status, body = await call(emulator, "PUT", path, bad)
    assert status == 400 and body["code"] == 50035
    assert "name_localizations[zh-TW]" in str(body), body
    assert emulator.commands.scopes.get(None) is None  # nothing stored
    status, _ = await call(emulator, "PUT", path, [{**bad[0], "name_localizations": {
        "zh-TW": "鬥地主"}}])
    assert status == 200
