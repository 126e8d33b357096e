"""Who sits where in each round of a tournament (docs/RULES.md §Tournaments).

Round 1 is a seeded shuffle: ``random.Random(seed).shuffle`` of the entrants in the
order they joined, then tables of three in that order (the seed is shown, so anyone can
redo the draw). Later rounds are **Swiss**: the members sorted by standing, tables made
of neighbours. When the field is not a multiple of three, computer seats fill the gap:
``n % 3 == 2``: one table of two members and a computer; ``n % 3 == 1``: two such tables
(a member is never alone with two computers, except a field of one). The choice of a
later round's seating follows three wishes, each before the next:

1. no two members who already sat together at a table sit together again;
2. computer seats go to the members who had the fewest computer-seat tables so far
   (no member gets a second one before everyone has had one), the lowest in the
   standings first;
3. tables made of neighbours in the standings, the best first.

Wish 1 is exact for every field: the fewest repeated pairs are found by a complete
search (``_Seater``), never a budgeted one; ``benchmarks/swiss_repeats.py`` checks 1,000
simulated tournaments against every seating. Wish 2 is exact up to ``EXACT_FIELD``
members. Deterministic: the same entrants, standings, history and seed give the same
tables.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations

from bot.features.tournaments.limits import MAX_ENTRANTS

Seat = int | None
"""A seat of a tournament table: a member's user id, or None for a computer."""

WINDOW = 6
"""Members beyond the fairest choice of computer-seat members whose choices a Swiss round
tries first (in order of fairness); only when none of those reaches the fewest repeated
pairs does it try every member (fields of up to ``EXACT_FIELD``) or take the first
seating that does (larger fields)."""
EXACT_FIELD = 30
"""The largest field whose computer seats are chosen among every member when the fairest
``WINDOW`` cannot keep the pairs new (``C(30, 4)`` = 27,405 choices at most)."""


@dataclass(frozen=True)
class TableSeats:
    """One table of a round: ``table_no`` (1, 2, … within the round) and its three
    ``seats`` (seat 0, 1, 2 of the game table: user ids, None for a computer). Members
    sit in standing order (round 1: draw order), computers last."""

    table_no: int
    seats: tuple[Seat, Seat, Seat]

    @property
    def members(self) -> tuple[int, ...]:
        """The members' user ids, in seat order."""
        return tuple(s for s in self.seats if s is not None)

    @property
    def computers(self) -> int:
        """How many computer seats the table has (0, 1 or 2)."""
        return sum(1 for s in self.seats if s is None)


def _pair_key(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)


def met_pairs(history: Iterable[Sequence[Seat]]) -> set[tuple[int, int]]:
    """Every pair of members (smaller id first) who shared a table in ``history``."""
    met: set[tuple[int, int]] = set()
    for seats in history:
        members = [s for s in seats if s is not None]
        for a, b in combinations(members, 2):
            met.add(_pair_key(a, b))
    return met


def computer_seat_counts(history: Iterable[Sequence[Seat]]) -> dict[int, int]:
    """How many tables with a computer seat each member of ``history`` sat at (members
    who never had one are absent)."""
    counts: dict[int, int] = {}
    for seats in history:
        if any(s is None for s in seats):
            for s in seats:
                if s is not None:
                    counts[s] = counts.get(s, 0) + 1
    return counts


def pair_tables(n: int) -> int:
    """How many tables of two members and a computer a field of ``n`` members has:
    0 when ``n % 3 == 0``, 1 when ``n % 3 == 2``, 2 when ``n % 3 == 1`` (a field of one
    sits alone with two computers: 0 here, see ``seat_round``)."""
    return {0: 0, 1: 2, 2: 1}[n % 3] if n > 1 else 0


def seat_round(round_no: int, entrants: Sequence[int], standings: Sequence[int],
               history: Sequence[Sequence[Seat]], seed: int) -> list[TableSeats]:
    """The tables of round ``round_no`` (docs/RULES.md §Tournaments).

    ``entrants``: the members to seat (still in: not withdrawn or dropped), in the
    order they joined; ``standings``: user ids, best first (round 1 ignores it; an
    entrant missing from it ranks after those in it, in join order); ``history``: the
    seats of every table of the earlier rounds; ``seed``: the tournament's seed (round
    1's draw). Full tables come first, then the computer-seat tables. An empty field
    gives no table; a field of one sits with two computers.

    Raises ValueError for ``round_no < 1``, a member listed twice or more than
    ``MAX_ENTRANTS`` members.
    """
    if round_no < 1:
        raise ValueError("rounds are numbered from 1")
    if len(set(entrants)) != len(entrants):
        raise ValueError("a member is listed twice")
    if len(entrants) > MAX_ENTRANTS:
        raise ValueError(f"at most {MAX_ENTRANTS} members play a tournament")
    n = len(entrants)
    if n == 0:
        return []
    if n == 1:
        return [TableSeats(1, (entrants[0], None, None))]
    pairs = pair_tables(n)
    if round_no == 1:
        order = list(entrants)
        random.Random(seed).shuffle(order)
        full = n - 2 * pairs
        groups = [tuple(order[i:i + 3]) for i in range(0, full, 3)]
        groups += [tuple(order[i:i + 2]) for i in range(full, n, 2)]
    else:
        groups = _swiss(_ranked(entrants, standings), pairs, met_pairs(history),
                        computer_seat_counts(history))
    tables: list[TableSeats] = []
    for number, group in enumerate(groups, start=1):
        seats = (*group, None) if len(group) == 2 else group
        tables.append(TableSeats(number, (seats[0], seats[1], seats[2])))
    return tables


def _ranked(entrants: Sequence[int], standings: Sequence[int]) -> list[int]:
    """``entrants`` in standing order; those missing from ``standings`` last, by join."""
    place = {user: i for i, user in enumerate(standings)}
    join = {user: i for i, user in enumerate(entrants)}
    return sorted(entrants, key=lambda u: (place.get(u, len(place)), join[u]))


def _repeats(group: Sequence[int], met: set[tuple[int, int]]) -> int:
    return sum(1 for a, b in combinations(group, 2) if _pair_key(a, b) in met)


def _swiss(ranked: list[int], pairs: int, met: set[tuple[int, int]],
           counts: Mapping[int, int]) -> list[tuple[int, ...]]:
    """The groups of a Swiss round (the three wishes of the module's docstring, in
    order): full tables first (best first), then the pairs of the computer-seat
    tables.

    Wish 1 is exact: ``_Seater`` finds the fewest repeated pairs any seating of the field
    has (a search over the members left, which remembers the sets of members it proved
    cannot be seated within a number of repeats, so it never searches one twice). Then
    the choices of computer-seat members, fairest first (wish 2), each split into tables
    of two (neighbours first), are tried until one leaves tables of three with no more
    than that many repeats; those tables are the first such in neighbour order (wish 3)."""
    rank = {user: i for i, user in enumerate(ranked)}
    seater = _Seater(ranked, met)
    fewest = seater.fewest(pairs)
    everyone = (1 << len(ranked)) - 1
    if pairs == 0:
        found = seater.seat(everyone, 0, fewest)
        assert found is not None  # fewest is reachable by definition
        return found
    # The fairest order for computer seats: fewest so far, then lowest in the standings.
    fair = sorted(ranked, key=lambda u: (counts.get(u, 0), -rank[u]))
    place = {user: i for i, user in enumerate(fair)}
    size = 2 * pairs

    def unfairness(chosen: Sequence[int]) -> int:
        # chosen members who had more computer tables than someone left out
        left_out = min((counts.get(u, 0) for u in ranked if u not in chosen), default=0)
        return sum(1 for u in chosen if counts.get(u, 0) > left_out)

    def in_order(members: Sequence[int]) -> list[tuple[int, ...]]:
        return sorted(combinations(members, size),
                      key=lambda c: (unfairness(c), sum(place[u] for u in c)))

    window = in_order(fair[:min(len(fair), size + WINDOW)])
    tried = set(window)
    wider = (c for c in in_order(fair) if c not in tried) if len(ranked) <= EXACT_FIELD else ()
    for chosen in (*window, *wider):
        mask = everyone
        for user in chosen:
            mask &= ~(1 << rank[user])
        for pairing in _pairings(sorted(chosen, key=rank.__getitem__)):
            pair_repeats = sum(_repeats(p, met) for p in pairing)
            if pair_repeats > fewest:
                continue
            tables = seater.seat(mask, 0, fewest - pair_repeats)
            if tables is not None:
                return [*tables, *pairing]
    # A field larger than EXACT_FIELD whose fairest choices all repeat more: the first
    # seating with the fewest repeats, whoever it gives the computer seats to.
    found = seater.seat(everyone, pairs, fewest)
    assert found is not None
    full = [g for g in found if len(g) == 3]
    return [*full, *(g for g in found if len(g) == 2)]


def _pairings(four_or_two: list[int]) -> list[list[tuple[int, ...]]]:
    """The ways to split the computer-seat members (standing order) into tables of two,
    neighbours first."""
    if len(four_or_two) == 2:
        return [[(four_or_two[0], four_or_two[1])]]
    a, b, c, d = four_or_two
    return [[(a, b), (c, d)], [(a, c), (b, d)], [(a, d), (b, c)]]


class _Seater:
    """Seatings of sets of ``ranked`` members (bit ``i`` of a mask: ``ranked[i]``) into
    tables of three and ``pairs`` tables of two, each table the best member left with
    the nearest below them that fit (neighbours first), within a number of repeated
    pairs. Exact: it remembers, for each set of members and tables of two left, the most
    repeats it proved too few, so no set is searched twice for the same bound (a field
    of n members has fewer than 3 × 2^n such sets)."""

    def __init__(self, ranked: Sequence[int], met: set[tuple[int, int]]) -> None:
        self.ranked = list(ranked)
        count = len(self.ranked)
        self.clash = [0] * count
        for i, a in enumerate(self.ranked):
            for j, b in enumerate(self.ranked):
                if i != j and _pair_key(a, b) in met:
                    self.clash[i] |= 1 << j
        self.too_few: dict[tuple[int, int], int] = {}

    def fewest(self, pairs: int) -> int:
        """The fewest repeated pairs of any seating of the whole field with ``pairs``
        tables of two."""
        everyone = (1 << len(self.ranked)) - 1
        limit = 0
        while self._search(everyone, pairs, limit) is None:
            limit += 1
        return limit

    def seat(self, mask: int, pairs: int, limit: int) -> list[tuple[int, ...]] | None:
        """The first seating (neighbour order) of the members of ``mask`` with ``pairs``
        tables of two and at most ``limit`` repeated pairs, as groups of user ids (tables
        of three and two in the order made), or None when there is none."""
        found = self._search(mask, pairs, limit)
        if found is None:
            return None
        return [tuple(self.ranked[i] for i in group) for group in found]

    def _search(self, mask: int, pairs: int, limit: int) -> list[tuple[int, ...]] | None:
        if mask == 0:
            return []
        key = (mask, pairs)
        if self.too_few.get(key, -1) >= limit:
            return None
        if limit == 0 and not self._could_be_new(mask, pairs):
            self.too_few[key] = 0
            return None
        clash = self.clash
        head = (mask & -mask).bit_length() - 1
        rest = mask & ~(1 << head)
        others = [i for i in range(head + 1, len(self.ranked)) if rest >> i & 1]
        mine = clash[head]
        if rest.bit_count() >= 2 * pairs + 2:  # room for a table of three
            for j in range(1, len(others)):
                b = others[j]
                cost_b = mine >> b & 1
                for i in range(j):
                    a = others[i]
                    cost = cost_b + (mine >> a & 1) + (clash[a] >> b & 1)
                    if cost > limit:
                        continue
                    below = self._search(rest & ~(1 << a) & ~(1 << b), pairs, limit - cost)
                    if below is not None:
                        return [(head, a, b), *below]
        if pairs:
            for a in others:
                cost = mine >> a & 1
                if cost > limit:
                    continue
                below = self._search(rest & ~(1 << a), pairs - 1, limit - cost)
                if below is not None:
                    return [(head, a), *below]
        self.too_few[key] = limit
        return None

    def _could_be_new(self, mask: int, pairs: int) -> bool:
        """False when some member of ``mask`` has met too many of the others to sit at
        any table of them without a repeat (two new partners for a table of three, one
        for a table of two)."""
        need = 1 if pairs else 2
        rest = mask
        while rest:
            low = rest & -rest
            i = low.bit_length() - 1
            rest ^= low
            if (mask & ~self.clash[i] & ~low).bit_count() < need:
                return False
        return True
