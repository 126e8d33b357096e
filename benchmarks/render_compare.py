"""Render times of this tree against another checkout, side by side:
``python -m benchmarks.render_compare OTHER_TREE [--rounds 6] [--batches 5] [--per 20]``.

Each round runs one short process per tree, one after the other (this tree first in odd
rounds, the other first in even ones), so both see the same load on a shared machine. A process warms the card faces, then times
``--batches`` batches of ``--per`` renders of each sample (the table, the result, the hand
and the stats chart of ``tools.samples``, as ``benchmarks.render``) and reports the
fastest batch's mean in ms: the least disturbed figure. The script prints every round and
the median over rounds of each tree and of the ratio this / other (below 1: this tree is
faster). OTHER_TREE is a checkout's root, e.g. a ``git worktree`` or ``git archive`` of main.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

KINDS = ("table", "result", "hand", "stats")

_CHILD = """
import json, sys, time
from rendering import render_hand, render_result, render_table, warm_up
from tools.samples import landlord_hand, mid_game_table, selected_three, spring_result, stats_chart
from rendering.stats import render_stats
batches, per = int(sys.argv[1]), int(sys.argv[2])
warm_up()
hand, chosen = landlord_hand(), selected_three()
table, result, chart = mid_game_table(), spring_result(), stats_chart()
cases = {"table": lambda: render_table(table), "result": lambda: render_result(result),
         "hand": lambda: render_hand(hand, selected=chosen), "stats": lambda: render_stats(chart)}
out = {}
for name, fn in cases.items():
    fn()
    best = float("inf")
    for _ in range(batches):
        start = time.perf_counter()
        for _ in range(per):
            fn()
        best = min(best, (time.perf_counter() - start) * 1000 / per)
    out[name] = best
print(json.dumps(out))
"""


def measure(tree: Path, batches: int, per: int) -> dict[str, float]:
    """Fastest-batch mean ms per image kind, rendered by ``tree``'s own code."""
    done = subprocess.run([sys.executable, "-c", _CHILD, str(batches), str(per)], cwd=tree,
                          capture_output=True, text=True, check=True, timeout=600)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("other", type=Path)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--batches", type=int, default=5)
    parser.add_argument("--per", type=int, default=20)
    args = parser.parse_args()
    here = Path(__file__).resolve().parents[1]
    rows: dict[str, list[tuple[float, float]]] = {kind: [] for kind in KINDS}
    for n in range(1, args.rounds + 1):
        if n % 2:
            mine = measure(here, args.batches, args.per)
            theirs = measure(args.other.resolve(), args.batches, args.per)
        else:  # the other tree first: neither order is favoured
            theirs = measure(args.other.resolve(), args.batches, args.per)
            mine = measure(here, args.batches, args.per)
        print(f"round {n}: " + "  ".join(
            f"{kind} {mine[kind]:.2f}/{theirs[kind]:.2f}" for kind in KINDS) + "  (this/other ms)")
        for kind in KINDS:
            rows[kind].append((mine[kind], theirs[kind]))
    print(f"{'image':<8}{'this ms':>9}{'other ms':>10}{'ratio':>8}   (medians over rounds)")
    for kind in KINDS:
        this = statistics.median(a for a, _ in rows[kind])
        other = statistics.median(b for _, b in rows[kind])
        ratio = statistics.median(a / b for a, b in rows[kind])
        print(f"{kind:<8}{this:>9.2f}{other:>10.2f}{ratio:>8.2f}")


if __name__ == "__main__":
    main()
