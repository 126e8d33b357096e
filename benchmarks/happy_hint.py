"""``python -m benchmarks.happy_hint [positions]``: the Hint on a Happy call against the
Hint on a classic bid, side by side on seeded deals (docs/AI.md §Happy rules): CPU time
of the worker's answer (``table_hint_options``: the hard level's, no clock cap) and of the
quick answer the event loop gives at once (``bot.ai.choices``: the normal level's), the
order alternated so that warm caches favour neither. CPU time (``time.thread_time``), so
the figures hold on a loaded machine."""

from __future__ import annotations

import functools
import statistics
import sys
import time
from collections.abc import Callable

from bot.ai.choices import choices
from bot.game.computer import table_hint_options
from bot.game.table import Table
from bot.rules import RuleSet

KINDS = {"Happy call": RuleSet(variant="happy"), "classic bid": RuleSet()}


def table_of(rules: RuleSet, seed: int) -> Table:
    """A table of ``rules`` whose seat to speak first is a member's, just dealt."""
    table = Table.open(1, 2, 10, "Ana", computers=2, rules=rules)
    table.start(10, 0.0, seed=seed, first_bidder=0)
    return table


def cpu_ms(work: Callable[[], object]) -> float:
    started = time.thread_time()
    work()
    return 1000 * (time.thread_time() - started)


def measure(count: int) -> dict[str, dict[str, list[float]]]:
    """{kind: {"worker": [ms], "quick": [ms]}} over ``count`` deals."""
    out: dict[str, dict[str, list[float]]] = {k: {"worker": [], "quick": []} for k in KINDS}
    for seed in range(count):
        order = list(KINDS.items())
        if seed % 2:
            order.reverse()
        for name, rules in order:
            table = table_of(rules, seed)
            assert table.hand is not None
            asked = table.hand.asked(0)
            happy = asked if asked == "call" else None
            obs = table.hand.observation(0)
            out[name]["worker"].append(cpu_ms(functools.partial(table_hint_options, table, 0)))
            out[name]["quick"].append(cpu_ms(functools.partial(choices, obs, happy)))
    return out


def main(argv: list[str]) -> None:
    count = int(argv[0]) if argv else 300
    rows = measure(count)
    print(f"{count} deals, CPU ms per Hint (median / p95)")
    print("| decision | worker (hard) | quick (normal, on the loop) |\n|---|---|---|")
    for name, parts in rows.items():
        cells = []
        for part in ("worker", "quick"):
            values = sorted(parts[part])
            p95 = values[int(0.95 * (len(values) - 1))]
            cells.append(f"{statistics.median(values):.3f} / {p95:.3f}")
        print(f"| {name} | {cells[0]} | {cells[1]} |")


if __name__ == "__main__":
    main(sys.argv[1:])
