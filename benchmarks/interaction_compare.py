"""``benchmarks.interaction`` on two trees in one run, alternating, with the ratios:
``python -m benchmarks.interaction_compare BASE_TREE [--rounds 2] [--out DIR] -- --tables
1000 --seconds 30 --ramp 20``.

Issue 54: on a shared machine a figure of one run means little; a ratio between two trees
run under the same load does. Each round runs the benchmark once on BASE_TREE's bot and
once on this tree's (order alternating: this tree second in odd rounds, first in even
ones), each in a process of its own. Both runs use this tree's harness
(``benchmarks/interaction.py``: the simulated members, the fake Discord's wiring, the
figures it prints) against the tree's own ``bot``, ``cogs``, ``rendering`` and
``tests/support`` (a temporary folder holding only a link to this tree's ``benchmarks``
is the working directory, ``PYTHONPATH`` the tree), so the harness's changes are never
what is compared. BASE_TREE is a checkout's root, e.g. ``git -C /work/main worktree add
/work/wt/perf-base <commit> --detach``.

Prints each run's figures (CPU per interaction of the bot process without the harness and
of the workers, cores used, p99s, the full collections) with the load average around it,
then the median of each figure per tree and the ratio this / base (below 1: this tree is
cheaper or faster). ``--out DIR`` keeps each run's whole output there.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

RUN_TIMEOUT = 1800.0
"""Seconds one run may take (a run that never ends is given up, its figures missing)."""

FIGURES = (
    ("bot ms/click", "bot CPU per interaction without the harness"),
    ("workers ms/click", "workers' CPU per interaction"),
    ("render ms/click", "render workers' CPU per interaction"),
    ("AI ms/click", "AI worker's CPU per interaction"),
    ("bot+workers ms/click", "the two above summed"),
    ("cores", "cores used in all (bot process with the harness, and workers)"),
    ("clicks/s", "interactions handled per second"),
    ("ALL first p99", "first response p99, ms"),
    ("ALL full p99", "full answer p99, ms"),
    ("hint full p99", "Hint's full answer p99, ms"),
    ("gen-2 count", "full collections while measuring"),
    ("gen-2 longest ms", "longest full collection, wall ms"),
    ("gen-2 longest CPU ms", "longest full collection, CPU ms of the loop thread"),
    ("loop lag p99", "event-loop lag p99, ms"),
    ("bid share %", "bids among the interactions (the click mix: a tree that keeps up "
                    "gets further into each hand)"),
    ("My hand share %", "My hand among the interactions"),
    ("turn share %", "clicks in one's own turn among the interactions (play, pass, hint, "
                     "pick, rank, clear)"),
    ("hand images/click", "--counts: hand images asked per interaction (drawn or kept)"),
    ("table images/click", "--counts: public table images drawn per interaction"),
    ("uploads/click", "--counts: requests carrying a new file per interaction"),
    ("new fan ms each", "--counts: worker CPU of a hand image with a new fan of cards"),
    ("table ms each", "--counts: worker CPU of a table image"),
)


def parse(text: str) -> dict[str, float]:
    """The figures of one ``benchmarks.interaction`` output (missing ones are left out)."""
    out: dict[str, float] = {}
    kinds: dict[str, int] = {}
    for line in text.splitlines():
        # kind, n, then 8 figures of one decimal each, which may touch ("7596.212356.0")
        cells = re.findall(r"\d+\.\d", line[22:])
        if len(cells) == 8 and line[16:22].strip().isdigit():
            kinds[line[:16].strip()] = int(line[16:22])
        if line.startswith("ALL ") and len(cells) == 8:
            out["ALL first p99"], out["ALL full p99"] = float(cells[2]), float(cells[6])
        elif line.startswith("hint ") and len(cells) == 8:
            out["hint full p99"] = float(cells[6])
    patterns = {
        "workers ms/click": r"workers [\d.]+ cores = ([\d.]+) ms per interaction",
        "render ms/click": r"\(render ([\d.]+), AI",
        "AI ms/click": r"AI ([\d.]+)\); total",
        "cores": r"total ([\d.]+) cores",
        "bot ms/click": r"without the harness: ([\d.]+) ms per interaction",
        "clicks/s": r"throughput ([\d.]+) interactions/s",
        "loop lag p99": r"event-loop lag p50 [\d.]+ ms p99 ([\d.]+) ms",
        "gen-2 count": r"gen-2 pauses: (\d+)",
        "gen-2 longest ms": r"gen-2 pauses: \d+, longest ([\d.]+) ms wall",
        "gen-2 longest CPU ms": r"ms wall ([\d.]+) ms CPU, total",
        "hand images/click": r"hand images asked ([\d.]+)",
        "table images/click": r"call render _draw_table\s+([\d.]+)/click",
        "uploads/click": r"uploads ([\d.]+), worker calls",
        "new fan ms each": r"draw_hand \(new fan\) urgent\s+[\d.]+/click\s+([\d.]+) ms each",
        "table ms each": r"call render _draw_table\s+[\d.]+/click\s+([\d.]+) ms each",
    }
    for name, pattern in patterns.items():
        found = re.search(pattern, text)
        if found:
            out[name] = float(found.group(1))
    every = kinds.pop("ALL", 0)
    if every and kinds:  # the kinds' rows, not only ALL's
        turn = ("play", "pass", "hint", "pick (menu)", "rank", "clear")
        out["bid share %"] = 100 * kinds.get("bid", 0) / every
        out["My hand share %"] = 100 * kinds.get("My hand", 0) / every
        out["turn share %"] = 100 * sum(kinds.get(k, 0) for k in turn) / every
    if "bot ms/click" in out and "workers ms/click" in out:
        out["bot+workers ms/click"] = out["bot ms/click"] + out["workers ms/click"]
    return out


def run_tree(tree: Path, harness: Path, args: list[str]) -> tuple[str, tuple[float, float]]:
    """One run of the benchmark (this tree's harness) on ``tree``'s bot: (its output, the
    1-minute load average before and after)."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    before = os.getloadavg()[0]
    try:
        done = subprocess.run([sys.executable, "-m", "benchmarks.interaction", *args],
                              cwd=harness, env=env, capture_output=True, text=True,
                              check=False, timeout=RUN_TIMEOUT)
        text = done.stdout + done.stderr
    except subprocess.TimeoutExpired as expired:
        parts = [p.decode() if isinstance(p, bytes) else p or "" for p in (expired.stdout, expired.stderr)]
        text = "".join(parts) + f"\nno result within {RUN_TIMEOUT:g} s"
    return text, (before, os.getloadavg()[0])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("base", type=Path, help="the other tree's root (the baseline)")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--out", type=Path, default=None, help="keep each run's output here")
    argv = sys.argv[1:]
    cut = argv.index("--") if "--" in argv else len(argv)
    args = parser.parse_args(argv[:cut])
    bench = argv[cut + 1:]  # after --: the arguments of benchmarks.interaction
    here = Path(__file__).resolve().parents[1]
    trees = {"base": args.base.resolve(), "this": here}
    runs: dict[str, list[dict[str, float]]] = {"base": [], "this": []}
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
    print(f"benchmarks.interaction {' '.join(bench)}; base {trees['base']}, this {here}")
    with tempfile.TemporaryDirectory() as harness:
        Path(harness, "benchmarks").symlink_to(here / "benchmarks")
        for n in range(1, args.rounds + 1):
            for name in ("base", "this") if n % 2 else ("this", "base"):
                text, (load0, load1) = run_tree(trees[name], Path(harness), bench)
                figures = parse(text)
                runs[name].append(figures)
                if args.out:
                    (args.out / f"round{n}_{name}.txt").write_text(text)
                shown = ", ".join(f"{k} {figures[k]:g}" for k, _ in FIGURES if k in figures)
                print(f"round {n} {name} (load {load0:.1f} → {load1:.1f}): {shown or text[-2000:]}",
                      flush=True)
    print(f"\n{'figure':<22}{'base':>10}{'this':>10}{'this/base':>11}   (medians over rounds)")
    for name, _ in FIGURES:
        values = [[r[name] for r in runs[t] if name in r] for t in ("base", "this")]
        if not values[0] or not values[1]:
            continue
        base, this = statistics.median(values[0]), statistics.median(values[1])
        ratio = f"{this / base:.2f}" if base else "-"
        print(f"{name:<22}{base:>10.2f}{this:>10.2f}{ratio:>11}")


if __name__ == "__main__":
    main()
