"""Rendering speed and PNG sizes: ``python -m benchmarks.render [--runs N]``.

Prints the median (and p90) wall time in ms per image kind — the hand
(20-card landlord hand, 3 selected), the mid-game table, the spring result —
and the PNG size of each, against the targets (docs/PERFORMANCE.md):
hand ≤ 15 ms, table ≤ 25 ms, each ≤ 150 KB; and the ``/ddz stats`` chart
(50 hands over two matches; drawn at 2× and downsampled, no target set by the
product: ≤ 100 ms, ≤ 150 KB here). Card faces are warmed up first:
they are drawn once per process, so the cold first render is reported apart.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

from rendering import render_hand, render_result, render_table, sort_cards
from rendering.stats import render_stats
from tools.samples import (
    landlord_hand,
    mid_game_table,
    selected_three,
    spring_result,
    stats_chart,
)

TARGET_MS = {"hand": 15.0, "table": 25.0, "result": 25.0, "stats": 100.0}
TARGET_KB = 150.0


def measure(fn: Callable[[], bytes], runs: int) -> tuple[float, float, int]:
    """(median ms, p90 ms, PNG bytes) over ``runs`` calls of ``fn``."""
    times = []
    size = 0
    for _ in range(runs):
        start = time.perf_counter()
        size = len(fn())
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    return statistics.median(times), times[int(0.9 * (len(times) - 1))], size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=60)
    args = parser.parse_args()
    hand, chosen = landlord_hand(), selected_three()
    table, result, chart = mid_game_table(), spring_result(), stats_chart()
    start = time.perf_counter()
    render_hand(hand, selected=chosen)
    print(f"cold first hand render (draws faces): {(time.perf_counter() - start) * 1000:.1f} ms")
    for sort in ("rank", "groups"):  # warm every face and highlight variant used
        render_hand(sort_cards(hand, sort), selected=chosen, sort=sort)
    cases: dict[str, Callable[[], bytes]] = {
        "hand": lambda: render_hand(hand, selected=chosen),
        "table": lambda: render_table(table),
        "result": lambda: render_result(result),
        "stats": lambda: render_stats(chart),
    }
    ok = True
    print(f"{'image':<8}{'median ms':>11}{'p90 ms':>9}{'KB':>8}   target")
    for name, fn in cases.items():
        fn()
        median, p90, size = measure(fn, args.runs)
        kb = size / 1024
        good = median <= TARGET_MS[name] and kb <= TARGET_KB
        ok &= good
        print(f"{name:<8}{median:>11.2f}{p90:>9.2f}{kb:>8.1f}   ≤{TARGET_MS[name]:.0f} ms, ≤{TARGET_KB:.0f} KB "
              f"{'ok' if good else 'MISSED'}")
    print("all targets met" if ok else "some targets missed")


if __name__ == "__main__":
    main()
