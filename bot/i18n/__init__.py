"""Localization: ``.po`` catalogs (en, es) and the app-command translator.

Public API::

    from bot.i18n import t, resolve_locale, available_locales, DdzTranslator, cmd

``DdzTranslator`` / ``cmd`` import discord and are loaded on first use.
"""

from __future__ import annotations

from typing import Any

from bot.i18n.catalog import (
    DEFAULT_LOCALE,
    available_locales,
    catalog,
    has_key,
    placeholders,
    resolve_locale,
    t,
)

__all__ = [
    "DEFAULT_LOCALE",
    "DdzTranslator",
    "available_locales",
    "catalog",
    "cmd",
    "has_key",
    "placeholders",
    "resolve_locale",
    "t",
]


def __getattr__(name: str) -> Any:
    if name in ("DdzTranslator", "cmd"):
        from bot.i18n import translator

        return getattr(translator, name)
    raise AttributeError(name)
