"""Late choices judged on the real deal: does the hard search keep a won position?

    python -m benchmarks.tail_check --games 400 --evaluations playout,tailed

Positions: every decision of seat 0's side in seeded games (deal seeds 1, 2, …, seat 0 the
landlord, normal in every seat, as ``benchmarks.search_regret``) with between
``search.ENDGAME_CARDS`` + 1 and ``--most`` cards left in all hands, where the search
really searches. Each of normal's first 10 actions (and the pass) is then solved exactly
**on the real deal**, every hand known (``endgame.Solver``, ``--nodes`` a solve): a
position counts when some of them keep our side's win and some lose it. A search's choice
(two seeds, no clock cap) scores 1 when it keeps the win. The real deal is one draw of
what the searching seat cannot see, so over many positions the score estimates how often
a choice keeps a game that best play from there would win: the late game's yardstick,
where the hard search's own later moves are exact (docs/AI.md §Fourth pass).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Iterator

from benchmarks.search_regret import replayed_positions
from bot.ai import search
from bot.ai.endgame import Solver
from bot.ai.policy import normal_ranked
from bot.ai.view import View
from bot.rules import Card, Combo


def late_positions(games: int, most: int, first: int = 1
                   ) -> Iterator[tuple[View, list[list[Card]]]]:
    """Seat 0's side's views with ``ENDGAME_CARDS`` < cards left ≤ ``most``, and the real
    hands, in ``games`` seeded games from deal seed ``first`` on, normal in every seat
    (seat 0's side: the landlord in odd games, the peasants in even ones)."""
    for view, hands in replayed_positions(games, first):
        if search.ENDGAME_CARDS < sum(len(h) for h in hands) <= most:
            yield view, hands


def keeps(view: View, hands: list[list[Card]], action: Combo | None, nodes: int) -> bool | None:
    """Does our side still win with best play, every hand known, after ``action``?
    None when over the node budget."""
    solver = Solver(view.landlord, view.rules, nodes)
    won = search._exact([list(h) for h in hands], view, action, solver)
    return None if won is None else won == view.is_landlord


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1, help="first deal seed")
    parser.add_argument("--most", type=int, default=24, help="most cards left in all hands")
    parser.add_argument("--nodes", type=int, default=200_000, help="exact solve budget")
    parser.add_argument("--budget", type=int, default=search.STEP_BUDGET)
    parser.add_argument("--evaluations", default="playout,tailed")
    args = parser.parse_args(argv)
    evaluations = args.evaluations.split(",")
    scores: dict[str, list[float]] = {e: [] for e in evaluations}
    scores["none: normal's first choice"] = []
    cpu: dict[str, list[float]] = {e: [] for e in evaluations}
    seen = informative = 0
    start = time.perf_counter()
    for view, hands in late_positions(args.games, args.most, args.seed):
        ranked = normal_ranked(view)
        if len(ranked) == 1 or ranked[0][0] >= 100:
            continue
        seen += 1
        actions = [d.combo for d in search.top_candidates(ranked, 10, view.to_beat is not None)]
        value = {a: keeps(view, hands, a, args.nodes) for a in actions}
        known = [v for v in value.values() if v is not None]
        if True not in known or False not in known:
            continue
        informative += 1
        scores["none: normal's first choice"].append(float(value[ranked[0][1].combo] is True))
        for evaluation in evaluations:
            for seed in (1000, 1001):
                t = time.process_time()
                action = search.hard_play(view, random.Random(seed), args.budget,
                                          time_cap=float("inf"), evaluation=evaluation).combo
                cpu[evaluation].append(time.process_time() - t)
                kept = value.get(action)
                if kept is None:
                    kept = keeps(view, hands, action, args.nodes)
                scores[evaluation].append(float(kept is True))
    print(f"tail_check: {args.games} games from seed {args.seed}, {seen} late positions searched "
          f"({search.ENDGAME_CARDS + 1}–{args.most} cards left), {informative} where the "
          f"choice matters on the real deal, {time.perf_counter() - start:.0f} s")
    print("| search | choices | keeps the win | minus the first's (95 %, per position) | "
          "CPU median |")
    print("|---|---|---|---|---|")
    first = scores[evaluations[0]]
    for name, s in scores.items():
        paired = ""
        if name in evaluations and name != evaluations[0]:
            d = [(a + b - c - e) / 2 for a, b, c, e in
                 zip(s[::2], s[1::2], first[::2], first[1::2], strict=True)]
            half = 1.96 * statistics.stdev(d) / len(d) ** 0.5 if len(d) > 1 else 0.0
            paired = f"{statistics.mean(d):+.3f} ± {half:.3f}"
        c = f"{1000 * statistics.median(cpu[name]):.0f} ms" if name in cpu else "0"
        print(f"| {name} | {len(s)} | {statistics.mean(s):.3f} | {paired} | {c} |")


if __name__ == "__main__":
    main()
