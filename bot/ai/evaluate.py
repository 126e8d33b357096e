"""Hand decomposition: split a hand into the fewest, strongest plays.

Works on per-rank counts (15 ints, rank index 0 = ``3`` … 14 = big joker).
A hand's **value** is ``Σ group value − TURN_COST × turns``: every play the
hand still needs costs ``TURN_COST``; low groups are worth less than high ones
(a low single is hard to get rid of, a ``2`` or a joker usually wins a round);
bombs and the rocket are free turns (they take the lead back). Chains
(straights, pair chains, airplanes) are found by search; what is left becomes
bombs, trios, pairs and singles, and trios/airplanes take the lowest singles or
pairs as kickers (docs/RULES.md §Combinations). Results are memoized per count tuple
in a least-recently-used cache of ``MEMO_SIZE`` entries (≈ 0.5 KiB each; sized in
docs/PERFORMANCE.md §Soak).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable

from bot.rules import Card, ComboKind
from bot.rules.kinds import TOP_CHAIN

K = ComboKind
TURN_COST = 7.0
_MIN_LEN = {1: 5, 2: 3, 3: 2}
_CHAIN_KIND = {1: K.STRAIGHT, 2: K.PAIR_CHAIN, 3: K.AIRPLANE}

Group = tuple[ComboKind, int, int]
"""A planned play: (kind, top rank index, body length)."""

Evaluation = tuple[float, int, tuple[Group, ...]]
"""A decomposition: (value, non-bomb turns, planned groups)."""

MEMO_SIZE = 20_000
"""Entries the evaluation memo keeps (least recently used dropped first)."""


def _groups_of(kind: ComboKind, longest: int = 1) -> list[list[Group]]:
    """One shared tuple per planned play of ``kind``, by [top][length]: the memo's entries
    share them instead of holding copies (≈ 4 tuples an entry fewer)."""
    return [[(kind, top, length) for length in range(longest + 1)] for top in range(15)]


_SINGLE, _PAIR, _TRIO, _TRIO_SINGLE, _TRIO_PAIR, _BOMB = (
    [row[1] for row in _groups_of(kind)]
    for kind in (K.SINGLE, K.PAIR, K.TRIO, K.TRIO_SINGLE, K.TRIO_PAIR, K.BOMB))
_ROCKET: Group = (K.ROCKET, 14, 1)
_CHAINS = {kind: _groups_of(kind, 12) for kind in (
    K.STRAIGHT, K.PAIR_CHAIN, K.AIRPLANE, K.AIRPLANE_SINGLES, K.AIRPLANE_PAIRS)}


def counts_of(cards: Iterable[Card]) -> list[int]:
    """Per-rank-index counts (15 ints) of a collection of cards."""
    counts = [0] * 15
    for card in cards:
        counts[card.rank_index] += 1
    return counts


def group_value(kind: ComboKind, top: int, length: int) -> float:
    """How good one planned play is (higher = more likely to win its round)."""
    if kind is K.ROCKET:
        return 10.0
    if kind is K.BOMB:
        return 8.0 + top * 0.1
    if kind in (K.STRAIGHT, K.PAIR_CHAIN, K.AIRPLANE, K.AIRPLANE_SINGLES, K.AIRPLANE_PAIRS):
        return top - 10 + 1.0 + 0.2 * length
    return top - 10.0


def evaluate(counts: Iterable[int]) -> Evaluation:
    """Best decomposition of a hand: (value, turns, planned groups).

    ``turns`` counts the non-bomb plays still needed (0 for an empty hand).
    """
    return _memo(tuple(counts))


def _evaluate_key(key: tuple[int, ...]) -> Evaluation:
    return _search(list(key))


def memo_size(entries: int | None) -> None:
    """Keep ``entries`` evaluations from now on (None: unbounded); empties the memo.

    For benchmarks that compare sizes; the bot keeps ``MEMO_SIZE``.
    """
    global _memo
    _memo = functools.lru_cache(maxsize=entries)(_evaluate_key)


def memo_info() -> functools._CacheInfo:
    """The memo's hits, misses, size cap and current entries (``functools`` cache info)."""
    return _memo.cache_info()


_memo: functools._lru_cache_wrapper[Evaluation]
memo_size(MEMO_SIZE)


def hand_value(counts: Iterable[int]) -> float:
    """Value of the best decomposition (see module docstring)."""
    return evaluate(counts)[0]


def turns(counts: Iterable[int]) -> int:
    """Number of non-bomb plays the best decomposition needs."""
    return evaluate(counts)[1]


def _search(counts: list[int]) -> Evaluation:
    best = _base(counts)
    # Removing one chain and recursing (memoized) covers every set of chains.
    for width in (3, 2, 1):
        min_len = _MIN_LEN[width]
        for low in range(0, TOP_CHAIN - min_len + 2):
            if counts[low] < width:
                continue
            top = low
            while top + 1 <= TOP_CHAIN and counts[top + 1] >= width:
                top += 1
            if top - low + 1 < min_len:
                continue
            for end in range(low + min_len - 1, top + 1):
                for r in range(low, end + 1):
                    counts[r] -= width
                sub = evaluate(counts)
                for r in range(low, end + 1):
                    counts[r] += width
                chain = _CHAINS[_CHAIN_KIND[width]][end][end - low + 1]
                merged = _merge(sub, chain)
                if merged[0] > best[0]:
                    best = merged
    return best


def _merge(
    sub: tuple[float, int, tuple[Group, ...]], chain: Group
) -> tuple[float, int, tuple[Group, ...]]:
    """Add a chain to a decomposition of the rest (airplanes may take wings)."""
    value, n_turns, groups = sub
    kind, top, length = chain
    if kind is K.AIRPLANE:
        singles = sorted(g for g in groups if g[0] is K.SINGLE and g[1] < 12)
        pairs = sorted(g for g in groups if g[0] is K.PAIR and g[1] < 12)
        wings: list[Group] = []
        new_kind = K.AIRPLANE
        if len(singles) >= length:
            wings, new_kind = singles[:length], K.AIRPLANE_SINGLES
        elif len(pairs) >= length:
            wings, new_kind = pairs[:length], K.AIRPLANE_PAIRS
        if wings:
            rest = list(groups)
            for wing in wings:
                rest.remove(wing)
            value -= sum(group_value(*w) for w in wings)
            value += TURN_COST * len(wings)
            n_turns -= len(wings)
            groups = tuple(rest)
            chain = _CHAINS[new_kind][top][length]
    value += group_value(*chain) - TURN_COST
    return value, n_turns + 1, (*groups, chain)


def _base(counts: list[int]) -> tuple[float, int, tuple[Group, ...]]:
    """Decompose a hand without chains: rocket, bombs, trios (+kickers), pairs, singles."""
    groups: list[Group] = []
    singles: list[int] = []
    pairs: list[int] = []
    trios: list[int] = []
    value = 0.0
    if counts[13] and counts[14]:
        groups.append(_ROCKET)
        value += 10.0
    for r in range(13):
        c = counts[r]
        if c == 1:
            singles.append(r)
        elif c == 2:
            pairs.append(r)
        elif c == 3:
            trios.append(r)
        elif c == 4:
            groups.append(_BOMB[r])
            value += 8.0 + r * 0.1
    if not (counts[13] and counts[14]):
        if counts[13]:
            singles.append(13)
        if counts[14]:
            singles.append(14)
    n_turns = 0
    si = pi = 0
    for r in trios:
        s = singles[si] if si < len(singles) and singles[si] < 12 else None
        p = pairs[pi] if pi < len(pairs) and pairs[pi] < 12 else None
        if s is not None and (p is None or s <= p):
            si += 1
            groups.append(_TRIO_SINGLE[r])
        elif p is not None:
            pi += 1
            groups.append(_TRIO_PAIR[r])
        else:
            groups.append(_TRIO[r])
        value += r - 10.0 - TURN_COST
        n_turns += 1
    for r in pairs[pi:]:
        groups.append(_PAIR[r])
        value += r - 10.0 - TURN_COST
        n_turns += 1
    for r in singles[si:]:
        groups.append(_SINGLE[r])
        value += r - 10.0 - TURN_COST
        n_turns += 1
    return value, n_turns, tuple(groups)
