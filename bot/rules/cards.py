"""Cards, ranks and the docs/RULES.md card notation.

A deck is 4 suits × 13 ranks + 2 jokers = 54 cards (docs/RULES.md §Notation). Suits
never matter for play; they exist so that a rendered card has a face.

Every one of the 54 cards is a singleton: ``Card.from_index(i) is Card.from_index(i)``,
so cards compare and hash cheaply and a hand can be a plain tuple of cards.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from enum import IntEnum, StrEnum
from typing import Any, Self


class Rank(IntEnum):
    """Card rank, ordered low→high: 3 < 4 < … < A < 2 < X (small joker) < D (big joker).

    The int value is 3..17 (``TWO`` = 15, ``BLACK_JOKER`` = 16, ``RED_JOKER`` = 17).
    ``rank.index`` (0..14) is the position in the order, as the engine uses it.
    """

    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14
    TWO = 15
    BLACK_JOKER = 16
    RED_JOKER = 17

    @property
    def symbol(self) -> str:
        """The one-character docs/RULES.md symbol: ``3``..``9``, ``T J Q K A 2 X D``."""
        return RANK_SYMBOLS[self.value - 3]

    @property
    def index(self) -> int:
        """Position in the rank order, 0 (three) .. 14 (big joker)."""
        return self.value - 3

    @property
    def is_joker(self) -> bool:
        return self.value >= 16

    @classmethod
    def from_symbol(cls, symbol: str) -> Rank:
        """Parse one rank token (``"10"`` and lower case accepted).

        Raises CardParseError naming the token.
        """
        token = symbol.strip().upper()
        if token == "10":
            token = "T"
        index = RANK_SYMBOLS.find(token) if len(token) == 1 else -1
        if index < 0:
            raise CardParseError(symbol)
        return RANKS[index]


RANK_SYMBOLS = "3456789TJQKA2XD"
RANKS: tuple[Rank, ...] = tuple(Rank)


class Suit(StrEnum):
    """A card's suit; jokers have none. Only used to draw a card face."""

    SPADES = "s"
    HEARTS = "h"
    DIAMONDS = "d"
    CLUBS = "c"

    @property
    def symbol(self) -> str:
        return {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}[self.value]

    @property
    def is_red(self) -> bool:
        return self in (Suit.HEARTS, Suit.DIAMONDS)


SUITS: tuple[Suit, ...] = tuple(Suit)


class CardParseError(ValueError):
    """A card text could not be parsed; ``token`` is the offending part."""

    code = "bad_card"

    def __init__(self, token: str, reason: str = "unknown card") -> None:
        self.token = token
        self.reason = reason
        super().__init__(f"{reason}: {token!r}")


class Immutable:
    """Mixin for values nothing changes once built (a frozen model whose fields are all
    immutable, a Combo): ``copy.deepcopy`` returns the value itself, so a deep copy
    of a Table (``TableService`` copies it before every change) shares them instead
    of copying a whole hand's history (docs/PERFORMANCE.md §Sharing).

    Never combine with ``model_copy(deep=True, update=...)`` on the value itself:
    pydantic updates the "copy" in place.
    """

    __slots__ = ()

    def __deepcopy__(self, memo: dict[int, Any] | None = None) -> Self:
        return self


class Card:
    """One physical card: a rank and, except for jokers, a suit.

    ``index`` is 0..53 (rank index × 4 + suit position; jokers 52 and 53) and is
    the card's stable id for serialization. ``code`` is a short text form such
    as ``"Ts"``, ``"3h"``, ``"X"``, ``"D"``. Use ``Card.from_index`` /
    ``Card.from_code`` to get the singleton instance.
    """

    __slots__ = ("rank", "suit", "index", "code", "rank_index", "_rank_digit", "_bits")

    rank: Rank
    suit: Suit | None
    index: int
    code: str
    rank_index: int
    """``rank.index`` as a plain int (0..14), for hot loops."""
    _rank_digit: int
    """``5 ** rank_index``: a sum over distinct cards is their rank-count vector in
    base 5 (a count is at most 4). Base 5, not bit fields, so that such sums
    spread well over the low bits dict lookups use."""
    _bits: int
    """``_rank_digit << 64 | 1 << index``: one sum gives the rank counts (above bit 64)
    and, below, one bit per card when no card repeats (fewer bits otherwise)."""

    def __new__(cls, rank: Rank, suit: Suit | None = None) -> Card:
        if rank.is_joker:
            if suit is not None:
                raise ValueError("jokers have no suit")
            return _DECK[52 + rank.value - 16]
        if suit is None:
            raise ValueError("a non-joker card needs a suit")
        return _DECK[rank.index * 4 + SUITS.index(suit)]

    @classmethod
    def _make(cls, index: int) -> Card:
        card = object.__new__(cls)
        if index >= 52:
            card.rank, card.suit = RANKS[13 + index - 52], None
            card.code = card.rank.symbol
        else:
            card.rank, card.suit = RANKS[index // 4], SUITS[index % 4]
            card.code = card.rank.symbol + card.suit.value
        card.index = index
        card.rank_index = card.rank.index
        card._rank_digit = 5**card.rank_index
        card._bits = card._rank_digit << 64 | 1 << index
        return card

    @staticmethod
    def from_index(index: int) -> Card:
        """The card with id ``index`` (0..53). Raises IndexError outside that range."""
        if not 0 <= index < 54:
            raise IndexError(index)
        return _DECK[index]

    @staticmethod
    def from_code(code: str) -> Card:
        """The card of a ``code`` such as ``"Ts"`` or ``"X"``. Raises CardParseError."""
        try:
            return _BY_CODE[code]
        except KeyError:
            raise CardParseError(code) from None

    def __reduce__(self) -> tuple[Any, ...]:
        return (Card.from_index, (self.index,))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Card:
        return self

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index

    def __le__(self, other: Card) -> bool:
        return self.index <= other.index

    def __gt__(self, other: Card) -> bool:
        return self.index > other.index

    def __ge__(self, other: Card) -> bool:
        return self.index >= other.index

    def __hash__(self) -> int:
        return self.index

    def __repr__(self) -> str:
        return f"Card({self.code})"

    def __str__(self) -> str:
        return self.rank.symbol


_DECK: tuple[Card, ...] = tuple(Card._make(i) for i in range(54))
_BY_CODE: dict[str, Card] = {card.code: card for card in _DECK}
DECK: tuple[Card, ...] = _DECK
"""All 54 cards, sorted low→high (by rank, then suit)."""

_TOKEN = re.compile(r"10|[^\s,]")
_ANY_JOKER = "\x00"  # stands for a bare "joker" / "comodín" while parsing
_JOKER = r"(?:jokers?|comod[ií]n(?:es)?)"
_THE = r"(?:\b(?:the|el|los)\s+)?"
"""The article a text puts before a lone joker ("the small joker", "el comodín grande"):
read with the joker, so that what a member reads can be typed back."""
_JOKER_WORDS = (  # (pattern, replacement), tried in order on the case-folded text
    (re.compile(rf"{_THE}(?:small|little|black|low)\s*{_JOKER}"
                rf"|{_THE}{_JOKER}\s*(?:peque(?:ñ|n)o|negro|chico)", re.I), " X "),
    (re.compile(rf"{_THE}(?:big|red|large|high)\s*{_JOKER}|{_THE}{_JOKER}\s*(?:grande|rojo|mayor)",
                re.I), " D "),
    (re.compile(rf"{_THE}\b(?:jokers|comod[ií]nes|rocket|cohete)\b", re.I), " XD "),
    (re.compile(_THE + _JOKER, re.I), f" {_ANY_JOKER} "),
)
_CHINESE_JOKER_WORDS = (  # docs/RULES.md §Names in Chinese: 王炸 the rocket, 大王 / 小王
    (re.compile("王炸|双王|雙王|对王|對王|火箭"), " XD "),
    (re.compile("大王|大鬼|红王|紅王"), " D "),
    (re.compile("小王|小鬼|黑王"), " X "),
    (re.compile("[王鬼]"), f" {_ANY_JOKER} "),
)
_SEPARATORS = str.maketrans({"、": " ", "。": " ", "；": " ", ";": " "})
"""Punctuation a Chinese keyboard types between cards (the full-width comma and space
become ``,`` and a space under NFKC already)."""
PASS_WORDS = frozenset({"不出", "不要", "过", "過", "要不起", "要不了", "pass", "paso", "pasar",
                        "pasa"})
"""What a player types to pass (``is_pass_text``): 不出 / 不要 / 过 (過) / 要不起 in
Chinese (docs/RULES.md §Names in Chinese), pass, and paso / pasar / pasa in Spanish
(issue 48: "pass" was read as the card "p")."""


def is_invisible(char: str) -> bool:
    """Whether ``char`` draws nothing: a format character (zero-width space and
    joiners, marks of direction, BOM), a control other than whitespace, or a
    variation selector."""
    category = unicodedata.category(char)
    return (category == "Cf" or (category == "Cc" and not char.isspace())
            or 0xFE00 <= ord(char) <= 0xFE0F or 0xE0100 <= ord(char) <= 0xE01EF)


def normalize_card_text(text: str) -> str:
    """Typed cards as the parser reads them: NFKC (full-width ``４４`` → ``44``, as
    Chinese and Japanese keyboards type), invisible characters dropped
    (``is_invisible``), and the names players use for jokers written
    as ``X`` / ``D`` ("small joker", "comodín grande", 小王, 大王; "jokers", "rocket" or
    王炸 for both; a bare "joker" or 王 stays a joker to be resolved by ``parse_ranks``),
    and the ideographic comma ``、`` a space."""
    text = "".join(c for c in unicodedata.normalize("NFKC", text) if not is_invisible(c))
    folded = text.casefold()
    if "王" in text or "鬼" in text or "火箭" in text:
        for pattern, replacement in _CHINESE_JOKER_WORDS:
            text = pattern.sub(replacement, text)
    if "jok" in folded or "comod" in folded or "rock" in folded or "cohet" in folded:
        for pattern, replacement in _JOKER_WORDS:
            text = pattern.sub(replacement, text)
    return text.translate(_SEPARATORS)


def is_pass_text(text: str) -> bool:
    """Whether typed cards are a word for passing (``PASS_WORDS``; NFKC, case, spaces
    and a final ``!``/``。`` ignored): ``/ddz play cards:不出`` passes."""
    word = "".join(unicodedata.normalize("NFKC", text).casefold().split()).rstrip("!.。！")
    return word in PASS_WORDS


def parse_ranks(text: str, joker: Rank | None = None) -> list[Rank]:
    """Parse docs/RULES.md notation into ranks, e.g. ``"333 4 10"`` → [3, 3, 3, 4, T].

    Accepts ``10`` for ``T``, any case, spaces and commas, full-width digits and
    letters, invisible characters (dropped) and joker names (``normalize_card_text``).
    A bare "joker" means ``joker`` (the one joker a seat holds) when given. Raises
    CardParseError naming the first bad token once normalised (never an invisible
    character), or ``"joker"`` with reason ``"which joker"`` for a bare joker without ``joker``.
    """
    ranks: list[Rank] = []
    for token in _TOKEN.findall(normalize_card_text(text)):
        if token == _ANY_JOKER:
            if joker is None:
                raise CardParseError("joker", "which joker")
            ranks.append(joker)
            continue
        index = RANK_SYMBOLS.find(token.upper()) if token != "10" else 7
        if index < 0:
            raise CardParseError(token)
        ranks.append(RANKS[index])
    return ranks


def parse_cards(text: str) -> list[Card]:
    """Parse docs/RULES.md notation into distinct cards, sorted low→high.

    Suits are assigned in a fixed order (♠ ♥ ♦ ♣) to make copies of a rank
    distinct. Raises CardParseError naming the bad token, or the rank that
    appears more often than a deck holds (more than 4, or a joker twice).
    """
    counts = [0] * 15
    for rank in parse_ranks(text):
        counts[rank.index] += 1
    cards: list[Card] = []
    for index, count in enumerate(counts):
        if not count:
            continue
        limit = 1 if index >= 13 else 4
        if count > limit:
            raise CardParseError(show_cards(RANK_SYMBOLS[index] * count), "more copies than a deck holds")
        base = 52 + index - 13 if index >= 13 else index * 4
        cards.extend(_DECK[base + i] for i in range(count))
    return cards


def format_cards(cards: Iterable[Card | Rank]) -> str:
    """Canonical docs/RULES.md notation, sorted low→high, e.g. ``"33345TXD"``."""
    indices = sorted([card.rank_index if card.__class__ is Card else card.value - 3  # type: ignore[union-attr]  # a Rank: the exact class test is no isinstance
                      for card in cards])
    return "".join([RANK_SYMBOLS[index] for index in indices])


TEN_WORD = "10"
"""How a player reads the ten: on the card faces, the buttons, the card menu and in every
text (docs/RULES.md §Notation; ``T`` stays the compact notation and is still typed)."""


class ShownCards(str):
    """``show_cards``' result: a plain ``str`` marked as cards, so that ``bot.i18n.t`` names
    the jokers in the reader's language where it fills a message (docs/RULES.md §Notation;
    the rules core knows no language)."""

    __slots__ = ()


def show_cards(cards: Iterable[Card | Rank] | str) -> ShownCards:
    """Cards as a player reads them in any text: the docs/RULES.md notation with ten written
    ``10``, set apart by spaces so that it never runs into a neighbour.

    ``cards``: cards or ranks (sorted low→high, as ``format_cards``), or a notation string
    already in the order to show (``Combo.notation``, ``"333444 58"``; kept as is).
    ``show_cards(parse_cards("89TJQ"))`` → ``"89 10 JQ"``; ``"TT"`` → ``"10 10"``;
    ``"333444 5T"`` → ``"333444 5 10"``. ``parse_cards`` reads every result back.
    Jokers stay ``X``/``D`` here; a ``ShownCards`` passed to ``bot.i18n.t`` (or
    ``bot.i18n.cards_text``) names them in the reader's language.
    """
    notation = cards if isinstance(cards, str) else format_cards(cards)
    if "T" not in notation:
        return ShownCards(notation)
    return ShownCards(" ".join(notation.replace("T", f" {TEN_WORD} ").split()))


def spaced_cards(cards: Iterable[Card | Rank] | str) -> ShownCards:
    """Cards one by one, each set apart by a space, as an image's alt text writes them for
    a screen reader (docs/RULES.md §Notation): a run of digits in ``show_cards``' compact
    form ("3455679") is read as one number, "three million…".

    ``cards``: as ``show_cards`` (a notation string keeps its order, its gaps dropped).
    ``spaced_cards(parse_cards("34557TTD"))`` → ``"3 4 5 5 7 10 10 D"``; ``bot.i18n.t``
    names the jokers in words as for ``show_cards``; ``parse_cards`` reads it back.
    """
    notation = cards if isinstance(cards, str) else format_cards(cards)
    return ShownCards(" ".join(TEN_WORD if symbol == "T" else symbol
                               for symbol in notation.replace(TEN_WORD, "T") if not symbol.isspace()))


def rank_counts(cards: Iterable[Card]) -> list[int]:
    """Counts per rank index (a list of 15 ints)."""
    counts = [0] * 15
    for card in cards:
        counts[card.rank_index] += 1
    return counts
