"""The tournaments' pure rules at the game table (docs/RULES.md §Tournaments): what a
withdrawn or dropped member's seat becomes. No clock, no storage: the service applies it
under the table's lock (``TableService.act``)."""

from __future__ import annotations

from bot.game.errors import GameError
from bot.game.seat import Event, computer_seat
from bot.game.table import Table


def hand_over(table: Table, user_id: int, *, computer: bool) -> list[Event]:
    """A tournament member withdrawn (``computer`` False: their seat plays on auto-play at
    its pace, still theirs) or dropped (True: a computer of the table's ``computer_level``
    takes the seat at once). Nobody's buttons go stale. Raises GameError: table_closed,
    not_seated."""
    if table.phase == "closed":
        raise GameError("table_closed")
    index = table.seat_of(user_id)
    if index is None:
        raise GameError("not_seated")
    if computer:
        table.seats[index] = computer_seat(index, table.computer_level)
        return table.changed([Event(kind="computer_added", seat=index,
                                    params={"level": table.computer_level})], moved=False)
    seat = table.seats[index]
    seat.autoplay, seat.away = True, True
    return table.changed([Event(kind="left", seat=index, params={"during_hand": 1})],
                         moved=False)
