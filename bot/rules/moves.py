"""Legal plays: every combination a hand can lead or follow with.

Spec: RULES.md §Combinations (kicker rules, both variants), §Beating a play.
Plays are generated straight from per-rank counts, kind by kind, so following
only ever builds plays of the one kind (plus bombs and the rocket) that can
answer the table. A play is first a sorted tuple of rank indices; its cards are
taken from the hand only when someone reads ``Combo.cards``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import combinations

from bot.rules.cards import RANKS, Card
from bot.rules.combos import (
    BIG_JOKER,
    DEFAULT_RULES,
    SMALL_JOKER,
    TOP_CHAIN,
    Combo,
    ComboKind,
    RuleSet,
)

K = ComboKind
Entry = tuple[ComboKind, int, int, tuple[int, ...]]
"""(kind, body length, top rank index, sorted rank indices of the cards)."""

MIN_CHAIN = {K.STRAIGHT: 5, K.PAIR_CHAIN: 3, K.AIRPLANE: 2}
CHAIN_WIDTH = {K.STRAIGHT: 1, K.PAIR_CHAIN: 2, K.AIRPLANE: 3}
NORMAL_KINDS = (
    K.SINGLE, K.PAIR, K.TRIO, K.TRIO_SINGLE, K.TRIO_PAIR, K.STRAIGHT, K.PAIR_CHAIN,
    K.AIRPLANE, K.AIRPLANE_SINGLES, K.AIRPLANE_PAIRS, K.FOUR_TWO_SINGLES, K.FOUR_TWO_PAIRS,
)
ROCKET_ENTRY: Entry = (K.ROCKET, 1, BIG_JOKER, (SMALL_JOKER, BIG_JOKER))


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
    by_rank: list[list[Card]] = [[] for _ in range(15)]
    for card in sorted(hand, key=_index):
        by_rank[card.rank_index].append(card)
    counts = [len(group) for group in by_rank]
    distinct = rules.kickers == "distinct"
    total = sum(counts)

    if to_beat is None:
        entries: list[Entry] = []
        for kind in NORMAL_KINDS:
            entries.extend(_entries_of_kind(kind, counts, total, distinct, -1, None))
        entries.extend(_bombs(counts, -1))
    elif to_beat.kind is K.ROCKET:
        return []
    elif to_beat.kind is K.BOMB:
        entries = _bombs(counts, to_beat.rank.index)
    else:
        entries = _entries_of_kind(
            to_beat.kind, counts, total, distinct, to_beat.rank.index, to_beat.length
        )
        entries.extend(_bombs(counts, -1))
    make = Combo.trusted
    return [make(kind, RANKS[top], length, ranks, by_rank) for kind, length, top, ranks in entries]


def _index(card: Card) -> int:
    return card.index


def _bombs(counts: list[int], above: int) -> list[Entry]:
    """Bombs with a rank index above ``above``, then the rocket."""
    out: list[Entry] = [(K.BOMB, 1, r, (r, r, r, r)) for r in range(above + 1, 13) if counts[r] == 4]
    if counts[SMALL_JOKER] and counts[BIG_JOKER]:
        out.append(ROCKET_ENTRY)
    return out


def _entries_of_kind(
    kind: ComboKind,
    counts: list[int],
    total: int,
    distinct: bool,
    above: int,
    length: int | None,
) -> list[Entry]:
    """Plays of one normal kind whose body rank index is above ``above``.

    ``length``: the body length to match (``None``: every length).
    """
    if kind is K.SINGLE:
        return [(kind, 1, r, (r,)) for r in range(above + 1, 15) if counts[r]]
    if kind is K.PAIR:
        return [(kind, 1, r, (r, r)) for r in range(above + 1, 13) if counts[r] >= 2]
    if kind is K.TRIO:
        return [(kind, 1, r, (r, r, r)) for r in range(above + 1, 13) if counts[r] >= 3]
    out: list[Entry] = []
    if kind is K.TRIO_SINGLE or kind is K.TRIO_PAIR:
        need = 1 if kind is K.TRIO_SINGLE else 2
        for t in range(above + 1, 13):
            if counts[t] < 3:
                continue
            for k in range(15):
                if k != t and counts[k] >= need:
                    extra = (k,) * need
                    ranks = (t, t, t, *extra) if k > t else (*extra, t, t, t)
                    out.append((kind, 1, t, ranks))
        return out
    if kind in CHAIN_WIDTH:
        width = CHAIN_WIDTH[kind]
        for low, top in _runs(counts, width, MIN_CHAIN[kind], length, above):
            ranks = tuple(r for r in range(low, top + 1) for _ in range(width))
            out.append((kind, top - low + 1, top, ranks))
        return out
    if kind is K.AIRPLANE_SINGLES or kind is K.AIRPLANE_PAIRS:
        singles = kind is K.AIRPLANE_SINGLES
        per = 4 if singles else 5
        for low, top in _runs(counts, 3, 2, length, above):
            m = top - low + 1
            if per * m > total:
                continue
            body = tuple(r for r in range(low, top + 1) for _ in range(3))
            rest = [0 if low <= r <= top else counts[r] for r in range(15)]
            for wings in _wings(rest, m, singles, distinct):
                out.append((kind, m, top, tuple(sorted(body + wings))))
        return out
    if kind is K.FOUR_TWO_SINGLES or kind is K.FOUR_TWO_PAIRS:
        singles = kind is K.FOUR_TWO_SINGLES
        for q in range(above + 1, 13):
            if counts[q] != 4:
                continue
            rest = counts.copy()
            rest[q] = 0
            for kickers in _wings(rest, 2, singles, distinct):
                out.append((kind, 1, q, tuple(sorted((q, q, q, q, *kickers)))))
        return out
    raise ValueError(f"not a normal kind: {kind}")


def _runs(
    counts: list[int], width: int, min_len: int, length: int | None, above: int
) -> Iterator[tuple[int, int]]:
    """(low, top) rank-index runs within 3..A where every rank has ≥ width cards.

    Runs are at least ``min_len`` long (exactly ``length`` when given) and end
    above rank index ``above``.
    """
    streak = 0
    for top in range(TOP_CHAIN + 1):
        streak = streak + 1 if counts[top] >= width else 0
        if top <= above or streak < min_len:
            continue
        if length is None:
            for m in range(min_len, streak + 1):
                yield top - m + 1, top
        elif streak >= length:
            yield top - length + 1, top


def _wings(rest: list[int], m: int, singles: bool, distinct: bool) -> list[tuple[int, ...]]:
    """Every choice of ``m`` wings from the counts ``rest`` (body ranks already zeroed).

    Returns sorted tuples of rank indices. Single wings: any m cards, ranks may
    repeat (``distinct``: they may not), never both jokers. Pair wings: m pairs
    of distinct ranks (jokers cannot pair).
    """
    if not singles:
        ranks = [r for r in range(13) if rest[r] >= 2]
        return [tuple(r for r in chosen for _ in range(2)) for chosen in combinations(ranks, m)]
    if distinct:
        choices = list(combinations([r for r in range(15) if rest[r]], m))
    else:
        cards = [r for r in range(15) for _ in range(rest[r])]
        choices = sorted(set(combinations(cards, m)))
    if rest[SMALL_JOKER] and rest[BIG_JOKER]:
        choices = [c for c in choices if c[-1] != BIG_JOKER or c[-2] != SMALL_JOKER]
    return choices
