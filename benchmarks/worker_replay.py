"""The worker calls of a recorded ``benchmarks.interaction`` run, replayed on two trees:
``python -m benchmarks.worker_replay CALLS.pkl OTHER_TREE [--rounds 2] [--workers 2]
[--split THIS OTHER]``.

Issue 54. CPU per click in ``benchmarks.interaction`` depends on what the tables were
doing (a faster tree plays further in the same 30 s: more selection clicks and plays,
each drawing more than a bid), so two trees' per-click figures compare two mixes. Here
the same calls, in the same order, run on both (trailing arguments an older tree's
function lacks are dropped when they are empty, e.g. the Happy rules' shown hands): ``--counts --record-calls CALLS.pkl``
saves every worker call of the measured time (function, arguments), and each round runs
them in ``--workers`` fresh processes per tree (call ``i`` in process ``i % workers``, as
the pool hands them out when both workers are busy; ``--split affinity turns``: this
tree's hand and table images by their affinity, as ``bot.service.renderer`` asks; every
kept band empty at the start,
``rendering.warm_up`` first, as the pool's initializer), alternating the trees' order.
Prints CPU (``time.thread_time``) per call by function, and in all, per tree (medians
over rounds) and the ratio this / other. Calls whose arguments do not unpickle on a tree
(2f51224's ``Observation`` has another wire format: the rankings, the Hint's searches)
are counted apart and left out of both trees' sums.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

_CHILD = """
import inspect, json, pickle, sys, time, zlib
from collections import defaultdict
import rendering
rendering.warm_up()
calls = pickle.loads(open(sys.argv[1], "rb").read())
part, parts, split = int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]


def affinity(fn, args):
    # as bot.service.renderer asks the pool: a hand image by its cards, a table by its players
    if fn.__name__ == "draw_hand":
        return args[0]
    if fn.__name__ == "_draw_table":
        return tuple(seat.name for seat in args[0].seats)
    return None

cpu, count = defaultdict(float), defaultdict(int)
for n, call in enumerate(calls):
    try:
        fn, args = pickle.loads(call)
    except Exception:  # another tree's wire format (e.g. an Observation's): not replayed
        if n % parts == part:
            count["(not replayed here)"] += 1
        continue
    key = affinity(getattr(fn, "func", fn), args) if split == "affinity" else None
    # str hashes differ between processes: a key's worker by a hash stable across them
    if (zlib.crc32(repr(key).encode()) if key is not None else n) % parts != part:
        continue
    fn = getattr(fn, "func", fn)
    name = getattr(fn, "__qualname__", repr(fn))
    room = len(inspect.signature(fn).parameters)
    if len(args) > room and not any(args[room:]):  # an older tree: no such option, unused
        args = args[:room]
    start = time.thread_time()
    fn(*args)
    cpu[name] += time.thread_time() - start
    count[name] += 1
print("RESULT " + json.dumps({"cpu": cpu, "count": count}))
"""


def run_tree(tree: Path, calls: Path, workers: int, split: str = "turns"
             ) -> tuple[dict[str, float], dict[str, int]]:
    """CPU seconds and call counts by function of replaying ``calls`` on ``tree``
    (``split``: "turns", call ``i`` in worker ``i % workers``; "affinity": hand images
    by their cards, table images by their players, the rest by turns)."""
    cpu: dict[str, float] = defaultdict(float)
    count: dict[str, int] = defaultdict(int)
    procs = [subprocess.Popen([sys.executable, "-c", _CHILD, str(calls), str(k), str(workers), split],
                              cwd=tree, stdout=subprocess.PIPE, text=True,
                              env={"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin"})
             for k in range(workers)]
    for proc in procs:
        out, _ = proc.communicate()
        line = next(x for x in out.splitlines() if x.startswith("RESULT "))
        result = json.loads(line[7:])
        for name, value in result["cpu"].items():
            cpu[name] += value
        for name, value in result["count"].items():
            count[name] += value
    return cpu, count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("calls", type=Path)
    parser.add_argument("other", type=Path, help="the other tree's root")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--split", choices=("turns", "affinity"), nargs=2,
                        default=("turns", "turns"), metavar=("THIS", "OTHER"),
                        help="how each tree's calls are shared out: by turns (the pool when "
                             "every worker is busy) or by affinity (bot.service.renderer's)")
    args = parser.parse_args()
    trees = {"this": Path(__file__).resolve().parents[1], "other": args.other.resolve()}
    cpus: dict[str, list[dict[str, float]]] = {"this": [], "other": []}
    counts: dict[str, int] = {}
    counted: dict[str, dict[str, int]] = {}
    for n in range(args.rounds):
        for name in ("this", "other") if n % 2 == 0 else ("other", "this"):
            split = args.split[0 if name == "this" else 1]
            cpu, counts = run_tree(trees[name], args.calls.resolve(), args.workers, split)
            cpus[name].append(cpu)
            counted[name] = counts
            print(f"round {n + 1} {name}: {sum(cpu.values()):.2f} s CPU for "
                  f"{sum(counts.values())} calls", flush=True)
    print(f"\n{'function':<28}{'calls':>7}{'this ms':>10}{'other ms':>10}{'ratio':>8}"
          "   (CPU per call, medians over rounds)")
    skipped = max(c.get("(not replayed here)", 0) for c in counted.values())
    if skipped:
        print(f"{skipped} calls not replayed on one tree (their arguments do not unpickle "
              "there): left out of both sums")
    names = [k for k in counts if k != "(not replayed here)"
             and all(k in c for c in counted.values())]
    for name in sorted(names, key=lambda k: -counts[k]):
        this = statistics.median(c.get(name, 0.0) for c in cpus["this"]) * 1000 / counts[name]
        other = statistics.median(c.get(name, 0.0) for c in cpus["other"]) * 1000 / counts[name]
        print(f"{name:<28}{counts[name]:>7}{this:>10.3f}{other:>10.3f}{this / other:>8.2f}")
    this = statistics.median(sum(c.get(k, 0.0) for k in names) for c in cpus["this"])
    other = statistics.median(sum(c.get(k, 0.0) for k in names) for c in cpus["other"])
    print(f"{'all':<28}{sum(counts[k] for k in names):>7}{this:>9.2f}s{other:>9.2f}s{this / other:>8.2f}")


if __name__ == "__main__":
    main()
