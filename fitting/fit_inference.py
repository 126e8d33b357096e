"""Fit the pass model of ``bot.ai.inference`` on self-play and check its calibration.

    python -m fitting.fit_inference                  # fit on 3,000 games, check on 300, write
    python -m fitting.fit_inference --games 500 --check 100 --no-write

Self-play: the normal level in every seat (the hard search's own rollout policy),
deals seeded 20,000,000 + i (disjoint from the arena's and the bidding fit's), the
landlord seat ``i % 3``. Every pass on an opponent's play (``follow_events``) is one
observation: (passing seat is landlord, kind bucket, could it beat with the same
kind) → passed. ``PASS_RATE`` is the Laplace-smoothed pass frequency of each cell
(the cell "could not beat" is mostly 1: a pass there is all but forced).

Calibration (held-out games, seeds after the training ones): at every 4th decision
with at least one informative pass, for every unseen card not known to be the
landlord's, P(the next seat holds it) is estimated over the same ``WORLDS`` uniform
consistent deals, once unweighted and once weighted by the pass likelihood; the
log-loss of both against where the card really was is printed (docs/AI.md §Inference).
"""

from __future__ import annotations

import argparse
import math
import random
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from bot.ai.decision import Decision
from bot.ai.inference import can_beat, follow_events, weighted_world
from bot.ai.inference_weights import PASS_RATE
from bot.ai.observation import Observation
from bot.ai.policy import normal_play
from bot.ai.search import sample_world
from bot.ai.selfplay import deal, play_hand
from bot.ai.view import view_of
from bot.rules import Card

FIRST_SEED = 20_000_000
WORLDS = 60
WEIGHTS_FILE = Path(__file__).resolve().parent.parent / "bot" / "ai" / "inference_weights.py"
KEYS = [(ll, kind, beat) for ll in (True, False) for kind in ("single", "pair", "other")
        for beat in (0, 1, 2)]


def _normal(obs: Observation, rng: random.Random) -> Decision:
    return normal_play(view_of(obs), rng)


def play_games(first: int, games: int, agent: Callable = _normal,
               watch: Callable[[Observation, list[list[Card]]], None] | None = None,
               ) -> list[tuple[list[list[Card]], int, list]]:
    """Play ``games`` seeded games; (initial hands with the kitty, landlord, history) each.

    ``watch(obs, true_hands)`` sees every decision's observation and the hands then.
    """
    out = []
    for i in range(first, first + games):
        hands, kitty = deal(random.Random(i))
        landlord = i % 3
        start = [list(h) for h in hands]
        start[landlord] = sorted(start[landlord] + list(kitty))

        def seen(obs: Observation, rng: random.Random, start: list = start) -> Decision:
            if watch is not None:
                now = [list(h) for h in start]
                for seat, combo in obs.history:
                    if combo is not None:
                        for card in combo.cards:
                            now[seat].remove(card)
                watch(obs, now)
            return agent(obs, rng)

        result = play_hand([seen] * 3, hands, landlord, kitty, random.Random(i))
        out.append((start, landlord, result.history))
    return out


def count_passes(games: list) -> tuple[Counter, Counter]:
    """(observations, passes) per ``PASS_RATE`` key over the follow decisions of ``games``."""
    seen: Counter = Counter()
    passed: Counter = Counter()
    for start, landlord, history in games:
        last = None
        hands = [list(h) for h in start]
        for seat, combo in history:
            if last is not None and last[0] != seat:
                opponent = seat == landlord or last[0] == landlord
                events = follow_events([last, (seat, None)], landlord, -1) if opponent else []
                if events:
                    counts = [0] * 15
                    for card in hands[seat]:
                        counts[card.rank_index] += 1
                    key = (seat == landlord, events[0][1], can_beat(counts, last[1]))
                    seen[key] += 1
                    passed[key] += combo is None
            if combo is not None:
                for card in combo.cards:
                    hands[seat].remove(card)
                last = (seat, combo)
    return seen, passed


def rates(seen: Counter, passed: Counter) -> dict[tuple[bool, str, int], float]:
    """Laplace-smoothed pass rate per key."""
    return {key: (passed[key] + 1) / (seen[key] + 2) for key in KEYS}


def calibration(first: int, games: int, worlds: int = WORLDS) -> tuple[float, float, int]:
    """(uniform log-loss, inferred log-loss, predictions) of "the next seat holds this card".

    Each estimate is the share of ``worlds`` deals in which the next seat holds the card
    (+0.5 smoothing): uniform consistent deals (``sample_world``) against the search's own
    inferred ones (``weighted_world``).
    """
    losses = [0.0, 0.0]
    n = [0]
    step = [0]

    def watch(obs: Observation, now: list[list[Card]]) -> None:
        step[0] += 1
        if step[0] % 4 or obs.landlord is None:
            return
        view = view_of(obs)
        events = follow_events(obs.history, obs.landlord, obs.seat)
        if not events:
            return
        rng = random.Random(step[0])
        plain = [sample_world(view, rng) for _ in range(worlds)]
        inferred_worlds = [weighted_world(view, rng, sample_world, events)
                           for _ in range(worlds)]
        target = (obs.seat + 1) % 3
        known = set(view.landlord_known)
        held = set(now[target])
        for card in view.pool:
            if card in known:
                continue
            uniform = (sum(card in w[target] for w in plain) + 0.5) / (worlds + 1)
            inferred = (sum(card in w[target] for w in inferred_worlds) + 0.5) / (worlds + 1)
            truth = card in held
            for k, p in enumerate((uniform, inferred)):
                losses[k] -= math.log(p if truth else 1 - p)
            n[0] += 1

    play_games(first, games, watch=watch)
    return losses[0] / max(1, n[0]), losses[1] / max(1, n[0]), n[0]


def write(table: dict[tuple[bool, str, int], float], seen: Counter, games: int) -> None:
    lines = [
        '"""P(pass | could beat, role, kind): written by ``python -m fitting.fit_inference``.',
        "",
        f"Fitted on {games} normal self-play games (seeds {FIRST_SEED:,}+); key = (the passing",
        "seat is the landlord, kind bucket, how it could beat with the same kind: 0 not at all,",
        "1 only with 2s or jokers, 2 with a lower body). docs/AI.md §Inference.",
        '"""',
        "",
        "PASS_RATE: dict[tuple[bool, str, int], float] = {",
    ]
    for key in KEYS:
        lines.append(f"    {key!r}: {table[key]:.4f},  # {seen[key]} passes or plays")
    lines.append("}")
    WEIGHTS_FILE.write_text("\n".join(lines) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--check", type=int, default=300)
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args()
    seen, passed = count_passes(play_games(FIRST_SEED, args.games))
    table = rates(seen, passed)
    for key in KEYS:
        print(f"{key!s:28} n={seen[key]:6d} P(pass)={table[key]:.3f}")
    if not args.no_write:
        write(table, seen, args.games)
    PASS_RATE.update(table)  # the calibration judges the table just fitted
    uniform, inferred, n = calibration(FIRST_SEED + args.games, args.check)
    print(f"held-out log-loss over {n} card predictions: uniform {uniform:.4f}, "
          f"inferred {inferred:.4f}")


if __name__ == "__main__":
    main()
