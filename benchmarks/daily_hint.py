"""``python -m benchmarks.daily_hint [positions]``: the Hint at a daily table (fixed
budget, no clock cap) against the same Hint at an ordinary table (0.6 s cap), side by
side on the same positions (each daily deal's first lead, the order alternated so that
warm caches favour neither), wall and CPU time, and how often the two lists agree
(they differ only where the cap cuts the search: on a loaded machine).
docs/AI.md §Fixed budget."""

from __future__ import annotations

import statistics
import sys
import time

from bot.features.daily.rules import daily_table
from bot.game.computer import table_hint_options
from bot.rules import DEFAULT_RULES


def measure(count: int) -> tuple[dict[str, list[tuple[float, float]]], int]:
    """{kind: [(wall s, CPU s)]} over ``count`` positions, and how many lists agreed."""
    rows: dict[str, list[tuple[float, float]]] = {"daily (fixed budget)": [],
                                                  "table (0.6 s cap)": []}
    same = 0
    for seed in range(count):
        table, _ = daily_table(1, 11, "A", "en", day="2026-12-01", seed=seed, level="hard",
                               rules=DEFAULT_RULES, turn_seconds=60, now=0.0)
        order = [("daily (fixed budget)", "2026-12-01"), ("table (0.6 s cap)", None)]
        if seed % 2:
            order.reverse()
        got = {}
        for name, daily in order:
            table.private = daily is not None
            wall, cpu = time.perf_counter(), time.process_time()
            got[name] = [d.action for d in table_hint_options(table, 0)]
            rows[name].append((time.perf_counter() - wall, time.process_time() - cpu))
        same += got["daily (fixed budget)"] == got["table (0.6 s cap)"]
    return rows, same


def main(argv: list[str]) -> None:
    count = int(argv[0]) if argv else 20
    rows, same = measure(count)
    print("| Hint at | positions | wall median | max | CPU median | max |")
    print("|---|---|---|---|---|---|")
    for name, values in rows.items():
        wall = [w for w, _ in values]
        cpu = [c for _, c in values]
        print(f"| {name} | {len(values)} | {1000 * statistics.median(wall):.0f} ms"
              f" | {1000 * max(wall):.0f} ms | {1000 * statistics.median(cpu):.0f} ms"
              f" | {1000 * max(cpu):.0f} ms |")
    print(f"same suggestions: {same} of {count}")


if __name__ == "__main__":
    main(sys.argv[1:])
