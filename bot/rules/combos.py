"""Combinations: what a set of cards is (``classify``) and what beats what.

Spec: docs/RULES.md §Combinations, §Several readings, §Beating a play. Internally the
engine works on rank *indices* 0..14 (``Rank.index``) and per-rank counts.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from operator import attrgetter
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from bot.rules.cards import DECK as DECK_BY_INDEX
from bot.rules.cards import RANK_SYMBOLS, RANKS, Card, Immutable, Rank
from bot.rules.kinds import ComboKind, Reading
from bot.rules.readings import readings_of_counts

_card_index = attrgetter("index")
_card_bits = attrgetter("_bits")
_LOW_64 = (1 << 64) - 1
_new = object.__new__
K = ComboKind
_BOMB, _ROCKET = K.BOMB, K.ROCKET  # plain globals: ``ComboKind.X`` is a slow metaclass lookup

# Cards per body group and per wing group, for the kinds that have wings.
BODY_WIDTH: dict[ComboKind, int] = {
    K.SINGLE: 1, K.PAIR: 2, K.TRIO: 3, K.TRIO_SINGLE: 3, K.TRIO_PAIR: 3,
    K.STRAIGHT: 1, K.PAIR_CHAIN: 2, K.AIRPLANE: 3, K.AIRPLANE_SINGLES: 3,
    K.AIRPLANE_PAIRS: 3, K.FOUR_TWO_SINGLES: 4, K.FOUR_TWO_PAIRS: 4, K.BOMB: 4, K.ROCKET: 1,
}


Variant = Literal["classic", "happy"]
"""The registered rule sets (docs/RULES.md §Happy rules); ``bot.game.variants`` maps
each to the Hand class that plays it."""
Dealing = Literal["shuffled", "no-shuffle"]
"""How a table's hands after its first are dealt (docs/RULES.md §No-shuffle deals)."""
CAPS: tuple[int | None, ...] = (32, 64, 128, None)
"""The Happy rules' caps of a peasant's stake over the base (None: no cap)."""


class RuleSet(Immutable, BaseModel):
    """A server's or a table's rules (docs/RULES.md). Immutable.

    * ``kickers``: ``"default"`` (seed 000) or ``"distinct"`` (seed 004: single
      kickers of one play must have distinct ranks).
    * ``bidding``: ``"once"`` (each seat speaks once) or ``"until_two_passes"`` (seed 003).
    * ``target_points``: match target in points (docs/RULES.md §Match), default 30.
    * ``match_hands``: the seed-003 variant, a fixed number of hands instead of a
      target (``None`` = play to the target).
    * ``variant``: the rule set, ``"classic"`` (bids 1/2/3, ``P = B × 2^N``) or
      ``"happy"`` (call and grab, show, doubling, capped pairwise stakes:
      docs/RULES.md §Happy rules); ``bidding`` applies to the classic one only.
    * ``cap``: the Happy rules' cap of a stake over the base, one of ``CAPS``
      (default 64; the classic game has none).
    * ``deal``: ``"shuffled"`` or ``"no-shuffle"`` (docs/RULES.md §No-shuffle deals).

    The three last fields are left out of the JSON at their defaults, so a classic
    rule set's JSON is what it was before they existed.
    """

    model_config = ConfigDict(frozen=True)

    kickers: Literal["default", "distinct"] = "default"
    bidding: Literal["once", "until_two_passes"] = "once"
    target_points: int = Field(default=30, ge=1, le=10_000)
    match_hands: int | None = Field(default=None, ge=1, le=1_000)
    variant: Variant = Field(default="classic", exclude_if=lambda value: value == "classic")
    cap: int | None = Field(default=64, exclude_if=lambda value: value == 64)
    deal: Dealing = Field(default="shuffled", exclude_if=lambda value: value == "shuffled")

    @field_validator("cap")
    @classmethod
    def _known_cap(cls, value: int | None) -> int | None:
        if value not in CAPS:
            raise ValueError(f"the cap is one of {CAPS}, not {value}")
        return value

    def as_classic(self) -> RuleSet:
        """These rules under the classic rule set, dealt shuffled: what the daily deal,
        events and tournaments play (their flow deals and bids the classic way; docs/RULES.md
        §Happy rules), whatever the server's default for its tables."""
        if self.variant == "classic" and self.deal == "shuffled":
            return self
        return RuleSet.model_validate({**self.model_dump(), "variant": "classic",
                                       "deal": "shuffled"})

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its values (``_rules_from_wire``, one RuleSet per distinct
        value in a process), not as pydantic's state dicts: it rides along with every
        request to a computer player's worker process."""
        return (_rules_from_wire, (self.kickers, self.bidding, self.target_points,
                                   self.match_hands, self.variant, self.cap, self.deal))


@functools.lru_cache(maxsize=64)
def _rules_from_wire(kickers: str, bidding: str, target_points: int,
                     match_hands: int | None, variant: str = "classic", cap: int | None = 64,
                     deal: str = "shuffled") -> RuleSet:
    """The RuleSet that ``RuleSet.__reduce__`` pickled (validated once per value;
    ``DEFAULT_RULES`` itself for the default values, which the rules core checks by
    identity for its fast paths)."""
    values = (kickers, bidding, target_points, match_hands, variant, cap, deal)
    if values == ("default", "once", 30, None, "classic", 64, "shuffled"):
        return DEFAULT_RULES
    return RuleSet(kickers=kickers, bidding=bidding, target_points=target_points,
                   match_hands=match_hands, variant=variant, cap=cap, deal=deal)


DEFAULT_RULES = RuleSet()


class CardSource:
    """Where a combo built by ``legal_plays`` takes its cards from, on first read.

    ``hand``: the hand's cards (any order); ``by_rank``: per rank index, the
    hand's cards of that rank sorted by card index (built from ``hand`` on first
    use, then shared by every combo of the same call).
    """

    __slots__ = ("hand", "by_rank")

    hand: tuple[Card, ...] | None
    by_rank: list[list[Card]] | None

    def __init__(self, hand: tuple[Card, ...] | None, by_rank: list[list[Card]] | None = None) -> None:
        self.hand = hand
        self.by_rank = by_rank

    def take(self, ranks: tuple[int, ...]) -> tuple[Card, ...]:
        """The lowest cards of the hand for the sorted rank indices ``ranks``."""
        by_rank = self.by_rank
        if by_rank is None:
            by_rank = [[] for _ in range(15)]
            for card in sorted(self.hand or (), key=_card_index):
                by_rank[card.rank_index].append(card)
            self.by_rank = by_rank
        picked = []
        prev = -1
        i = 0
        for r in ranks:
            if r == prev:
                i += 1
            else:
                prev, i = r, 0
            picked.append(by_rank[r][i])
        return tuple(picked)


class Combo(Immutable):
    """One legal reading of a set of cards (docs/RULES.md §Several readings).

    * ``kind``: the ComboKind.
    * ``rank``: the highest rank of the body (what is compared).
    * ``length``: number of body groups (chain length; 1 for non-chains).
    * ``cards``: the cards played, sorted low→high.

    Two combos are equal when their reading and the ranks of their cards are
    equal (suits are ignored, docs/RULES.md §Notation).
    """

    __slots__ = ("kind", "rank", "length", "ranks", "_pool")

    kind: ComboKind
    rank: Rank
    length: int
    ranks: tuple[int, ...]
    """Rank indices (0..14) of the cards, low→high, one per card."""
    _pool: tuple[Card, ...] | list[Card] | CardSource
    """The cards: a sorted tuple (final), a list (to sort) or a CardSource (to take from)."""

    def __init__(self, kind: ComboKind, rank: Rank, length: int, cards: Iterable[Card]) -> None:
        self.kind = kind
        self.rank = rank
        self.length = length
        self._pool = tuple(sorted(cards, key=_card_index))
        self.ranks = tuple([card.rank_index for card in self._pool])

    @classmethod
    def trusted(
        cls,
        kind: ComboKind,
        rank: Rank,
        length: int,
        ranks: tuple[int, ...],
        pool: list[list[Card]] | tuple[Card, ...],
    ) -> Combo:
        """Build a combo without any check, for the engine's own generators.

        ``ranks``: the rank indices of the cards, sorted. ``pool``: either the
        cards themselves (a sorted tuple) or, per rank index, the cards of a
        hand to take them from (lowest first; taken only when ``cards`` is read).
        Everything outside the engine goes through ``classify``.
        """
        combo = _new(cls)
        combo.kind = kind
        combo.rank = rank
        combo.length = length
        combo.ranks = ranks
        combo._pool = pool if isinstance(pool, tuple) else CardSource(None, pool)
        return combo

    @property
    def cards(self) -> tuple[Card, ...]:
        """The cards played, sorted low→high."""
        pool = self._pool
        if pool.__class__ is tuple:
            return pool
        if pool.__class__ is list:
            cards = tuple(sorted(pool, key=_card_index))
        else:
            cards = pool.take(self.ranks)  # type: ignore[union-attr]  # a CardSource: tuples and lists handled above
        self._pool = cards
        return cards

    @property
    def is_bomb(self) -> bool:
        """True for a bomb or the rocket (each doubles the score, docs/RULES.md §Scoring)."""
        return self.kind is _BOMB or self.kind is _ROCKET

    @property
    def reading(self) -> tuple[ComboKind, int, Rank]:
        """The declared reading: (kind, body length, body rank)."""
        return (self.kind, self.length, self.rank)

    @property
    def body_ranks(self) -> tuple[Rank, ...]:
        """The body's ranks, low→high (for the rocket: both jokers)."""
        if self.kind is _ROCKET:
            return (Rank.BLACK_JOKER, Rank.RED_JOKER)
        top = self.rank.value
        return tuple(Rank(v) for v in range(top - self.length + 1, top + 1))

    @property
    def body(self) -> tuple[Card, ...]:
        """The cards of the body (compared), low→high."""
        if self.kind is _ROCKET:
            return self.cards
        width = BODY_WIDTH[self.kind]
        ranks = set(self.body_ranks)
        taken: dict[Rank, int] = {}
        body = []
        for card in self.cards:
            if card.rank in ranks and taken.get(card.rank, 0) < width:
                taken[card.rank] = taken.get(card.rank, 0) + 1
                body.append(card)
        return tuple(body)

    @property
    def kickers(self) -> tuple[Card, ...]:
        """The attached cards (wings/kickers), never compared; empty for most kinds."""
        body = set(self.body)
        return tuple(card for card in self.cards if card not in body)

    @property
    def notation(self) -> str:
        """The cards in docs/RULES.md notation, e.g. ``"3334445558"``."""
        return "".join([RANK_SYMBOLS[r] for r in self.ranks])

    def beats(self, other: Combo) -> bool:
        """Whether this play may follow ``other`` (docs/RULES.md §Beating a play).

        Same kind, same number of cards and a higher body rank; a bomb beats
        every normal play and lower bombs; the rocket beats everything and
        nothing beats it.
        """
        kind = self.kind
        if kind is _ROCKET:
            return other.kind is not _ROCKET
        if other.kind is _ROCKET:
            return False
        if kind is _BOMB:
            return other.kind is not _BOMB or self.rank > other.rank
        return (
            kind is other.kind
            and self.length == other.length
            and len(self.ranks) == len(other.ranks)
            and self.rank > other.rank
        )

    def __copy__(self) -> Combo:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its reading and card ids (``_from_wire``): no enum, no Card object
        and no hand behind a lazy ``CardSource`` crosses a worker process's pipe."""
        return (_from_wire, (self.kind.value, self.rank.value, self.length, self.ranks,
                             bytes([card.index for card in self.cards])))

    def _key(self) -> tuple[Any, ...]:
        return (self.kind, self.length, self.rank, self.ranks)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Combo) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return f"Combo({self.kind.value}, {self.rank.symbol}×{self.length}, {self.notation})"


class _Built(Combo):
    """A Combo made by the engine itself: ``_Built()`` skips ``Combo.__init__`` (and
    is about twice as fast as ``object.__new__(Combo)``); fields are set by the maker."""

    __slots__ = ()
    __init__ = object.__init__


class _Classified(_Built):
    """A combo from ``classify``: ``_pool`` holds the caller's cards as given (a tuple,
    maybe unsorted). The first read of ``cards`` sorts them and turns the combo into
    a plain ``_Built`` (same layout), whose ``_pool`` tuple is final."""

    __slots__ = ()

    @property
    def cards(self) -> tuple[Card, ...]:
        pool = self._pool
        if pool.__class__ is tuple:
            cards = self._pool = tuple(sorted(pool, key=_card_index))
            self.__class__ = _Built
            return cards
        return Combo.cards.fget(self)  # type: ignore[attr-defined, no-any-return]  # the base property's getter


_KIND_OF: dict[str, ComboKind] = {kind.value: kind for kind in ComboKind}
_RANK_OF: dict[int, Rank] = {rank.value: rank for rank in RANKS}


def _from_wire(kind: str, rank: int, length: int, ranks: tuple[int, ...], cards: bytes) -> Combo:
    """The Combo that ``Combo.__reduce__`` pickled (trusted: it was one before)."""
    combo: Combo = _Built()
    combo.kind = _KIND_OF[kind]
    combo.rank = _RANK_OF[rank]
    combo.length = length
    combo.ranks = ranks
    combo._pool = tuple([DECK_BY_INDEX[i] for i in cards])
    return combo


def classify(cards: Iterable[Card], rules: RuleSet = DEFAULT_RULES) -> list[Combo]:
    """Every legal reading of exactly these cards; ``[]`` if none (docs/RULES.md §Several readings).

    Sorted by body length, then body rank, both descending. Card order never
    matters. Raises ValueError if a card appears twice.
    """
    if cards.__class__ is not tuple:
        cards = tuple(cards)
    bits = sum(map(_card_bits, cards))
    # Distinct cards add distinct bits below bit 64: one bit per card, no carry.
    if (bits & _LOW_64).bit_count() != len(cards):
        raise ValueError("a card appears twice")
    table = _READINGS if rules is DEFAULT_RULES or rules.kickers == "default" else _READINGS_DISTINCT
    readings = table.get(bits >> 64)
    if readings is None:
        readings = _remember(table, bits >> 64)
    if readings.__class__ is tuple:  # the common case: one reading, stored bare
        combo = _Classified()
        combo.kind, combo.rank, combo.length, combo.ranks = readings
        combo._pool = cards  # sorted when ``cards`` is first read
        return [combo]
    out = []
    for kind, rank, length, ranks in readings:  # type: ignore[misc]  # several: a list of them
        combo = _Classified()
        combo.kind = kind
        combo.rank = rank
        combo.length = length
        combo.ranks = ranks
        combo._pool = cards
        out.append(combo)
    return out


def _remember(table: dict[int, list[Reading] | Reading], shape: int) -> list[Reading] | Reading:
    """Work out and (while the memo is not full) store the readings of ``shape``:
    a single reading bare, any other number as a list."""
    found = readings_of_shape(shape, table is _READINGS_DISTINCT)
    readings = found[0] if len(found) == 1 else found
    if len(table) < _READINGS_MAX:
        table[shape] = readings
    return readings


def readings_of_shape(shape: int, distinct_kickers: bool = False) -> list[Reading]:
    """Every reading of a rank multiset, sorted as ``classify`` returns them.

    ``shape``: the rank-count vector in base 5 (count of rank index r times
    5**r, each count ≤ 4), i.e. the sum of ``Card._rank_digit``.
    """
    counts = [shape // 5**r % 5 for r in range(15)]
    n = sum(counts)
    if n == 0:
        return []
    ranks = tuple([r for r in range(15) for _ in range(counts[r])])
    found = readings_of_counts(counts, n, distinct_kickers)
    found.sort(key=lambda reading: (-reading[1], -reading[2]))
    return [(kind, RANKS[top], length, ranks) for kind, length, top in found]


_READINGS: dict[int, list[Reading] | Reading] = {}
_READINGS_DISTINCT: dict[int, list[Reading] | Reading] = {}
_READINGS_MAX = 200_000
"""Memo of readings per rank-count shape, per kicker variant (bounded: legal shapes are few)."""
