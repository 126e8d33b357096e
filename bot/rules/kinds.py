"""The kinds of combination and the rank constants every rules module shares (a leaf).

Spec: docs/RULES.md §Combinations. Ranks are handled as indices 0..14
(``Rank.index``: 3 → 0 … A → 11, 2 → 12, small joker 13, big joker 14).
"""

from __future__ import annotations

from enum import StrEnum

from bot.rules.cards import Rank

TOP_CHAIN = 11
"""Highest rank index a chain may use (the ace): chains never contain 2 or jokers."""
SMALL_JOKER, BIG_JOKER = 13, 14


class ComboKind(StrEnum):
    """The kinds of docs/RULES.md §Combinations; values are the table's names."""

    SINGLE = "single"
    PAIR = "pair"
    TRIO = "trio"
    TRIO_SINGLE = "trio_single"
    TRIO_PAIR = "trio_pair"
    STRAIGHT = "straight"
    PAIR_CHAIN = "pair_chain"
    AIRPLANE = "airplane"
    AIRPLANE_SINGLES = "airplane_singles"
    AIRPLANE_PAIRS = "airplane_pairs"
    FOUR_TWO_SINGLES = "four_two_singles"
    FOUR_TWO_PAIRS = "four_two_pairs"
    BOMB = "bomb"
    ROCKET = "rocket"

    __hash__ = str.__hash__  # C-level and equal to hash(value) (Enum's own is Python code)


Reading = tuple[ComboKind, Rank, int, tuple[int, ...]]
"""One reading of a set of cards: (kind, body rank, body length, sorted rank indices)."""
