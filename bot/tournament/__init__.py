"""Tournaments: Swiss rounds at tables of three (docs/RULES.md §Tournaments).

Pure: who sits where each round (``seat_round``: round 1 by a seeded shuffle, later
rounds by the Swiss rule), the match points of a finished table
(``table_match_points``) and the standings (``standings``). No clock, storage, Discord
or concurrency; the service (bot/service) stores and plays what these decide.
"""

from __future__ import annotations

from bot.tournament.limits import (
    DEFAULT_HANDS,
    MAX_ENTRANTS,
    MAX_HANDS,
    MAX_ROUNDS,
    MAX_TABLES,
    MIN_ACTIVE,
    MIN_ENTRANTS,
)
from bot.tournament.scoring import (
    PLACE_POINTS,
    PlayedTable,
    StandingRow,
    seat_match_points,
    standings,
    table_match_points,
)
from bot.tournament.seating import Seat, TableSeats, computer_seat_counts, seat_round

__all__ = [
    "DEFAULT_HANDS",
    "MAX_ENTRANTS",
    "MAX_HANDS",
    "MAX_ROUNDS",
    "MAX_TABLES",
    "MIN_ACTIVE",
    "MIN_ENTRANTS",
    "PLACE_POINTS",
    "PlayedTable",
    "Seat",
    "StandingRow",
    "TableSeats",
    "computer_seat_counts",
    "seat_match_points",
    "seat_round",
    "standings",
    "table_match_points",
]
