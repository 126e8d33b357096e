"""What an object holds of the cards: every Card reachable from it (privacy checks)."""

from __future__ import annotations

import dataclasses

from bot.rules import Card, Combo


def _cards_reachable(value: object, seen: set[int] | None = None) -> set[Card]:
    """Every Card reachable from ``value`` through fields, containers and attributes."""
    seen = set() if seen is None else seen
    if id(value) in seen:
        return set()
    seen.add(id(value))
    if isinstance(value, Card):
        return {value}
    out: set[Card] = set()
    if isinstance(value, dict):
        for k, v in value.items():
            out |= _cards_reachable(k, seen) | _cards_reachable(v, seen)
    elif isinstance(value, (list, tuple, set, frozenset)):
        for item in value:
            out |= _cards_reachable(item, seen)
    elif isinstance(value, Combo):
        out |= set(value.cards)
    elif dataclasses.is_dataclass(value):
        for f in dataclasses.fields(value):
            out |= _cards_reachable(getattr(value, f.name), seen)
    return out
