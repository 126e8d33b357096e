"""The ping wing's pure part: the table it deals."""

from __future__ import annotations

from bot.game.seat import Event, Seat, computer_seat
from bot.game.table import Table

KIND = "ping"
"""``Table.kind`` of a ping table."""


def ping_table(guild_id: int, channel_id: int, user_id: int, name: str, now: float, *,
               seed: int) -> tuple[Table, list[Event]]:
    """A ping table in ``channel_id``: the member in seat 0, two easy computers, its first
    hand dealt (``seed``); the events of its opening."""
    table = Table(guild_id=guild_id, channel_id=channel_id, starter_id=user_id,
                  computer_level="easy", kind=KIND)
    table.seats[0] = Seat(user_id=user_id, name=name)
    table.seats[1], table.seats[2] = computer_seat(1, "easy"), computer_seat(2, "easy")
    return table, [Event(kind="opened", seat=0), *table.deal_next(now, seed=seed)]
