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

Deterministic: the same entrants, standings, history and seed give the same tables.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations

from bot.tournament.limits import MAX_ENTRANTS

Seat = int | None
"""A seat of a tournament table: a member's user id, or None for a computer."""

WINDOW = 6
"""Members beyond the fairest choice of computer-seat members that a Swiss round also
considers for those seats, when the fairest choice cannot avoid a repeated pair."""
NODE_BUDGET = 4000
"""Tables tried per choice of computer-seat members when looking for a seating without
a repeated pair (the search stops at the first such seating; the budget bounds the
rare fields where none exists)."""
TOTAL_BUDGET = 50_000
"""Tables tried at most for one round, over every choice."""


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
    tables."""
    rank = {user: i for i, user in enumerate(ranked)}
    if pairs == 0:
        return _full_tables(ranked, met, None, NODE_BUDGET * 4, [0])[1]
    # The fairest order for computer seats: fewest so far, then lowest in the standings.
    fair = sorted(ranked, key=lambda u: (counts.get(u, 0), -rank[u]))
    size = 2 * pairs
    window = fair[:min(len(fair), size + WINDOW)]

    def unfairness(chosen: Sequence[int]) -> int:
        # chosen members who had more computer tables than someone left out
        left_out = min((counts.get(u, 0) for u in ranked if u not in chosen), default=0)
        return sum(1 for u in chosen if counts.get(u, 0) > left_out)

    options = sorted(combinations(window, size),
                     key=lambda c: (unfairness(c), sum(fair.index(u) for u in c)))
    best: tuple[int, int, list[tuple[int, ...]]] | None = None
    spent = [0]
    for chosen in options:
        cost = unfairness(chosen)
        rest = [u for u in ranked if u not in chosen]
        for pairing in _pairings(sorted(chosen, key=rank.__getitem__)):
            pair_repeats = sum(_repeats(p, met) for p in pairing)
            bound = best[0] - pair_repeats if best is not None else None
            if bound is not None and bound <= 0:
                continue
            budget = min(NODE_BUDGET, TOTAL_BUDGET - spent[0])
            if budget <= 0 and best is not None:
                return best[2]
            found, tables = _full_tables(rest, met, bound, max(budget, 1), spent)
            if found is None:
                continue
            total = found + pair_repeats
            if best is None or (total, cost) < (best[0], best[1]):
                best = (total, cost, [*tables, *pairing])
            if total == 0:
                return best[2]
    assert best is not None  # the first option always completes a seating
    return best[2]


def _pairings(four_or_two: list[int]) -> list[list[tuple[int, ...]]]:
    """The ways to split the computer-seat members (standing order) into tables of two,
    neighbours first."""
    if len(four_or_two) == 2:
        return [[(four_or_two[0], four_or_two[1])]]
    a, b, c, d = four_or_two
    return [[(a, b), (c, d)], [(a, c), (b, d)], [(a, d), (b, c)]]


def _full_tables(ranked: list[int], met: set[tuple[int, int]], bound: int | None,
                 budget: int, spent: list[int]) -> tuple[int | None, list[tuple[int, ...]]]:
    """Tables of three for ``ranked`` (a multiple of three, best first), each made of
    the best member left and the two nearest below them that keep the fewest repeated
    pairs (a depth-first search, neighbours tried first). Returns (repeated pairs,
    tables) of the best seating found with fewer than ``bound`` repeats (None: no
    bound), or (None, []) when none was found within ``budget`` tables tried
    (``spent[0]`` counts them)."""
    best_repeats: list[int | None] = [bound]
    best_tables: list[list[tuple[int, ...]]] = [[]]
    found = [False]
    tried = [0]

    def go(left: list[int], acc: list[tuple[int, ...]], repeats: int) -> bool:
        """Search below ``acc``; True when the search must stop (a perfect seating or
        the budget spent)."""
        limit = best_repeats[0]
        if limit is not None and repeats >= limit:
            return False
        if not left:
            best_repeats[0] = repeats
            best_tables[0] = list(acc)
            found[0] = True
            return repeats == 0
        if tried[0] >= budget and found[0]:
            return True
        head, others = left[0], left[1:]
        for j in range(1, len(others)):
            for i in range(j):
                group = (head, others[i], others[j])
                tried[0] += 1
                spent[0] += 1
                rest = others[:i] + others[i + 1:j] + others[j + 1:]
                acc.append(group)
                stop = go(rest, acc, repeats + _repeats(group, met))
                acc.pop()
                if stop:
                    return True
                if tried[0] >= budget and (found[0] or limit is not None):
                    return True
        return False

    go(list(ranked), [], 0)
    if not found[0]:
        return None, []
    repeats = best_repeats[0]
    assert repeats is not None
    if repeats > 0:
        tables = _repair(best_tables[0], met, {user: i for i, user in enumerate(ranked)})
        return sum(_repeats(t, met) for t in tables), tables
    return repeats, best_tables[0]


def _repair(tables: list[tuple[int, ...]], met: set[tuple[int, int]],
            rank: Mapping[int, int]) -> list[tuple[int, ...]]:
    """``tables`` with members swapped between two tables (the nearest tables first)
    while a swap lowers the repeated pairs: a big field whose search ran out of budget
    near its end (where a choice made at the top forced a repeat) mends it this way.
    Members stay in standing order within a table, tables by their best member."""
    groups = [list(t) for t in tables]

    def improve() -> bool:
        for i, mine in enumerate(groups):
            if _repeats(mine, met) == 0:
                continue
            for j in sorted(range(len(groups)), key=lambda k: (abs(k - i), k)):
                theirs = groups[j]
                if j == i:
                    continue
                before = _repeats(mine, met) + _repeats(theirs, met)
                for a, b in ((a, b) for a in range(3) for b in range(3)):
                    new_mine = [*mine[:a], theirs[b], *mine[a + 1:]]
                    new_theirs = [*theirs[:b], mine[a], *theirs[b + 1:]]
                    if _repeats(new_mine, met) + _repeats(new_theirs, met) < before:
                        groups[i], groups[j] = new_mine, new_theirs
                        return True
        return False

    while improve():
        pass
    ordered = [tuple(sorted(g, key=rank.__getitem__)) for g in groups]
    return sorted(ordered, key=lambda g: rank[g[0]])
