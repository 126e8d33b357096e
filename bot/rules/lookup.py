"""Lookup tables behind ``legal_plays``, computed once at import: play records and hand shapes.

A *record* is one play as ``(kind, body Rank, body length, sorted rank indices)``
(``kinds.Reading``); it does not depend on suits, so each is built once and
shared by every hand that can make it. A hand is seen through its *shape*, the
rank-count vector in base 5 (the sum of ``Card._rank_digit``), cut
into three segments whose analyses are memoized (at most 5^6 entries each).
Spec: docs/RULES.md §Combinations.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable
from itertools import combinations, combinations_with_replacement
from typing import Any

from bot.rules.cards import RANKS
from bot.rules.kinds import BIG_JOKER, SMALL_JOKER, TOP_CHAIN, ComboKind, Reading

K = ComboKind


def _record(kind: ComboKind, top: int, length: int, ranks: tuple[int, ...] | list[int]) -> Reading:
    return (kind, RANKS[top], length, tuple(sorted(ranks)))


SINGLE: tuple[Reading, ...] = tuple(_record(K.SINGLE, r, 1, (r,)) for r in range(15))
PAIR: tuple[Reading, ...] = tuple(_record(K.PAIR, r, 1, (r,) * 2) for r in range(13))
TRIO: tuple[Reading, ...] = tuple(_record(K.TRIO, r, 1, (r,) * 3) for r in range(13))
BOMB: tuple[Reading, ...] = tuple(_record(K.BOMB, r, 1, (r,) * 4) for r in range(13))
ROCKET: Reading = _record(K.ROCKET, BIG_JOKER, 1, (SMALL_JOKER, BIG_JOKER))
TRIO_SINGLE: tuple[tuple[Reading | None, ...], ...] = tuple(
    tuple(_record(K.TRIO_SINGLE, t, 1, (t, t, t, k)) if k != t else None for k in range(15))
    for t in range(13)
)
"""``TRIO_SINGLE[trio][kicker]`` (``None`` when both are the same rank)."""
TRIO_PAIR: tuple[tuple[Reading | None, ...], ...] = tuple(
    tuple(_record(K.TRIO_PAIR, t, 1, (t, t, t, k, k)) if k != t else None for k in range(13))
    for t in range(13)
)

CHAIN_WIDTH = {K.STRAIGHT: 1, K.PAIR_CHAIN: 2, K.AIRPLANE: 3}
MIN_CHAIN = {K.STRAIGHT: 5, K.PAIR_CHAIN: 3, K.AIRPLANE: 2, K.AIRPLANE_SINGLES: 2, K.AIRPLANE_PAIRS: 2}
CHAIN: dict[ComboKind, list[list[Reading | None]]] = {
    kind: [
        [
            _record(kind, top, top - low + 1, [r for r in range(low, top + 1) for _ in range(width)])
            if top - low + 1 >= MIN_CHAIN[kind] else None
            for top in range(TOP_CHAIN + 1)
        ]
        for low in range(TOP_CHAIN + 1)
    ]
    for kind, width in CHAIN_WIDTH.items()
}
"""``CHAIN[kind][low][top]``: the plain chain over rank indices low..top."""


def _sub_chains(kind: ComboKind, a: int, b: int) -> list[Reading]:
    table = CHAIN[kind]
    return [table[low][top] for top in range(a, b + 1)  # type: ignore[misc]  # no None: the ``if``
            for low in range(top, a - 1, -1) if table[low][top] is not None]


CHAIN_RUN: dict[ComboKind, list[list[list[Reading]]]] = {
    kind: [[_sub_chains(kind, a, b) if b >= a else [] for b in range(TOP_CHAIN + 1)]
           for a in range(TOP_CHAIN + 1)]
    for kind in CHAIN_WIDTH
}
"""``CHAIN_RUN[kind][a][b]``: every chain inside the run a..b, by top then length."""
STRAIGHT_RUN = CHAIN_RUN[K.STRAIGHT]
PAIR_CHAIN_RUN = CHAIN_RUN[K.PAIR_CHAIN]
AIRPLANE_RUN = CHAIN_RUN[K.AIRPLANE]


def _runs(mask: int) -> tuple[tuple[int, int], ...]:
    runs: list[tuple[int, int]] = []
    start = -1
    for r in range(TOP_CHAIN + 2):
        if r <= TOP_CHAIN and mask >> r & 1:
            if start < 0:
                start = r
        elif start >= 0:
            if r - start >= 2:
                runs.append((start, r - 1))
            start = -1
    return tuple(runs)


RUNS: tuple[tuple[tuple[int, int], ...], ...] = tuple(_runs(m) for m in range(1 << (TOP_CHAIN + 1)))
"""``RUNS[mask]``: the maximal runs (low, top), two ranks or longer, of a 12-bit rank mask."""


def _chains_by_mask(kind: ComboKind) -> tuple[tuple[Reading, ...], ...]:
    table = CHAIN_RUN[kind]
    return tuple(tuple(rec for lo, hi in RUNS[m] for rec in table[lo][hi]) for m in range(len(RUNS)))


STRAIGHTS = _chains_by_mask(K.STRAIGHT)
"""``STRAIGHTS[mask]``: every straight of a hand whose ranks 3..A present form ``mask``."""
PAIR_CHAINS = _chains_by_mask(K.PAIR_CHAIN)
AIRPLANES = _chains_by_mask(K.AIRPLANE)

WingRecord = Reading
NO_PLAY: tuple[Any, ...] = ()
"""Stands for a wing choice that is not allowed (both jokers as single wings); the
only false record, so ``filter(None, ...)`` drops it. Records are exact tuples:
the loop that builds combos unpacks those fastest."""


class _WingTable(dict[Any, Any]):
    """{wing ranks (sorted; one rank per pair for pair wings): WingRecord} for one
    winged kind and body; filled on first use of each wing choice."""

    __slots__ = ("kind", "low", "top", "width", "pairs")

    def __init__(self, kind: ComboKind, low: int, top: int) -> None:
        super().__init__()
        self.kind, self.low, self.top = kind, low, top
        self.width = 4 if kind is K.FOUR_TWO_SINGLES or kind is K.FOUR_TWO_PAIRS else 3
        self.pairs = kind is K.AIRPLANE_PAIRS or kind is K.FOUR_TWO_PAIRS

    def __missing__(self, wings: tuple[int, ...]) -> WingRecord:
        if not self.pairs and SMALL_JOKER in wings and BIG_JOKER in wings:
            record = NO_PLAY
        else:
            body = [r for r in range(self.low, self.top + 1) for _ in range(self.width)]
            ranks = body + list(wings) * 2 if self.pairs else body + list(wings)
            record = _record(self.kind, self.top, self.top - self.low + 1, ranks)
        self[wings] = record
        return record


WINGED_KINDS = (K.AIRPLANE_SINGLES, K.AIRPLANE_PAIRS, K.FOUR_TWO_SINGLES, K.FOUR_TWO_PAIRS)
WINGS: dict[ComboKind, list[list[_WingTable]]] = {
    kind: [[_WingTable(kind, low, top) for top in range(13)] for low in range(13)]
    for kind in WINGED_KINDS
}
"""``WINGS[kind][low][top][wing ranks]``: the record of that body with those wings."""


def single_winged(
    kind: ComboKind, expanded: tuple[int, ...], present: tuple[int, ...],
    low: int, top: int, m: int, distinct: bool,
) -> filter[Any]:
    """Records of ``kind`` with body ``low..top`` and every choice of ``m`` single wings.

    ``expanded``: the hand's rank indices, one per card, sorted; ``present``: its
    distinct ranks. Wings lie outside the body ranks; ranks may repeat
    (``distinct``: they may not); never both jokers. In the order of the sorted
    wing ranks. docs/RULES.md §Combinations.
    """
    if distinct:
        wings: Iterable[tuple[int, ...]] = combinations([r for r in present if r < low or r > top], m)
    else:
        i = bisect_left(expanded, low)
        j = bisect_left(expanded, top + 1, i)
        wings = dict.fromkeys(combinations(expanded[:i] + expanded[j:], m))  # drop repeats
    # Wing choices of more than 5 only come from pools bigger than a hand (the AI's
    # unseen cards); a table for this call alone keeps the shared ones bounded.
    table = WINGS[kind][low][top] if m <= 5 else _WingTable(kind, low, top)
    return filter(None, map(table.__getitem__, wings))


class _CodedWingTable(dict[Any, Any]):
    """{two wing codes: WingRecord} for one single-winged kind and body, where a
    code is ``rank * 8 + min(count in hand, 2)``: a repeated code is a valid wing
    choice only when its count is 2. Shares the records of ``WINGS``."""

    __slots__ = ("plain",)

    def __init__(self, plain: _WingTable) -> None:
        super().__init__()
        self.plain = plain

    def __missing__(self, codes: tuple[int, int]) -> WingRecord:
        x, y = codes
        record = NO_PLAY if x == y and x & 7 < 2 else self.plain[(x >> 3, y >> 3)]
        self[codes] = record
        return record


CODED: dict[ComboKind, list[list[_CodedWingTable]]] = {
    kind: [[_CodedWingTable(WINGS[kind][low][top]) for top in range(13)] for low in range(13)]
    for kind in (K.AIRPLANE_SINGLES, K.FOUR_TWO_SINGLES)
}


def two_singles_winged(
    kind: ComboKind, codes: tuple[int, ...], low: int, top: int, distinct: bool
) -> filter[Any]:
    """``single_winged`` for two wings, from the hand's codes (``rank * 8 + min(count, 2)``,
    sorted): each distinct wing choice comes once, with no repeats to drop."""
    i = bisect_left(codes, low << 3)
    j = bisect_left(codes, (top + 1) << 3, i)
    pick = combinations if distinct else combinations_with_replacement
    return filter(None, map(CODED[kind][low][top].__getitem__, pick(codes[:i] + codes[j:], 2)))


def pair_winged(
    kind: ComboKind, ge2: tuple[int, ...], low: int, top: int, m: int
) -> map[Any]:
    """Records of ``kind`` with body ``low..top`` and every choice of ``m`` pair wings."""
    rest = [r for r in ge2 if r < low or r > top]
    return map(WINGS[kind][low][top].__getitem__, combinations(rest, m))


Segment = tuple[Any, ...]
"""Per rank segment: (present, ranks ≥2, ranks ≥3, quads, expanded ranks (one per
card), codes ``rank * 8 + min(count, 2)`` of present ranks, expanded capped at 3
copies a rank, chain masks ≥1, ≥2, ≥3 (12 bits), holds both jokers). Tuples
sorted by rank; a hand's value of a field is the concatenation (or union) over
its three segments."""
(PRESENT, GE2, GE3, QUADS, EXPANDED, CODES_2, EXPANDED_3, MASK_1, MASK_2, MASK_3,
 ROCKET_HELD, LOCAL_1, LOCAL_2, SINGLES, PAIRS, TRIOS) = range(16)
# LOCAL_1 / LOCAL_2: masks of the ranks with ≥1 / ≥2 cards, bit i = segment rank i;
# SINGLES, PAIRS, TRIOS: the segment's single, pair and trio records.

_SEGMENTS = ((0, 6), (6, 6), (12, 3))


def _kickers(rows: tuple[tuple[Reading | None, ...], ...]) -> tuple[Any, ...]:
    """``[trio][segment][local rank mask]``: the records of ``rows[trio]`` with the
    kickers of that segment in the mask (never the trio's own rank), by rank."""
    return tuple(
        tuple(
            tuple(
                tuple(rows[t][base + i] for i in range(size)
                      if mask >> i & 1 and base + i != t and base + i < len(rows[t]))
                for mask in range(1 << size)
            )
            for base, size in _SEGMENTS
        )
        for t in range(13)
    )


TRIO_SINGLE_KICKERS = _kickers(TRIO_SINGLE)
TRIO_PAIR_KICKERS = _kickers(TRIO_PAIR)
MEMO_A: list[Segment | None] = [None] * 5**6
MEMO_B: list[Segment | None] = [None] * 5**6
MEMO_C: dict[int, Segment] = {}
"""Analysed segments by their part of the shape (lists: no key objects to compare)."""
_INTERN: dict[tuple[Any, ...], tuple[Any, ...]] = {}
"""One shared copy of each field value, so the fields hands use most stay in cache."""


def segment(which: int, part: int) -> Segment:
    """Analyse segment ``which`` (0: ranks 3..8, 1: 9..A, 2: 2 X D) of count ``part``
    (base 5, lowest rank first) and remember it."""
    base, size = _SEGMENTS[which]
    counts = [part // 5**i % 5 for i in range(size)]
    pairs = list(zip(range(base, base + size), counts, strict=True))

    def at_least(n: int) -> tuple[int, ...]:
        return tuple(r for r, c in pairs if c >= n)

    def expanded(cap: int) -> tuple[int, ...]:
        return tuple(r for r, c in pairs for _ in range(min(c, cap)))

    def mask(group: tuple[int, ...]) -> int:
        return sum([1 << r for r in group if r <= TOP_CHAIN])

    present, ge2, ge3 = at_least(1), at_least(2), at_least(3)
    rocket = SMALL_JOKER in present and BIG_JOKER in present
    codes = tuple(r * 8 + min(c, 2) for r, c in pairs if c)
    local_1 = sum([1 << (r - base) for r in present])
    local_2 = sum([1 << (r - base) for r in ge2])
    fields = (present, ge2, ge3, at_least(4), expanded(4), codes, expanded(3))
    records = (tuple(SINGLE[r] for r in present), tuple(PAIR[r] for r in ge2),
               tuple(TRIO[r] for r in ge3))
    seg = (*[_INTERN.setdefault(f, f) for f in fields],
           mask(present), mask(ge2), mask(ge3), rocket, local_1, local_2,
           *[_INTERN.setdefault(f, f) for f in records])
    (MEMO_A, MEMO_B, MEMO_C)[which][part] = seg
    return seg


def segments(shape: int) -> tuple[Segment, Segment, Segment]:
    """The analyses of ranks 3..8, 9..A and 2, X, D of a hand of rank-count ``shape``
    (base 5, the sum of ``Card._rank_digit``)."""
    high, a_part = divmod(shape, 15625)  # 5**6
    c_part, b_part = divmod(high, 15625)
    return (
        MEMO_A[a_part] or segment(0, a_part),
        MEMO_B[b_part] or segment(1, b_part),
        MEMO_C.get(c_part) or segment(2, c_part),
    )
