"""Dealing 54 cards into three 17-card hands and a 3-card kitty (docs/RULES.md §Deal
and bidding, §No-shuffle deals)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from bot.rules import DECK, Card, parse_ranks

HAND_SIZE = 17
KITTY_SIZE = 3
PACKET = 5
"""Cards per packet of a no-shuffle deal: 5, 5, 5 then 2 to each seat in turn
(docs/RULES.md §No-shuffle deals gives the bombs it brings)."""
CUTS = (1, 3)
"""A no-shuffle deck is cut this many times (at least, at most) before dealing."""


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


def deal_from_order(
    rng: random.Random, order: Sequence[Card], packet: int = PACKET
) -> tuple[list[list[Card]], list[Card]]:
    """A no-shuffle deal (docs/RULES.md §No-shuffle deals): the 54 cards of ``order`` (the
    previous hand's, ``played_order``) cut 1 to 3 times at random points, then dealt
    ``packet`` cards at a time to seats 0, 1, 2 in turn until each holds 17; the last 3
    are the kitty. Returns the sorted hands and kitty, like ``deal_cards``.
    Raises ValueError unless ``order`` is the whole deck once.
    """
    deck = list(order)
    if len(deck) != len(DECK) or set(deck) != set(DECK):
        raise ValueError("a no-shuffle deal needs the 54 cards once each")
    if packet < 1:
        raise ValueError(f"a packet holds at least one card, not {packet}")
    for _ in range(rng.randint(*CUTS)):
        cut = rng.randrange(1, len(deck))
        deck = deck[cut:] + deck[:cut]
    hands: list[list[Card]] = [[], [], []]
    taken, seat = 0, 0
    while taken < 3 * HAND_SIZE:
        count = min(packet, HAND_SIZE - len(hands[seat]))
        hands[seat].extend(deck[taken:taken + count])
        taken += count
        seat = (seat + 1) % 3
    return [sorted(h) for h in hands], sorted(deck[taken:])


def played_order(
    plays: Sequence[Sequence[Card]], holdings: Sequence[Sequence[Card]], kitty: Sequence[Card]
) -> list[Card]:
    """The deck a no-shuffle table deals its next hand from: the cards of ``plays`` in
    the order they were played (each play's cards low to high), then each seat's
    ``holdings`` sorted, seat 0 first, then ``kitty`` (sorted) when nobody took it."""
    order = [card for cards in plays for card in cards]
    for cards in holdings:
        order.extend(sorted(cards))
    order.extend(sorted(kitty))
    return order
