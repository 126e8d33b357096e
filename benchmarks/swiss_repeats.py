"""Swiss seating against an exhaustive check: ``python -m benchmarks.swiss_repeats
[--tournaments N] [--low 3] [--high 30]``.

``N`` simulated tournaments (default 1,000; tournament ``i`` has ``low + i % (high - low
+ 1)`` members, seed ``i``, 9 rounds, random results, a withdrawal after one round in
four) seated by ``bot.features.tournaments.seating.seat_round``; every later round that repeats a pair is
checked by ``tools.swiss_check.fewest_repeats`` (every seating listed up to 12 members, a
plain depth-first search over every seating above). Prints the rounds seated, those
with a repeat, those whose repeat another seating avoids (must be 0) and the time.
"""

from __future__ import annotations

import argparse
import time

from tools.swiss_check import simulate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tournaments", type=int, default=1000)
    parser.add_argument("--low", type=int, default=3)
    parser.add_argument("--high", type=int, default=30)
    args = parser.parse_args()
    start = time.perf_counter()
    later = repeated = avoidable = 0
    span = args.high - args.low + 1
    for i in range(args.tournaments):
        played = simulate(args.low + i % span, seed=i)
        for seated in played.rounds[1:]:
            later += 1
            if seated.ours:
                repeated += 1
                if seated.fewest is not None and seated.fewest < seated.ours:
                    avoidable += 1
                    print(f"avoidable: {played.members} members, seed {i},"
                          f" round {seated.round_no}: {seated.ours} > {seated.fewest}")
    print(f"{args.tournaments} tournaments of {args.low}-{args.high} members,"
          f" {later} later rounds: {repeated} with a repeated pair (forced),"
          f" {avoidable} avoidable; {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
