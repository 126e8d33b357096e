"""Turn a finished table into the plain facts a settlement records.

Pure (no I/O), shared by every Repository backend. Reads ``table.seats``,
``table.hand.landlord``, ``table.hand.result`` and ``table.hand.history``
(docs/ARCHITECTURE.md §Layers). Spec: docs/RULES.md §Scoring, §Match.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from bot.game.rating import RatedSeat, SkillRating, computer_key, member_key
from bot.rules import Card, Rank, parse_cards


@dataclass(frozen=True)
class SeatOutcome:
    """One seat's facts for one finished hand (``computer``: its level, None for a member)."""

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


def _cards_of(entry: Any) -> list[Card]:
    cards = getattr(entry, "cards", None)
    if cards is None and getattr(entry, "combo", None) is not None:
        cards = entry.combo.cards
    if cards is None:
        return []
    if isinstance(cards, str):
        return parse_cards(cards)
    return list(cards)


def is_bomb_play(cards: Iterable[Card]) -> bool:
    """Whether a played set is a bomb (four of a rank) or the rocket (both jokers).

    docs/RULES.md §Combinations: these are the only 4-of-a-rank / 2-joker plays.
    """
    cards = list(cards)
    if len(cards) == 2:
        return {c.rank for c in cards} == {Rank.BLACK_JOKER, Rank.RED_JOKER}
    return len(cards) == 4 and len({c.rank for c in cards}) == 1


def bombs_by_seat(history: Iterable[Any]) -> list[int]:
    """Bombs and rockets played by seats 0, 1, 2 in a hand's history."""
    counts = [0, 0, 0]
    for entry in history:
        if getattr(entry, "kind", None) == "play" and is_bomb_play(_cards_of(entry)):
            counts[int(entry.seat)] += 1
    return counts


def outcome_of(table: Any) -> HandOutcome:
    """Extract the HandOutcome of ``table.hand``.

    Raises ValueError when the table has no finished hand with a result.
    """
    hand = getattr(table, "hand", None)
    result = getattr(hand, "result", None)
    if hand is None or result is None or hand.landlord is None:
        raise ValueError("the table has no finished hand to settle")
    bombs = bombs_by_seat(hand.history)
    landlord_won = result.winner == "landlord"
    spring = bool(result.spring or result.anti_spring)
    seats = []
    for index, seat in enumerate(table.seats):
        is_landlord = index == hand.landlord
        won = is_landlord == landlord_won
        seats.append(
            SeatOutcome(
                seat=index,
                user_id=seat.user_id,
                name=seat.name,
                computer=getattr(seat, "computer", None),
                role="landlord" if is_landlord else "peasant",
                points=int(result.points[index]),
                won=won,
                bombs=bombs[index],
                spring=spring and won,
            )
        )
    return HandOutcome(winner=result.winner, seats=tuple(seats), hand_json=hand.model_dump_json())


def rating_key(seat: SeatOutcome) -> str | None:
    """The rating key of a seat: the member's, else its computer level's (docs/RATINGS.md)."""
    if seat.user_id is not None:
        return member_key(seat.user_id)
    if seat.computer is not None:
        return computer_key(seat.computer)
    return None


def rated_seats(outcome: HandOutcome) -> list[RatedSeat] | None:
    """The hand's three seats for ``bot.game.rating.rate_hand``; None if one has no key."""
    keys = [rating_key(seat) for seat in outcome.seats]
    if len(keys) != 3 or None in keys:
        return None
    return [
        RatedSeat(key=str(key), landlord=seat.role == "landlord")
        for key, seat in zip(keys, outcome.seats, strict=True)
    ]


PlayerRow = tuple[int, int | None, str, int, int | None, float | None, float | None]
"""A ``hand_players`` row after its hand id: seat, user id, role, points, total, μ, σ."""


def player_rows(
    outcome: HandOutcome,
    totals: Sequence[int | None],
    ratings: Mapping[str, SkillRating],
) -> list[PlayerRow]:
    """Each seat's row for ``hand_players``: its points, match total after the hand
    (``totals`` by seat, None for computers) and rating after it (None if unrated)."""
    rows: list[PlayerRow] = []
    for seat, total in zip(outcome.seats, totals, strict=True):
        rating = ratings.get(rating_key(seat) or "")
        rows.append(
            (
                seat.seat,
                seat.user_id,
                seat.role,
                seat.points,
                total,
                rating.mu if rating else None,
                rating.sigma if rating else None,
            )
        )
    return rows
