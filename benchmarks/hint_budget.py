"""The Hint's search budget on the positions members asked about: ``python -m
benchmarks.hint_budget CALLS.pkl [--budgets 350,500,700,1000] [--positions 260]
[--reference 40000]``.

Issue 54. ``CALLS.pkl`` is a recorded run (``benchmarks.interaction --counts
--record-calls CALLS.pkl``); its Hint searches (``hint_options_from_json`` calls in play)
are the positions. For each budget:

* **CPU**: the Hint's whole search (``hint_options_from_json``, as the AI worker runs it)
  at that budget over every recorded Hint, in a fresh process per budget (the evaluation's
  memo carries over between searches as in the worker, never between budgets), mean
  ``time.thread_time`` per search, the first search left out (imports, warm-up);
* **quality**: the pick of ``hard_search`` at that budget with the Hint's seed and
  evaluation, scored against a reference search of ``--reference`` steps with another
  seed: its regret (the reference's win rate of its best candidate minus that of the
  pick) and how often the two picks agree.

docs/PERFORMANCE.md §The Hint's search at 500 steps.
"""

from __future__ import annotations

import argparse
import math
import pickle
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

_CPU = """
import pickle, sys, time
import bot.ai.players as players
budget = int(sys.argv[2])
players.hint_options.__defaults__ = (budget, *players.hint_options.__defaults__[1:])
from bot.game.computer import hint_options_from_json
calls = pickle.loads(open(sys.argv[1], "rb").read())
hint_options_from_json(*calls[0])
start = time.thread_time()
for args in calls[1:]:
    hint_options_from_json(*args)
print((time.thread_time() - start) / (len(calls) - 1) * 1000)
"""

REFERENCE_SEED = 987_654


def hint_calls(path: Path) -> list[tuple[Any, ...]]:
    """The arguments (table JSON, seat) of the recorded Hint searches."""
    out = []
    for call in pickle.loads(path.read_bytes()):
        fn, args = pickle.loads(call)
        if getattr(fn, "__name__", "") == "hint_options_from_json":
            out.append(args)
    return out


def cpu_ms(calls: list[tuple[Any, ...]], budget: int, scratch: Path) -> float:
    """Mean CPU ms of the Hint's search at ``budget`` over ``calls``, in a fresh process."""
    scratch.write_bytes(pickle.dumps(calls))
    done = subprocess.run([sys.executable, "-c", _CPU, str(scratch), str(budget)],
                          check=True, capture_output=True, text=True)
    return float(done.stdout.strip())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("calls", type=Path)
    parser.add_argument("--budgets", default="350,500,700,1000")
    parser.add_argument("--positions", type=int, default=260)
    parser.add_argument("--reference", type=int, default=40_000)
    args = parser.parse_args()

    from bot.ai.players import HINT_EVALUATION, HINT_SEED
    from bot.ai.search import hard_search
    from bot.ai.view import view_of
    from bot.game.table import Table

    budgets = [int(b) for b in args.budgets.split(",")]
    calls = hint_calls(args.calls)
    scratch = Path(f"/tmp/hint_budget_{time.time_ns()}.pkl")
    try:
        for budget in budgets:
            print(f"budget {budget}: {cpu_ms(calls, budget, scratch):.1f} ms CPU a search "
                  f"over {len(calls) - 1} recorded Hints", flush=True)
    finally:
        scratch.unlink(missing_ok=True)

    regrets: dict[int, list[float]] = {b: [] for b in budgets}
    agree: dict[int, int] = dict.fromkeys(budgets, 0)
    positions = 0
    for table_json, seat in calls:
        hand = Table.model_validate_json(table_json).hand
        if hand is None or hand.phase != "playing":
            continue
        view = view_of(hand.observation(seat))
        reference = hard_search(view, random.Random(REFERENCE_SEED), args.reference,
                                time_cap=math.inf, evaluation=HINT_EVALUATION)
        if not reference.rates:
            continue  # an obvious choice: no search, the same pick at every budget
        rates = {action: rate for action, (rate, _) in reference.rates.items()}
        best = max(rates.values())
        for budget in budgets:
            pick = hard_search(view, random.Random(HINT_SEED), budget, time_cap=math.inf,
                               evaluation=HINT_EVALUATION).decision.action
            regrets[budget].append(best - rates.get(pick, min(rates.values())))
            agree[budget] += pick == reference.decision.action
        positions += 1
        if positions == args.positions:
            break
    print(f"quality on {positions} Hint positions in play, against a {args.reference:,}-step "
          f"reference (seed {REFERENCE_SEED}):")
    for budget in budgets:
        print(f"  budget {budget}: mean regret {statistics.fmean(regrets[budget]):.4f}, "
              f"the reference's pick {agree[budget] / positions:.0%}")


if __name__ == "__main__":
    main()
