"""Legal plays: every combination a hand can lead or follow with.

Spec: docs/RULES.md §Combinations (kicker rules, both variants), §Beating a play.
Plays are generated straight from the hand's rank-count shape, kind by kind, as
shared records (``bot.rules.lookup``), so following only ever looks at the one
kind (plus bombs and the rocket) that can answer the table. The cards of a play
are taken from the hand only when someone reads ``Combo.cards``.
"""

from __future__ import annotations

from collections.abc import Iterable
from operator import attrgetter

from bot.rules.cards import Card
from bot.rules.combos import DEFAULT_RULES, CardSource, Combo, RuleSet, _Built
from bot.rules.kinds import ComboKind, Reading
from bot.rules.lookup import (
    AIRPLANES,
    BOMB,
    CHAIN,
    CODES_2,
    EXPANDED,
    EXPANDED_3,
    GE2,
    GE3,
    LOCAL_1,
    LOCAL_2,
    MASK_1,
    MASK_2,
    MASK_3,
    MEMO_A,
    MEMO_B,
    MEMO_C,
    PAIR,
    PAIR_CHAINS,
    PAIRS,
    PRESENT,
    QUADS,
    ROCKET,
    ROCKET_HELD,
    RUNS,
    SINGLE,
    SINGLES,
    STRAIGHTS,
    TRIO,
    TRIO_PAIR,
    TRIO_PAIR_KICKERS,
    TRIO_SINGLE,
    TRIO_SINGLE_KICKERS,
    TRIOS,
    Segment,
    pair_winged,
    segment,
    single_winged,
    two_singles_winged,
)

# Kinds as plain globals: ``ComboKind.X`` is a metaclass attribute lookup (~50 ns).
K_AIRPLANE_PAIRS = ComboKind.AIRPLANE_PAIRS
K_AIRPLANE_SINGLES = ComboKind.AIRPLANE_SINGLES
K_BOMB = ComboKind.BOMB
K_FOUR_TWO_PAIRS = ComboKind.FOUR_TWO_PAIRS
K_FOUR_TWO_SINGLES = ComboKind.FOUR_TWO_SINGLES
K_PAIR = ComboKind.PAIR
K_PAIR_CHAIN = ComboKind.PAIR_CHAIN
K_ROCKET = ComboKind.ROCKET
K_SINGLE = ComboKind.SINGLE
K_STRAIGHT = ComboKind.STRAIGHT
K_TRIO = ComboKind.TRIO
K_TRIO_PAIR = ComboKind.TRIO_PAIR
K_TRIO_SINGLE = ComboKind.TRIO_SINGLE
_rank_digit = attrgetter("_rank_digit")
_new = object.__new__


def legal_plays(
    hand: Iterable[Card], to_beat: Combo | None = None, rules: RuleSet = DEFAULT_RULES
) -> list[Combo]:
    """Every distinct legal play from ``hand`` (docs/RULES.md §Combinations, §Beating a play).

    ``to_beat is None`` means a free lead: every combination the hand can make.
    Otherwise only plays that beat ``to_beat``: the same kind, card count and
    body length with a higher body rank, bombs (higher ones, against a bomb)
    and the rocket. Plays are distinct by the ranks used and the reading; the
    cards of each play are taken from ``hand`` (lowest suits first).
    """
    hand = tuple(hand)
    high, a_part = divmod(sum(map(_rank_digit, hand)), 15625)  # segments(), inlined
    c_part, b_part = divmod(high, 15625)
    a = MEMO_A[a_part] or segment(0, a_part)
    b = MEMO_B[b_part] or segment(1, b_part)
    c = MEMO_C.get(c_part) or segment(2, c_part)
    distinct = not (rules is DEFAULT_RULES or rules.kickers == "default")
    if to_beat is None:
        recs = _leads(a, b, c, len(hand), distinct)
    else:
        kind = to_beat.kind
        if kind is K_ROCKET:
            return []
        above: int = to_beat.rank - 3
        if kind is K_BOMB:
            recs = [BOMB[q] for q in a[QUADS] + b[QUADS] + c[QUADS] if q > above]
        else:
            recs = _follows(kind, above, to_beat.length, a, b, c, distinct)
            quads = a[QUADS] + b[QUADS] + c[QUADS]
            if quads:
                recs += map(BOMB.__getitem__, quads)
        if c[ROCKET_HELD]:
            recs.append(ROCKET)
    source = _new(CardSource)
    source.hand = hand
    source.by_rank = None
    out: list[Combo] = []
    append = out.append
    for kind, rank, length, ranks in recs:
        combo = _Built()
        combo.kind = kind
        combo.rank = rank
        combo.length = length
        combo.ranks = ranks
        combo._pool = source
        append(combo)
    return out


def _leads(a: Segment, b: Segment, c: Segment, total: int, distinct: bool) -> list[Reading]:
    """Every play of a hand, kind by kind (docs/RULES.md §Combinations order), then bombs and the rocket."""
    recs: list[Reading] = [*a[SINGLES], *b[SINGLES], *c[SINGLES], *a[PAIRS], *b[PAIRS], *c[PAIRS]]
    ge3 = a[GE3] + b[GE3] + c[GE3]
    if ge3:
        recs += a[TRIOS]
        recs += b[TRIOS]
        recs += c[TRIOS]
        a1, b1, c1 = a[LOCAL_1], b[LOCAL_1], c[LOCAL_1]
        for t in ge3:
            row = TRIO_SINGLE_KICKERS[t]
            recs += row[0][a1]
            recs += row[1][b1]
            recs += row[2][c1]
        a2, b2, c2 = a[LOCAL_2], b[LOCAL_2], c[LOCAL_2]
        for t in ge3:
            row = TRIO_PAIR_KICKERS[t]
            recs += row[0][a2]
            recs += row[1][b2]
            recs += row[2][c2]
    recs += STRAIGHTS[a[MASK_1] | b[MASK_1]]
    recs += PAIR_CHAINS[a[MASK_2] | b[MASK_2]]
    runs = RUNS[a[MASK_3] | b[MASK_3]]
    quads = a[QUADS] + b[QUADS] + c[QUADS]
    if runs or quads:
        ge2 = a[GE2] + b[GE2] + c[GE2]
        codes = a[CODES_2] + b[CODES_2] + c[CODES_2]
    if runs:
        recs += AIRPLANES[a[MASK_3] | b[MASK_3]]
        for lo, hi in runs:
            for top in range(lo + 1, hi + 1):
                for low in range(top - 1, lo - 1, -1):
                    m = top - low + 1
                    if m == 2:
                        recs += two_singles_winged(K_AIRPLANE_SINGLES, codes, low, top, distinct)
                    elif 4 * m <= total:
                        field = EXPANDED_3 if m == 3 else EXPANDED
                        recs += single_winged(K_AIRPLANE_SINGLES, a[field] + b[field] + c[field],
                                              a[PRESENT] + b[PRESENT] + c[PRESENT], low, top, m,
                                              distinct)
        for lo, hi in runs:
            for top in range(lo + 1, hi + 1):
                for low in range(top - 1, lo - 1, -1):
                    m = top - low + 1
                    if 5 * m <= total:
                        recs += pair_winged(K_AIRPLANE_PAIRS, ge2, low, top, m)
    if quads:
        for q in quads:
            recs += two_singles_winged(K_FOUR_TWO_SINGLES, codes, q, q, distinct)
        for q in quads:
            recs += pair_winged(K_FOUR_TWO_PAIRS, ge2, q, q, 2)
        recs += map(BOMB.__getitem__, quads)
    if c[ROCKET_HELD]:
        recs.append(ROCKET)
    return recs


def _follows(
    kind: ComboKind, above: int, length: int, a: Segment, b: Segment, c: Segment, distinct: bool
) -> list[Reading]:
    """Plays of the normal ``kind`` and body ``length`` whose body rank index is above ``above``."""
    if kind is K_SINGLE:
        return [SINGLE[r] for r in a[PRESENT] + b[PRESENT] + c[PRESENT] if r > above]
    if kind is K_PAIR:
        return [PAIR[r] for r in a[GE2] + b[GE2] + c[GE2] if r > above]
    if kind is K_TRIO:
        return [TRIO[r] for r in a[GE3] + b[GE3] + c[GE3] if r > above]
    recs: list[Reading] = []
    if kind is K_TRIO_SINGLE or kind is K_TRIO_PAIR:
        table = TRIO_SINGLE if kind is K_TRIO_SINGLE else TRIO_PAIR
        field = PRESENT if kind is K_TRIO_SINGLE else GE2
        kickers = a[field] + b[field] + c[field]
        for t in a[GE3] + b[GE3] + c[GE3]:
            if t > above:
                row = table[t].__getitem__
                i = kickers.index(t)
                recs += map(row, kickers[:i])
                recs += map(row, kickers[i + 1:])
        return recs
    if kind is K_FOUR_TWO_SINGLES:
        codes = a[CODES_2] + b[CODES_2] + c[CODES_2]
        for q in a[QUADS] + b[QUADS] + c[QUADS]:
            if q > above:
                recs += two_singles_winged(kind, codes, q, q, distinct)
        return recs
    if kind is K_FOUR_TWO_PAIRS:
        ge2 = a[GE2] + b[GE2] + c[GE2]
        for q in a[QUADS] + b[QUADS] + c[QUADS]:
            if q > above:
                recs += pair_winged(kind, ge2, q, q, 2)
        return recs
    # Chains: straight, pair chain, airplane, with or without wings.
    field = MASK_1 if kind is K_STRAIGHT else MASK_2 if kind is K_PAIR_CHAIN else MASK_3
    runs = RUNS[a[field] | b[field]]
    if not runs:
        return recs
    if kind is K_AIRPLANE_SINGLES:
        present = a[PRESENT] + b[PRESENT] + c[PRESENT]
        cap = CODES_2 if length == 2 else EXPANDED_3 if length == 3 else EXPANDED
        cards = a[cap] + b[cap] + c[cap]
    elif kind is K_AIRPLANE_PAIRS:
        ge2 = a[GE2] + b[GE2] + c[GE2]
    else:
        chain = CHAIN[kind]
    for lo, hi in runs:
        for top in range(max(lo + length - 1, above + 1), hi + 1):
            low = top - length + 1
            if kind is K_AIRPLANE_SINGLES:
                if length == 2:
                    recs += two_singles_winged(kind, cards, low, top, distinct)
                else:
                    recs += single_winged(kind, cards, present, low, top, length, distinct)
            elif kind is K_AIRPLANE_PAIRS:
                recs += pair_winged(kind, ge2, low, top, length)
            else:
                recs.append(chain[low][top])  # type: ignore[arg-type]  # a chain in range: never None
    return recs
