"""Serializable value types of the game flow: cards, combos, actions, results.

Cards are stored as their ``Card.code`` (``"Ts"``, ``"X"``); a ``Combo`` as its
declared reading plus its cards, and rebuilt on load through
``bot.rules.classify`` (so a stored play is always a legal reading).
Every model here round-trips through JSON to an equal value.
"""

from __future__ import annotations

from dataclasses import dataclass
from operator import attrgetter
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, PlainSerializer, PlainValidator, WithJsonSchema

from bot.rules import DEFAULT_RULES, Card, Combo, ComboKind, Immutable, Rank, classify


def to_card(value: Any) -> Card:
    """A Card from a Card, a code (``"Ts"``) or an index (0..53). Raises ValueError."""
    if isinstance(value, Card):
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return Card.from_index(value)
    if isinstance(value, str):
        return Card.from_code(value)
    raise ValueError(f"not a card: {value!r}")


def _combo_to_json(combo: Combo) -> dict[str, Any]:
    """``{kind, length, rank, cards}``, made once per Combo object: a table is saved
    after every action with its whole hand history, the same plays each time
    (docs/PERFORMANCE.md §Sharing). The dict is shared: never change it."""
    found = _JSON.get(id(combo))
    if found is not None and found[0] is combo:
        return found[1]
    made = {
        "kind": combo.kind.value,
        "length": combo.length,
        "rank": combo.rank.symbol,
        "cards": [card.code for card in combo.cards],
    }
    if len(_JSON) >= _JSON_KEPT:
        _JSON.pop(next(iter(_JSON), 0), None)  # the oldest (never raises, whatever the thread)
    _JSON[id(combo)] = (combo, made)  # the combo is kept with it: its id stays its own
    return made


_JSON: dict[int, tuple[Combo, dict[str, Any]]] = {}
_JSON_KEPT = 4096
"""Combos remembered: the plays of a few hundred hands in progress."""


def to_combo(value: Any) -> Combo:
    """A Combo from a Combo or its JSON form ``{kind, length, rank, cards}``.

    The stored reading must be one ``classify`` finds for those cards; raises ValueError.
    """
    if isinstance(value, Combo):
        return value
    if not isinstance(value, dict):
        raise ValueError(f"not a combo: {value!r}")
    cards = [to_card(card) for card in value["cards"]]
    reading = (ComboKind(value["kind"]), int(value["length"]), Rank.from_symbol(value["rank"]))
    for combo in classify(cards, DEFAULT_RULES):
        if combo.reading == reading:
            return combo
    raise ValueError(f"{value!r} is not a legal reading")


CardField = Annotated[
    Card,
    PlainValidator(to_card),
    PlainSerializer(attrgetter("code"), return_type=str),  # C-level: no Python frame per card
    WithJsonSchema({"type": "string"}),
]
"""A Card stored as its code."""

ComboField = Annotated[
    Combo,
    PlainValidator(to_combo),
    PlainSerializer(_combo_to_json),
    WithJsonSchema({"type": "object"}),
]
"""A Combo stored as ``{kind, length, rank, cards}``."""


class Action(Immutable, BaseModel):
    """One accepted step of a hand, as kept in ``Hand.history``.

    * ``kind``: ``"bid"`` (``amount`` 0 = pass, 1..3), ``"play"`` (``combo``) or
      ``"pass"`` (a pass during play); the Happy rules' decisions (docs/RULES.md §Happy
      rules): ``"call"`` and ``"grab"`` (``amount`` 1 = yes, 0 = no), ``"show"``
      (``amount`` the show factor, 4 or 2; 0 = the landlord keeps the hand hidden) and
      ``"double"`` (``amount`` 1, 2 or 4).
    * ``seat``: 0..2. ``auto``: the computer acted for the seat (timeout/auto-play).
    """

    model_config = ConfigDict(frozen=True)

    kind: Literal["bid", "play", "pass", "call", "grab", "show", "double"]
    seat: int
    amount: int | None = None
    combo: ComboField | None = None
    auto: bool = False

    @property
    def cards(self) -> tuple[Card, ...]:
        """The cards played (empty for anything but a play)."""
        return () if self.combo is None else self.combo.cards


class LastPlay(Immutable, BaseModel):
    """The play that must be beaten: who made it and its declared reading."""

    model_config = ConfigDict(frozen=True)

    seat: int
    combo: ComboField


class HandResult(Immutable, BaseModel):
    """A finished hand's score (docs/RULES.md §Scoring).

    * ``winner``: ``"landlord"`` or ``"peasants"``; ``out_seat``: who played the last card.
    * ``base``: the winning bid B; ``doublings``: N = bombs + rockets + spring + anti_spring.
    * ``points``: signed changes for seats 0, 1, 2 (landlord ±2P, peasants ∓P; sum 0).
    """

    model_config = ConfigDict(frozen=True)

    winner: Literal["landlord", "peasants"]
    landlord: int
    out_seat: int
    base: int
    doublings: int
    bombs: int
    rockets: int
    spring: bool
    anti_spring: bool
    points: tuple[int, int, int]

    @property
    def multiplier(self) -> int:
        """2 ** doublings."""
        return int(2**self.doublings)

    @property
    def p(self) -> int:
        """P = B × 2^N, what each peasant wins or loses."""
        return self.base * self.multiplier

    def seat_won(self, seat: int) -> bool:
        """Whether ``seat`` is on the winning side."""
        return (seat == self.landlord) == (self.winner == "landlord")


@dataclass(frozen=True)
class ShowThen:
    """A computer's first word at the deal said with its hand face up (the Happy rules'
    show at the deal, docs/RULES.md §Happy rules): ``Hand.decide("show", seat, show)``,
    then ``then`` (1 = Call, 0 = Don't call). ``Table.auto_act`` applies both."""

    then: int
    show: int = 4
