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
from bot.rules import RuleSet

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


def decision_words(locale: str, kind: str, amount: int) -> str:
    """A Happy decision in words, as the records of a hand say it (docs/RULES.md §Happy
    rules): ``call`` / ``grab`` (``amount`` 1 yes, 0 no) "Call", "Don't grab", "Grab ×2";
    ``show`` (4, 2; 0 kept hidden); ``double`` (1, 2, 4) "No double", "Super double ×4"."""
    if kind == "call":
        return t("btn.call" if amount else "btn.no_call", locale)
    if kind == "grab":
        return t("btn.grab" if amount else "btn.no_grab", locale)
    if kind == "show":
        return t("btn.show", locale, n=amount) if amount else t("btn.no_show", locale)
    return t(f"btn.double_{amount}", locale)


def rules_name(rules: RuleSet, lang: str) -> str:
    """A rule set's name as the sign-up and the table say it: "classic" / "Happy, cap ×64"
    / "Happy, no cap" (docs/RULES.md §Happy rules)."""
    if rules.variant == "happy":
        return (t("rules.happy", lang, cap=rules.cap) if rules.cap is not None
                else t("rules.happy_no_cap", lang))
    return t("rules.classic", lang)


def text_n(locale: str, key: str, count: int, /, **fields: object) -> str:
    """``text`` for a string that names a count: the plural form for ``count``
    (``bot.i18n.tn``: "1 card", "2 cards"; pass the count among ``fields`` too).
    KeyError when the English catalog lacks ``img.<key>``."""
    if not has_key(PREFIX + key):
        raise KeyError(key)
    return tn(PREFIX + key, count, locale, **fields)
