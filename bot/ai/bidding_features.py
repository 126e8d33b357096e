"""Cheap features of a hand for bidding (a few microseconds; no decomposition search).

Works on per-rank counts (15 ints, index 0 = ``3`` … 12 = ``2``, 13 = small joker,
14 = big joker; ``bot.ai.evaluate.counts_of``). The value models of
``bot.ai.bidding`` are linear in these features; their weights are fitted by
``fitting/fit_bidding.py`` on played-out deals.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

FEATURES: tuple[str, ...] = (
    "big_joker", "small_joker", "twos", "aces", "kings", "queens", "bombs",
    "trios", "pairs", "singles", "low_loose", "chain_saving", "turns",
)
"""Names of the entries of ``hand_features`` (in order)."""


def hand_features(counts: Sequence[int]) -> list[float]:
    """The features named by ``FEATURES`` for one hand's rank counts.

    ``turns`` estimates the plays the hand needs (trios take the lowest
    singles/pairs as kickers; a run of ≥ 5 ranks saves its singles minus one;
    bombs and the rocket are free); ``low_loose`` counts singles and pairs of
    ranks 3..10 that no trio or run absorbs.
    """
    bombs = 0
    trios = pairs = singles = 0
    low_singles = low_pairs = 0
    for r in range(13):
        c = counts[r]
        if c == 4:
            bombs += 1
        elif c == 3:
            trios += 1
        elif c == 2:
            pairs += 1
            low_pairs += r <= 7
        elif c == 1:
            singles += 1
            low_singles += r <= 7
    rocket = counts[13] and counts[14]
    if rocket:
        bombs += 1
    else:
        singles += counts[13] + counts[14]
    # Straights: a maximal run (3..A) of ≥ 5 ranks turns its singles into one play.
    saving = 0
    run_singles = run_length = 0
    for r in range(12):
        if 1 <= counts[r] <= 3:
            run_length += 1
            run_singles += counts[r] == 1
        else:
            if run_length >= 5:
                saving += max(0, run_singles - 1)
            run_singles = run_length = 0
    if run_length >= 5:
        saving += max(0, run_singles - 1)
    kickers = min(trios, singles + pairs - saving)
    turns = max(1, singles + pairs + trios - kickers - saving)
    loose = max(0, low_singles + low_pairs - kickers - saving)
    return [
        float(counts[14]), float(counts[13]), float(counts[12]), float(counts[11]),
        float(counts[10]), float(counts[9]), float(bombs), float(trios), float(pairs),
        float(singles), float(loose), float(saving), float(turns),
    ]


def hand_features_batch(counts: np.ndarray) -> np.ndarray:
    """``hand_features`` of many hands at once: ``counts`` (n, 15) rank counts → (n, 13)
    floats, row for row equal to ``hand_features`` (``bot.ai.happy``'s sampled deals)."""
    c = np.asarray(counts, dtype=np.int64)
    body = c[:, :13]
    bombs = (body == 4).sum(axis=1)
    trios = (body == 3).sum(axis=1)
    pairs = (body == 2).sum(axis=1)
    singles = (body == 1).sum(axis=1)
    low_pairs = (body[:, :8] == 2).sum(axis=1)
    low_singles = (body[:, :8] == 1).sum(axis=1)
    rocket = (c[:, 13] > 0) & (c[:, 14] > 0)
    bombs = bombs + rocket
    singles = singles + np.where(rocket, 0, c[:, 13] + c[:, 14])
    saving = np.zeros(len(c), dtype=np.int64)
    run_singles = np.zeros(len(c), dtype=np.int64)
    run_length = np.zeros(len(c), dtype=np.int64)
    for r in range(12):
        inside = (c[:, r] >= 1) & (c[:, r] <= 3)
        ended = ~inside & (run_length >= 5)
        saving += np.where(ended, np.maximum(0, run_singles - 1), 0)
        run_length = np.where(inside, run_length + 1, 0)
        run_singles = np.where(inside, run_singles + (c[:, r] == 1), 0)
    saving += np.where(run_length >= 5, np.maximum(0, run_singles - 1), 0)
    kickers = np.minimum(trios, singles + pairs - saving)
    turns = np.maximum(1, singles + pairs + trios - kickers - saving)
    loose = np.maximum(0, low_singles + low_pairs - kickers - saving)
    return np.stack([c[:, 14], c[:, 13], c[:, 12], c[:, 11], c[:, 10], c[:, 9], bombs, trios,
                     pairs, singles, loose, saving, turns], axis=1).astype(np.float64)
