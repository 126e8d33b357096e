"""Dealing 54 cards into three 17-card hands and a 3-card kitty (docs/RULES.md §Deal)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from bot.rules import DECK, Card, parse_ranks

HAND_SIZE = 17
KITTY_SIZE = 3


def deal_cards(
    rng: random.Random,
    hands: Sequence[str | Sequence[Card]] | None = None,
    kitty: str | Sequence[Card] | None = None,
) -> tuple[list[list[Card]], list[Card]]:
    """Three sorted 17-card hands and the sorted 3-card kitty.

    ``hands is None``: ``rng`` shuffles the deck. Otherwise the three hands are
    given (docs/RULES.md notation or Cards; text gets suits in ♠ ♥ ♦ ♣ order per
    rank across hands and kitty, so all cards are distinct) and ``kitty``
    defaults to the three cards left over. Raises ValueError on wrong sizes,
    a rank used more often than a deck holds, or a card dealt twice.
    """
    if hands is None:
        deck = list(DECK)
        rng.shuffle(deck)
        parts = [deck[i * HAND_SIZE:(i + 1) * HAND_SIZE] for i in range(3)]
        return [sorted(p) for p in parts], sorted(deck[3 * HAND_SIZE:])
    if len(hands) != 3:
        raise ValueError("a fixed deal needs three hands")
    used = [0] * 15
    parts = [_cards(h, used) for h in hands]
    if kitty is None:
        taken = {card for part in parts for card in part}
        bottom = [card for card in DECK if card not in taken]
    else:
        bottom = _cards(kitty, used)
    all_cards = [card for part in [*parts, bottom] for card in part]
    if len(set(all_cards)) != len(all_cards):
        raise ValueError("a card is dealt twice")
    if any(len(p) != HAND_SIZE for p in parts) or len(bottom) != KITTY_SIZE:
        sizes = [len(p) for p in parts]
        raise ValueError(f"hands must hold 17 cards and the kitty 3, got {sizes} + {len(bottom)}")
    return [sorted(p) for p in parts], sorted(bottom)


def _cards(spec: str | Sequence[Card], used: list[int]) -> list[Card]:
    """Cards for ``spec``; text takes the next unused suit of each rank (``used`` per rank)."""
    if not isinstance(spec, str):
        return list(spec)
    cards = []
    for rank in parse_ranks(spec):
        i = rank.index
        limit = 1 if rank.is_joker else 4
        if used[i] >= limit:
            raise ValueError(f"more {rank.symbol} than a deck holds")
        cards.append(DECK[52 + i - 13] if rank.is_joker else DECK[i * 4 + used[i]])
        used[i] += 1
    return cards
