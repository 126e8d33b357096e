"""The rows a settlement writes from a ``bot.game.outcome.HandOutcome``: rating keys
and seats, and each seat's ``hand_players`` row.

Pure (no I/O), shared by every Repository backend. Spec: docs/RATINGS.md.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.game.outcome import HandOutcome, SeatOutcome
from bot.game.rating import RatedSeat, SkillRating, computer_key, member_key


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


PlayerRow = tuple[int, int | None, str, int, int | None, float | None, float | None, str | None]
"""A ``hand_players`` row after its hand id: seat, user id, role, points, total, μ, σ,
computer level (None for a member)."""


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
                seat.computer if seat.user_id is None else None,
            )
        )
    return rows
