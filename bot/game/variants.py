"""The registered rule sets: a ``RuleSet.variant`` name and the Hand class that plays it.

Like a chess variant in python-chess (a board class and an entry in its list), a rule
set here is one ``Hand`` subclass and one entry of ``HAND_TYPES``; the game flow asks
``hand_type(rules)`` and never branches on the name (docs/RULES.md §Happy rules,
docs/ARCHITECTURE.md §add a rule set). ``AnyHand`` is the field type that stores any
of them and loads each back as its own class, chosen by its rules' ``variant``.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Discriminator, Tag, TypeAdapter

from bot.game.hand import Hand
from bot.game.happy import HappyHand
from bot.rules import RuleSet

HAND_TYPES: dict[str, type[Hand]] = {"classic": Hand, "happy": HappyHand}
"""Each ``RuleSet.variant`` and the Hand class that plays it."""


def hand_type(rules: RuleSet) -> type[Hand]:
    """The Hand class of ``rules.variant``. Raises KeyError for a name not registered."""
    return HAND_TYPES[rules.variant]


def _variant_of(value: Any) -> str:
    """The tag of a stored hand (its rules' ``variant``) or of a Hand object (its class)."""
    if isinstance(value, Hand):
        return next(name for name, cls in HAND_TYPES.items() if type(value) is cls)
    rules = value.get("rules") if isinstance(value, dict) else None
    if isinstance(rules, RuleSet):
        return rules.variant
    if isinstance(rules, dict):
        return str(rules.get("variant", "classic"))
    return "classic"


AnyHand = Annotated[
    Annotated[Hand, Tag("classic")] | Annotated[HappyHand, Tag("happy")],
    Discriminator(_variant_of),
]
"""A Hand of any registered rule set, stored as its own JSON (a classic hand's JSON is
the classic Hand's, unchanged) and loaded back as its rule set's class."""

_HANDS: TypeAdapter[Hand] = TypeAdapter(AnyHand)


def load_hand(data: str | bytes) -> Hand:
    """The Hand stored as ``data`` (a ``model_dump_json``), as its rule set's class.
    Raises pydantic.ValidationError."""
    return _HANDS.validate_json(data)
