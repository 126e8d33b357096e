"""Decision quality of the hard search against a large reference evaluation of the same model.

    python -m benchmarks.search_regret --positions 60 --worlds 400 --budgets 3500,8000

Positions: every decision of seat 0's side in seeded games (deal seeds 1, 2, …; the
landlord fixed at seat 0, normal in every seat) where the search really searches
(more than one option and no certain finish), shuffled with a fixed seed. For each,
the **reference** plays the first 10 distinct actions of normal's ranking (a pass
included when the lead is not free) out on ``--worlds`` sampled deals of the unseen
cards, the same deals for every action, exactly as the search does (inferred deals,
normal playouts, the exact endgame at ``ENDGAME_CARDS``). Each budget's choice (two
seeds, ``hard_play`` with no clock cap) is then scored by its **regret**: the
reference win rate of the best action minus that of the chosen one.

The regret measures how well the search finds what its own model prefers, not how
strong the model is: docs/AI.md §Issue 40 compares it with the arena's win rates.
"""

from __future__ import annotations

import argparse
import pickle
import random
import statistics
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import bot.ai.search as search
import bot.ai.value as value
from bot.ai.endgame import Solver
from bot.ai.inference import follow_events, weighted_world
from bot.ai.policy import normal_play, normal_ranked
from bot.ai.selfplay import deal, observation_for, play_hand
from bot.ai.view import View, view_of
from bot.rules import Card, Combo

REFERENCE_CANDIDATES = 10
SHIPPED = value.WEIGHTS
TRUNCATE = search.TRUNCATE
STAGES = ("early (> 40 cards left)", "middle (21–40)", "late (≤ 20)")


def positions(games: int) -> Iterator[View]:
    """Seat 0's side's views, in seeded games of normal in every seat (seat 0 landlord in
    odd games, a peasant in even ones: its side is the peasants then)."""
    for view, _ in replayed_positions(games):
        yield view


def replayed_positions(games: int, first: int = 1
                       ) -> Iterator[tuple[View, list[list[Card]]]]:
    """``positions``' views from deal seed ``first`` on, each with the real hands at that
    moment (the kitty in the landlord's): seeded games of normal in every seat, seat 0 the
    landlord; seat 0's side is the landlord in odd games, the peasants in even ones."""
    agents = [lambda obs, rng: normal_play(view_of(obs), rng)] * 3
    for seed in range(first, first + games):
        hands, kitty = deal(random.Random(seed))
        outcome = play_hand(agents, hands, 0, kitty, random.Random(seed))
        ours = (0,) if seed % 2 else (1, 2)
        cards = [list(h) for h in hands]
        cards[0] = sorted(cards[0] + list(kitty))
        last: tuple[int, Combo] | None = None
        history: list[tuple[int, Combo | None]] = []
        for seat, combo in outcome.history:
            if seat in ours:
                yield (view_of(observation_for(seat, cards, 0, kitty, list(history), last)),
                       [list(h) for h in cards])
            if combo is not None:
                for card in combo.cards:
                    cards[seat].remove(card)
                last = (seat, combo)
            history.append((seat, combo))
            if last is not None and last[0] == (seat + 1) % 3:
                last = None


def reference(view: View, worlds: int, rng: random.Random) -> dict[Combo | None, float] | None:
    """Win rate of each of the first ``REFERENCE_CANDIDATES`` actions on ``worlds`` deals;
    None when the search would not search (one option, or a certain finish)."""
    ranked = normal_ranked(view)
    if len(ranked) == 1 or ranked[0][0] >= 100:
        return None
    actions = [d.combo for d in search.top_candidates(ranked, REFERENCE_CANDIDATES,
                                                      view.to_beat is not None)]
    events = follow_events(view.history, view.landlord, view.seat)
    exact = sum(view.cards_left) <= search.ENDGAME_CARDS
    solver = Solver(view.landlord, view.rules, search.ENDGAME_NODES) if exact else None
    wins = [0] * len(actions)
    steps = [0]
    for _ in range(worlds):
        world = weighted_world(view, rng, search.sample_world, events)
        for i, action in enumerate(actions):
            hands = [list(h) for h in world]
            won = search._exact(hands, view, action, solver) if exact else None
            if won is None:
                won = search.rollout(hands, view, action, steps)
            wins[i] += won == view.is_landlord
    return {action: w / worlds for action, w in zip(actions, wins, strict=True)}


def configure(evaluation: str, lookahead: int) -> Any:
    """Set the search's knobs for an ``--evaluations`` entry ``NAME[K][@PLIES][=WEIGHTS]``
    (``pruned3``: ``PRUNE_KEEP`` = 3; ``truncated8``: ``TRUNCATE`` = 8; ``@2``: ``LOOKAHEAD`` = 2; ``=path.npz``: the learned
    evaluation's weights); returns the evaluation's name."""
    spec, _, weights = evaluation.partition("=")
    value.WEIGHTS = Path(weights) if weights else SHIPPED
    value.shipped.cache_clear()
    spec, _, plies = spec.partition("@")
    search.LOOKAHEAD = int(plies) if plies else lookahead
    name = spec.rstrip("0123456789")
    if name == "pruned" and spec != name:
        search.PRUNE_KEEP = int(spec[len(name):])
    if name in ("truncated", "prunedtruncated"):
        search.TRUNCATE = int(spec[len(name):]) if spec != name else TRUNCATE
    return name


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--positions", type=int, default=60)
    parser.add_argument("--worlds", type=int, default=400, help="reference deals per position")
    parser.add_argument("--budgets", default="3500,8000", help="step budgets, comma-separated")
    parser.add_argument("--evaluations", default="playout",
                        help="the search's evaluations, comma-separated: playout, model, "
                             "pruned; model@N (N plies before the model), prunedK (keep K "
                             "candidates), NAME=WEIGHTS.npz (docs/AI.md §Learned evaluation)")
    parser.add_argument("--lookahead", type=int, default=search.LOOKAHEAD,
                        help="plies played before the learned evaluation (search.LOOKAHEAD)")
    parser.add_argument("--cache", type=Path, default=None,
                        help="a file keeping the reference's win rates between runs (pickle)")
    args = parser.parse_args(argv)
    cache: dict[tuple[int, int, int], Any] = {}
    if args.cache is not None and args.cache.exists():
        cache = pickle.loads(args.cache.read_bytes())
    search.LOOKAHEAD = args.lookahead
    budgets: list[tuple[int, Any]] = [(int(b), e) for e in args.evaluations.split(",")
                                      for b in args.budgets.split(",")]
    stages: list[str] = []
    normal_regret: list[float] = []
    views = list(positions(args.positions))
    random.Random(7).shuffle(views)
    regrets: dict[tuple[int, str], list[float]] = {b: [] for b in budgets}
    cpu: dict[tuple[int, str], list[float]] = {b: [] for b in budgets}
    done = 0
    start = time.perf_counter()
    for n, view in enumerate(views):
        if (n, args.worlds, args.positions) not in cache:
            cache[n, args.worlds, args.positions] = reference(view, args.worlds, random.Random(n))
            if args.cache is not None:
                args.cache.write_bytes(pickle.dumps(cache))
        ref = cache[n, args.worlds, args.positions]
        if ref is None:
            continue
        best = max(ref.values())
        left = sum(view.cards_left)
        stages += [STAGES[0] if left > 40 else STAGES[1] if left > 20 else STAGES[2]] * 2
        first = normal_ranked(view)[0][1].combo
        normal_regret += [best - ref.get(first, min(ref.values()))] * 2
        for budget, evaluation in budgets:
            for seed in (1000, 1001):
                t = time.process_time()
                name = configure(evaluation, args.lookahead)
                action = search.hard_play(view, random.Random(seed), budget, time_cap=float("inf"),
                                          evaluation=name).combo
                cpu[budget, evaluation].append(time.process_time() - t)
                regrets[budget, evaluation].append(best - ref.get(action, min(ref.values())))
        done += 1
        if done == args.positions:
            break
    print(f"search_regret: {done} positions, reference {args.worlds} deals × up to "
          f"{REFERENCE_CANDIDATES + 1} actions, {time.perf_counter() - start:.0f} s")
    counts = " / ".join(str(stages.count(s) // 2) for s in STAGES)
    print("| step budget | evaluation | choices | mean regret | regret 0 | regret > 0.05 | "
          f"mean regret {' / '.join(STAGES)} ({counts} positions) | CPU median | CPU mean | "
          "minus the budget's first evaluation (95 %, per position) |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    rows = [(str(b), e, regrets[b, e], cpu[b, e]) for b, e in budgets]
    rows.append(("–", "none: normal's first choice", normal_regret, [0.0]))
    firsts = {b: regrets[b, e] for b, e in reversed(budgets)}
    for label, evaluation, r, c in rows:
        paired = ""
        if label != "–" and r is not firsts[int(label)]:
            d = [x - y for x, y in zip(r, firsts[int(label)], strict=True)]
            per = [(d[i] + d[i + 1]) / 2 for i in range(0, len(d), 2)]  # a position's two choices
            half = 1.96 * statistics.stdev(per) / len(per) ** 0.5 if len(per) > 1 else 0.0
            paired = (f"{statistics.mean(per):+.4f} ± {half:.4f}, worse on "
                      f"{sum(x > 0 for x in per)}, better on {sum(x < 0 for x in per)}")
        by_stage = " / ".join(
            f"{statistics.mean(x for x, st in zip(r, stages, strict=True) if st == s):.4f}"
            if s in stages else "–" for s in STAGES)
        print(f"| {label} | {evaluation} | {len(r)} | {statistics.mean(r):.4f} | "
              f"{sum(x == 0 for x in r) / len(r):.3f} | {sum(x > 0.05 for x in r)} | "
              f"{by_stage} | {statistics.median(c) * 1000:.0f} ms | "
              f"{statistics.mean(c) * 1000:.0f} ms | {paired} |")


if __name__ == "__main__":
    main()
