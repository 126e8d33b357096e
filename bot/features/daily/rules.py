"""The daily deal's pure part: one deal per server per calendar day (docs/RULES.md §Daily
deal): the day's seed and the member's private table (landlord at bid 3 with the kitty, two
computers). What every private deal shares (days, keyed seeds and marks, the computers'
seeded moves, the standings' order, streaks) is the core's, ``bot.game.private``.
No clock, no storage: callers pass ``now`` and keys.
"""

from __future__ import annotations

from bot.ai import Level
from bot.features.daily.values import DailyTable
from bot.game.private import PRIVATE_BID, PRIVATE_CHANNEL, PRIVATE_SEAT, keyed_seed
from bot.game.seat import Event
from bot.game.table import Table
from bot.rules import RuleSet

DAILY_SEAT = PRIVATE_SEAT
"""The member's seat at a daily table: always the landlord (docs/RULES.md §Daily deal)."""
DAILY_BID = PRIVATE_BID
"""The member's bid at a daily table: the hand's base score B."""
DAILY_CHANNEL = PRIVATE_CHANNEL
"""The ``channel_id`` of a daily table: it lives in no channel (private, no public message)."""


def daily_seed(key: bytes, guild_id: int, day: str) -> int:
    """The 63-bit seed of the server's deal on ``day`` (``bot.game.private.keyed_seed``):
    the same for every member; without the key nobody can work tomorrow's deal out."""
    return keyed_seed(key, guild_id, day)


def table_day(table: Table) -> str | None:
    """The day (``"YYYY-MM-DD"``) of a daily table's deal, None at a table of another
    kind (``DailyTable``)."""
    payload = DailyTable.of(table)
    return None if payload is None else payload.day


def daily_table(
    guild_id: int, user_id: int, name: str, locale: str | None, *, day: str, seed: int,
    level: Level, rules: RuleSet, turn_seconds: float, now: float,
) -> tuple[Table, list[Event]]:
    """The member's private table for the day's deal, ready to play: the member in seat 0
    has bid 3 and holds the kitty (20 cards); seats 1 and 2 are computers of ``level``;
    the member leads. Same ``seed`` → same cards for everyone. Returns the table and
    the events of the deal and the bid."""
    table = Table.open(guild_id, DAILY_CHANNEL, user_id, name, locale, computers=2, level=level,
                       rules=rules.as_classic(), turn_seconds_play=turn_seconds)
    DailyTable(day=day).mark(table)
    events = table.start(user_id, now, seed=seed, first_bidder=DAILY_SEAT)
    events += table.bid(user_id, DAILY_BID, now)
    return table, events


