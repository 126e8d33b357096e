"""Duplicate events: the same deals from the same seats for every entrant (docs/RULES.md
§Events).

Pure: which seat the member holds on each deal (``landlord_seat``: landlord and both
peasant seats in turn), the seed of a deal (the daily deal's HMAC of the server's
secret key, over the event and the deal's number), the member's private table of a
deal (the landlord at a fixed bid 3 with the kitty, no bidding; a peasant member teams
with a computer), and the duplicate score: on each deal an entrant's points minus the
field's mean on that deal, totals, and places with ties shared. No clock, no storage.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from bot.ai import Level
from bot.features.events.values import EventDeal
from bot.game.private import PRIVATE_BID, PRIVATE_CHANNEL, forgotten_mark, keyed_seed
from bot.game.seat import Event
from bot.game.table import Table
from bot.rules import RuleSet

EVENT_SEAT = 0
"""The member's seat at an event table (``Table.open`` seats the member there)."""
MAX_DEALS = 12
"""Most deals of an event (``/ddz event create deals:``)."""
LANDLORD_SEATS = (0, 2, 1)
"""The landlord's seat on deals 1, 2, 3 (then again): the member is the landlord, then
the peasant who plays right after the landlord (seat 0 after seat 2), then the
peasant who plays right before the landlord (seat 0 before seat 1)."""


def landlord_seat(deal: int) -> int:
    """The landlord's seat on deal ``deal`` (1-based) of any event: ``LANDLORD_SEATS`` in
    turn. The member is always seat 0, so deal 1 is played as the landlord, deal 2 as
    the peasant after the landlord, deal 3 as the peasant before. Raises ValueError for
    ``deal < 1``."""
    if deal < 1:
        raise ValueError("deals are numbered from 1")
    return LANDLORD_SEATS[(deal - 1) % len(LANDLORD_SEATS)]


def role_of(deal: int) -> str:
    """The member's role on ``deal``: ``"landlord"``, ``"peasant_after"`` (plays right
    after the landlord) or ``"peasant_before"`` (plays right before the landlord)."""
    return {0: "landlord", 2: "peasant_after", 1: "peasant_before"}[landlord_seat(deal)]


def event_seed(key: bytes, guild_id: int, event_id: str, deal: int) -> int:
    """The 63-bit seed of deal ``deal`` of event ``event_id``: the daily deal's HMAC
    (``bot.game.private.keyed_seed``) with the server's secret key over
    ``"<guild id>|event:<event id>:<deal>"``, so no day and no other event shares it and
    nobody can work a deal out from the source."""
    return keyed_seed(key, guild_id, f"event:{event_id}:{deal}")


def event_forgotten_mark(key: bytes, guild_id: int, event_id: str, user_id: int) -> int:
    """The stand-in kept for ``user_id``'s entry of event ``event_id`` after ``/ddz forget``
    (while the event is open and they began a deal of it): the daily deal's keyed mark
    (``bot.game.private.forgotten_mark``) over ``"event:<event id>"`` in place of a day.
    Always below 0, never a Discord id; without the server's key it leads back to nobody.
    It bars the member from entering that event again (they have seen its cards)."""
    return forgotten_mark(key, guild_id, f"event:{event_id}", user_id)


def event_label(event_id: str, deal: int) -> str:
    """Deal ``deal`` of event ``event_id`` as one label: ``"<event id>:<deal>"`` (how an
    event's table named its deal before ``EventDeal``, bot/game/table_upgrade.py)."""
    return f"{event_id}:{deal}"


def parse_label(label: str) -> tuple[str, int]:
    """``(event id, deal)`` of an ``event_label``. Raises ValueError."""
    event_id, _, deal = label.rpartition(":")
    if not event_id or not deal.isdigit():
        raise ValueError(f"not an event label: {label!r}")
    return event_id, int(deal)


def event_table(
    guild_id: int, user_id: int, name: str, locale: str | None, *, event_id: str, deal: int,
    seed: int, level: Level, rules: RuleSet, turn_seconds: float, now: float,
) -> tuple[Table, list[Event]]:
    """The member's private table of deal ``deal``, ready to play: the member in seat 0,
    computers of ``level`` in seats 1 and 2, the landlord (``landlord_seat(deal)``) at bid
    3 with the kitty, no bidding. Same ``seed`` and ``deal`` → the same cards in the same
    seats for every entrant. Returns the table and the events of the deal and the bid."""
    table = Table.open(guild_id, PRIVATE_CHANNEL, user_id, name, locale, computers=2, level=level,
                       rules=rules.as_classic(), turn_seconds_play=turn_seconds)
    EventDeal(event_id=event_id, deal=deal).mark(table)
    landlord = landlord_seat(deal)
    events = table.start(user_id, now, seed=seed, first_bidder=landlord)
    if landlord == EVENT_SEAT:
        events += table.bid(user_id, PRIVATE_BID, now)
    else:
        events += table.auto_act(PRIVATE_BID, now)  # the computer's fixed bid, not a choice
    return table, events


def member_points(table: Table) -> int:
    """The member's points on a finished event table (seat 0's change). Raises ValueError
    before the result."""
    if table.hand is None or table.hand.result is None:
        raise ValueError("no result")
    return table.hand.result.points[EVENT_SEAT]


# ----- duplicate scoring ------------------------------------------------------------------

def deal_scores(points: Mapping[int, int]) -> dict[int, Fraction]:
    """One deal's duplicate scores: each entrant's ``points`` minus the field's mean on
    that deal (exact fractions; they sum to 0). ``{1: 6, 2: -3, 3: 12}`` (mean 5) →
    ``{1: 1, 2: -8, 3: 7}``. Empty → empty."""
    if not points:
        return {}
    mean = Fraction(sum(points.values()), len(points))
    return {user: value - mean for user, value in points.items()}


@dataclass(frozen=True)
class Standing:
    """One entrant's line of an event's standings: ``place`` (shared by equal totals),
    ``total`` (sum of duplicate scores), ``points`` (raw points summed), ``played``
    (deals they played themselves; the rest are stand-in results)."""

    user_id: int
    place: int
    total: Fraction
    points: int
    played: int


def standings(results: Mapping[int, Mapping[int, int]], entrants: Sequence[int],
              played: Mapping[int, int] | None = None) -> list[Standing]:
    """The standings over ``results`` = {deal: {user: points}} for ``entrants``: each
    deal's duplicate scores (``deal_scores`` over the entrants with a result on it),
    summed per entrant, best first; equal totals share a place (1, 2, 2, 4). Ties in the
    order are by raw points, then by the order of ``entrants`` (who joined first,
    docs/RULES.md §Events; the place is the same).
    ``played``: deals each entrant played themselves (shown, not scored)."""
    totals = {user: Fraction(0) for user in entrants}
    raw = dict.fromkeys(entrants, 0)
    for per_user in results.values():
        field = {user: value for user, value in per_user.items() if user in totals}
        for user, score in deal_scores(field).items():
            totals[user] += score
            raw[user] += field[user]
    joined = {user: index for index, user in enumerate(entrants)}
    order = sorted(entrants, key=lambda u: (-totals[u], -raw[u], joined[u]))
    rows: list[Standing] = []
    for index, user in enumerate(order):
        place = rows[-1].place if rows and rows[-1].total == totals[user] else index + 1
        rows.append(Standing(user, place, totals[user], raw[user], (played or {}).get(user, 0)))
    return rows


def shown_score(value: Fraction, mark: str = ".") -> str:
    """A duplicate score as shown: signed, one decimal when not whole (``+7``, ``-8``,
    ``+1.5``, ``-0.3``, ``0``), rounded half away from zero; ``mark`` is the language's
    decimal separator (``","`` in Spanish: ``+1,5``)."""
    if value == 0:
        return "0"
    sign = "+" if value > 0 else "-"
    tenths = (abs(value) * 10 + Fraction(1, 2)).__floor__()
    whole, tenth = divmod(tenths, 10)
    text = f"{whole}" if tenth == 0 else f"{whole}{mark}{tenth}"
    return "0" if text == "0" else sign + text
