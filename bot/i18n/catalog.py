"""Message catalogs: gettext ``.po`` files read with Babel, one per language.

Layout: ``bot/i18n/locales/<lang>/LC_MESSAGES/ddz.po``. Each ``msgid`` is a
stable dotted key (``error.not_your_turn``, ``reason.beat_with_smallest``,
``table.turn``); each ``msgstr`` is the text with ``{placeholders}`` in Python
``str.format`` style (flagged ``python-brace-format``). No compile step: the
``.po`` files are parsed once per process. A new language is a new folder. The one
format spec is ``:the``, a sentence's place where a lone joker takes its article
(``{cards:the}``: "You played the small joker."; ``THE``).

Counts: a message that names a count ("1 hand" / "2 hands") is a gettext plural
entry, ``msgid_plural`` (the same key) with ``msgstr[0]``, ``msgstr[1]``…, chosen
by the catalog's ``Plural-Forms`` header (en and es: ``nplurals=2; plural=(n != 1);``,
zh_CN and zh_TW: ``nplurals=1; plural=0;``).
``tn(key, n, locale, **params)`` picks the form for ``n`` (``ngettext``); ``t`` on
such a key gives its last (general plural) form.

Chinese has no plural forms: its catalogs say ``nplurals=1; plural=0;`` and each
plural entry has the one ``msgstr[0]``.

Locale resolution (case ignored, ``_`` or ``-``): ``es``, ``es-ES``, ``es-419``,
``es_MX`` → ``es``; ``zh-CN`` (and ``zh``, ``zh-Hans``, ``zh-SG``) → ``zh_CN``;
``zh-TW`` (and ``zh-Hant``, ``zh-HK``, ``zh-MO``) → ``zh_TW``, while those catalogs
exist; anything else (or None) → ``en``. A catalog's folder is its language with an
underscore and the region in capitals (``zh_CN``), as gettext names them.
"""

from __future__ import annotations

import gettext
import logging
import string
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from babel.messages.pofile import read_po

from bot.rules.cards import Card, Rank, ShownCards, show_cards

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


_ALIASES = {"zh": "zh-cn", "zh-hans": "zh-cn", "zh-sg": "zh-cn",
            "zh-hant": "zh-tw", "zh-hk": "zh-tw", "zh-mo": "zh-tw"}
"""Tags that name a Chinese script without Discord's two locales (docs/ARCHITECTURE.md
§Languages): Simplified is written in mainland China and Singapore, Traditional in
Taiwan, Hong Kong and Macau."""
_SCRIPTS = frozenset(_ALIASES.values())
"""Discord's two Chinese locales: a tag naming one never takes the other's catalog."""


@cache
def _by_tag() -> dict[str, str]:
    """Lower-case, hyphenated tag → catalog folder: ``{"en": "en", "zh-cn": "zh_CN"}``."""
    return {lang.replace("_", "-").lower(): lang for lang in available_locales()}


def find_locale(tag: object | None) -> str | None:
    """The catalog for a language tag (``discord.Locale``, ``"zh-TW"``, ``"ES_mx"``), or
    None when no catalog serves it (see the module docstring for the rule)."""
    if tag is None:
        return None
    raw = str(getattr(tag, "value", tag)).replace("_", "-").strip().lower()
    if not raw:
        return None
    tags = _by_tag()
    raw = _ALIASES.get(raw, raw)
    if raw in tags:
        return tags[raw]
    base, *subtags = raw.split("-")
    for subtag in subtags:  # zh-Hant-HK: the script or region names the catalog
        narrower = _ALIASES.get(f"{base}-{subtag}", f"{base}-{subtag}")
        if narrower in tags:
            return tags[narrower]
        if narrower in _SCRIPTS:  # Traditional without its catalog: not Simplified
            return None
    return tags.get(_ALIASES.get(base, base))


_RESOLVED: dict[object, str] = {}
"""``resolve_locale``'s answers by locale (Discord has ~30 locales; every message asks)."""


def resolve_locale(locale: object | None) -> str:
    """The catalog language for a Discord locale (``discord.Locale`` or str).

    ``"es-ES"``/``"es-419"`` → ``"es"``; ``"zh-CN"`` → ``"zh_CN"``, ``"zh-TW"`` →
    ``"zh_TW"``; unknown or None → ``"en"``.
    """
    try:
        return _RESOLVED[locale]
    except KeyError:
        remember = True
    except TypeError:  # an unhashable value: answered, never remembered
        remember = False
    lang = find_locale(locale) or DEFAULT_LOCALE
    if remember and len(_RESOLVED) < 1024:  # a str, a discord.Locale: ~30 in use
        _RESOLVED[locale] = lang
    return lang


@dataclass(frozen=True)
class _Catalog:
    texts: dict[str, str]
    plurals: dict[str, tuple[str, ...]]
    plural_forms: str  # the header's "nplurals=…; plural=…;"
    plural: Callable[[int], int]  # n → index of the form


@cache
def _load(lang: str) -> _Catalog:
    path = LOCALES_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"
    with path.open("rb") as handle:
        po = read_po(handle, locale=None)
    texts: dict[str, str] = {}
    plurals: dict[str, tuple[str, ...]] = {}
    for m in po:
        if not m.id:
            continue
        if isinstance(m.id, tuple):  # msgid + msgid_plural: the key is the msgid
            forms = tuple(str(f) for f in m.string)  # type: ignore[union-attr]  # a plural entry's msgstr is a list
            if all(forms):
                plurals[str(m.id[0])] = forms
                texts[str(m.id[0])] = forms[-1]
        elif isinstance(m.string, str) and m.string:
            texts[str(m.id)] = str(m.string)
    return _Catalog(texts, plurals, po.plural_forms, gettext.c2py(po.plural_expr))


def catalog(lang: str) -> dict[str, str]:
    """Key → text for ``lang`` (a resolved language); a plural entry gives its last
    form. Empty translations are skipped."""
    return _load(lang).texts


def plurals(lang: str) -> dict[str, tuple[str, ...]]:
    """Key → its forms (``msgstr[0]``, ``msgstr[1]``…) for the plural entries of ``lang``."""
    return _load(lang).plurals


def plural_forms(lang: str) -> str:
    """The ``Plural-Forms`` header of ``lang``'s catalog, e.g. ``nplurals=2; plural=(n != 1);``."""
    return _load(lang).plural_forms


def placeholders(text: str) -> frozenset[str]:
    """The ``{name}`` placeholders of a catalog text."""
    return frozenset(name for _, name, _, _ in string.Formatter().parse(text) if name)


class _Unfilled:
    """A placeholder nobody filled: written back as it stands (``{cards}``, ``{cards:the}``)."""

    __slots__ = ("key",)

    def __init__(self, key: str) -> None:
        self.key = key

    def __format__(self, spec: str) -> str:
        return "{" + self.key + (":" + spec if spec else "") + "}"


class _Keep(dict[str, object]):
    def __missing__(self, key: str) -> _Unfilled:
        return _Unfilled(key)


def has_key(key: str) -> bool:
    """Whether the English catalog (the reference) has ``key``."""
    return key in catalog(DEFAULT_LOCALE)


def t(key: str, locale: object | None = None, /, **params: object) -> str:
    """The message ``key`` in ``locale`` with ``params`` filled in.

    Falls back to English, then to the key itself (logged once per miss).
    Missing params stay as ``{name}``, so a message never raises. A param that is
    cards (``bot.rules.show_cards``) names its jokers in ``locale`` (``cards_text``), a
    lone joker with its article in a ``{name:the}`` place (``THE``).
    """
    try:
        text = _FOUND[key, locale]
    except (KeyError, TypeError):  # not looked up yet, or an unhashable locale
        text = _lookup(key, locale)
    return _fill(text, params, locale) if params else text


JOKER_KEYS = ("card.small_joker", "card.big_joker")
"""The catalog words of the small and the big joker: the card buttons, the card menu and,
through ``cards_text``, every text (docs/RULES.md §Notation)."""


def joker_words(locale: object) -> tuple[str, str]:
    """How ``locale``'s texts name the small and the big joker inside a sentence: its
    catalog's ``card.small_joker``/``card.big_joker`` (the buttons' words), first letter
    lower case where the language has cases ("small joker", "comodín grande"; 小王, 大王)."""
    return _joker_words(resolve_locale(locale))


@cache
def _joker_words(lang: str) -> tuple[str, str]:
    small, big = (word[:1].lower() + word[1:] for word in (t(key, lang) for key in JOKER_KEYS))
    return small, big


def cards_text(cards: Iterable[Card | Rank] | str, locale: object) -> str:
    """Cards as a member of ``locale`` reads them: ``show_cards`` (ten written ``10``), each
    joker named in words set apart by spaces (docs/RULES.md §Notation). ``X``/``D`` stay
    only where members type cards, and ``parse_cards`` reads the words back.

    ``cards_text("A2XD", "zh-CN")`` → ``"A2 小王 大王"``; ``cards_text("X", "en")`` →
    ``"small joker"``; ``cards_text("TT", "es")`` → ``"10 10"``.
    """
    shown = show_cards(cards)
    if "X" not in shown and "D" not in shown:
        return str(shown)
    small, big = joker_words(locale)
    return " ".join(shown.replace("X", f" {small} ").replace("D", f" {big} ").split())


THE = "the"
"""The format spec of a place in a sentence where a lone joker takes its article
(``{cards:the}``): "You played the small joker." / "Has jugado el comodín pequeño.",
and the two jokers together are named as the rocket: "You played the rocket." / "Has
jugado el cohete." / "你出了 王炸。" (docs/RULES.md §Notation), and the hand view's selection
when it is a play ("Selected: the rocket (both jokers)"). Several other cards, and a place
that lists cards which are no play ("Selected: 3 small joker"), name them bare; each
language's catalog marks its own places."""
THE_ROCKET_KEY = "card.the_rocket"
"""The catalog's rocket (both jokers, one play) inside a sentence: "the rocket", "el
cohete", 王炸."""
THE_JOKER_KEYS = ("card.the_small_joker", "card.the_big_joker")
"""The catalog's lone joker inside a sentence, with its article where the language has
one: "the small joker", "el comodín grande"; 小王, 大王 (no article in Chinese)."""
_CONTRACTIONS = {"es": ((" a el ", " al "), (" de el ", " del "))}
"""A preposition and the article that a language writes as one word (Spanish a + el →
al, de + el → del: "gana al comodín pequeño"), applied where a joker's article follows."""


class _Filled:
    """A value filling a message that has a ``{name:the}`` place: ``words`` there and
    anywhere else, except ``the`` in a ``{name:the}`` place (a lone joker's article form)."""

    __slots__ = ("words", "the")

    def __init__(self, words: str, the: str) -> None:
        self.words = words
        self.the = the

    def __format__(self, spec: str) -> str:
        return self.the if spec == THE else format(self.words, spec)


def the_joker(card: str, locale: object) -> str:
    """A lone joker (``"X"`` or ``"D"``) as a sentence of ``locale`` names it with its
    article (``THE_JOKER_KEYS``): ``the_joker("X", "en")`` → ``"the small joker"``,
    ``the_joker("D", "es")`` → ``"el comodín grande"``, ``the_joker("X", "zh-CN")`` → ``"小王"``."""
    return t(THE_JOKER_KEYS[card == "D"], locale)


def _fill(text: str, params: dict[str, object], locale: object) -> str:
    """``text`` with ``params`` filled in (``_named_jokers``), then the language's
    contractions before a joker's article (``_CONTRACTIONS``)."""
    filled = text.format_map(_Keep(_named_jokers(params, locale, text)))
    if ":" + THE + "}" in text:
        lang = resolve_locale(locale)
        for long, short in _CONTRACTIONS.get(lang, ()):
            article = long.split()[-1] + " "
            for key in (*THE_JOKER_KEYS, THE_ROCKET_KEY):
                form = catalog(lang).get(key, "")
                if form.startswith(article):
                    rest = form[len(article):]
                    filled = filled.replace(long + rest, short + rest)
    return filled


def _named_jokers(params: dict[str, object], locale: object, text: str) -> dict[str, object]:
    """``params`` with each ``ShownCards`` value as ``cards_text`` in ``locale``; a joker's
    name that opens the message ``text`` starts with a capital ("The small joker does not
    beat…"). Where ``text`` has a ``{name:the}`` place, a lone joker's value there is its
    ``the_joker`` form, the two jokers (``XD``, or ``X D`` as ``spaced_cards`` writes
    them) the rocket's (``THE_ROCKET_KEY``), and any other value its plain words
    (``_Filled``)."""
    articled = ":" + THE + "}" in text
    for name, value in params.items():
        the_place = articled and "{" + name + ":" + THE + "}" in text
        if value.__class__ is ShownCards and ("X" in value or "D" in value):
            words = cards_text(value, locale)
            the = (the_joker(value, locale) if the_place and value in ("X", "D")
                   else t(THE_ROCKET_KEY, locale) if the_place and value in ("XD", "X D")
                   else words)
            if text.startswith("{" + name + "}") or text.startswith("{" + name + ":"):
                words, the = words[:1].upper() + words[1:], the[:1].upper() + the[1:]
            params[name] = _Filled(words, the) if the_place else words
        elif the_place:
            params[name] = _Filled(str(value), str(value))
    return params


_FOUND: dict[tuple[str, object], str] = {}
"""``(key, locale)`` → the catalog text ``t`` found: a screen asks for a few dozen
texts, the same ones on every redraw (docs/PERFORMANCE.md §Sharing)."""
_FOUND_MAX = 20_000


def _lookup(key: str, locale: object | None) -> str:
    lang = resolve_locale(locale)
    text = catalog(lang).get(key)
    if text is None and lang != DEFAULT_LOCALE:
        text = catalog(DEFAULT_LOCALE).get(key)
    if text is None:
        log.warning("missing message %r", key)
        return key  # not remembered: logged again, as a miss should be
    try:
        if len(_FOUND) < _FOUND_MAX:
            _FOUND[key, locale] = text
    except TypeError:  # an unhashable locale value: answered, never stored
        pass
    return text


def tn(key: str, n: int, locale: object | None = None, /, **params: object) -> str:
    """``t`` for a message that names a count: the plural form of ``key`` for ``n``
    in ``locale`` (gettext ``ngettext``: en/es "1 hand", "0 hands", "2 hands"), with
    ``params`` filled in (pass the count among them too). Falls back to English,
    then to ``t`` (a key without plural forms)."""
    lang = resolve_locale(locale)
    for candidate in (lang, DEFAULT_LOCALE):
        loaded = _load(candidate)
        forms = loaded.plurals.get(key)
        if forms is not None:
            text = forms[min(max(loaded.plural(int(n)), 0), len(forms) - 1)]
            return _fill(text, params, locale)
    return t(key, locale, **params)
