"""Message catalogs: gettext ``.po`` files read with Babel, one per language.

Layout: ``bot/i18n/locales/<lang>/LC_MESSAGES/ddz.po``. Each ``msgid`` is a
stable dotted key (``error.not_your_turn``, ``reason.beat_with_smallest``,
``table.turn``); each ``msgstr`` is the text with ``{placeholders}`` in Python
``str.format`` style (flagged ``python-brace-format``). No compile step: the
``.po`` files are parsed once per process. A new language is a new folder.

Locale resolution: ``es``, ``es-ES``, ``es-419``, ``es_MX`` → ``es``; anything
unknown (or None) → ``en``.
"""

from __future__ import annotations

import logging
import string
from functools import cache
from pathlib import Path

from babel.messages.pofile import read_po

log = logging.getLogger(__name__)

LOCALES_DIR = Path(__file__).resolve().parent / "locales"
DOMAIN = "ddz"
DEFAULT_LOCALE = "en"


@cache
def available_locales() -> tuple[str, ...]:
    """Languages with a catalog, e.g. ``("en", "es")`` (sorted)."""
    return tuple(
        sorted(p.parent.parent.name for p in LOCALES_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))
    )


def resolve_locale(locale: object | None) -> str:
    """The catalog language for a Discord locale (``discord.Locale`` or str).

    ``"es-ES"``/``"es-419"`` → ``"es"``; unknown or None → ``"en"``.
    """
    if locale is None:
        return DEFAULT_LOCALE
    raw = str(getattr(locale, "value", locale)).replace("_", "-").strip().lower()
    if not raw:
        return DEFAULT_LOCALE
    langs = available_locales()
    if raw in langs:
        return raw
    base = raw.split("-")[0]
    return base if base in langs else DEFAULT_LOCALE


@cache
def catalog(lang: str) -> dict[str, str]:
    """Key → text for ``lang`` (a resolved language). Empty translations are skipped."""
    path = LOCALES_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"
    with path.open("rb") as handle:
        po = read_po(handle, locale=None)
    return {str(m.id): str(m.string) for m in po if m.id and isinstance(m.string, str) and m.string}


def placeholders(text: str) -> frozenset[str]:
    """The ``{name}`` placeholders of a catalog text."""
    return frozenset(name for _, name, _, _ in string.Formatter().parse(text) if name)


class _Keep(dict):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def has_key(key: str) -> bool:
    """Whether the English catalog (the reference) has ``key``."""
    return key in catalog(DEFAULT_LOCALE)


def t(key: str, locale: object | None = None, /, **params: object) -> str:
    """The message ``key`` in ``locale`` with ``params`` filled in.

    Falls back to English, then to the key itself (logged once per miss).
    Missing params stay as ``{name}``, so a message never raises.
    """
    lang = resolve_locale(locale)
    text = catalog(lang).get(key)
    if text is None and lang != DEFAULT_LOCALE:
        text = catalog(DEFAULT_LOCALE).get(key)
    if text is None:
        log.warning("missing message %r", key)
        return key
    return text.format_map(_Keep(params)) if params else text
