"""``python -m bot.features.puzzles build --count N [--seed S] [--max-positions M] [--out FILE]``.

Generates the puzzle data file (``bot.features.puzzles.generate``, docs/AI.md §Puzzles) and
prints the count per depth. CPU-heavy: run it with ``nice -n 10``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from bot.features.puzzles.generate import build, depth_counts
from bot.features.puzzles.model import DATA_FILE, GENERATOR_VERSION, write_puzzles


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status (1 when fewer puzzles than asked)."""
    parser = argparse.ArgumentParser(prog="python -m bot.features.puzzles")
    sub = parser.add_subparsers(dest="command", required=True)
    cmd = sub.add_parser("build", help="generate the puzzle data file")
    cmd.add_argument("--count", type=int, default=540, help="puzzles to keep")
    cmd.add_argument("--seed", type=int, default=39, help="self-play seed")
    cmd.add_argument("--max-positions", type=int, default=60_000,
                     help="candidate positions to try at most")
    cmd.add_argument("--out", type=Path, default=DATA_FILE, help="data file to write")
    cmd.add_argument("--quiet", action="store_true", help="no progress lines")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    puzzles = build(args.count, args.seed, args.max_positions, progress=not args.quiet)
    write_puzzles(args.out, puzzles)
    passes = sum(p.solution == "" for p in puzzles)
    print(f"generator {GENERATOR_VERSION}, seed {args.seed}: {len(puzzles)} puzzles "
          f"({passes} solved by a pass) in {time.perf_counter() - started:.0f} s -> {args.out}")
    for depth, n in depth_counts(puzzles).items():
        print(f"depth {depth}: {n}")
    return 0 if len(puzzles) >= args.count else 1


if __name__ == "__main__":
    sys.exit(main())
