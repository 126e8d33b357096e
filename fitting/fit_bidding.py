"""Fit the bidding value models of ``bot.ai.bidding`` on played-out deals (reproducible).

    python -m fitting.bidding_outcomes 10000000 3000 normal ~/.cache/ddz-bot/train.jsonl
    python -m fitting.fit_bidding --cache ~/.cache/ddz-bot/train.jsonl

Training deals are seeds 10,000,000 + i (the arena uses seeds from 1), each
played out with normal play in every seat once per possible landlord
(``fitting.bidding_outcomes``). Fitted, by L2-regularized logistic regression
(numpy, Newton steps) on ``bot.ai.bidding_features.hand_features``:

* ``DEAL_WEIGHTS``: P(landlord wins) from the landlord's 20 cards and the two
  peasants' hands (hard's evaluator of one sampled deal);
* ``HAND_WEIGHTS``: P(landlord wins) from the landlord's 17 dealt cards alone
  (the kitty and the other hands unknown: normal's estimate);
* ``MULTIPLIER``: mean 2^doublings by the number of bombs + rockets in the deal.

Prints held-out log-loss / Brier score of each model (the first 20 % of the
seeds are held out) next to the old strength score, then the constants to paste
into ``bot/ai/bidding.py``.
"""

from __future__ import annotations

import argparse
import json
import math
import random
from collections.abc import Callable
from pathlib import Path

import numpy as np

from bot.ai.bidding import strength_score
from bot.ai.bidding_features import FEATURES, hand_features
from bot.ai.evaluate import counts_of
from fitting.bidding_outcomes import DEFAULT_CACHE, dealt

PEASANT_FEATURES = ("bombs", "big_joker", "small_joker", "twos", "aces", "turns")


def load(path: Path, level: str) -> list[tuple[int, int, int]]:
    """(seed, landlord, points at base 1) rows of the cache for ``level``, sorted."""
    rows = []
    for line in path.read_text().splitlines():
        if line.strip():
            row = json.loads(line)
            if row["level"] == level:
                rows.append((row["seed"], row["landlord"], row["points"]))
    return sorted(set(rows))


def fit_logistic(x: np.ndarray, y: np.ndarray, l2: float = 1.0) -> np.ndarray:
    """Weights (intercept first) of an L2-regularized logistic regression (Newton)."""
    x1 = np.hstack([np.ones((len(x), 1)), x])
    w = np.zeros(x1.shape[1])
    penalty = np.full(x1.shape[1], l2)
    penalty[0] = 0.0
    for _ in range(50):
        p = 1 / (1 + np.exp(-(x1 @ w)))
        grad = x1.T @ (p - y) + penalty * w
        hess = (x1 * (p * (1 - p))[:, None]).T @ x1 + np.diag(penalty)
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    return w


def scores(w: np.ndarray, x: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    """(log-loss, Brier score) of weights ``w`` on ``x``, ``y``."""
    p = 1 / (1 + np.exp(-(np.hstack([np.ones((len(x), 1)), x]) @ w)))
    p = np.clip(p, 1e-6, 1 - 1e-6)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p))), float(np.mean((p - y) ** 2))


def tables(rows: list[tuple[int, int, int]]) -> dict[str, np.ndarray]:
    """Feature matrices and targets of the cached rows."""
    peasant_index = [FEATURES.index(f) for f in PEASANT_FEATURES]
    deal_x, hand_x, old_x, bombs, wins, mults, seeds = [], [], [], [], [], [], []
    hands_of: dict[int, tuple[list[list[int]], list[int]]] = {}
    for seed, landlord, points in rows:
        if seed not in hands_of:
            hand = dealt(seed)
            hands_of[seed] = ([counts_of(h) for h in hand.dealt], counts_of(hand.kitty))
        counts, kitty = hands_of[seed]
        own = counts[landlord]
        full = [a + b for a, b in zip(own, kitty, strict=True)]
        peasants = [counts[s] for s in range(3) if s != landlord]
        pf = [hand_features(p) for p in peasants]
        deal_x.append(hand_features(full) + [pf[0][i] + pf[1][i] for i in peasant_index])
        hand_x.append(hand_features(own))
        old_x.append([strength_score(own)])
        n_bombs = sum(1 for h in (full, *peasants) for r in range(13) if h[r] == 4)
        n_bombs += sum(1 for h in (full, *peasants) if h[13] and h[14])
        bombs.append(n_bombs)
        wins.append(1.0 if points > 0 else 0.0)
        mults.append(abs(points) / 2)
        seeds.append(seed)
    return {
        "deal": np.array(deal_x), "hand": np.array(hand_x), "old": np.array(old_x),
        "bombs": np.array(bombs), "win": np.array(wins), "mult": np.array(mults),
        "seed": np.array(seeds),
    }


BASELINES = ("random", 6.0, 4.0, 2.0, 0.0, "always3")
"""The arena's baselines (``benchmarks.bidding_arena``): random bids, the old strength
threshold at cut-offs 6 (the old normal), 4, 2, 0 (bold), always 3."""


def baseline_bid(kind: str | float, strength: float, u: float, highest: int) -> int:
    """The bid of baseline ``kind`` (an entry of ``BASELINES``) for a hand of old strength
    score ``strength``, a uniform draw ``u`` in [0, 1) (``random``) and ``highest`` bid so far."""
    if kind == "always3":
        return 3
    if kind == "random":
        allowed = [0] + [b for b in (1, 2, 3) if b > highest]
        return allowed[int(u * len(allowed))]
    assert isinstance(kind, float)
    want = 3 if strength >= kind + 5 else 2 if strength >= kind + 2 else 1 if strength >= kind else 0
    return want if want > highest else 0


def _bid_once(first: int, choose: Callable[[int, int], int]) -> tuple[int, int] | None:
    """(landlord, bid) of a once-around bidding from ``first``, ``choose(seat, highest)``
    giving each seat's bid; None when all pass."""
    highest, winner = 0, None
    for k in range(3):
        seat = (first + k) % 3
        amount = choose(seat, highest)
        if amount > highest:
            highest, winner = amount, seat
        if amount == 3:
            break
    return None if winner is None else (winner, highest)


def tune_thresholds(
    rows: list[tuple[int, int, int]], deals: int, margin: float
) -> tuple[float, ...]:
    """normal's THRESHOLDS: over a grid, the best mean points/hand over ``BASELINES``
    among those whose worst baseline is within ``margin`` of the best worst case (our
    policy in each seat in turn, once-around bidding, an all-pass deal scores 0)."""
    from bot.ai.bidding import hand_win_rate

    points: dict[int, dict[int, int]] = {}
    for seed, landlord, p in rows:
        points.setdefault(seed, {})[landlord] = p
    seeds = sorted(s for s, d in points.items() if len(d) == 3)[:deals]
    info = []
    for seed in seeds:
        hand = dealt(seed)
        counts = [counts_of(h) for h in hand.dealt]
        rnd = random.Random(seed)
        info.append((hand.first_bidder, [hand_win_rate(c) for c in counts],
                     [strength_score(c) for c in counts], points[seed],
                     [[rnd.random() for _ in range(3)] for _ in range(3)]))

    def score(thresholds: tuple[float, float, float], kind: str | float) -> float:
        total = 0.0
        for first, rates, strengths, pts, us in info:
            for r in range(3):
                def choose(seat: int, highest: int, r: int = r, rates: list = rates,
                           strengths: list = strengths, us: list = us) -> int:
                    if seat == r:
                        want = sum(1 for t in thresholds if rates[seat] >= t)
                        return want if want > highest else 0
                    return baseline_bid(kind, strengths[seat], us[r][seat], highest)

                result = _bid_once(first, choose)
                if result is not None:
                    landlord, bid = result
                    total += bid * pts[landlord] * (1 if landlord == r else -0.5)
        return total / (3 * len(info))

    results = []
    for t1 in np.arange(0.26, 0.62, 0.03):
        for d2 in (0.0, 0.03, 0.06, 0.09, 0.12):
            for d3 in (0.0, 0.03, 0.06, 0.09, 0.12, 0.15):
                t = (round(float(t1), 2), round(float(t1 + d2), 2), round(float(t1 + d2 + d3), 2))
                each = [score(t, kind) for kind in BASELINES]
                results.append((min(each), sum(each) / len(each), t, each))
    best_worst = max(results)
    # Among the thresholds within MARGIN of the best worst case, the best on average.
    chosen = max((r for r in results if r[0] >= best_worst[0] - margin), key=lambda r: r[1])
    for label, (worst, mean, t, each) in (("max-min", best_worst), ("chosen", chosen)):
        print(f"{label}: THRESHOLDS = {t}  # worst {worst:+.3f}, mean {mean:+.3f} points/hand "
              f"on {len(info)} training deals; " + ", ".join(
                  f"{k}: {v:+.3f}" for k, v in zip(BASELINES, each, strict=True)))
    return chosen[2]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cache", type=Path, default=DEFAULT_CACHE)
    parser.add_argument("--level", default="normal")
    parser.add_argument("--l2", type=float, default=1.0)
    parser.add_argument("--tune-deals", type=int, default=1500,
                        help="training deals for normal's thresholds (0 = skip)")
    parser.add_argument("--margin", type=float, default=0.0,
                        help="points/hand of worst case traded for a better mean")
    args = parser.parse_args(argv)
    rows = load(args.cache, args.level)
    data = tables(rows)
    seeds = np.unique(data["seed"])
    cut = seeds[int(0.2 * len(seeds))]
    test, train = data["seed"] < cut, data["seed"] >= cut
    y = data["win"]
    print(f"{len(y)} played deals ({len(seeds)} seeds), landlord wins {y.mean():.3f}")
    print("| model | held-out log-loss | Brier |")
    print("|---|---|---|")
    base = float(y[train].mean())
    print(f"| constant | {-(base * math.log(base) + (1 - base) * math.log(1 - base)):.4f} "
          f"| {base * (1 - base):.4f} |")
    fitted = {}
    for name in ("old", "hand", "deal"):
        w = fit_logistic(data[name][train], y[train], args.l2)
        loss, brier = scores(w, data[name][test], y[test])
        print(f"| {name} | {loss:.4f} | {brier:.4f} |")
        fitted[name] = fit_logistic(data[name], y, args.l2)
    # Calibration of the deal model (hard's evaluator) against the played-out games.
    w = fit_logistic(data["deal"][train], y[train], args.l2)
    x = data["deal"][test]
    p = 1 / (1 + np.exp(-(np.hstack([np.ones((len(x), 1)), x]) @ w)))
    print()
    print("| deal model: predicted win rate (held out) | deals | landlord won |")
    print("|---|---|---|")
    for low in np.arange(0.0, 1.0, 0.2):
        sel = (p >= low) & (p < low + 0.2)
        if sel.any():
            print(f"| {low:.1f}–{low + 0.2:.1f} (mean {p[sel].mean():.2f}) | {int(sel.sum())} "
                  f"| {y[test][sel].mean():.2f} |")
    table = []
    for n in range(5):
        sel = np.minimum(data["bombs"], 4) == n
        table.append(float(data["mult"][sel].mean()) if sel.any() else 2.0 ** n)
    print()
    print("DEAL_WEIGHTS = (" + ", ".join(f"{v:.4f}" for v in fitted["deal"]) + ")")
    print("HAND_WEIGHTS = (" + ", ".join(f"{v:.4f}" for v in fitted["hand"]) + ")")
    print("MULTIPLIER = (" + ", ".join(f"{v:.3f}" for v in table) + ")")
    if args.tune_deals:
        tune_thresholds(rows, args.tune_deals, args.margin)


if __name__ == "__main__":
    main()
