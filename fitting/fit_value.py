"""Fit ``bot.ai.value``'s model (P(landlord wins) of a dealt position) and check it.

    nice -n 19 python -m fitting.fit_value --data ~/.cache/ddz-bot/value --seed 1 --epochs 6

A multilayer perceptron (``--hidden 128,64``: ReLU layers, a sigmoid output) trained
in numpy alone: binary cross-entropy on "the landlord won" of the self-play positions of
``fitting/value_data.py``, Adam (``--lr``), mini-batches of ``--batch`` positions in an
order drawn from ``--seed`` (which also draws the initial weights: He-normal). The games
whose seed is in the last ``--hold`` share of the data are held out (never trained on
nor used to choose anything),
and every printed figure is on them: log-loss and Brier score against a constant, by
stage of the game (cards left in all hands), and the calibration table (predicted
against real outcomes, ten bins). ``--write`` stores the weights, with this command, the
seeds and the figures in the file's ``meta``, as ``bot/ai/value_weights.npz``. The
``--valid`` share of games just before the held-out ones picks the epoch whose weights
are kept (the lowest validation log-loss); the rest is trained on.
"""

from __future__ import annotations

import argparse
import math
import shlex
import sys
import time
from pathlib import Path

import numpy as np

from bot.ai.value import N_FEATURES, WEIGHTS, Model, features
from fitting.value_data import DEFAULT_OUT, load

STAGES = ((41, 54, "early (41–54 cards left)"), (21, 40, "middle (21–40)"),
          (0, 20, "late (≤ 20)"))


def log_loss(p: np.ndarray, y: np.ndarray) -> float:
    """Mean binary cross-entropy of predictions ``p`` against labels ``y`` (0/1)."""
    q = np.clip(p, 1e-6, 1 - 1e-6)
    return float(-np.mean(y * np.log(q) + (1 - y) * np.log(1 - q)))


def init(sizes: list[int], rng: np.random.Generator) -> list[list[np.ndarray]]:
    """He-normal weights and zero biases for layer sizes ``sizes``."""
    return [[(rng.standard_normal((a, b)) * np.sqrt(2.0 / a)).astype(np.float32),
             np.zeros(b, dtype=np.float32)] for a, b in zip(sizes[:-1], sizes[1:], strict=True)]


def forward(params: list[list[np.ndarray]], x: np.ndarray) -> tuple[np.ndarray, list[np.ndarray]]:
    """Logits (N,) and the activations of every layer's input (for the backward pass)."""
    acts = [x]
    h = x
    for i, (w, b) in enumerate(params):
        h = h @ w + b
        if i < len(params) - 1:
            h = np.maximum(h, 0.0)
            acts.append(h)
    return h[:, 0], acts


def train(x: np.ndarray, y: np.ndarray, hidden: list[int], epochs: int, batch: int, lr: float,
          seed: int, check: tuple[np.ndarray, np.ndarray], decay: float = 0.0,
          ) -> list[list[np.ndarray]]:
    """Adam on binary cross-entropy (``decay``: decoupled weight decay per step, AdamW);
    returns the weights of the epoch with the lowest loss on ``check`` (the validation
    games, never the held-out ones)."""
    rng = np.random.default_rng(seed)
    params = init([x.shape[1], *hidden, 1], rng)
    m = [[np.zeros_like(p) for p in layer] for layer in params]
    v = [[np.zeros_like(p) for p in layer] for layer in params]
    b1, b2, eps = 0.9, 0.999, 1e-8
    step = 0
    n = len(y)
    best_loss, best = math.inf, params
    for epoch in range(epochs):
        order = rng.permutation(n)
        rate = lr * (0.5 ** max(0, epoch - epochs // 2))  # halve every epoch past the middle
        start = time.perf_counter()
        total = 0.0
        for lo in range(0, n, batch):
            idx = order[lo:lo + batch]
            xb, yb = x[idx], y[idx]
            z, acts = forward(params, xb)
            p = 1.0 / (1.0 + np.exp(-np.clip(z, -30, 30)))
            total += float(-np.sum(yb * np.log(np.clip(p, 1e-6, 1))
                                   + (1 - yb) * np.log(np.clip(1 - p, 1e-6, 1))))
            grad = ((p - yb) / len(yb)).astype(np.float32)[:, None]
            step += 1
            for i in range(len(params) - 1, -1, -1):
                w, _ = params[i]
                gw = acts[i].T @ grad
                gb = grad.sum(axis=0)
                if i > 0:
                    grad = (grad @ w.T) * (acts[i] > 0)
                for j, g in enumerate((gw, gb)):
                    m[i][j] = b1 * m[i][j] + (1 - b1) * g
                    v[i][j] = b2 * v[i][j] + (1 - b2) * g * g
                    mh = m[i][j] / (1 - b1 ** step)
                    vh = v[i][j] / (1 - b2 ** step)
                    params[i][j] -= (rate * mh / (np.sqrt(vh) + eps)).astype(np.float32)
                    if j == 0 and decay:
                        params[i][j] *= np.float32(1 - rate * decay)
        z, _ = forward(params, check[0])
        loss = log_loss(1 / (1 + np.exp(-z)), check[1])
        print(f"epoch {epoch + 1}/{epochs}: train log-loss {total / n:.4f}, validation "
              f"{loss:.4f} ({time.perf_counter() - start:.0f} s)", flush=True)
        if loss < best_loss:
            best_loss, best = loss, [[p.copy() for p in layer] for layer in params]
    return best


def report(p: np.ndarray, y: np.ndarray, cards_left: np.ndarray) -> dict[str, float]:
    """Print the held-out figures (Markdown tables); return the headline ones."""
    const = np.full_like(p, y.mean())
    figures = {"log_loss": log_loss(p, y), "brier": float(np.mean((p - y) ** 2)),
               "constant_log_loss": log_loss(const, y), "positions": float(len(y))}
    print(f"\nheld-out positions {len(y):,}: log-loss {figures['log_loss']:.4f} "
          f"(constant {figures['constant_log_loss']:.4f}), Brier {figures['brier']:.4f} "
          f"(constant {float(np.mean((const - y) ** 2)):.4f})\n")
    print("| stage | positions | log-loss | constant | Brier |")
    print("|---|---|---|---|---|")
    for lo, hi, name in STAGES:
        sel = (cards_left >= lo) & (cards_left <= hi)
        if sel.any():
            c = np.full(int(sel.sum()), y[sel].mean())
            print(f"| {name} | {int(sel.sum()):,} | {log_loss(p[sel], y[sel]):.4f} | "
                  f"{log_loss(c, y[sel]):.4f} | {float(np.mean((p[sel] - y[sel]) ** 2)):.4f} |")
    print("\n| predicted P(landlord wins) | positions | mean predicted | landlord won |")
    print("|---|---|---|---|")
    for k in range(10):
        sel = (p >= k / 10) & ((p < (k + 1) / 10) if k < 9 else (p <= 1))
        if sel.any():
            print(f"| {k / 10:.1f}–{(k + 1) / 10:.1f} | {int(sel.sum()):,} | "
                  f"{float(p[sel].mean()):.3f} | {float(y[sel].mean()):.3f} |")
    return figures


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--seed", type=int, default=1, help="weights and batch order")
    parser.add_argument("--hidden", default="128,64", help="hidden layer sizes ('' = logistic)")
    parser.add_argument("--epochs", type=int, default=6)
    parser.add_argument("--batch", type=int, default=1024)
    parser.add_argument("--lr", type=float, default=2e-3)
    parser.add_argument("--hold", type=float, default=0.1, help="share of games held out")
    parser.add_argument("--valid", type=float, default=0.05,
                        help="share of games (before the held-out ones) that picks the epoch")
    parser.add_argument("--decay", type=float, default=0.0, help="weight decay (AdamW)")
    parser.add_argument("--limit", type=int, default=0, help="use only the first N games")
    parser.add_argument("--write", action="store_true", help="write bot/ai/value_weights.npz")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    data = load(args.data.expanduser())
    games = np.unique(data["game"])
    if args.limit:
        games = games[:args.limit]
        keep = data["game"] <= games[-1]
        data = {key: value[keep] for key, value in data.items()}
    cut = games[int(len(games) * (1 - args.hold))]
    held = data["game"] >= cut
    valid = (data["game"] >= games[int(len(games) * (1 - args.hold - args.valid))]) & ~held
    fit = ~held & ~valid
    x = features(data["counts"], data["decomp"], data["context"])
    assert x.shape[1] == N_FEATURES
    y = data["won"].astype(np.float32)
    print(f"{len(games):,} games, {len(y):,} positions ({int(held.sum()):,} held out: games "
          f"from seed {int(cut)}); landlord won {y.mean():.3f}; features "
          f"{time.perf_counter() - start:.0f} s", flush=True)
    hidden = [int(h) for h in args.hidden.split(",") if h]
    params = train(x[fit], y[fit], hidden, args.epochs, args.batch, args.lr, args.seed,
                   check=(x[valid], y[valid]), decay=args.decay)
    z, _ = forward(params, x[held])
    p = 1.0 / (1.0 + np.exp(-z))
    figures = report(p, y[held], data["counts"][held].sum(axis=(1, 2)))
    wall = time.perf_counter() - start
    print(f"\nwall time {wall:.0f} s")
    if args.write:
        meta = {
            "command": "python -m fitting.fit_value " + shlex.join(argv),
            "data": {"games": int(len(games)), "first_seed": int(games[0]),
                     "positions": int(len(y)), "held_out_from_seed": int(cut)},
            "model_seed": args.seed, "hidden": hidden, "epochs": args.epochs,
            "held_out": figures, "fit_seconds": round(wall),
        }
        Model(tuple((w, b) for w, b in params), meta).save(WEIGHTS)
        print(f"wrote {WEIGHTS} ({WEIGHTS.stat().st_size:,} bytes)")


if __name__ == "__main__":
    main()
