"""Combination keys and sub-multisets of a hand, for the rules' property tests."""

from __future__ import annotations

from itertools import product

from bot.rules import rank_counts


def key(combo):
    """A combination as (kind, length, rank index, rank counts): equal for equal readings."""
    counts = rank_counts(combo.cards)
    return (combo.kind.value, combo.length, combo.rank.index,
            frozenset((r, c) for r, c in enumerate(counts) if c))


def sub_multisets(cards):
    """Every non-empty sub-multiset of ranks, as one card list each."""
    by_rank = {}
    for card in cards:
        by_rank.setdefault(card.rank, []).append(card)
    groups = list(by_rank.values())
    for takes in product(*(range(len(g) + 1) for g in groups)):
        chosen = [card for g, k in zip(groups, takes, strict=True) for card in g[:k]]
        if chosen:
            yield chosen
