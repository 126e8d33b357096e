"""Candidates of one position compared on the same deals, for ``bot.ai.value`` (issue 53).

    nice -n 15 python -m fitting.value_pairs --games 6000 --seed 31000000 \\
        --out ~/.cache/ddz-bot/value-pairs

``fitting/value_data.py`` labels a position with its game's winner: the positions of one
game share one label, and the positions after two candidates of one decision are almost
never both in the data, so a model fitted to it learns which deals are good for a side,
not which move is better on a deal (docs/AI.md §Learned evaluation). This data compares
moves: in seeded self-play games (the normal level in every seat, no bidding, the
landlord seat ``seed % 3``, deal seeds ``seed + i`` from 31,000,000: disjoint from
``value_data``'s 30,000,000..), a share ``--rate`` of the decisions the hard search
searches (more than one option, no certain finish, above the exact endgame) is a
*position*. For each, ``--worlds`` deals of the unseen cards are drawn as the search
draws them (``bot.ai.inference.weighted_world``), and **every** candidate — normal's
best ``--wide`` distinct actions, plus the pass when following — is played out with the
normal policy on each of the same deals (``bot.ai.search.rollout``; the policy is
deterministic, so one playout is the exact outcome of that candidate on that deal).

A row is (position, deal, candidate): the model's input right after the candidate on
that deal (``bot.ai.search.candidate_features``, ``N_FEATURES`` floats, stored as
float16: every feature is a multiple of 1/40 or a 0/1), whether the landlord won, the
*group* (position × deal: the rows a listwise loss compares), the candidate's rank in
normal's order, the position's cards left and the game seed. A candidate that ends the
hand is not a row (the search values it exactly). Chunks of ``--chunk`` games
(``chunk-NNNNNNNNN-N.npz``) outside the repository; a chunk on disk is skipped, so a run
resumes; same seed, same data.
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path
from typing import Any

import numpy as np
from tqdm import tqdm

from bot.ai.decision import Decision
from bot.ai.inference import follow_events, weighted_world
from bot.ai.observation import Observation
from bot.ai.policy import normal_play, normal_ranked
from bot.ai.search import (
    ENDGAME_CARDS,
    candidate_features,
    rollout,
    sample_world,
    top_candidates,
)
from bot.ai.selfplay import deal, play_hand
from bot.ai.value import HAND_FEATURES
from bot.ai.view import View, view_of
from bot.rules import Combo

FIRST_SEED = 31_000_000
DEFAULT_OUT = Path.home() / ".cache" / "ddz-bot" / "value-pairs"


def wide_candidates(view: View, wide: int) -> list[Combo | None] | None:
    """Normal's best ``wide`` distinct actions (plus the pass when following), or None when
    the hard search would not search this decision (one option, a certain finish, or the
    exact endgame's range)."""
    if sum(view.cards_left) <= ENDGAME_CARDS:
        return None
    ranked = normal_ranked(view)
    if len(ranked) == 1 or ranked[0][0] >= 100:
        return None
    return [d.combo for d in top_candidates(ranked, wide, view.to_beat is not None)]


def compare(view: View, actions: list[Combo | None], worlds: int,
            rng: random.Random) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Every live action on the same ``worlds`` inferred deals: (x, won, deal index,
    candidate rank) per row, action-major as ``candidate_features`` orders them."""
    events = follow_events(view.history, view.landlord, view.seat)
    drawn = [weighted_world(view, rng, sample_world, events) for _ in range(worlds)]
    x, live, _ = candidate_features(drawn, view, actions)
    won = np.array([rollout([list(h) for h in world], view, actions[i], [0])
                    for i in live for world in drawn], dtype=np.uint8)
    which = np.tile(np.arange(worlds), len(live))
    rank = np.repeat(np.array(live), worlds)
    return x, won, which, rank


def play_game(seed: int, rate: float, worlds: int, wide: int) -> dict[str, np.ndarray]:
    """One seeded game's compared positions (possibly none)."""
    hands, kitty = deal(random.Random(seed))
    landlord = seed % 3
    pick = random.Random(seed ^ 0x9A1E)
    parts: list[tuple[np.ndarray, ...]] = []

    def agent(obs: Observation, rng: random.Random) -> Decision:
        view = view_of(obs)
        if pick.random() < rate:
            actions = wide_candidates(view, wide)
            if actions is not None and len(actions) > 1:
                x, won, which, rank = compare(view, actions, worlds, pick)
                n = len(won)
                if len(set(rank.tolist())) > 1:
                    position = len(parts)
                    parts.append((x, won, which + worlds * position, rank,
                                  np.full(n, sum(view.cards_left)), np.full(n, position)))
        return normal_play(view, rng)

    play_hand([agent] * 3, hands, landlord, kitty, random.Random(seed))
    if not parts:
        return {}
    return {
        "x": np.concatenate([p[0] for p in parts]).astype(np.float16),
        "won": np.concatenate([p[1] for p in parts]),
        "group": np.concatenate([p[2] for p in parts]).astype(np.int32),
        "rank": np.concatenate([p[3] for p in parts]).astype(np.int8),
        "cards_left": np.concatenate([p[4] for p in parts]).astype(np.int8),
        "game": np.full(sum(len(p[1]) for p in parts), seed, dtype=np.int64),
    }


def generate(games: int, seed: int, out: Path, chunk: int, rate: float, worlds: int,
             wide: int) -> None:
    """Write ``games`` games from ``seed`` in chunks under ``out`` (existing chunks kept)."""
    out.mkdir(parents=True, exist_ok=True)
    with tqdm(total=games, unit="game", smoothing=0.05) as bar:
        for start in range(0, games, chunk):
            size = min(chunk, games - start)
            path = out / f"chunk-{seed + start:09d}-{size}.npz"
            if path.exists():
                bar.update(size)
                continue
            parts = []
            for i in range(start, start + size):
                part = play_game(seed + i, rate, worlds, wide)
                if part:
                    parts.append(part)
                bar.update(1)
            merged: dict[str, Any] = {key: np.concatenate([p[key] for p in parts])
                                      for key in parts[0]}
            tmp = path.with_suffix(".tmp.npz")
            merged["settings"] = np.array([rate, worlds, wide])
            np.savez_compressed(tmp, **merged)
            tmp.rename(path)


def load(folder: Path, raw: bool = False) -> dict[str, np.ndarray]:
    """Every chunk under ``folder``, concatenated (ordered by first seed), with ``group``
    made unique across games, ``landlord_side`` (the seat that moved is the landlord:
    read from the input's seat to move, the next one) and ``worlds`` (deals a position);
    ``raw`` keeps the per-game group as ``group_raw`` too."""
    paths = sorted(folder.glob("chunk-*[0-9].npz"))
    if not paths:
        raise SystemExit(f"no data under {folder}: run python -m fitting.value_pairs first")
    parts = []
    worlds = set()
    for path in paths:
        with np.load(path) as data:
            parts.append({key: data[key] for key in data.files if key != "settings"})
            worlds.add(int(data["settings"][1]))
    if len(worlds) != 1:
        raise SystemExit(f"chunks with different --worlds under {folder}: {sorted(worlds)}")
    data = {key: np.concatenate([p[key] for p in parts]) for key in parts[0]}
    if raw:
        data["group_raw"] = data["group"].copy()
    _, unique = np.unique(np.stack([data["game"], data["group"]]), axis=1,
                          return_inverse=True)
    data["group"] = unique.reshape(-1)
    turn = 3 * HAND_FEATURES  # the seat to move after the candidate, landlord-relative
    data["landlord_side"] = data["x"][:, turn + 1] > 0.5
    data["worlds"] = np.array(worlds.pop())
    return data


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=6000)
    parser.add_argument("--seed", type=int, default=FIRST_SEED, help="first deal seed")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--chunk", type=int, default=100, help="games per file")
    parser.add_argument("--rate", type=float, default=0.15,
                        help="share of the searched decisions that become positions")
    parser.add_argument("--worlds", type=int, default=3, help="deals per position")
    parser.add_argument("--wide", type=int, default=8,
                        help="normal's best distinct actions compared (plus the pass)")
    args = parser.parse_args(argv)
    generate(args.games, args.seed, args.out.expanduser(), args.chunk, args.rate,
             args.worlds, args.wide)


if __name__ == "__main__":
    main()
