"""How big the AI's hand-evaluation memo must be (issue 25's soak): speed against size.

Run: ``python -m benchmarks.ai_memo [--deals 6] [--sizes 5000,20000,100000] [--levels normal,hardfixed]
[--old-file evaluate_old.py]``

``bot/ai/evaluate.py`` memoizes every hand it decomposes in a least-recently-used
cache (``MEMO_SIZE`` entries). This plays the same seeded games (arena's ``--timing``
loop: the level in one seat, normal in the others, each deal twice with the seats
swapped) once per memo, **interleaved deal by deal in one process**, each memo kept
warm across the deals it sees, so the machine's noise falls on all alike. The memos:
``old memo`` (the memo before issue 25: a dict emptied when it passed 300,000 entries)
and an LRU of each ``--sizes``. ``old memo`` is the old ``evaluate`` itself, line for line,
put in place of the new one in the modules that call it, so neither pays an extra call;
``--old-file`` adds a whole older ``evaluate.py`` (its memo and its search), e.g.
``git show b15f985:bot/ai/evaluate.py > /tmp/evaluate_old.py`` for the one before
issue 25's change (no hit rate: it counts nothing). Per memo and level: the CPU time per decision
(median, p90, total) and its ratio to ``old memo``, the hit rate and the entries held at
the end; and the memo's memory per entry (tracemalloc, measured once). ``hardfixed``
is hard without its wall-clock cap (docs/AI.md §Fixed budget), so it does the same
work whatever the memo and its CPU time is comparable; normal goes first, so its memo
holds what a table's own hands put there (the bot process runs normal computers; the
AI worker runs hard, whose playouts are normal moves). The hit rate is the level's own.
"""

from __future__ import annotations

import argparse
import importlib.util
import math
import random
import sys
import time
import tracemalloc
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType

from benchmarks.arena import make_agent
from bot.ai import evaluate
from bot.ai.decision import Decision
from bot.ai.observation import Observation
from bot.ai.selfplay import deal, play_hand

OLD_LIMIT = 300_000
USERS = ("bot.ai.evaluate", "bot.ai.policy", "bot.ai.bidding")
"""The modules that call ``evaluate`` by name (the old memo replaces it in each)."""
NEW_EVALUATE = evaluate.evaluate


def old_evaluate() -> tuple[Callable[[Iterable[int]], evaluate.Evaluation], list[int], dict]:
    """``evaluate`` as it was before issue 25, line for line: a dict memo emptied when it
    passed 300,000 entries. Also its miss counter (misses only: a hit costs what it did)
    and the dict."""
    memo: dict[tuple[int, ...], evaluate.Evaluation] = {}
    misses = [0]

    def evaluate_old(counts: Iterable[int]) -> evaluate.Evaluation:
        key = tuple(counts)
        hit = memo.get(key)
        if hit is not None:
            return hit
        misses[0] += 1
        if len(memo) > OLD_LIMIT:
            memo.clear()
        result = evaluate._search(list(key))  # noqa: SLF001
        memo[key] = result
        return result

    return evaluate_old, misses, memo


@dataclass
class Run:
    """One memo: ``old`` (the old ``evaluate`` put in place of the new one) or an LRU."""

    name: str
    size: int | None = None
    module: ModuleType | None = None  # an older evaluate.py, run as it is (``--old-file``)
    cpu: dict[str, list[float]] = field(default_factory=dict)
    looked_up: dict[str, tuple[int, int]] = field(default_factory=dict)  # hits, misses

    def __post_init__(self) -> None:
        if self.module is not None:
            self.function, self.misses, self.memo = self.module.evaluate, [0], self.module._MEMO
        elif self.size is None:
            self.function, self.misses, self.memo = old_evaluate()
        else:
            evaluate.memo_size(self.size)
            self.function, self.lru = NEW_EVALUATE, evaluate._memo  # noqa: SLF001

    def install(self) -> None:
        for name in USERS:
            sys.modules[name].evaluate = self.function  # type: ignore[attr-defined]
        if self.size is not None:
            evaluate._memo = self.lru  # noqa: SLF001

    def counts(self) -> tuple[int, int]:
        """(hits, misses) so far; the old memo counts misses only (its hits: lookups −
        misses, in ``main``); an ``--old-file`` counts nothing."""
        if self.size is None:
            return 0, self.misses[0]
        info = self.lru.cache_info()
        return info.hits, info.misses

    def hit_rate(self, level: str) -> float:
        hits, misses = self.looked_up.get(level, (0, 0))
        return hits / (hits + misses) if hits + misses and self.module is None else math.nan

    def entries(self) -> int:
        return len(self.memo) if self.size is None else self.lru.cache_info().currsize


def bytes_per_entry(run: Run, entries: int = 20_000) -> float:
    """tracemalloc's bytes per memo entry of ``run``'s kind of memo (a fresh one, unbounded),
    filled with ``entries`` hands of 1–20 random cards."""
    probe = Run(run.name, None, run.module) if run.size is None else Run(run.name, 10**9)
    probe.install()
    rng = random.Random(7)
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    while probe.entries() < entries:
        hand = rng.sample(range(54), rng.randrange(1, 21))
        counts = [0] * 15
        for card in hand:
            counts[card // 4 if card < 52 else 13 + card - 52] += 1
        probe.function(counts)
    used, held = tracemalloc.get_traced_memory()[0] - before, probe.entries()
    tracemalloc.stop()
    if probe.size is None:
        probe.memo.clear()
    else:
        probe.lru.cache_clear()
    return used / held


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=6)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--sizes", default="5000,20000,100000")
    parser.add_argument("--levels", default="normal,hardfixed")
    parser.add_argument("--old-file", type=Path, help="also run an older bot/ai/evaluate.py "
                        "as it is, e.g. `git show b15f985:bot/ai/evaluate.py`")
    args = parser.parse_args()
    runs = [Run("old memo")] + [Run(f"lru {int(size):,}", int(size)) for size in args.sizes.split(",")]
    if args.old_file:
        spec = importlib.util.spec_from_file_location("evaluate_file", args.old_file)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)  # its own _search calls its own evaluate
        runs.append(Run(f"old file {args.old_file.name}", module=module))
    per_entry = {run.name: bytes_per_entry(run) for run in runs}
    print("bytes per memo entry (tracemalloc): "
          + ", ".join(f"{name} {size:.0f}" for name, size in per_entry.items()))
    levels = args.levels.split(",")
    normal = make_agent("normal")
    assert normal is not None
    began = time.monotonic()
    for level in levels:
        agent = make_agent(level)
        assert agent is not None
        for s in range(args.seed, args.seed + args.deals):
            hands, kitty = deal(random.Random(s))
            for run in runs[s % len(runs):] + runs[:s % len(runs)]:  # each goes first in turn
                run.install()
                cpu = run.cpu.setdefault(level, [])
                before = run.counts()

                def timed(obs: Observation, rng: random.Random, cpu: list[float] = cpu,
                          agent: Callable = agent) -> Decision:
                    start = time.process_time()
                    decision = agent(obs, rng)
                    cpu.append(time.process_time() - start)
                    return decision

                play_hand([timed, normal, normal], hands, 0, kitty, random.Random(s))
                play_hand([normal, timed, normal], hands, 0, kitty, random.Random(s))
                after, so_far = run.counts(), run.looked_up.get(level, (0, 0))
                run.looked_up[level] = (so_far[0] + after[0] - before[0],
                                        so_far[1] + after[1] - before[1])
    for name in USERS:
        sys.modules[name].evaluate = NEW_EVALUATE  # type: ignore[attr-defined]
    evaluate.memo_size(evaluate.MEMO_SIZE)
    print(f"{args.deals} deals × 2 seatings per level, {time.monotonic() - began:.0f} s")
    print("| memo | level | decisions | CPU median | p90 | total | total vs old "
          "| hit rate | entries | memory |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for level in levels:
        base = sum(runs[0].cpu[level])
        # Same seeded games at a fixed budget: every memo sees the same lookups.
        lookups = sum(runs[1].looked_up[level]) if len(runs) > 1 else 0
        runs[0].looked_up[level] = (lookups - runs[0].looked_up[level][1],
                                    runs[0].looked_up[level][1])
        for run in runs:
            cpu = sorted(run.cpu[level])
            entries = run.entries()
            print(f"| {run.name} | {level} | {len(cpu)} | {1000 * cpu[len(cpu) // 2]:.2f} ms | "
                  f"{1000 * cpu[int(0.9 * len(cpu))]:.2f} ms | {sum(cpu):.2f} s | "
                  f"{sum(cpu) / base:.2f}× | {run.hit_rate(level):.1%} | {entries:,} | "
                  f"{entries * per_entry[run.name] / 2**20:.1f} MiB |")


if __name__ == "__main__":
    main()
