"""Match points and standings of a tournament (docs/RULES.md §Tournaments).

At each finished table the three seats (computers too) are ranked by the points they
won there over the round's hands: 1st 3 match points, 2nd 1, 3rd 0; seats with equal
points share the match points of the places they cover, as exact fractions (two
first: (3 + 1) / 2 = 2 each; all three equal: 4/3 each). Only members are listed.
Standings order: match points, then points won, then Buchholz (the sum of the match
points of every member one sat with, once per table shared), then the earlier join.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Protocol, TypeVar

from bot.features.tournaments.seating import Seat

PLACE_POINTS = (3, 1, 0)
"""Match points of the 1st, 2nd and 3rd place at a table."""

K = TypeVar("K", bound=Hashable)


def table_match_points(points_won: Mapping[K, int]) -> dict[K, Fraction]:
    """The match points of the three seats of a finished table, from the points each
    won there (``points_won``: three entries, any keys, e.g. seat numbers), in the
    order given. Raises ValueError unless there are exactly three seats."""
    if len(points_won) != len(PLACE_POINTS):
        raise ValueError("a table has three seats")
    ordered = sorted(points_won, key=lambda key: -points_won[key])
    shares: dict[K, Fraction] = {}
    start = 0
    while start < len(ordered):
        end = start
        while end < len(ordered) and points_won[ordered[end]] == points_won[ordered[start]]:
            end += 1
        share = Fraction(sum(PLACE_POINTS[start:end]), end - start)
        for key in ordered[start:end]:
            shares[key] = share
        start = end
    return {key: shares[key] for key in points_won}


def seat_match_points(seats: Sequence[Seat], points: Sequence[int]) -> dict[int, Fraction]:
    """The members' match points at one finished table: ``seats`` (user ids, None for a
    computer) and the ``points`` each seat won, seat by seat. Computer seats are ranked
    but not listed. Raises ValueError for a table that is not three seats, or a member
    seated twice."""
    if len(seats) != 3 or len(points) != 3:
        raise ValueError("a table has three seats")
    members = [s for s in seats if s is not None]
    if len(set(members)) != len(members):
        raise ValueError("a member holds two seats")
    shares = table_match_points(dict(enumerate(points)))
    return {user: shares[seat] for seat, user in enumerate(seats) if user is not None}


class PlayedTable(Protocol):
    """A table of a tournament as the standings read it (``bot.values.TournamentTable``
    is one): its three ``seats`` and the ``points`` each seat won (None until it
    finished: not counted)."""

    @property
    def seats(self) -> Sequence[Seat]: ...

    @property
    def points(self) -> Sequence[int] | None: ...


@dataclass(frozen=True)
class StandingRow:
    """One member's line of the standings: ``place`` (1, 2, …; every place is
    distinct, the earlier join breaking the last tie: the order and the seating),
    ``match_points`` (exact), ``points`` won at the finished tables, ``buchholz`` (the
    sum of the match points of every member they sat with, once per table shared),
    ``tables`` finished, and ``shared``: the place shown, the best ``place`` of the
    members equal with this one on match points, points won and Buchholz, when there
    are such (they share it: 1, 1, 3; docs/RULES.md §Tournaments), else 0."""

    place: int
    user_id: int
    match_points: Fraction
    points: int
    buchholz: Fraction
    tables: int
    shared: int = 0

    @property
    def shown(self) -> int:
        """The place shown: ``shared`` when the member shares it, else ``place``."""
        return self.shared or self.place


def standings(entrants: Sequence[int], tables: Iterable[PlayedTable]) -> list[StandingRow]:
    """The standings (docs/RULES.md §Tournaments) of every member of ``entrants`` (all
    who entered, withdrawn and dropped too, in join order) over the finished
    ``tables``: match points, then points won, then Buchholz, all best first, then the
    earlier join (members equal on the first three share the place shown,
    ``StandingRow.shared``). Raises ValueError for a member at a table who is not an entrant, or an
    entrant listed twice."""
    join = {user: i for i, user in enumerate(entrants)}
    if len(join) != len(entrants):
        raise ValueError("an entrant is listed twice")
    match = {user: Fraction(0) for user in entrants}
    won = dict.fromkeys(entrants, 0)
    played = dict.fromkeys(entrants, 0)
    opponents: dict[int, list[int]] = {user: [] for user in entrants}
    for table in tables:
        if table.points is None:
            continue
        shares = seat_match_points(table.seats, table.points)
        for seat, user in enumerate(table.seats):
            if user is None:
                continue
            if user not in join:
                raise ValueError(f"member {user} sat at a table without entering")
            match[user] += shares[user]
            won[user] += table.points[seat]
            played[user] += 1
            opponents[user].extend(other for other in shares if other != user)
    buchholz = {user: sum((match[o] for o in opponents[user]), Fraction(0))
                for user in entrants}
    order = sorted(entrants, key=lambda u: (-match[u], -won[u], -buchholz[u], join[u]))
    score = {user: (match[user], won[user], buchholz[user]) for user in entrants}
    first: dict[tuple[Fraction, int, Fraction], int] = {}  # each score's best place
    for i, u in enumerate(order, start=1):
        first.setdefault(score[u], i)
    tied = Counter(score.values())
    return [StandingRow(place=i, user_id=u, match_points=match[u], points=won[u],
                        buchholz=buchholz[u], tables=played[u],
                        shared=first[score[u]] if tied[score[u]] > 1 else 0)
            for i, u in enumerate(order, start=1)]
