"""Text drawn on images, per locale, from the shared catalogs (``bot.i18n``).

``text(locale, key, **fields)`` is the catalog message ``img.<key>``
(``bot/i18n/locales/<lang>/LC_MESSAGES/ddz.po``) formatted with ``fields``; an
unknown locale (or a region such as ``es-ES`` → ``es``) falls back to English.
Spanish terms follow the rules sources (terrateniente, campesino, bomba,
cohete, primavera, contraprimavera). ``bot.i18n`` imports Babel only, never
discord.
"""

from __future__ import annotations

from bot.i18n import has_key, resolve_locale, t, tn

PREFIX = "img."


def normalize_locale(locale: str) -> str:
    """``"es-ES"``/``"es_MX"``/``"ES"`` → ``"es"``; anything unsupported → ``"en"``."""
    return resolve_locale(locale)


def text(locale: str, key: str, **fields: object) -> str:
    """The image string ``key`` (catalog key ``img.<key>``) in ``locale``, formatted
    with ``fields``. KeyError when the English catalog lacks ``img.<key>``."""
    if not has_key(PREFIX + key):
        raise KeyError(key)
    return t(PREFIX + key, locale, **fields)


def text_n(locale: str, key: str, count: int, /, **fields: object) -> str:
    """``text`` for a string that names a count: the plural form for ``count``
    (``bot.i18n.tn``: "1 card", "2 cards"; pass the count among ``fields`` too).
    KeyError when the English catalog lacks ``img.<key>``."""
    if not has_key(PREFIX + key):
        raise KeyError(key)
    return tn(PREFIX + key, count, locale, **fields)
