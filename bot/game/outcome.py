"""The facts a settlement records about a finished hand, read off a typed Table.

Spec: docs/RULES.md §Scoring (points, bombs, spring) and §Match. Pure; every
Repository backend settles from a ``HandOutcome``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from bot.game.table import Table


@dataclass(frozen=True)
class SeatOutcome:
    """One seat's facts for one finished hand.

    ``user_id`` is None for a computer seat, whose level is ``computer``; ``points``
    the signed change of the hand; ``bombs`` the bombs and rockets this seat played;
    ``spring`` whether its side won with a spring or an anti-spring.
    """

    seat: int
    user_id: int | None
    name: str
    computer: str | None
    role: Literal["landlord", "peasant"]
    points: int
    won: bool
    bombs: int
    spring: bool


@dataclass(frozen=True)
class HandOutcome:
    """A finished hand: the three seats, the winning side, and the hand's JSON."""

    winner: Literal["landlord", "peasants"]
    seats: tuple[SeatOutcome, ...]
    hand_json: str


def outcome_of(table: Table) -> HandOutcome:
    """The HandOutcome of ``table.hand`` (bombs counted with ``Combo.is_bomb``).

    Raises ValueError when the table has no finished hand with a result.
    """
    hand = table.hand
    if hand is None or hand.result is None or hand.landlord is None:
        raise ValueError("the table has no finished hand to settle")
    result = hand.result
    bombs = [0, 0, 0]
    for action in hand.history:
        if action.kind == "play" and action.combo is not None and action.combo.is_bomb:
            bombs[action.seat] += 1
    landlord_won = result.winner == "landlord"
    spring = result.spring or result.anti_spring
    seats = []
    for index, seat in enumerate(table.seats):
        is_landlord = index == hand.landlord
        won = is_landlord == landlord_won
        seats.append(SeatOutcome(
            seat=index, user_id=seat.user_id, name=seat.name, computer=seat.computer,
            role="landlord" if is_landlord else "peasant", points=result.points[index],
            won=won, bombs=bombs[index], spring=spring and won,
        ))  # fmt: skip
    return HandOutcome(winner=result.winner, seats=tuple(seats), hand_json=hand.model_dump_json())
