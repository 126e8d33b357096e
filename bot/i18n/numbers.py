"""Numbers written the way each language writes them (Babel's CLDR data): ``2.7`` in
English, ``2,7`` in Spanish. Every decimal a member reads goes through :func:`decimal`
(docs/ARCHITECTURE.md §Languages)."""

from __future__ import annotations

from functools import cache

from babel import Locale
from babel.numbers import format_decimal

from bot.i18n.catalog import resolve_locale

MINUS = "\u2212"
_SUPERSCRIPT = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")


@cache
def _babel_locale(lang: str) -> Locale:
    return Locale.parse(lang)


def decimal(value: float, locale: object | None, digits: int = 1, *, trim: bool = False,
            sign: bool = False, minus: str = "-") -> str:
    """``value`` with ``digits`` decimals in ``locale``'s way (a Discord locale or a
    language: ``"es-ES"`` → ``2,7``, anything else falls back to English ``2.7``).

    ``trim``: drop trailing zeros (``2`` and ``1,5`` for a pace); ``sign``: ``+`` before a
    positive value. A negative value takes ``minus`` (``MINUS``, U+2212, in images); a
    value that rounds to zero has no sign."""
    lang = resolve_locale(locale)
    pattern = "0" + ("." + ("#" if trim else "0") * digits if digits > 0 else "")
    body = format_decimal(abs(value), format=pattern, locale=_babel_locale(lang))
    if round(value, digits) == 0:
        return body
    if value < 0:
        return minus + body
    return ("+" + body) if sign else body


def decimal_mark(locale: object | None) -> str:
    """The decimal separator of ``locale``'s language: ``"."`` in English, ``","`` in
    Spanish (for numbers another layer already wrote, e.g. a duplicate score)."""
    return str(_babel_locale(resolve_locale(locale)).number_symbols["latn"]["decimal"])


def superscript(n: int) -> str:
    """``n`` as an exponent in Unicode superscript digits, as a reader writes a power:
    ``superscript(0)`` → ``"⁰"``, ``12`` → ``"¹²"``. Every text and image writes ``P = B × 2ᴺ``
    this way (``"P = 3 × 2¹ = 6"``), never ``2^1``, which reads like code in a Discord
    message (docs/RULES.md §Scoring)."""
    return str(n).translate(_SUPERSCRIPT)
