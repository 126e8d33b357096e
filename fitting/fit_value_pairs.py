"""Fit ``bot.ai.value``'s model to compare the candidates of one position (issue 53).

    nice -n 15 python -m fitting.fit_value_pairs --pairs ~/.cache/ddz-bot/value-pairs \\
        --anchor ~/.cache/ddz-bot/value --seed 1 --epochs 8 --advantage 4

Data: ``fitting/value_pairs.py`` (every candidate of a position played out on the same
deals) and, as an anchor that keeps the model calibrated on ordinary positions,
``fitting/value_data.py``'s self-play positions labelled with their game's winner. The
loss per mini-batch (``--batch`` positions of the pairs data, as many anchor positions
times ``--anchor-share``) is

* binary cross-entropy of each (position, deal, candidate) row against its playout
  outcome (the landlord won), plus
* ``--advantage`` × the squared error of the *advantage*: the row's predicted P(the
  landlord wins) minus the mean over the candidates of its group (one position, one
  deal), against the same of the outcomes — what the search compares; plus
* the anchor rows' cross-entropy.

Adam in numpy, decoupled weight decay ``--decay``; the weights start from the shipped
ones (``--init shipped``) or He-normal from ``--seed`` (``--init fresh``); ``--seed``
also draws the batch order. The last ``--hold`` share of the pairs data's games (and of
the anchor's) is held out, never trained on nor used to choose; the ``--valid`` share
before it picks the epoch (lowest validation advantage error). Printed on the held-out
games: the correlation of the difference between two candidates' model values with the
difference of their outcomes on the same deal (pooled over all pairs), how often the
model's choice (its mean over a position's deals) is the best candidate by the outcomes
of those deals, its mean regret there against normal's first choice's, and the anchor's
held-out log-loss and calibration (``fitting.fit_value.report``). ``--write`` stores the
weights (with this command and the figures in ``meta``) as ``--to`` (default
``bot/ai/value_weights.npz``).
"""

from __future__ import annotations

import argparse
import math
import shlex
import sys
import time
from pathlib import Path

import numpy as np

from bot.ai.value import WEIGHTS, Model, features, read
from fitting import value_data, value_pairs
from fitting.fit_value import forward, init, log_loss, report

Params = list[list[np.ndarray]]


def positions_of(data: dict[str, np.ndarray], worlds: int) -> np.ndarray:
    """A position index per row (rows of one position share it; positions in row order)."""
    key = data["game"] * 100_000 + data["group_raw"] // worlds
    _, index = np.unique(key, return_inverse=True)
    return index.reshape(-1)


def group_stats(z: np.ndarray, y: np.ndarray, group: np.ndarray
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(p, advantage of p, advantage of y) within ``group`` (ints, any labels)."""
    p = 1.0 / (1.0 + np.exp(-np.clip(z, -30, 30)))
    _, g = np.unique(group, return_inverse=True)
    n = np.bincount(g).astype(np.float64)
    a = p - (np.bincount(g, p) / n)[g]
    t = y - (np.bincount(g, y) / n)[g]
    return p, a, t


def backward(params: Params, acts: list[np.ndarray], grad_z: np.ndarray) -> Params:
    """Gradients of every weight and bias given d loss / d logits."""
    grad = grad_z.astype(np.float32)[:, None]
    grads: Params = [[np.empty(0), np.empty(0)] for _ in params]
    for i in range(len(params) - 1, -1, -1):
        w, _ = params[i]
        grads[i] = [acts[i].T @ grad, grad.sum(axis=0)]
        if i > 0:
            grad = (grad @ w.T) * (acts[i] > 0)
    return grads


def anchor_x(anchor: dict[str, np.ndarray], rows: np.ndarray) -> np.ndarray:
    """The model's inputs of some anchor positions."""
    return features(anchor["counts"][rows], anchor["decomp"][rows], anchor["context"][rows])


def evaluate_pairs(params: Params, x: np.ndarray, y: np.ndarray, group: np.ndarray,
                   position: np.ndarray, rank: np.ndarray, landlord_side: np.ndarray,
                   ) -> dict[str, float]:
    """Held-out move figures (see module docstring)."""
    z = np.concatenate([forward(params, x[lo:lo + 65536])[0]
                        for lo in range(0, len(x), 65536)])
    p, a, t = group_stats(z, y, group)
    diff_corr = float(np.corrcoef(a, t)[0, 1])  # advantages: pairs' differences pooled
    # per position: candidates' mean outcome and mean model value over its deals, for
    # the side to move
    side = np.where(landlord_side, 1.0, -1.0)
    key = position * 64 + rank
    _, k = np.unique(key, return_inverse=True)
    k = k.reshape(-1)
    n = np.bincount(k).astype(np.float64)
    mean_y = np.bincount(k, y * side) / n
    mean_p = np.bincount(k, p * side) / n
    pos_of = np.zeros(len(n), dtype=np.int64)
    pos_of[k] = position
    rank_of = np.zeros(len(n), dtype=np.int64)
    rank_of[k] = rank
    hits, regret, normal_regret, count = 0, 0.0, 0.0, 0
    order = np.argsort(pos_of, kind="stable")
    bounds = np.flatnonzero(np.diff(pos_of[order])) + 1
    for rows in np.split(order, bounds):
        if len(rows) < 2:
            continue
        best = mean_y[rows].max()
        chosen = rows[int(np.argmax(mean_p[rows]))]
        first = rows[rank_of[rows] == 0]
        hits += mean_y[chosen] == best
        regret += best - mean_y[chosen]
        normal_regret += best - (mean_y[first[0]] if len(first) else mean_y[rows].min())
        count += 1
    return {"diff_corr": diff_corr, "top1": hits / count, "regret": regret / count,
            "normal_regret": normal_regret / count, "positions": float(count),
            "rows": float(len(y)), "log_loss": log_loss(p, y)}


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pairs", type=Path, default=value_pairs.DEFAULT_OUT)
    parser.add_argument("--anchor", type=Path, default=value_data.DEFAULT_OUT)
    parser.add_argument("--anchor-share", type=float, default=1.0,
                        help="anchor positions per pairs row in a batch (0: none)")
    parser.add_argument("--init", choices=("shipped", "fresh"), default="shipped")
    parser.add_argument("--hidden", default="64,32", help="hidden sizes (--init fresh)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--epochs", type=int, default=8)
    parser.add_argument("--batch", type=int, default=64, help="positions per batch")
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--decay", type=float, default=0.3)
    parser.add_argument("--advantage", type=float, default=4.0)
    parser.add_argument("--hold", type=float, default=0.1)
    parser.add_argument("--valid", type=float, default=0.05)
    parser.add_argument("--write", action="store_true")
    parser.add_argument("--to", type=Path, default=WEIGHTS)
    args = parser.parse_args(argv)
    start = time.perf_counter()
    rng = np.random.default_rng(args.seed)

    pairs = value_pairs.load(args.pairs.expanduser(), raw=True)
    worlds = int(pairs["worlds"])
    position = positions_of(pairs, worlds)
    x = pairs["x"].astype(np.float32)
    y = pairs["won"].astype(np.float64)
    group = pairs["group"]
    games = np.unique(pairs["game"])
    cut = games[int(len(games) * (1 - args.hold))]
    vcut = games[int(len(games) * (1 - args.hold - args.valid))]
    held = pairs["game"] >= cut
    valid = (pairs["game"] >= vcut) & ~held
    fit = ~held & ~valid
    side = pairs["landlord_side"].astype(bool)
    print(f"pairs: {len(games):,} games, {int(position.max()) + 1:,} positions, "
          f"{len(y):,} rows ({int(held.sum()):,} held out: games from seed {int(cut)}); "
          f"{worlds} deals a position", flush=True)

    anchor = None
    if args.anchor_share > 0:
        anchor = value_data.load(args.anchor.expanduser())
        agames = np.unique(anchor["game"])
        acut = agames[int(len(agames) * (1 - args.hold))]
        a_held = anchor["game"] >= acut
        a_fit = np.flatnonzero(anchor["game"] < agames[int(len(agames) * (1 - args.hold
                                                                         - args.valid))])
        print(f"anchor: {len(agames):,} games, {len(anchor['won']):,} positions "
              f"({int(a_held.sum()):,} held out)", flush=True)

    if args.init == "shipped":
        params: Params = [[w.copy(), b.copy()] for w, b in read(WEIGHTS).layers]
    else:
        params = init([x.shape[1], *[int(h) for h in args.hidden.split(",") if h], 1], rng)
    m = [[np.zeros_like(p) for p in layer] for layer in params]
    v = [[np.zeros_like(p) for p in layer] for layer in params]
    b1, b2, eps = 0.9, 0.999, 1e-8
    step = 0
    fit_pos = np.unique(position[fit])
    order_rows = np.argsort(position, kind="stable")
    starts = np.searchsorted(position[order_rows], np.arange(int(position.max()) + 2))

    def check() -> dict[str, float]:
        return evaluate_pairs(params, x[valid], y[valid], group[valid], position[valid],
                              pairs["rank"][valid], side[valid])

    best_err, best = math.inf, [[p.copy() for p in layer] for layer in params]
    for epoch in range(args.epochs):
        t0 = time.perf_counter()
        rate = args.lr * (0.5 ** max(0, epoch - args.epochs // 2))
        perm = rng.permutation(fit_pos)
        total = 0.0
        for lo in range(0, len(perm), args.batch):
            chosen = perm[lo:lo + args.batch]
            rows = np.concatenate([order_rows[starts[q]:starts[q + 1]] for q in chosen])
            xb, yb = x[rows], y[rows]
            if anchor is not None:
                ar = rng.choice(a_fit, size=max(1, int(len(rows) * args.anchor_share)))
                xb = np.concatenate([xb, anchor_x(anchor, ar)])
            z, acts = forward(params, xb)
            zp = z[:len(rows)]
            p, a, t = group_stats(zp, yb, group[rows])
            n = len(rows)
            gz = np.zeros(len(z))
            gz[:n] = (p - yb) / n + args.advantage * 2 * (a - t) * p * (1 - p) / n
            total += float(np.sum((a - t) ** 2))
            if anchor is not None:
                pa = 1.0 / (1.0 + np.exp(-np.clip(z[n:], -30, 30)))
                gz[n:] = (pa - anchor["won"][ar]) / n
            grads = backward(params, acts, gz)
            step += 1
            for i in range(len(params)):
                for j in range(2):
                    g = grads[i][j]
                    m[i][j] = b1 * m[i][j] + (1 - b1) * g
                    v[i][j] = b2 * v[i][j] + (1 - b2) * g * g
                    mh = m[i][j] / (1 - b1 ** step)
                    vh = v[i][j] / (1 - b2 ** step)
                    params[i][j] -= (rate * mh / (np.sqrt(vh) + eps)).astype(np.float32)
                    if j == 0 and args.decay:
                        params[i][j] *= np.float32(1 - rate * args.decay)
        seen = check()
        _, a_v, t_v = group_stats(forward(params, x[valid])[0], y[valid], group[valid])
        err = float(np.mean((a_v - t_v) ** 2))
        print(f"epoch {epoch + 1}/{args.epochs}: train advantage error "
              f"{total / fit.sum():.5f}, validation {err:.5f}, difference correlation "
              f"{seen['diff_corr']:.3f}, top-1 {seen['top1']:.3f}, regret "
              f"{seen['regret']:.4f} (normal {seen['normal_regret']:.4f}) "
              f"({time.perf_counter() - t0:.0f} s)", flush=True)
        if err < best_err:
            best_err, best = err, [[p.copy() for p in layer] for layer in params]
    params = best
    out = evaluate_pairs(params, x[held], y[held], group[held], position[held],
                         pairs["rank"][held], side[held])
    print(f"\nheld-out pairs: {int(out['positions']):,} positions, {int(out['rows']):,} rows: "
          f"difference correlation {out['diff_corr']:.3f}, the model's choice is the best "
          f"{out['top1']:.3f}, regret {out['regret']:.4f} (normal's first "
          f"{out['normal_regret']:.4f}), log-loss {out['log_loss']:.4f}")
    figures: dict[str, dict[str, float]] = {"pairs": out}
    if anchor is not None:
        xa = anchor_x(anchor, np.flatnonzero(a_held))
        za = np.concatenate([forward(params, xa[lo:lo + 65536])[0]
                             for lo in range(0, len(xa), 65536)])
        figures["anchor"] = report(1 / (1 + np.exp(-za)), anchor["won"][a_held].astype(float),
                                   anchor["counts"][a_held].sum(axis=(1, 2)))
    wall = time.perf_counter() - start
    print(f"\nwall time {wall:.0f} s")
    if args.write:
        meta = {
            "command": "python -m fitting.fit_value_pairs " + shlex.join(argv),
            "data": {"pairs": {"games": int(len(games)), "first_seed": int(games[0]),
                               "rows": int(len(y)), "held_out_from_seed": int(cut)},
                     "anchor": None if anchor is None else {
                         "games": len(agames), "first_seed": int(agames[0]),
                         "positions": len(anchor["won"]), "held_out_from_seed": int(acut)}},
            "init_from": read(WEIGHTS).meta["command"] if args.init == "shipped" else None,
            "model_seed": args.seed, "init": args.init, "epochs": args.epochs,
            "held_out": figures, "fit_seconds": round(wall),
        }
        Model(tuple((w, b) for w, b in params), meta).save(args.to)
        print(f"wrote {args.to} ({args.to.stat().st_size:,} bytes)")


if __name__ == "__main__":
    main()
