"""``python -m benchmarks.puzzles [--warm] [--limit N]``: the puzzle solver's time per
defence move over every shipped puzzle (issue 39: p99 under 50 ms on this machine).

Each puzzle is played along its winning line (the member plays the stored line); at
every turn of the member's opponents the defence is asked of the solver
(``bot.features.puzzles.solver.best_defence``) and timed, wall and CPU. Then again off the line: the
member plays a random winning move (seeded by the puzzle) at each turn, the partner
``best_move``. By default the solver's tables
are emptied before each puzzle (a cold start: a fresh process, or a puzzle nobody has
played since); ``--warm`` keeps them. It also times the failure screen's work once per
puzzle: a losing first move (the first in legal order) and its refutation line
(``bot.features.puzzles.solver.refutation``). Prints p50/p90/p99/max per kind. docs/AI.md §Puzzles.
Run it with ``nice -n 10`` on a shared machine.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from typing import TypeVar

from bot.features.puzzles.model import load_puzzles
from bot.features.puzzles.position import apply, is_over, legal_moves, team_of
from bot.features.puzzles.solver import _SOLVERS, best_defence, best_move, refutation, winning_moves

T = TypeVar("T")


def _quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _row(name: str, values: list[tuple[float, float]]) -> str:
    wall = [w * 1000 for w, _ in values]
    cpu = [c * 1000 for _, c in values]
    return (f"{name:<28} n={len(values):>5}  wall ms p50 {statistics.median(wall):6.2f}"
            f"  p90 {_quantile(wall, 0.9):6.2f}  p99 {_quantile(wall, 0.99):6.2f}"
            f"  max {max(wall):7.2f}   CPU ms p50 {statistics.median(cpu):6.2f}"
            f"  p99 {_quantile(cpu, 0.99):6.2f}")


def _timed(fn: Callable[..., T], *args: object) -> tuple[T, tuple[float, float]]:
    wall, cpu = time.perf_counter(), time.process_time()
    out = fn(*args)
    return out, (time.perf_counter() - wall, time.process_time() - cpu)


def measure(warm: bool, limit: int | None) -> dict[str, list[tuple[float, float]]]:
    """{kind: [(wall s, CPU s)]} over the shipped puzzles."""
    rows: dict[str, list[tuple[float, float]]] = {
        "defence move": [], "defence move, off the line": [], "refutation line": []}
    for puzzle in load_puzzles()[:limit]:
        if not warm:
            _SOLVERS.clear()
        pos = puzzle.position()
        member = team_of(pos, puzzle.member_seat)
        for cards in puzzle.line:
            if team_of(pos, pos.turn) != member:
                move, spent = _timed(best_defence, pos)
                rows["defence move"].append(spent)
                assert ("" if move is None else move.notation) == cards, puzzle.id
            else:
                move = next(m for m in legal_moves(pos)
                            if ("" if m is None else m.notation) == cards)
            pos = apply(pos, move)
        # Off the line: the member picks a random winning move at each of its turns
        # (seeded), as a member who wins the long way may.
        if not warm:
            _SOLVERS.clear()
        pos = puzzle.position()
        rng = random.Random(puzzle.id)
        while not is_over(pos):
            if team_of(pos, pos.turn) != member:
                move, spent = _timed(best_defence, pos)
                rows["defence move, off the line"].append(spent)
            elif pos.turn == puzzle.member_seat:
                move = rng.choice(winning_moves(pos))
            else:
                move = best_move(pos)  # the computer partner
            pos = apply(pos, move)
        start = puzzle.position()
        wrong = [m for m in legal_moves(start)
                 if ("" if m is None else m.notation) != puzzle.solution][:1]  # may be a pass
        for move in wrong:
            if not warm:
                _SOLVERS.clear()
            _, spent = _timed(refutation, start, move)
            rows["refutation line"].append(spent)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.puzzles")
    parser.add_argument("--warm", action="store_true", help="keep the solver's tables")
    parser.add_argument("--limit", type=int, default=None, help="first N puzzles only")
    args = parser.parse_args()
    started = time.perf_counter()
    rows = measure(args.warm, args.limit)
    print(f"{'warm' if args.warm else 'cold'} solver, {len(load_puzzles()[:args.limit])} "
          f"puzzles, {time.perf_counter() - started:.1f} s")
    for name, values in rows.items():
        if values:
            print(_row(name, values))


if __name__ == "__main__":
    main()
