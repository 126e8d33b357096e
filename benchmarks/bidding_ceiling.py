"""How much can any bidding built on the 17 dealt cards gain against the bold baseline?

    python -m benchmarks.bidding_ceiling
    python -m benchmarks.bidding_ceiling --objective threshold:0 --passes 1

A study behind docs/AI.md §Bidding (arena), run on the caches of
``fitting.bidding_outcomes`` (normal play): the training deals (seeds
10,000,000 + i) and the arena's deals (seeds 1–1000, ``eval.jsonl``). It fits
a richer P(landlord wins) of the 17 dealt cards than ``bot.ai.bidding.hand_win_rate``
(``hand_features`` plus, per rank 3..2, "holds ≥ 1 / ≥ 2 / ≥ 3") on the training
deals past the first ``HOLD_OUT`` seeds, then tunes a separate set of three
thresholds for every bidding situation (position 0/1/2 in the once-around
order × the highest bid so far) by coordinate ascent, maximizing on those
training deals either the worst case over the arena's baselines
(``--objective maxmin``) or the points against one baseline. Printed: our
points/hand against each baseline (``fitting.fit_bidding.BASELINES``) on
the tuning deals (in-sample, optimistic), on the held-out training seeds, and
on the arena's 1000 deals (the arena's figures, without its redeals: an
all-pass deal scores 0 here).

The held-out figures bound what this whole family of policies (an estimate
from one's own hand + position + the bids so far; ``hard``'s sampling uses the
same information) can reach against ``threshold:0``.
"""

from __future__ import annotations

import argparse
import json
import random
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from bot.ai.bidding import strength_score
from bot.ai.bidding_features import hand_features
from bot.ai.evaluate import counts_of
from fitting.bidding_outcomes import dealt
from fitting.fit_bidding import BASELINES, baseline_bid, fit_logistic, load

CACHE = Path.home() / ".cache" / "ddz-bot"
HOLD_OUT = 600
"""Training seeds held out of the fit and the tuning (the first ones)."""
STATES = ((0, 0), (1, 0), (1, 1), (1, 2), (2, 0), (2, 1), (2, 2))
"""(position in the bidding order, highest bid so far) of a once-around bidding."""

Deal = tuple[int, list[list[int]], list[float], list[int], list[list[float]]]
"""first bidder, rank counts of the three hands, their strength scores, the
landlord points at base 1 per landlord, uniform draws for ``random``."""


def rich_features(counts: Sequence[int]) -> list[float]:
    """``hand_features`` plus 39 indicators: holds ≥ 1, ≥ 2, ≥ 3 of each rank 3..2."""
    return hand_features(counts) + [float(counts[r] >= k) for k in (1, 2, 3) for r in range(13)]


def deals_of(path: Path, seeds: Sequence[int] | None = None) -> list[tuple[int, Deal]]:
    """(seed, Deal) of every seed of the cache at ``path`` played with each landlord."""
    points: dict[int, dict[int, int]] = {}
    for seed, landlord, p in load(path, "normal"):
        points.setdefault(seed, {})[landlord] = p
    out = []
    for seed in seeds if seeds is not None else sorted(points):
        if len(points.get(seed, {})) < 3:
            continue
        hand = dealt(seed)
        counts = [counts_of(h) for h in hand.dealt]
        rnd = random.Random(seed)
        out.append((seed, (hand.first_bidder, counts, [strength_score(c) for c in counts],
                           [points[seed][s] for s in range(3)],
                           [[rnd.random() for _ in range(3)] for _ in range(3)])))
    return out


def per_deal(thresholds: dict[tuple[int, int], list[float]], kind: str | float,
             deals: list[tuple[Deal, list[float]]]) -> list[float]:
    """Our points/hand against baseline ``kind`` per deal (we sit in each seat in turn,
    the three seatings averaged)."""
    out = []
    for (first, _, strengths, pts, us), rates in deals:
        total = 0.0
        for r in range(3):
            highest, winner = 0, None
            for k in range(3):
                seat = (first + k) % 3
                if seat == r:
                    want = sum(1 for t in thresholds[(k, highest)] if rates[seat] >= t)
                    amount = want if want > highest else 0
                else:
                    amount = baseline_bid(kind, strengths[seat], us[r][seat], highest)
                if amount > highest:
                    highest, winner = amount, seat
                if amount == 3:
                    break
            if winner is not None:
                total += highest * pts[winner] * (1 if winner == r else -0.5)
        out.append(total / 3)
    return out


def score(thresholds: dict[tuple[int, int], list[float]], kind: str | float,
          deals: list[tuple[Deal, list[float]]]) -> float:
    """Our mean points/hand against baseline ``kind``."""
    return sum(per_deal(thresholds, kind, deals)) / len(deals)


def row(label: str, thresholds: dict[tuple[int, int], list[float]],
        deals: list[tuple[Deal, list[float]]]) -> str:
    cells = []
    for kind in BASELINES:
        values = np.array(per_deal(thresholds, kind, deals))
        cells.append(f"{values.mean():+.2f} ± {1.96 * values.std(ddof=1) / len(values) ** 0.5:.2f}")
    return f"| {label} | {len(deals)} | " + " | ".join(cells) + " |"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--train", type=Path, default=CACHE / "train.jsonl")
    parser.add_argument("--arena", type=Path, default=CACHE / "eval.jsonl")
    parser.add_argument("--objective", default="maxmin", help="maxmin or threshold:0")
    parser.add_argument("--passes", type=int, default=2)
    args = parser.parse_args(argv)
    train = deals_of(args.train)
    held, tune = train[:HOLD_OUT], train[HOLD_OUT:]
    x = [rich_features(d[1][s]) for _, d in tune for s in range(3)]
    y = [1.0 if d[3][s] > 0 else 0.0 for _, d in tune for s in range(3)]
    w = fit_logistic(np.array(x), np.array(y))

    def with_rates(deals: list[tuple[int, Deal]]) -> list[tuple[Deal, list[float]]]:
        return [(d, [float(1 / (1 + np.exp(-(w[0] + w[1:] @ rich_features(c))))) for c in d[1]])
                for _, d in deals]

    tuning, held_out = with_rates(tune), with_rates(held)
    arena = with_rates(deals_of(args.arena, range(1, 1001)))
    kinds = BASELINES if args.objective == "maxmin" else (float(args.objective.split(":")[1]),)

    def objective(t: dict[tuple[int, int], list[float]]) -> float:
        each = [score(t, kind, tuning) for kind in kinds]
        return min(each) + 0.05 * sum(each) / len(each)

    thresholds = {s: [0.26, 0.26, 0.35] for s in STATES}  # normal's THRESHOLDS to start
    best = objective(thresholds)
    for _ in range(args.passes):
        for state in STATES:
            for j in range(state[1], 3):  # thresholds at or below the highest bid never act
                for g in np.arange(0.16, 0.80, 0.03):
                    old = thresholds[state][j]
                    thresholds[state][j] = round(float(g), 2)
                    if sorted(thresholds[state]) == thresholds[state]:
                        value = objective(thresholds)
                        if value > best + 1e-9:
                            best = value
                            continue
                    thresholds[state][j] = old
    print(f"objective {args.objective}; thresholds per (position, highest bid):")
    print({s: tuple(t) for s, t in thresholds.items()})
    names = [k if isinstance(k, str) else f"threshold:{k:g}" for k in BASELINES]
    print("| deals | n | " + " | ".join(f"vs {k}" for k in names) + " |")
    print("|---|---|" + "---|" * len(BASELINES))
    print(row("tuning (in-sample)", thresholds, tuning))
    print(row(f"held-out training (first {HOLD_OUT} seeds)", thresholds, held_out))
    print(row("arena seeds 1–1000", thresholds, arena))
    print(json.dumps({"objective": args.objective, "best": round(best, 4)}))


if __name__ == "__main__":
    main()
