"""What showing a hand costs in play: the landlord's win rate with its hand face up
against the same deal played hidden, the hard search in every seat (seeded).

    python -m fitting.show_cost --deals 150 --steps 500

The played-out games behind ``fitting.fit_happy`` are normal play, which reads no shown
hand, so there a show looks free; the hard search deals the unseen cards around a shown
hand (docs/AI.md §Happy rules) and plays against it. Each deal (seeds 40,000,000 + i) is
played twice from the same position and play RNG: the first speaker calls, nobody grabs,
it takes the kitty and shows (×2) or keeps hidden, nobody doubles; then ``hard@STEPS``
plays every seat. Prints the landlord's win rate both ways and the difference with its
95 % interval (pairs of games), the ``SHOW_COST`` that ``fitting.fit_happy`` charges.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time

from bot.ai.search import hard_play
from bot.ai.view import view_of
from bot.game.happy import HappyHand
from bot.rules import RuleSet

RULES = RuleSet(variant="happy")


def landlord_wins(seed: int, shown: bool, steps: int) -> bool:
    """Deal ``seed`` with its first speaker as the landlord, face up or hidden."""
    hand = HappyHand.deal(RULES, seed=seed)
    assert isinstance(hand, HappyHand)
    first = hand.turn
    assert first is not None
    hand.call(first, True)
    while hand.phase == "bidding":
        seat = hand.turn
        assert seat is not None
        hand.grab(seat, False)
    if shown:
        hand.show(first)
    else:
        hand.keep_hidden(first)
    for seat in range(3):
        hand.double(seat, 1)
    rng = random.Random(seed)
    while hand.phase == "playing":
        seat = hand.turn
        assert seat is not None
        combo = hard_play(view_of(hand.observation(seat)), rng, steps, time_cap=math.inf).combo
        if combo is None:
            hand.pass_turn(seat)
        else:
            hand.play(seat, combo)
    assert hand.result is not None
    return hand.result.winner == "landlord"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=150)
    parser.add_argument("--steps", type=int, default=500, help="hard search's step budget")
    parser.add_argument("--seed", type=int, default=40_000_000)
    args = parser.parse_args(argv)
    pairs: list[tuple[bool, bool]] = []
    start = time.perf_counter()
    for seed in range(args.seed, args.seed + args.deals):
        pairs.append((landlord_wins(seed, False, args.steps), landlord_wins(seed, True, args.steps)))
        if len(pairs) % 10 == 0:
            _report(pairs, start, file=sys.stderr)
    _report(pairs, start)


def _report(pairs: list[tuple[bool, bool]], start: float, file=sys.stdout) -> None:  # noqa: ANN001
    n = len(pairs)
    hidden = sum(h for h, _ in pairs) / n
    shown = sum(s for _, s in pairs) / n
    diffs = [float(h) - float(s) for h, s in pairs]
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1) if n > 1 else 0.0
    print(f"{n} deals: landlord wins {hidden:.3f} hidden, {shown:.3f} face up; cost "
          f"{mean:+.3f} ± {1.96 * math.sqrt(var / n):.3f} ({time.perf_counter() - start:.0f} s)",
          file=file, flush=True)


if __name__ == "__main__":
    main()
