"""Legal plays: every combination a hand can lead or follow with.

Spec: RULES.md §Combinations (kicker rules, both variants), §Beating a play.
Plays are generated straight from per-rank counts, kind by kind, so following
only ever builds plays of the one kind (plus bombs and the rocket) that can
answer the table.
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
Spec = tuple[tuple[int, int], ...]
"""A play's cards as (rank index, count) pairs."""

MIN_CHAIN = {K.STRAIGHT: 5, K.PAIR_CHAIN: 3, K.AIRPLANE: 2}


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
    cards = sorted(hand)
    by_rank: list[list[Card]] = [[] for _ in range(15)]
    for card in cards:
        by_rank[card.rank.value - 3].append(card)
    counts = [len(group) for group in by_rank]
    distinct = rules.kickers == "distinct"
    total = len(cards)

    if to_beat is None:
        specs = _all_specs(counts, total, distinct)
    elif to_beat.kind is K.ROCKET:
        return []
    elif to_beat.kind is K.BOMB:
        specs = _bombs(counts, to_beat.rank.index)
    else:
        specs = _specs_of_kind(
            to_beat.kind, counts, total, distinct, to_beat.rank.index, to_beat.length
        )
        specs.extend(_bombs(counts, -1))
    plays = []
    for kind, length, top, spec in specs:
        play_cards: list[Card] = []
        for r, c in spec:
            play_cards.extend(by_rank[r][:c])
        plays.append(Combo(kind, RANKS[top], length, play_cards))
    return plays


Entry = tuple[ComboKind, int, int, Spec]


def _bombs(counts: list[int], above: int) -> list[Entry]:
    """Bombs with a rank index above ``above``, then the rocket."""
    out: list[Entry] = [(K.BOMB, 1, r, ((r, 4),)) for r in range(above + 1, 13) if counts[r] == 4]
    if counts[SMALL_JOKER] and counts[BIG_JOKER]:
        out.append((K.ROCKET, 1, BIG_JOKER, ((SMALL_JOKER, 1), (BIG_JOKER, 1))))
    return out


def _all_specs(counts: list[int], total: int, distinct: bool) -> list[Entry]:
    out: list[Entry] = []
    for kind in (
        K.SINGLE, K.PAIR, K.TRIO, K.TRIO_SINGLE, K.TRIO_PAIR, K.STRAIGHT, K.PAIR_CHAIN,
        K.AIRPLANE, K.AIRPLANE_SINGLES, K.AIRPLANE_PAIRS, K.FOUR_TWO_SINGLES, K.FOUR_TWO_PAIRS,
    ):
        out.extend(_specs_of_kind(kind, counts, total, distinct, -1, None))
    out.extend(_bombs(counts, -1))
    return out


def _specs_of_kind(
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
    out: list[Entry] = []
    if kind is K.SINGLE:
        return [(kind, 1, r, ((r, 1),)) for r in range(above + 1, 15) if counts[r]]
    if kind is K.PAIR:
        return [(kind, 1, r, ((r, 2),)) for r in range(above + 1, 13) if counts[r] >= 2]
    if kind is K.TRIO:
        return [(kind, 1, r, ((r, 3),)) for r in range(above + 1, 13) if counts[r] >= 3]
    if kind is K.TRIO_SINGLE or kind is K.TRIO_PAIR:
        need = 1 if kind is K.TRIO_SINGLE else 2
        for t in range(above + 1, 13):
            if counts[t] >= 3:
                out.extend(
                    (kind, 1, t, ((t, 3), (k, need)))
                    for k in range(15)
                    if k != t and counts[k] >= need
                )
        return out
    if kind in MIN_CHAIN:
        width = 1 if kind is K.STRAIGHT else 2 if kind is K.PAIR_CHAIN else 3
        for low, top in _runs(counts, width, MIN_CHAIN[kind], length, above):
            out.append((kind, top - low + 1, top, tuple((r, width) for r in range(low, top + 1))))
        return out
    if kind is K.AIRPLANE_SINGLES or kind is K.AIRPLANE_PAIRS:
        singles = kind is K.AIRPLANE_SINGLES
        per = 4 if singles else 5
        for low, top in _runs(counts, 3, 2, length, above):
            m = top - low + 1
            if per * m > total:
                continue
            body = tuple((r, 3) for r in range(low, top + 1))
            rest = [0 if low <= r <= top else counts[r] for r in range(15)]
            for wings in _wings(rest, m, singles, distinct):
                out.append((kind, m, top, body + wings))
        return out
    if kind is K.FOUR_TWO_SINGLES or kind is K.FOUR_TWO_PAIRS:
        singles = kind is K.FOUR_TWO_SINGLES
        for q in range(above + 1, 13):
            if counts[q] != 4:
                continue
            rest = counts.copy()
            rest[q] = 0
            for kickers in _wings(rest, 2, singles, distinct):
                out.append((kind, 1, q, ((q, 4), *kickers)))
        return out
    raise ValueError(f"not a normal kind: {kind}")


def _runs(
    counts: list[int], width: int, min_len: int, length: int | None, above: int
) -> Iterator[tuple[int, int]]:
    """(low, top) rank-index runs within 3..A where every rank has ≥ width cards.

    Runs are at least ``min_len`` long (exactly ``length`` when given) and end
    above rank index ``above``.
    """
    lengths = range(min_len, TOP_CHAIN + 2) if length is None else (length,)
    for m in lengths:
        for top in range(max(m - 1, above + 1), TOP_CHAIN + 1):
            if all(counts[r] >= width for r in range(top - m + 1, top + 1)):
                yield top - m + 1, top


def _wings(rest: list[int], m: int, singles: bool, distinct: bool) -> list[Spec]:
    """Every choice of ``m`` wings from the counts ``rest`` (body ranks already zeroed).

    Single wings: any m cards, ranks may repeat (``distinct``: they may not),
    never both jokers. Pair wings: m pairs of distinct ranks (jokers cannot pair).
    """
    if not singles:
        ranks = [r for r in range(13) if rest[r] >= 2]
        return [tuple((r, 2) for r in chosen) for chosen in combinations(ranks, m)]
    if distinct:
        ranks = [r for r in range(15) if rest[r]]
        choices = [tuple((r, 1) for r in chosen) for chosen in combinations(ranks, m)]
    else:
        items = [(r, rest[r]) for r in range(15) if rest[r]]
        choices = []
        _multisets(items, 0, m, [], choices)
    if rest[SMALL_JOKER] and rest[BIG_JOKER]:
        choices = [c for c in choices if not (c[-1][0] == BIG_JOKER and _has_small_joker(c))]
    return choices


def _has_small_joker(choice: Spec) -> bool:
    return len(choice) >= 2 and choice[-2][0] == SMALL_JOKER


def _multisets(
    items: list[tuple[int, int]], start: int, left: int, acc: list[tuple[int, int]], out: list[Spec]
) -> None:
    """Append to ``out`` every multiset of ``left`` cards from ``items[start:]``."""
    if left == 0:
        out.append(tuple(acc))
        return
    for i in range(start, len(items)):
        r, available = items[i]
        for take in range(min(available, left), 0, -1):
            acc.append((r, take))
            _multisets(items, i + 1, left - take, acc, out)
            acc.pop()
