"""An independent, definition-by-definition checker for the tests (slow on purpose).

It builds every combination the docs/RULES.md table allows as (kind, length, top rank,
rank-count multiset) from first principles — body × wings — instead of
classifying counts like the engine does.
"""

from collections import Counter
from itertools import combinations, combinations_with_replacement

CHAIN_TOP = 11  # ace
JOKERS = (13, 14)


def _wing_options(available: Counter, count: int, pairs: bool, distinct: bool):
    """Multisets of wing ranks: `count` singles or `count` pairs from `available`."""
    ranks = sorted(r for r, c in available.items() if c > 0)
    if pairs:
        for chosen in combinations([r for r in ranks if r not in JOKERS], count):
            if all(available[r] >= 2 for r in chosen):
                yield Counter({r: 2 for r in chosen})
        return
    pool = combinations(ranks, count) if distinct else combinations_with_replacement(ranks, count)
    for chosen in pool:
        wings = Counter(chosen)
        if all(available[r] >= c for r, c in wings.items()) and not (13 in wings and 14 in wings):
            yield wings


def all_readings(counts: Counter, distinct: bool) -> set:
    """Every (kind, length, top, frozenset(counts.items())) that exactly uses ``counts``."""
    n = sum(counts.values())
    target = frozenset((r, c) for r, c in counts.items() if c)
    found = set()

    def consider(kind, length, top, body: Counter, wings_count=0, pairs=False, allow=True):
        if not allow:
            return
        rest = counts - body
        if sum(body.values()) + (wings_count * (2 if pairs else 1)) != n:
            return
        if any(counts[r] < c for r, c in body.items()):
            return
        if wings_count == 0:
            if not rest:
                found.add((kind, length, top, target))
            return
        available = Counter({r: c for r, c in rest.items() if r not in body})
        if sum(available.values()) != sum(rest.values()):
            return  # a wing would share a body rank
        for wings in _wing_options(available, wings_count, pairs, distinct):
            if wings == rest:
                found.add((kind, length, top, target))

    for r in range(15):
        consider("single", 1, r, Counter({r: 1}))
        if r < 13:
            consider("pair", 1, r, Counter({r: 2}))
            consider("trio", 1, r, Counter({r: 3}))
            consider("trio_single", 1, r, Counter({r: 3}), 1)
            consider("trio_pair", 1, r, Counter({r: 3}), 1, pairs=True)
            consider("bomb", 1, r, Counter({r: 4}))
            consider("four_two_singles", 1, r, Counter({r: 4}), 2)
            consider("four_two_pairs", 1, r, Counter({r: 4}), 2, pairs=True)
    consider("rocket", 1, 14, Counter({13: 1, 14: 1}))
    for low in range(CHAIN_TOP + 1):
        for top in range(low, CHAIN_TOP + 1):
            length = top - low + 1
            span = range(low, top + 1)
            consider("straight", length, top, Counter({r: 1 for r in span}), allow=length >= 5)
            consider("pair_chain", length, top, Counter({r: 2 for r in span}), allow=length >= 3)
            trios = Counter({r: 3 for r in span})
            consider("airplane", length, top, trios, allow=length >= 2)
            consider("airplane_singles", length, top, trios, length, allow=length >= 2)
            consider("airplane_pairs", length, top, trios, length, pairs=True, allow=length >= 2)
    return found
