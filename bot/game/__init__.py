"""Pure game flow (no discord, no I/O): a hand's state machine, the match ledger, tables.

Public API::

    from bot.game import GameError, Hand, Action, LastPlay, HandResult,
                          match_winners, Table, Seat, Event, CODES
"""

from bot.game.errors import CODES, GameError
from bot.game.hand import Hand
from bot.game.match import match_winners
from bot.game.models import Action, HandResult, LastPlay
from bot.game.seat import Event, Seat
from bot.game.table import Table

__all__ = [
    "CODES", "Action", "Event", "GameError", "Hand", "HandResult", "LastPlay", "Seat",
    "Table", "match_winners",
]
