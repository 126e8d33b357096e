"""Legal plays: every combination a hand can lead or follow with.

Spec: RULES.md §Combinations (kicker rules, both variants), §Beating a play.
Plays are generated straight from the hand's rank-count shape, kind by kind, as
shared records (``bot.rules.tables``), so following only ever looks at the one
kind (plus bombs and the rocket) that can answer the table. The cards of a play
are taken from the hand only when someone reads ``Combo.cards``.
"""

from __future__ import annotations

from collections.abc import Iterable
from operator import attrgetter

from bot.rules.cards import Card
from bot.rules.combos import (
    BIG_JOKER,
    DEFAULT_RULES,
    SMALL_JOKER,
    CardSource,
    Combo,
    ComboKind,
    Reading,
    RuleSet,
    _Built,
)
from bot.rules.tables import (
    BOMB,
    CHAIN,
    CHAIN_RUN,
    PAIR,
    ROCKET,
    RUNS,
    SINGLE,
    TRIO,
    TRIO_PAIR,
    TRIO_SINGLE,
    analyse,
    pair_winged,
    single_winged,
)

K = ComboKind
_rank_digit = attrgetter("_rank_digit")
_new = object.__new__


def legal_plays(
    hand: Iterable[Card], to_beat: Combo | None = None, rules: RuleSet = DEFAULT_RULES
) -> list[Combo]:
    """Every distinct legal play from ``hand`` (RULES.md §Combinations, §Beating a play).

    ``to_beat is None`` means a free lead: every combination the hand can make.
    Otherwise only plays that beat ``to_beat``: the same kind, card count and
    body length with a higher body rank, bombs (higher ones, against a bomb)
    and the rocket. Plays are distinct by the ranks used and the reading; the
    cards of each play are taken from ``hand`` (lowest suits first).
    """
    hand = tuple(hand)
    counts, present, ge2, ge3, quads, expanded, m1, m2, m3 = analyse(sum(map(_rank_digit, hand)))
    distinct = not (rules is DEFAULT_RULES or rules.kickers == "default")
    rocket = counts[SMALL_JOKER] and counts[BIG_JOKER]
    if to_beat is None:
        recs = _leads(counts, present, ge2, ge3, quads, expanded, m1, m2, m3, len(hand), distinct)
    else:
        kind = to_beat.kind
        if kind is K.ROCKET:
            return []
        above: int = to_beat.rank - 3
        if kind is K.BOMB:
            recs = [BOMB[q] for q in quads if q > above]
            if rocket:
                recs.append(ROCKET)
        else:
            recs = _follows(kind, above, to_beat.length, counts, present, ge2, ge3, quads,
                            expanded, m1, m2, m3, distinct)
            if quads:
                recs += map(BOMB.__getitem__, quads)
            if rocket:
                recs.append(ROCKET)
    source = _new(CardSource)
    source.hand = hand
    source.by_rank = None
    out = []
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


def _leads(counts, present, ge2, ge3, quads, expanded, m1, m2, m3, total, distinct) -> list[Reading]:  # noqa: ANN001
    """Every play of a hand, kind by kind (RULES.md §Combinations order), then bombs and the rocket."""
    recs: list[Reading] = list(map(SINGLE.__getitem__, present))
    recs += map(PAIR.__getitem__, ge2)
    recs += map(TRIO.__getitem__, ge3)
    for t in ge3:
        row = TRIO_SINGLE[t]
        recs += [row[k] for k in present if k != t]  # type: ignore[misc]
    for t in ge3:
        row = TRIO_PAIR[t]
        recs += [row[k] for k in ge2 if k != t]  # type: ignore[misc]
    for kind, mask in ((K.STRAIGHT, m1), (K.PAIR_CHAIN, m2), (K.AIRPLANE, m3)):
        table = CHAIN_RUN[kind]
        for a, b in RUNS[mask]:
            recs += table[a][b]
    rocket = counts[SMALL_JOKER] and counts[BIG_JOKER]
    runs = RUNS[m3]
    if runs:
        for a, b in runs:
            for top in range(a + 1, b + 1):
                for low in range(top - 1, a - 1, -1):
                    m = top - low + 1
                    if 4 * m <= total:
                        recs += single_winged(K.AIRPLANE_SINGLES, expanded, present, low, top, m,
                                              distinct)
        for a, b in runs:
            for top in range(a + 1, b + 1):
                for low in range(top - 1, a - 1, -1):
                    m = top - low + 1
                    if 5 * m <= total:
                        recs += pair_winged(K.AIRPLANE_PAIRS, ge2, low, top, m)
    if quads:
        for q in quads:
            recs += single_winged(K.FOUR_TWO_SINGLES, expanded, present, q, q, 2, distinct)
        for q in quads:
            recs += pair_winged(K.FOUR_TWO_PAIRS, ge2, q, q, 2)
        recs += map(BOMB.__getitem__, quads)
    if rocket:
        recs.append(ROCKET)
    return recs


def _follows(kind, above, length, counts, present, ge2, ge3, quads, expanded, m1, m2, m3,  # noqa: ANN001
             distinct) -> list[Reading]:
    """Plays of the normal ``kind`` and body ``length`` whose body rank index is above ``above``."""
    if kind is K.SINGLE:
        return [SINGLE[r] for r in present if r > above]
    if kind is K.PAIR:
        return [PAIR[r] for r in ge2 if r > above]
    if kind is K.TRIO:
        return [TRIO[r] for r in ge3 if r > above]
    recs: list[Reading] = []
    if kind is K.TRIO_SINGLE:
        for t in ge3:
            if t > above:
                row = TRIO_SINGLE[t]
                recs += [row[k] for k in present if k != t]  # type: ignore[misc]
        return recs
    if kind is K.TRIO_PAIR:
        for t in ge3:
            if t > above:
                row = TRIO_PAIR[t]
                recs += [row[k] for k in ge2 if k != t]  # type: ignore[misc]
        return recs
    if kind is K.FOUR_TWO_SINGLES:
        for q in quads:
            if q > above:
                recs += single_winged(kind, expanded, present, q, q, 2, distinct)
        return recs
    if kind is K.FOUR_TWO_PAIRS:
        for q in quads:
            if q > above:
                recs += pair_winged(kind, ge2, q, q, 2)
        return recs
    # Chains: straight, pair chain, airplane, with or without wings.
    if kind is K.STRAIGHT:
        mask = m1
    elif kind is K.PAIR_CHAIN:
        mask = m2
    else:
        mask = m3
    for a, b in RUNS[mask]:
        for top in range(max(a + length - 1, above + 1), b + 1):
            low = top - length + 1
            if kind is K.AIRPLANE_SINGLES:
                recs += single_winged(kind, expanded, present, low, top, length, distinct)
            elif kind is K.AIRPLANE_PAIRS:
                recs += pair_winged(kind, ge2, low, top, length)
            else:
                recs.append(CHAIN[kind][low][top])  # type: ignore[arg-type]
    return recs
