"""A member's private deal, what the features that deal one share (the daily deal, the
duplicate events, the endgame puzzles: docs/RULES.md §Daily deal, §Events, §Puzzles).

Pure: the day of a clock time in a time zone, a keyed seed (HMAC-SHA256 of the server's
secret key, its id and a label such as the day), the keyed mark kept through ``/ddz
forget``, the seed of a computer's move (the position only, so two members who make the
same moves get the same answers), the moves of a seat, the order of the standings and the
streaks. No clock, no storage: callers pass ``now`` and keys.
"""

from __future__ import annotations

import datetime as dt
import functools
import hashlib
import hmac
import math
import random
from collections.abc import Iterable, Sequence
from typing import Protocol, TypeVar
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from bot.game.table import Table

PRIVATE_SEAT = 0
"""The member's seat at a private table: always the landlord (docs/RULES.md §Daily deal)."""
PRIVATE_BID = 3
"""The member's bid at a private table: the hand's base score B."""
PRIVATE_CHANNEL = 0
"""The ``channel_id`` of a private table: it lives in no channel (no public message)."""


def zone(name: str | None) -> dt.tzinfo:
    """The time zone ``name`` (IANA, e.g. ``"Europe/Madrid"``), UTC for None.
    Raises ValueError for an unknown name."""
    if not name:
        return dt.UTC
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError) as error:
        raise ValueError(f"unknown time zone: {name}") from error


def valid_zone(name: str) -> bool:
    """Whether ``name`` is a time zone ``zone`` knows."""
    try:
        zone(name)
    except ValueError:
        return False
    return True


@functools.cache
def _zones_by_folded_name() -> dict[str, str]:
    return {name.casefold(): name for name in available_timezones()}


def canonical_zone(name: str) -> str:
    """The IANA spelling of the time zone ``name`` typed in any case, without the spaces
    around it (``"asia/shanghai "`` → ``"Asia/Shanghai"``), else ``name`` stripped (still
    unknown: ``zone`` refuses it)."""
    name = name.strip()
    if valid_zone(name):
        return name
    return _zones_by_folded_name().get(name.casefold(), name)


def day_of(now: float, tz: str | None = None) -> str:
    """The calendar day (``"YYYY-MM-DD"``) of clock time ``now`` (Unix seconds) in the
    time zone ``tz`` (None: UTC). Raises ValueError for an unknown zone."""
    return dt.datetime.fromtimestamp(now, zone(tz)).date().isoformat()


def day_before(day: str) -> str:
    """The calendar day before ``day`` (``"YYYY-MM-DD"``)."""
    return (dt.date.fromisoformat(day) - dt.timedelta(days=1)).isoformat()


def next_day_start(now: float, tz: str | None = None) -> float:
    """Clock time (Unix seconds) at which the day after ``day_of(now, tz)`` begins."""
    local = dt.datetime.fromtimestamp(now, zone(tz))
    midnight = dt.datetime.combine(local.date() + dt.timedelta(days=1), dt.time(), zone(tz))
    return midnight.timestamp()


def day_start(day: str, tz: str | None = None) -> float:
    """Clock time (Unix seconds) at which ``day`` (``"YYYY-MM-DD"``) begins in the time
    zone ``tz`` (None: UTC). Raises ValueError for an unknown zone."""
    midnight = dt.datetime.combine(dt.date.fromisoformat(day), dt.time(), zone(tz))
    return midnight.timestamp()


def keyed_seed(key: bytes, guild_id: int, day: str) -> int:
    """The 63-bit seed of the server's deal of ``day`` (a day, or another label): HMAC-SHA256
    keyed with the server's secret ``key`` over ``"<guild id>|<day>"``. The same for every
    member; without the key (kept in the database) nobody can work tomorrow's deal out."""
    digest = hmac.new(key, f"{guild_id}|{day}".encode(), hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def forgotten_mark(key: bytes, guild_id: int, day: str, user_id: int) -> int:
    """The stand-in kept for ``user_id``'s play of ``day`` after ``/ddz forget``: minus a
    62-bit HMAC-SHA256, keyed with the server's secret ``key``, of ``"forgotten|<guild
    id>|<day>|<user id>"`` (always below 0, so never a Discord id). It lets the once-a-day
    check refuse a second play of that day without the member's id, name or result;
    without the key it leads back to nobody, and it is dropped once the day is over."""
    text = f"forgotten|{guild_id}|{day}|{user_id}".encode()
    digest = hmac.new(key, text, hashlib.sha256).digest()
    return -(int.from_bytes(digest[:8], "big") >> 2) - 1


def move_rng(table: Table) -> random.Random:
    """The computers' randomness at a private table: seeded by the position alone (the
    deal's seed and every action so far, cards by id), never by time or by who plays.
    Raises ValueError without a hand."""
    hand = table.hand
    if hand is None:
        raise ValueError("no hand")
    text = [str(hand.seed)]
    for action in hand.history:
        cards = ",".join(str(card.index) for card in action.cards)
        text.append(f"{action.kind}{action.seat}:{action.amount}:{cards}")
    digest = hashlib.sha256("|".join(text).encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def moves_of(table: Table, seat: int = PRIVATE_SEAT) -> int:
    """The plays ``seat`` made in the hand (passes and bids are not moves): the
    standings' tie-break, fewer first. Raises ValueError without a hand."""
    if table.hand is None:
        raise ValueError("no hand")
    return sum(1 for action in table.hand.history if action.kind == "play" and action.seat == seat)


class Ranked(Protocol):
    """What the standings order: points, moves, the finish time (clock seconds)."""

    @property
    def points(self) -> int: ...

    @property
    def moves(self) -> int: ...

    @property
    def finished_at(self) -> float | None: ...


R = TypeVar("R", bound=Ranked)


def standing_order(rows: Iterable[R]) -> list[R]:
    """Best first: more points, then fewer moves, then the earlier finish (unfinished
    last)."""
    return sorted(rows, key=lambda r: (-r.points, r.moves,
                                       math.inf if r.finished_at is None else r.finished_at))


def streaks(won_days: Sequence[str], today: str, *, played_today: bool = False
            ) -> tuple[int, int]:
    """(current, best) runs of consecutive days with a win, from the days the member
    won (``"YYYY-MM-DD"``, any order), as of ``today`` (later days left out). The
    current run ends today, or yesterday while today's deal is still to play (so a
    streak is not lost before the day is over): ``played_today`` and no win today
    ends it."""
    last = dt.date.fromisoformat(today)
    days = sorted({d for d in map(dt.date.fromisoformat, won_days) if d <= last})
    best = run = 0
    previous: dt.date | None = None
    for day in days:
        run = run + 1 if previous is not None and day - previous == dt.timedelta(days=1) else 1
        best = max(best, run)
        previous = day
    ends = (0,) if played_today else (0, 1)
    current = run if previous is not None and (last - previous).days in ends else 0
    return current, best
