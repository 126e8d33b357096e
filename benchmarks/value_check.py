"""What the learned evaluation knows about moves, and how many deals each search sees.

    nice -n 19 python -m benchmarks.value_check --positions 12 --deals 120

Positions: the searched decisions (more than one option, no certain finish, above the
exact endgame) of ``benchmarks.search_regret.positions`` (seeded normal-vs-normal games),
shuffled with the same seed. For each, the hard search's candidates (normal's best 5 and
the pass) are played out with the normal policy on ``--deals`` inferred deals and valued
by the model (``bot.ai.search.model_values``) on the same deals. Printed:

* the correlation, over the deals, of a candidate's playout outcome with its model value
  (how well the model tells good deals from bad ones), and of the *difference* between
  two candidates' outcomes with the difference of their model values (how well it tells
  the better move on a deal: what a search needs, and what a control variate would use);
* the deals a decision sees and the evaluations a candidate gets, in ``hard_search`` with
  the playouts and with the model (no clock cap), on the first ``--searches`` positions.

docs/AI.md §Learned evaluation has the figures.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
from pathlib import Path

import numpy as np

import bot.ai.search as search
import bot.ai.value as value
from benchmarks.search_regret import positions
from bot.ai.inference import follow_events, weighted_world
from bot.ai.policy import normal_ranked


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--positions", type=int, default=12)
    parser.add_argument("--deals", type=int, default=120)
    parser.add_argument("--searches", type=int, default=25)
    parser.add_argument("--weights", type=Path, default=None,
                        help="the learned evaluation's weights (default: the shipped ones)")
    args = parser.parse_args(argv)
    if args.weights is not None:
        value.WEIGHTS = args.weights
        value.shipped.cache_clear()
    views = [v for v in positions(8) if sum(v.cards_left) > search.ENDGAME_CARDS]
    random.Random(7).shuffle(views)
    single: list[float] = []
    paired: list[float] = []
    done = 0
    for view in views:
        ranked = normal_ranked(view)
        if len(ranked) == 1 or ranked[0][0] >= 100:
            continue
        actions = [d.combo for d in search.top_candidates(ranked, search.CANDIDATES,
                                                          view.to_beat is not None)]
        rng = random.Random(3)
        events = follow_events(view.history, view.landlord, view.seat)
        worlds = [weighted_world(view, rng, search.sample_world, events)
                  for _ in range(args.deals)]
        model = search.model_values(worlds, view, actions)
        played = np.array([[float(search.rollout([list(h) for h in w], view, a, [0]))
                            for w in worlds] for a in actions])
        for i in range(len(actions)):
            if played[i].std() > 0 and model[i].std() > 0:
                single.append(float(np.corrcoef(played[i], model[i])[0, 1]))
            for j in range(i + 1, len(actions)):
                dp, dm = played[i] - played[j], model[i] - model[j]
                if dp.std() > 0 and dm.std() > 0:
                    paired.append(float(np.corrcoef(dp, dm)[0, 1]))
        done += 1
        if done == args.positions:
            break
    print(f"value_check: {done} positions, {args.deals} deals each")
    print(f"corr(playout outcome, model value), per candidate: median "
          f"{statistics.median(single):.3f}, mean {statistics.mean(single):.3f} ({len(single)})")
    print(f"corr of the difference between two candidates: median "
          f"{statistics.median(paired):.3f}, mean {statistics.mean(paired):.3f} ({len(paired)})")
    evaluations: tuple[search.Evaluation, ...] = ("playout", "model") if args.searches else ()
    for evaluation in evaluations:
        deals: list[int] = []
        per_candidate: list[int] = []
        for view in views:
            if len(deals) == args.searches:
                break
            sampled = search.hard_search(view, random.Random(1), time_cap=math.inf,
                                         evaluation=evaluation)
            runs = [n for _, n in sampled.rates.values()]
            if runs:
                deals.append(max(runs))
                per_candidate += runs
        print(f"{evaluation}: {len(deals)} decisions, deals a decision median "
              f"{statistics.median(deals)} (min {min(deals)}); evaluations a candidate median "
              f"{statistics.median(per_candidate)} (min {min(per_candidate)}, "
              f"max {max(per_candidate)})")


if __name__ == "__main__":
    main()
