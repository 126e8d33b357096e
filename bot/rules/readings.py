"""Readings of a rank multiset: which combinations exactly these ranks make.

Spec: docs/RULES.md §Combinations and §Several readings. Used by ``classify`` (through
its memo per rank-count shape), never on a hot path.
"""

from __future__ import annotations

from bot.rules.kinds import BIG_JOKER, SMALL_JOKER, TOP_CHAIN, ComboKind

K = ComboKind


def readings_of_counts(
    counts: list[int], n: int, distinct_kickers: bool = False
) -> list[tuple[ComboKind, int, int]]:
    """Every legal reading of a multiset given as counts per rank index.

    ``counts``: 15 ints; ``n``: their sum. Returns (kind, length, top rank index)
    triples. docs/RULES.md §Combinations and §Several readings.
    """
    present = [r for r in range(15) if counts[r]]
    distinct = len(present)
    out: list[tuple[ComboKind, int, int]] = []
    if n <= 5:
        if distinct == 1:
            r = present[0]
            kind = (None, K.SINGLE, K.PAIR, K.TRIO, K.BOMB, None)[n]
            if kind is not None:
                return [(kind, 1, r)]
            return []
        if n == 2:
            return [(K.ROCKET, 1, BIG_JOKER)] if present == [SMALL_JOKER, BIG_JOKER] else []
        if distinct == 2 and n in (4, 5):
            a, b = present
            trio = a if counts[a] == 3 else b if counts[b] == 3 else -1
            if trio >= 0:
                other = b if trio == a else a
                if n == 4:
                    return [(K.TRIO_SINGLE, 1, trio)]
                if counts[other] == 2:
                    return [(K.TRIO_PAIR, 1, trio)]
            return []
    if present[-1] <= TOP_CHAIN:
        span = present[-1] - present[0] + 1
        if span == distinct:  # consecutive ranks
            width = n // distinct
            if width * distinct == n and all(counts[r] == width for r in present):
                if width == 1 and n >= 5:
                    out.append((K.STRAIGHT, n, present[-1]))
                elif width == 2 and distinct >= 3:
                    out.append((K.PAIR_CHAIN, distinct, present[-1]))
                elif width == 3 and distinct >= 2:
                    out.append((K.AIRPLANE, distinct, present[-1]))
    if n % 4 == 0 and n >= 8:
        _airplane_with_wings(counts, n // 4, singles=True, distinct=distinct_kickers, out=out)
    if n % 5 == 0 and n >= 10:
        _airplane_with_wings(counts, n // 5, singles=False, distinct=distinct_kickers, out=out)
    if n == 6 or n == 8:
        quads = [r for r in present if counts[r] == 4]
        if len(quads) == 1:
            q = quads[0]
            others = [r for r in present if r != q]
            if n == 6:
                if others != [SMALL_JOKER, BIG_JOKER] and not (distinct_kickers and len(others) == 1):
                    out.append((K.FOUR_TWO_SINGLES, 1, q))
            elif len(others) == 2 and all(counts[r] == 2 for r in others):
                out.append((K.FOUR_TWO_PAIRS, 1, q))
    return out


def _airplane_with_wings(
    counts: list[int],
    m: int,
    *,
    singles: bool,
    distinct: bool,
    out: list[tuple[ComboKind, int, int]],
) -> None:
    """Append airplane readings of ``m`` trios with m single or m pair wings."""
    for top in range(TOP_CHAIN, m - 2, -1):
        low = top - m + 1
        if any(counts[r] != 3 for r in range(low, top + 1)):
            continue
        wings = [r for r in range(15) if counts[r] and not low <= r <= top]
        if singles:
            if counts[SMALL_JOKER] and counts[BIG_JOKER]:
                continue
            if distinct and any(counts[r] > 1 for r in wings):
                continue
            out.append((K.AIRPLANE_SINGLES, m, top))
        elif all(counts[r] == 2 for r in wings):
            out.append((K.AIRPLANE_PAIRS, m, top))
