"""Localization: the ``.po`` catalogs (en, es, zh_CN, zh_TW) and their lookups (pure: no discord).

Public API::

    from bot.i18n import t, tn, resolve_locale, available_locales, decimal, cards_text

The app-command translator (``DdzTranslator``, ``cmd``) imports discord and lives
in ``cogs/translator.py``.
"""

from __future__ import annotations

from bot.i18n.catalog import (
    DEFAULT_LOCALE,
    available_locales,
    cards_text,
    catalog,
    find_locale,
    has_key,
    joker_words,
    placeholders,
    plural_forms,
    plurals,
    resolve_locale,
    t,
    tn,
)
from bot.i18n.numbers import decimal, decimal_mark, superscript

__all__ = [
    "DEFAULT_LOCALE",
    "available_locales",
    "cards_text",
    "catalog",
    "decimal",
    "decimal_mark",
    "find_locale",
    "has_key",
    "joker_words",
    "placeholders",
    "plural_forms",
    "plurals",
    "resolve_locale",
    "superscript",
    "t",
    "tn",
]

