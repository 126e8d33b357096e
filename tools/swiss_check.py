"""Simulated Swiss tournaments and an independent check of their seatings (docs/RULES.md
§Tournaments, wish 1: no repeated pair whenever some seating avoids it), shared by
``tests/tournament/test_seating.py`` and ``benchmarks/swiss_repeats.py``.

The check does not use ``bot.features.tournaments.seating``'s search: for up to ``ENUMERATE``
members it lists every seating of the field; above, a plain depth-first search over
every seating that only prunes a partial seating already at the bound.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import combinations

from bot.features.tournaments.limits import MAX_ROUNDS
from bot.features.tournaments.scoring import standings
from bot.features.tournaments.seating import met_pairs, pair_tables, seat_round

ENUMERATE = 12
"""Fields up to this size are checked by listing every seating (15,400 at 11 or 12)."""


@dataclass(frozen=True)
class Played:
    """A finished table for ``standings``: its seats and each seat's points."""

    seats: tuple[int | None, int | None, int | None]
    points: tuple[int, int, int]


@dataclass
class Round:
    """One seated round of a simulation: its number, the members seated, the history
    before it, and the repeated pairs of our seating and the fewest possible."""

    round_no: int
    active: list[int]
    history: list[tuple[int | None, ...]]
    ours: int
    fewest: int | None = None


@dataclass
class Tournament:
    """A simulated tournament: its field size, seed and rounds (round 1 included)."""

    members: int
    seed: int
    rounds: list[Round] = field(default_factory=list)


def group_repeats(groups: Sequence[Sequence[int | None]], met: set[tuple[int, int]]) -> int:
    """Pairs of members seated together in ``groups`` who had met (``met``: smaller id
    first)."""
    return sum(1 for g in groups for a, b in combinations([u for u in g if u is not None], 2)
               if (min(a, b), max(a, b)) in met)


def every_seating(members: list[int]) -> list[list[tuple[int, ...]]]:
    """Every way to seat ``members`` by the computer-seat rule (groups of three, then
    groups of two)."""
    pairs = pair_tables(len(members))
    out: list[list[tuple[int, ...]]] = []

    def triples(left: list[int]) -> list[list[tuple[int, ...]]]:
        if not left:
            return [[]]
        head, rest = left[0], left[1:]
        result = []
        for i, j in combinations(range(len(rest)), 2):
            others = [u for k, u in enumerate(rest) if k not in (i, j)]
            result += [[(head, rest[i], rest[j]), *more] for more in triples(others)]
        return result

    for chosen in combinations(members, 2 * pairs):
        rest = [u for u in members if u not in chosen]
        if pairs == 0:
            pairings: list[list[tuple[int, ...]]] = [[]]
        elif pairs == 1:
            pairings = [[tuple(chosen)]]
        else:
            a, b, c, d = chosen
            pairings = [[(a, b), (c, d)], [(a, c), (b, d)], [(a, d), (b, c)]]
        for full in triples(rest):
            out += [full + p for p in pairings]
    return out


def fewest_repeats(members: list[int], met: set[tuple[int, int]], below: int) -> int:
    """The fewest repeated pairs of any seating of ``members``, or ``below`` when none
    has fewer than ``below`` (the search only proves that much)."""
    if len(members) <= ENUMERATE:
        return min(below, min(group_repeats(s, met) for s in every_seating(members)))
    best = [below]

    def cost(group: Sequence[int]) -> int:
        return sum(1 for a, b in combinations(group, 2) if (min(a, b), max(a, b)) in met)

    def go(left: list[int], pairs: int, spent: int) -> None:
        if spent >= best[0]:
            return
        if not left:
            best[0] = spent
            return
        head, rest = left[0], left[1:]
        if len(rest) >= 2 * pairs + 2:
            for i, j in combinations(range(len(rest)), 2):
                go([u for k, u in enumerate(rest) if k not in (i, j)], pairs,
                   spent + cost((head, rest[i], rest[j])))
        if pairs:
            for i in range(len(rest)):
                go(rest[:i] + rest[i + 1:], pairs - 1, spent + cost((head, rest[i])))

    go(list(members), pair_tables(len(members)), 0)
    return best[0]


def simulate(members: int, seed: int, rounds: int = MAX_ROUNDS,
             withdrawals: bool = True, check: bool = True) -> Tournament:
    """A tournament of ``members`` members and ``rounds`` rounds with random table
    results (each seat −12…+12 points) and, when ``withdrawals``, a member leaving after
    a round now and then (one in four rounds, while more than 3 are in). With ``check``,
    each later round whose seating repeats a pair gets the fewest possible."""
    rng = random.Random(seed)
    field_ = list(range(1, members + 1))
    active = list(field_)
    played: list[Played] = []
    history: list[tuple[int | None, ...]] = []
    out = Tournament(members, seed)
    for round_no in range(1, rounds + 1):
        order = [r.user_id for r in standings(field_, played)]
        tables = seat_round(round_no, active, order, history, seed)
        met = met_pairs(history)
        ours = group_repeats([t.seats for t in tables], met)
        seated = Round(round_no, list(active), list(history), ours)
        if check and round_no > 1 and ours > 0:
            seated.fewest = fewest_repeats(sorted(active), met, ours)
        out.rounds.append(seated)
        for t in tables:
            history.append(t.seats)
            played.append(Played(t.seats, (rng.randint(-12, 12), rng.randint(-12, 12),
                                           rng.randint(-12, 12))))
        if withdrawals and len(active) > 3 and rng.random() < 0.25:
            active.remove(rng.choice(active))
    return out
