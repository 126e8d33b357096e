"""Bidding arena: one seat bids with our policy, the other two with a baseline; the play
is the same level in every seat (``python -m benchmarks.arena --bidding`` runs this).

    python -m benchmarks.bidding_arena --deals 1000 --ours hard --ours normal
    python -m benchmarks.bidding_arena --deals 200 --play hard --ours hard
    python -m benchmarks.bidding_arena --deals 300 --timing

Every seeded deal (seeds 1, 2, …; the real engine's ``bot.game.Hand``, its first
bidder included) is bid three times, our policy in seat 0, 1 and 2 in turn; an
all-pass deal is redealt as the engine does (next seat bids first) until someone
bids. The hand is then played with ``--play`` in every seat; since the play never
looks at the bid, each (deal, landlord) is played once and cached
(``fitting.bidding_outcomes``), so all policies are judged on the same games.
Printed per baseline: our points per hand (docs/RULES.md §Scoring) ± 95 % (over deals,
the three seatings averaged first), how often we / one baseline seat become
landlord, the landlord's win rate, the mean winning bid and the all-pass rate.

Bidding policies: ``hard``, ``normal``, ``easy`` (``bot.ai.choose_bid``), ``old``
(the bidding before issue 16), ``random`` (uniform over the allowed bids, a pass
included), ``always3`` and ``threshold:C`` (the old strength score: bid 1 at ≥ C,
2 at ≥ C + 2, 3 at ≥ C + 5; ``old`` is ``threshold:6``).
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

from bot.ai import Observation, choose_bid
from bot.ai.bidding import strength_score
from bot.ai.evaluate import counts_of
from bot.game.hand import Hand
from bot.rules import RuleSet
from fitting import bidding_outcomes

BidPolicy = Callable[[Observation, random.Random], int]
BASELINES = ["random", "threshold:6", "threshold:4", "threshold:2", "threshold:0", "always3"]
MAX_REDEALS = 30


def policy(name: str) -> BidPolicy:
    """The bidding policy called ``name`` (see module docstring)."""
    if name in ("hard", "normal", "easy"):
        return lambda obs, rng: choose_bid(obs, name, rng).bid
    if name == "random":
        return lambda obs, rng: rng.choice([0] + [b for b in (1, 2, 3) if b > obs.highest_bid])
    if name == "always3":
        return lambda obs, rng: 3
    cut = 6.0 if name == "old" else float(name.split(":")[1])

    def threshold(obs: Observation, rng: random.Random) -> int:
        s = strength_score(counts_of(obs.hand))
        want = 3 if s >= cut + 5 else 2 if s >= cut + 2 else 1 if s >= cut else 0
        return want if want > obs.highest_bid else 0

    return threshold


def bid_hand(seed: int, policies: list[BidPolicy], rules: RuleSet,
             times: list[tuple[float, float]] | None = None,
             timed_seat: int = -1) -> tuple[Hand, int]:
    """Bid deal ``seed`` (redealing all-pass deals); the Hand in play and the redeal count."""
    hand = Hand.deal(rules, seed=seed)
    redeals = 0
    while True:
        while hand.phase == "bidding":
            seat = hand.turn
            assert seat is not None
            obs = hand.observation(seat)
            rng = random.Random(f"{hand.seed}|{seat}|{len(obs.bids)}")
            start, cpu = time.perf_counter(), time.process_time()
            amount = policies[seat](obs, rng)
            if times is not None and seat == timed_seat:
                times.append((time.perf_counter() - start, time.process_time() - cpu))
            hand.bid(seat, amount)
        if hand.phase == "playing" or redeals >= MAX_REDEALS:
            return hand, redeals
        hand = hand.redeal()
        redeals += 1


def _interval(values: list[float]) -> tuple[float, float]:
    n = len(values)
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / (n - 1) if n > 1 else 0.0
    return mean, 1.96 * math.sqrt(var / n)


def run_row(ours: str, theirs: str, deals: int, seed: int, level: str, rules: RuleSet,
            minutes: float) -> str:
    """One Markdown row: ``ours`` in one seat against ``theirs`` in two."""
    mine, other = policy(ours), policy(theirs)
    per_deal: list[float] = []
    hands = we_land = they_land = landlord_wins = bid_sum = biddings = all_pass = 0
    start = time.perf_counter()
    for d in range(seed, seed + deals):
        if minutes and time.perf_counter() - start > minutes * 60:
            break
        total = 0.0
        for r in range(3):
            policies = [mine if s == r else other for s in range(3)]
            hand, redeals = bid_hand(d, policies, rules)
            biddings += redeals + 1
            all_pass += redeals
            if hand.phase != "playing":
                continue  # nobody ever bid: counts as 0 points
            landlord, bid = hand.landlord, hand.winning_bid
            assert landlord is not None and hand.seed is not None
            points = bid * bidding_outcomes.landlord_points(hand.seed, landlord, level)
            total += points if landlord == r else -points / 2
            hands += 1
            we_land += landlord == r
            they_land += landlord != r
            landlord_wins += points > 0
            bid_sum += bid
        per_deal.append(total / 3)
    mean, ci = _interval(per_deal)
    secs = time.perf_counter() - start
    return (
        f"| {ours} | {theirs} | {len(per_deal)} | {mean:+.2f} ± {ci:.2f} | "
        f"{100 * we_land / hands:.0f} % vs {100 * they_land / 2 / hands:.0f} % | "
        f"{100 * landlord_wins / hands:.0f} % | {bid_sum / hands:.2f} | "
        f"{100 * all_pass / biddings:.0f} % | {secs:.0f} s |"
    )


def timing(deals: int, seed: int, rules: RuleSet) -> None:
    """Time per bidding decision of each level against ``old`` bidders (median, p90,
    max of the wall clock, and of this process's CPU time: the machine is shared)."""
    print("| level | decisions | wall median | p90 | max | CPU median | p90 | max |")
    print("|---|---|---|---|---|---|---|---|")
    for level in ("easy", "normal", "hard"):
        times: list[tuple[float, float]] = []
        for d in range(seed, seed + deals):
            for r in range(3):
                policies = [policy(level if s == r else "old") for s in range(3)]
                bid_hand(d, policies, rules, times, r)
        cells = []
        for column in (0, 1):
            values = sorted(t[column] for t in times)
            cells += [f"{1000 * values[len(values) // 2]:.2f} ms",
                      f"{1000 * values[int(0.9 * len(values))]:.2f} ms",
                      f"{1000 * values[-1]:.1f} ms"]
        print(f"| {level} | {len(times)} | " + " | ".join(cells) + " |")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1, help="first deal seed")
    parser.add_argument("--play", default="normal", choices=["normal", "hard"])
    parser.add_argument("--ours", action="append", help="our bidding policy, repeatable")
    parser.add_argument("--vs", action="append", help="baseline policy, repeatable")
    parser.add_argument("--variant", default="once", choices=["once", "until_two_passes"],
                        help="bidding variant (docs/RULES.md)")
    parser.add_argument("--minutes", type=float, default=0.0, help="time cap per row")
    parser.add_argument("--cache", type=Path, default=bidding_outcomes.DEFAULT_CACHE,
                        help="played-out deals (JSON lines), shared between runs")
    parser.add_argument("--timing", action="store_true", help="only time bidding decisions")
    args = parser.parse_args(argv)
    rules = RuleSet(bidding=args.variant)
    if args.timing:
        timing(args.deals, args.seed, rules)
        return
    bidding_outcomes.use_cache(args.cache)
    print(f"bidding arena: up to {args.deals} deals × 3 seatings, seed {args.seed}, "
          f"play {args.play}, bidding {args.variant}")
    print("| ours | vs | deals | our points/hand (95%) | landlord: we vs one of them "
          "| landlord wins | mean bid | all pass | time |")
    print("|---|---|---|---|---|---|---|---|---|")
    for ours in args.ours or ["hard", "normal"]:
        for theirs in args.vs or BASELINES:
            print(run_row(ours, theirs, args.deals, args.seed, args.play, rules, args.minutes),
                  flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
