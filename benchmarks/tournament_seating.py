"""Seating a tournament's rounds: ``python -m benchmarks.tournament_seating [--trials N]``.

For fields of 4 to 90 members (``bot.features.tournaments.limits.MAX_ENTRANTS``), ``N`` seeded
tournaments of 9 rounds each (``MAX_ROUNDS``), random table results (each seat
−12…+12 points): the time of each ``seat_round`` call (median and max ms, per field
size) and the repeated pairs it had to seat (0 whenever the search found a seating
without one; a field too small for 9 rounds of new pairs must repeat some). Bounded:
``--trials`` (default 3) and ``--fields`` (default 4 7 8 13 30 61 88 89 90).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from itertools import combinations

from bot.features.tournaments.limits import MAX_ROUNDS
from bot.features.tournaments.scoring import standings
from bot.features.tournaments.seating import seat_round


class Played:
    def __init__(self, seats: tuple[int | None, int | None, int | None],
                 points: tuple[int, int, int]) -> None:
        self.seats = seats
        self.points = points


def run(field: int, trials: int) -> tuple[list[float], int, int]:
    """(ms per seat_round call, repeated pairs seated, rounds seated)."""
    times: list[float] = []
    repeats = rounds = 0
    for trial in range(trials):
        rng = random.Random(trial * 1000 + field)
        members = list(range(1, field + 1))
        played: list[Played] = []
        met: set[tuple[int, int]] = set()
        for round_no in range(1, MAX_ROUNDS + 1):
            order = [r.user_id for r in standings(members, played)]
            start = time.perf_counter()
            tables = seat_round(round_no, members, order, [p.seats for p in played], trial)
            times.append((time.perf_counter() - start) * 1000)
            rounds += 1
            for table in tables:
                pairs = {(min(a, b), max(a, b)) for a, b in combinations(table.members, 2)}
                repeats += len(pairs & met)
                met |= pairs
                played.append(Played(table.seats, (rng.randint(-12, 12), rng.randint(-12, 12),
                                                   rng.randint(-12, 12))))
    return times, repeats, rounds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=3)
    parser.add_argument("--fields", type=int, nargs="*",
                        default=[4, 7, 8, 13, 30, 61, 88, 89, 90])
    args = parser.parse_args()
    print(f"{'field':>5} {'rounds':>6} {'median ms':>10} {'max ms':>8} {'repeated pairs':>15}")
    for field in args.fields:
        times, repeats, rounds = run(field, args.trials)
        print(f"{field:>5} {rounds:>6} {statistics.median(times):>10.1f} {max(times):>8.1f}"
              f" {repeats:>15}")


if __name__ == "__main__":
    main()
