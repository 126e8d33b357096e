"""How big the AI's hand-evaluation memo must be (issue 25's soak): speed against size.

Run: ``python -m benchmarks.ai_memo [--deals 6] [--sizes 5000,20000,100000] [--levels normal,hardfixed]``

``bot/ai/evaluate.py`` memoizes every hand it decomposes in a least-recently-used
cache (``MEMO_SIZE`` entries). This plays the same seeded games (arena's ``--timing``
loop: the level in one seat, normal in the others, each deal twice with the seats
swapped) once per memo, **interleaved deal by deal in one process**, each memo kept
warm across the deals it sees, so the machine's noise falls on all alike. The memos:
``old`` (the memo before issue 25: a dict emptied when it passed 300,000 entries)
and an LRU of each ``--sizes``. Per memo and level: the CPU time per decision
(median, p90, total) and its ratio to ``old``, the hit rate and the entries held at
the end; and the memo's memory per entry (tracemalloc, measured once). ``hardfixed``
is hard without its wall-clock cap (docs/AI.md §Fixed budget), so it does the same
work whatever the memo and its CPU time is comparable; normal goes first, so its memo
holds what a table's own hands put there (the bot process runs normal computers; the
AI worker runs hard, whose playouts are normal moves). The hit rate is the level's own.
"""

from __future__ import annotations

import argparse
import random
import time
import tracemalloc
from collections.abc import Callable
from dataclasses import dataclass, field

from benchmarks.arena import make_agent
from bot.ai import evaluate
from bot.ai.decision import Decision
from bot.ai.observation import Observation
from bot.ai.selfplay import deal, play_hand

OLD_LIMIT = 300_000
Memo = Callable[[tuple[int, ...]], evaluate.Evaluation]


def old_memo() -> tuple[Memo, Callable[[], int]]:
    """The memo as it was before: a dict, emptied when it passed 300,000 entries."""
    memo: dict[tuple[int, ...], evaluate.Evaluation] = {}

    def cached(key: tuple[int, ...]) -> evaluate.Evaluation:
        hit = memo.get(key)
        if hit is not None:
            stats["hits"] += 1
            return hit
        stats["misses"] += 1
        if len(memo) > OLD_LIMIT:
            memo.clear()
        result = evaluate._evaluate_key(key)  # noqa: SLF001
        memo[key] = result
        return result

    stats = {"hits": 0, "misses": 0}
    cached.stats = stats  # type: ignore[attr-defined]
    return cached, memo.__len__


@dataclass
class Run:
    name: str
    memo: Memo
    entries: Callable[[], int]
    cpu: dict[str, list[float]] = field(default_factory=dict)
    looked_up: dict[str, tuple[int, int]] = field(default_factory=dict)

    def counts(self) -> tuple[int, int]:
        """Hits and misses so far."""
        info = getattr(self.memo, "stats", None)
        if info is not None:
            return info["hits"], info["misses"]
        cache = self.memo.cache_info()  # type: ignore[attr-defined]
        return cache.hits, cache.misses

    def hit_rate(self, level: str) -> float:
        hits, misses = self.looked_up.get(level, (0, 0))
        return hits / (hits + misses) if hits + misses else 0.0


def lru_memo(size: int) -> tuple[Memo, Callable[[], int]]:
    evaluate.memo_size(size)
    memo = evaluate._memo  # noqa: SLF001
    return memo, lambda: memo.cache_info().currsize


def bytes_per_entry(entries: int = 20_000) -> float:
    """tracemalloc's bytes per memo entry, filling a fresh LRU with real hands."""
    evaluate.memo_size(None)
    rng = random.Random(7)
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    while evaluate.memo_info().currsize < entries:
        hand = rng.sample(range(54), rng.randrange(1, 21))
        counts = [0] * 15
        for card in hand:
            counts[min(card // 4, 13) if card < 52 else 13 + card - 52] += 1
        evaluate.evaluate(counts)
    used = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    return used / evaluate.memo_info().currsize


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=6)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--sizes", default="5000,20000,100000")
    parser.add_argument("--levels", default="normal,hardfixed")
    args = parser.parse_args()
    per_entry = bytes_per_entry()
    print(f"memo: {per_entry:.0f} bytes per entry (tracemalloc, LRU)")
    runs = [Run("old", *old_memo())]
    runs += [Run(f"lru {int(size):,}", *lru_memo(int(size))) for size in args.sizes.split(",")]
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
                evaluate._memo = run.memo  # noqa: SLF001
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
    evaluate.memo_size(evaluate.MEMO_SIZE)
    print(f"{args.deals} deals × 2 seatings per level, {time.monotonic() - began:.0f} s")
    print("| memo | level | decisions | CPU median | p90 | total | total vs old "
          "| hit rate | entries | memory |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for level in levels:
        base = sum(runs[0].cpu[level])
        for run in runs:
            cpu = sorted(run.cpu[level])
            entries = run.entries()
            print(f"| {run.name} | {level} | {len(cpu)} | {1000 * cpu[len(cpu) // 2]:.2f} ms | "
                  f"{1000 * cpu[int(0.9 * len(cpu))]:.2f} ms | {sum(cpu):.2f} s | "
                  f"{sum(cpu) / base:.2f}× | {run.hit_rate(level):.1%} | {entries:,} | "
                  f"{entries * per_entry / 2**20:.1f} MiB |")


if __name__ == "__main__":
    main()
