"""Self-play positions labelled with their outcome, for ``bot.ai.value`` (the learned evaluation).

    nice -n 19 python -m fitting.value_data --games 40000 --seed 30000000 \\
        --out ~/.cache/ddz-bot/value

Games: the normal level in every seat (the hard search's own playout policy), no bidding
(the landlord is seat ``seed % 3``, base 1, as in the arena and the search's playouts),
deals seeded ``seed + i`` (30,000,000 on: disjoint from the arena's 1.., the bidding
fit's 10,000,000.. and the inference fit's 20,000,000..). With probability ``--explore``
a seat plays, instead of normal's choice, one drawn uniformly from the hard search's
candidates (normal's best 5 distinct actions, plus the pass when following), so the
positions the search evaluates after a candidate normal would not play are in the data.

A position is recorded before every decision, with all three hands known (what the
search's sampled deal gives the model): per seat (landlord-relative) the cards per rank
and the hand decomposition (value, turns), the seat to move and the play to beat; the
label is whether the landlord won the game, and its points multiplier (2 ** (bombs +
spring)). The games are written in chunks of ``--chunk`` games (``chunk-NNNNN.npz``); a
chunk already on disk is skipped, so a run cut short resumes where it stopped. Same
seed, same data.
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path
from typing import Any

import numpy as np
from tqdm import tqdm

from bot.ai.decision import Decision
from bot.ai.evaluate import counts_of, evaluate
from bot.ai.observation import Observation
from bot.ai.policy import normal_play, normal_ranked
from bot.ai.search import CANDIDATES, top_candidates
from bot.ai.selfplay import deal, play_hand
from bot.ai.value import context_of
from bot.ai.view import view_of
from bot.rules import Card

FIRST_SEED = 30_000_000
DEFAULT_OUT = Path.home() / ".cache" / "ddz-bot" / "value"


def candidates(ranked: list[tuple[float, Decision]]) -> list[Decision]:
    """The hard search's candidates of a ranking (``search.top_candidates``): the best
    ``CANDIDATES`` distinct actions, plus the pass when it is an option and not among them."""
    return top_candidates(ranked, CANDIDATES, any(d.action is None for _, d in ranked))


def play_game(seed: int, explore: float) -> dict[str, np.ndarray]:
    """One seeded game's positions (arrays with one row per decision) and its labels."""
    hands, kitty = deal(random.Random(seed))
    landlord = seed % 3
    now: list[list[Card]] = [list(h) for h in hands]
    now[landlord] = sorted(now[landlord] + list(kitty))
    counts: list[list[list[int]]] = []
    decomp: list[list[tuple[float, int]]] = []
    context: list[tuple[int, ...]] = []
    explore_rng = random.Random(seed ^ 0x5EED)

    def agent(obs: Observation, rng: random.Random) -> Decision:
        rel = [(landlord + k) % 3 for k in range(3)]
        per_seat = [counts_of(now[s]) for s in rel]
        counts.append(per_seat)
        decomp.append([evaluate(c)[:2] for c in per_seat])
        last = None
        if obs.last_play is not None and obs.last_play[0] != obs.seat:
            last = ((obs.last_play[0] - landlord) % 3, obs.last_play[1])
        context.append(context_of((obs.seat - landlord) % 3, last))
        view = view_of(obs)
        if explore_rng.random() < explore:
            options = candidates(normal_ranked(view))
            decision = options[explore_rng.randrange(len(options))]
        else:
            decision = normal_play(view, rng)
        if decision.combo is not None:
            for card in decision.combo.cards:
                now[obs.seat].remove(card)
        return decision

    outcome = play_hand([agent] * 3, hands, landlord, kitty, random.Random(seed))
    n = len(counts)
    mult = abs(outcome.points[landlord]) // 2
    return {
        "counts": np.array(counts, dtype=np.uint8).reshape(n, 3, 15),
        "decomp": np.array(decomp, dtype=np.float32).reshape(n, 3, 2),
        "context": np.array(context, dtype=np.int16).reshape(n, 6),
        "won": np.full(n, outcome.landlord_won, dtype=np.uint8),
        "mult": np.full(n, mult, dtype=np.uint16),
        "game": np.full(n, seed, dtype=np.int64),
        "ply": np.arange(n, dtype=np.int16),
    }


def generate(games: int, seed: int, out: Path, chunk: int, explore: float) -> None:
    """Write ``games`` games from ``seed`` in chunks under ``out`` (existing chunks kept)."""
    out.mkdir(parents=True, exist_ok=True)
    with tqdm(total=games, unit="game", smoothing=0.05) as bar:
        for start in range(0, games, chunk):
            path = out / f"chunk-{seed + start:09d}-{min(chunk, games - start)}.npz"
            size = min(chunk, games - start)
            if path.exists():
                bar.update(size)
                continue
            parts = []
            for i in range(start, start + size):
                parts.append(play_game(seed + i, explore))
                bar.update(1)
            merged: dict[str, Any] = {key: np.concatenate([p[key] for p in parts])
                                      for key in parts[0]}
            tmp = path.with_suffix(".tmp.npz")
            merged["explore"] = np.array(explore)
            np.savez_compressed(tmp, **merged)
            tmp.rename(path)


def load(folder: Path) -> dict[str, np.ndarray]:
    """Every chunk under ``folder``, concatenated (ordered by first seed)."""
    paths = sorted(folder.glob("chunk-*[0-9].npz"))
    if not paths:
        raise SystemExit(f"no data under {folder}: run python -m fitting.value_data first")
    parts = []
    for path in paths:
        with np.load(path) as data:
            parts.append({key: data[key] for key in data.files if key != "explore"})
    return {key: np.concatenate([p[key] for p in parts]) for key in parts[0]}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=40_000)
    parser.add_argument("--seed", type=int, default=FIRST_SEED, help="first deal seed")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--chunk", type=int, default=1000, help="games per file")
    parser.add_argument("--explore", type=float, default=0.1,
                        help="share of decisions played from the search's other candidates")
    args = parser.parse_args(argv)
    generate(args.games, args.seed, args.out.expanduser(), args.chunk, args.explore)


if __name__ == "__main__":
    main()
