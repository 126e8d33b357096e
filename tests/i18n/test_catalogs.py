"""Every catalog (en, es, zh_CN, zh_TW) agrees with English, covers every code, and
Discord locales resolve to one."""

from __future__ import annotations

import re
from typing import Any

import discord
import pytest
from discord import app_commands

from bot.ai.reasons import REASONS
from bot.game.errors import CODES
from bot.i18n import available_locales, catalog, placeholders, resolve_locale, t
from cogs.translator import DdzTranslator

NAME_RE = re.compile(r"^[-_\w]{1,32}$")


def test_every_language_is_available() -> None:
    assert available_locales() == ("en", "es", "zh_CN", "zh_TW")


@pytest.mark.parametrize("lang", available_locales())
def test_catalogs_have_the_same_keys(lang: str) -> None:
    assert set(catalog(lang)) == set(catalog("en"))


@pytest.mark.parametrize("key", sorted(catalog("en")))
def test_catalogs_have_the_same_placeholders(key: str) -> None:
    for lang in available_locales():
        assert placeholders(catalog("en")[key]) == placeholders(catalog(lang)[key]), (lang, key)


@pytest.mark.parametrize("code", sorted(CODES | {"bad_card", "internal", "unknown"}))
def test_every_game_error_code_has_a_message_in_every_language(code: str) -> None:
    for lang in available_locales():
        assert f"error.{code}" in catalog(lang), lang


@pytest.mark.parametrize("code", sorted(REASONS))
def test_every_ai_reason_has_a_message_with_the_same_placeholders(code: str) -> None:
    for lang in available_locales():
        assert placeholders(catalog(lang)[f"reason.{code}"]) == placeholders(REASONS[code]), lang


@pytest.mark.parametrize(
    ("locale", "expected"),
    [("es-ES", "es"), ("es-419", "es"), ("es_MX", "es"), ("ES", "es"), ("en-US", "en"),
     ("en-GB", "en"), ("fr", "en"), ("", "en"), (None, "en"),
     (discord.Locale.spain_spanish, "es"), (discord.Locale.latin_american_spanish, "es"),
     (discord.Locale.japanese, "en"), ("ja", "en"), ("ko", "en"),
     ("zh-CN", "zh_CN"), ("zh_cn", "zh_CN"), ("ZH-CN", "zh_CN"), ("zh", "zh_CN"),
     ("zh-Hans", "zh_CN"), ("zh-TW", "zh_TW"), ("zh_tw", "zh_TW"), ("zh-HK", "zh_TW"),
     ("zh-Hant", "zh_TW"), (discord.Locale.chinese, "zh_CN"),
     (discord.Locale.taiwan_chinese, "zh_TW")],
)
def test_discord_locales_resolve_to_a_catalog(locale: object, expected: str) -> None:
    if expected not in available_locales():
        expected = "en"  # until its catalog lands, as every other locale
    assert resolve_locale(locale) == expected


def test_message_is_formatted_in_the_users_language() -> None:
    assert t("error.bid_too_low", "es-419", amount=1, highest=2) == (
        "La apuesta debe superar 2; 1 no lo hace."
    )
    assert t("error.bid_too_low", "en-US", amount=1, highest=2) == (
        "A bid must be higher than 2; 1 is not."
    )


def test_hand_alt_text_lists_the_cards_in_notation() -> None:
    assert t("alt.hand", "en", cards="33456789TJQKA2XD") == "Your hand: 33456789TJQKA2XD"
    assert t("alt.hand", "es-ES", cards="33XD") == "Tu mano: 33XD"


def test_missing_placeholder_is_kept_and_unknown_key_falls_back_to_the_key() -> None:
    assert t("error.bid_too_low", "en", amount=1) == "A bid must be higher than {highest}; 1 is not."
    assert t("no.such.key", "es") == "no.such.key"


@pytest.mark.parametrize("key", sorted(k for k in catalog("en") if k.endswith(".name")))
def test_command_and_parameter_names_are_valid_discord_names(key: str) -> None:
    for lang in available_locales():
        name = catalog(lang)[key]
        assert NAME_RE.match(name) and name == name.lower(), (lang, key, name)


@pytest.mark.parametrize("key", sorted(k for k in catalog("en") if k.endswith(".description")))
def test_command_descriptions_fit_discords_limit(key: str) -> None:
    for lang in available_locales():
        assert 1 <= len(catalog(lang)[key]) <= 100, (lang, key)


async def test_translator_gives_spanish_for_spanish_locales_and_defaults_otherwise() -> None:
    translator = DdzTranslator()
    string = app_commands.locale_str("start", key="cmd.start.name")
    context = app_commands.TranslationContext(
        app_commands.TranslationContextLocation.command_name, None
    )
    assert await translator.translate(string, discord.Locale.spain_spanish, context) == "empezar"
    assert await translator.translate(string, discord.Locale.latin_american_spanish, context) == (
        "empezar"
    )
    assert await translator.translate(string, discord.Locale.american_english, context) is None
    assert await translator.translate(string, discord.Locale.french, context) is None


@pytest.mark.parametrize("lang", available_locales())
def test_the_score_scope_description_names_every_scope_choice(lang: str) -> None:
    # Before: "Current match, all time or skill rating": the "previous match" choice of
    # /ddz score (README) was missing from the option's description.
    description = catalog(lang)["param.scope.description"].lower()
    for choice in ("match", "alltime", "rating", "previous"):
        assert catalog(lang)[f"choice.scope.{choice}"].lower() in description, (choice, description)


def _named(item: object, lang: str) -> str:
    """A command's or option's name as members of ``lang`` see it."""
    name = item.locale_name if isinstance(item, app_commands.Parameter) else item._locale_name  # type: ignore[attr-defined]
    return catalog(lang)[name.extras["key"]] if name is not None else item.name  # type: ignore[attr-defined]


@pytest.mark.parametrize("lang", available_locales())
def test_sibling_commands_and_options_have_distinct_names_in_every_language(lang: str) -> None:
    # Discord refuses a tree where two subcommands of a group, or two options of a
    # command, share a name in some locale (and its error does not say which locale)
    from cogs.ddz import DdzCog

    def check(siblings: list[Any], where: str) -> None:
        names = [_named(s, lang) for s in siblings]
        assert len(names) == len(set(names)), (lang, where, sorted(names))

    top = list(DdzCog.__cog_app_commands__)
    check(top, "/ddz")
    for command in top:
        if isinstance(command, app_commands.Group):
            check(list(command.commands), command.name)
            for sub in command.commands:
                check(list(sub.parameters), f"{command.name} {sub.name}")
        else:
            check(list(command.parameters), command.name)
