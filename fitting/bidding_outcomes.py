"""Played-out results of seeded deals, one per possible landlord (shared by the bidding
benchmarks).

The computers' play never looks at the bid (``bot.ai.view.View`` has no bid), so a
deal played with landlord ``L`` at one level ends the same way whatever the bidding
was; only the base differs. ``landlord_points(seed, L, level)`` plays it once (the
play RNG is seeded from the deal seed and ``L``) and caches the landlord's points at
base 1 (``±2 × 2^doublings``, docs/RULES.md §Scoring) in a JSON-lines file, so every
bidding policy of ``benchmarks.bidding_arena`` and the fit of
``fitting.fit_bidding`` is judged on the same games (common random numbers).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path

from bot.ai.decision import Decision
from bot.ai.observation import Observation
from bot.ai.policy import normal_play
from bot.ai.search import hard_play
from bot.ai.selfplay import play_hand
from bot.ai.view import View, view_of
from bot.game.hand import Hand
from bot.rules import DEFAULT_RULES, Card, RuleSet

DEFAULT_CACHE = Path.home() / ".cache" / "ddz-bot" / "bidding-outcomes.jsonl"

_POLICIES: dict[str, Callable[[View, random.Random], Decision]] = {
    "normal": normal_play, "hard": hard_play}
_cache: dict[tuple[int, int, str], int] = {}
_cache_path: Path | None = None


def dealt(seed: int, rules: RuleSet = DEFAULT_RULES) -> Hand:
    """The seeded Hand of the real engine (``bot.game.Hand.deal``): hands, kitty, first bidder."""
    return Hand.deal(rules, seed=seed)


def use_cache(path: Path | None) -> None:
    """Load (and from now on append to) the JSON-lines cache at ``path``; None = memory only."""
    global _cache_path
    _cache_path = path
    if path is None or not path.exists():
        return
    for line in path.read_text().splitlines():
        if line.strip():
            row = json.loads(line)
            _cache[(row["seed"], row["landlord"], row["level"])] = row["points"]


def play_out(hands: list[list[Card]], kitty: list[Card], landlord: int, level: str,
             rng: random.Random) -> int:
    """Play one deal with ``level`` in every seat; the landlord's points at base 1."""
    policy = _POLICIES[level]

    def agent(obs: Observation, rng: random.Random) -> Decision:
        return policy(view_of(obs), rng)

    outcome = play_hand([agent] * 3, hands, landlord, kitty, rng, check=False)
    return outcome.points[landlord]


def landlord_points(seed: int, landlord: int, level: str = "normal") -> int:
    """The landlord's points at base 1 when deal ``seed`` is played with ``landlord`` (cached)."""
    key = (seed, landlord, level)
    if key not in _cache:
        hand = dealt(seed)
        rng = random.Random(seed * 3 + landlord)
        points = play_out([list(h) for h in hand.dealt], list(hand.kitty), landlord, level, rng)
        _cache[key] = points
        if _cache_path is not None:
            _cache_path.parent.mkdir(parents=True, exist_ok=True)
            with _cache_path.open("a") as out:
                out.write(json.dumps({"seed": seed, "landlord": landlord, "level": level,
                                      "points": points}) + "\n")
    return _cache[key]


if __name__ == "__main__":  # fill the cache: python -m fitting.bidding_outcomes FIRST COUNT [LEVEL]
    import sys
    import time

    first, count = int(sys.argv[1]), int(sys.argv[2])
    level = sys.argv[3] if len(sys.argv) > 3 else "normal"
    path = Path(sys.argv[4]) if len(sys.argv) > 4 else DEFAULT_CACHE
    use_cache(path)
    start = time.perf_counter()
    for i, seed in enumerate(range(first, first + count)):
        for landlord in range(3):
            landlord_points(seed, landlord, level)
        if i % 100 == 99:
            print(f"{i + 1} deals, {time.perf_counter() - start:.0f} s", flush=True)
