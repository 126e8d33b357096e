"""Fit the thresholds of the computers' Happy decisions (``bot.ai.happy``): call, grab,
show at the deal, show after the kitty, double (reproducible, seeded).

    python -m fitting.bidding_outcomes 30000000 3000 normal ~/.cache/ddz-bot/happy-train.jsonl
    python -m fitting.fit_happy --cache ~/.cache/ddz-bot/happy-train.jsonl

Training deals are seeds 30,000,000 + i (disjoint from the arena's, the bidding fit's
and the inference fit's), each played out once per possible landlord with normal play
in every seat (``fitting.bidding_outcomes``: the landlord's result and 2^N). The play
never looks at the Happy decisions (normal play reads no stake and, at this level, no
shown hand), so a Happy hand's whole result follows from its decisions and the cached
game of its landlord: the auction (``bot.rules.happy.auction``), the shows and the
doubles are simulated exactly, then settled with the cap (``bot.rules.happy.stake``,
cap 64, the default). A hand nobody calls is worth 0 (it is dealt again). What a
shown hand gives away in play, which normal play does not take, is charged as
``--show-cost`` (the landlord's win rate lost face up, measured with the hard search
by ``fitting.show_cost``): a side that showed keeps a win with probability 1 − q,
q = cost / its side's win rate (expected points).

A policy is a ``Thresholds`` on its estimate of P(its side wins): ``hard`` on
``bot.ai.happy.estimate`` (sampled deals around what it has seen, ``--worlds`` per
decision, seeded by the deal and the decision), ``normal`` on ``strength`` (its own
cards). Its score on a deal is its points, averaged over the three seats it may hold,
against two copies of each opponent: the same level that calls by its own rule but
never grabs, shows or doubles (the arena's acceptance baseline, docs/AI.md §Happy
rules), and the other level with its current thresholds. Coordinate search over a grid
of each threshold in turn (``GRIDS``, ``--rounds``) maximizes the mean of the two scores on the
training deals (the first 80 %); the held-out deals (the rest) are reported beside the
starting thresholds. Prints the constants to paste into ``bot/ai/happy.py``.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import random
import time
from collections.abc import Callable
from pathlib import Path

from bot.ai import happy
from bot.ai.happy import Thresholds, answer, estimate
from bot.ai.observation import HappyState, Observation
from bot.game.hand import Hand
from bot.rules import Card, RuleSet
from bot.rules.happy import SHOW_AT_DEAL, auction, settle, stake

CAP = 64
RULES = RuleSet(variant="happy", cap=CAP)
GRIDS = {
    "call": [round(0.26 + 0.04 * i, 2) for i in range(12)],  # 0.26 … 0.70
    "grab": [round(0.38 + 0.04 * i, 2) for i in range(12)],  # 0.38 … 0.82
    "show_deal": [round(0.50 + 0.04 * i, 2) for i in range(12)],  # 0.50 … 0.94
    "show_kitty": [round(0.50 + 0.04 * i, 2) for i in range(12)],
    "landlord_double": [round(0.30 + 0.04 * i, 2) for i in range(14)],  # 0.30 … 0.82
    "peasant_double": [round(0.30 + 0.04 * i, 2) for i in range(14)],
}
"""The values each threshold is tried at."""


@dataclasses.dataclass
class Deal:
    """One training deal: hands, kitty, first speaker, each landlord's (won, 2^N)."""

    seed: int
    hands: list[list[Card]]
    kitty: list[Card]
    first: int
    results: list[tuple[bool, int]]


def load(path: Path) -> list[Deal]:
    """The deals of the outcomes cache with all three landlords played, by seed."""
    rows: dict[int, dict[int, int]] = {}
    for line in path.read_text().splitlines():
        if line.strip():
            row = json.loads(line)
            if row["level"] == "normal":
                rows.setdefault(row["seed"], {})[row["landlord"]] = row["points"]
    deals = []
    for seed in sorted(rows):
        if len(rows[seed]) < 3:
            continue
        hand = Hand.deal(RULES, seed=seed)
        results = [(rows[seed][s] > 0, abs(rows[seed][s]) // 2) for s in range(3)]
        deals.append(Deal(seed, [list(h) for h in hand.dealt], list(hand.kitty),
                          hand.first_bidder, results))
    return deals


class Estimates:
    """P(side wins) for each information state a seat can be in, computed once."""

    def __init__(self, worlds: int) -> None:
        self.worlds = worlds
        self.memo: dict[tuple, float] = {}

    def hard(self, deal: Deal, seat: int, landlord: int | None, calls: tuple,
             shows: tuple[int, int, int], first: int) -> float:
        """``bot.ai.happy.estimate`` of ``seat``'s observation in that state."""
        key = (deal.seed, seat, landlord, calls, shows, first)
        if key not in self.memo:
            hand = deal.hands[seat] + (deal.kitty if seat == landlord else [])
            face_up = tuple((s, tuple(deal.hands[s] + (deal.kitty if s == landlord else [])))
                            for s in range(3) if s != seat and shows[s])
            left = [20 if s == landlord else 17 for s in range(3)]
            obs = Observation(
                seat=seat, hand=tuple(hand), phase="bidding" if landlord is None else "playing",
                rules=RULES, landlord=landlord,
                kitty=None if landlord is None else tuple(deal.kitty),
                cards_left=(left[0], left[1], left[2]),
                happy=HappyState(first=first, calls=calls, shows=shows, face_up=face_up))
            rng = random.Random(f"{deal.seed}|{key[1:]}")
            self.memo[key] = estimate(obs, rng, self.worlds)
        return self.memo[key]


@dataclasses.dataclass(frozen=True)
class Policy:
    """A seat's Happy decisions: ``level`` ("hard" or "normal") with ``limits``;
    ``never``: calls by them but never grabs, shows or doubles."""

    level: str
    limits: Thresholds
    never: bool = False


SHOW_COST = [0.0]
"""The landlord's win rate lost by showing its hand (``fitting.show_cost``; ``--show-cost``)."""
LANDLORD_WINS = [0.5]
"""The landlords' win rate over the training games (set by ``main``)."""


def simulate(deal: Deal, seats: list[Policy], est: Estimates,
             strengths: Callable[[Deal, int, int | None], float]) -> tuple[float, ...]:
    """The three point changes of ``deal`` with ``seats``' policies (module docstring)."""
    shows = [0, 0, 0]

    def rate(seat: int, landlord: int | None, calls: tuple, first: int) -> float:
        policy = seats[seat]
        if policy.level == "hard":
            return est.hard(deal, seat, landlord, calls, (shows[0], shows[1], shows[2]), first)
        return strengths(deal, seat, landlord)

    first = deal.first  # a computer shows at the deal only as the first speaker
    if not seats[first].never and answer("show", rate(first, None, (), first), False,
                                         seats[first].limits):
        shows[first] = SHOW_AT_DEAL
    calls: tuple[tuple[int, int], ...] = ()
    while True:
        state = auction(first, [(s, bool(y)) for s, y in calls])
        if state.stage == "redeal":
            return (0.0, 0.0, 0.0)
        if state.stage == "done":
            break
        seat = state.turn
        assert seat is not None
        policy = seats[seat]
        if state.stage == "grab" and policy.never:
            yes = 0
        else:
            yes = answer(state.stage, rate(seat, None, calls, first), False, policy.limits)
        calls = calls + ((seat, yes),)
    landlord = state.landlord
    assert landlord is not None
    if not shows[landlord] and max(shows) < SHOW_AT_DEAL and not seats[landlord].never:
        shows[landlord] = answer("show", rate(landlord, landlord, calls, first), True,
                                 seats[landlord].limits)
    doubles = [1, 1, 1]
    for seat in range(3):
        if not seats[seat].never:
            doubles[seat] = answer("double", rate(seat, landlord, calls, first),
                                   seat == landlord, seats[seat].limits)
    won, mult = deal.results[landlord]
    doublings = mult.bit_length() - 1
    show = max([s for s in shows if s], default=1)
    stakes = [None if s == landlord else stake(state.grab_factor, show, doublings,
                                               doubles[landlord], doubles[s], CAP)
              for s in range(3)]
    points = settle(landlord, won, stakes)
    if not any(shows) or SHOW_COST[0] == 0.0:
        return points
    # A shown hand helps the other side (normal play does not read it): the side that
    # showed keeps its win only with probability 1 - q (expected points).
    landlord_shown = bool(shows[landlord])
    if won != landlord_shown:
        return points
    flip = min(1.0, SHOW_COST[0] / (LANDLORD_WINS[0] if won else 1.0 - LANDLORD_WINS[0]))
    other = settle(landlord, not won, stakes)
    return tuple((1 - flip) * a + flip * b for a, b in zip(points, other, strict=True))


_STRENGTHS: dict[tuple[int, int, bool], float] = {}


def strength_of(deal: Deal, seat: int, landlord: int | None) -> float:
    """normal's ``strength`` of the seat's cards (its 20 once it is the landlord)."""
    key = (deal.seed, seat, seat == landlord)
    if key not in _STRENGTHS:
        _STRENGTHS[key] = happy.strength(deal.hands[seat] + (deal.kitty if key[2] else []))
    return _STRENGTHS[key]


def score(deals: list[Deal], ours: Policy, theirs: list[Policy], est: Estimates) -> float:
    """Mean points of ``ours`` in one seat against two copies of each of ``theirs``
    (every seat in turn), averaged over the opponents."""
    total = 0.0
    for other in theirs:
        points = 0.0
        for deal in deals:
            for seat in range(3):
                seats = [other, other, other]
                seats[seat] = ours
                points += simulate(deal, seats, est, strength_of)[seat]
        total += points / (3 * len(deals))
    return total / len(theirs)


FIELDS = ("call", "grab", "show_deal", "show_kitty", "landlord_double", "peasant_double")


def coordinate_search(deals: list[Deal], level: str, start: Thresholds,
                      opponents: Callable[[Thresholds], list[Policy]], est: Estimates,
                      rounds: int = 2) -> Thresholds:
    """Each threshold in turn set to its best grid value (double pairs: low, then high)."""
    best = start
    best_score = score(deals, Policy(level, best), opponents(best), est)
    for r in range(rounds):
        for name in FIELDS:
            parts = (0, 1) if name.endswith("double") else (None,)
            for part in parts:
                for value in GRIDS[name]:
                    if part is None:
                        trial = dataclasses.replace(best, **{name: value})  # type: ignore[arg-type]  # a float field
                    else:
                        pair = list(getattr(best, name))
                        pair[part] = value
                        if pair[0] > pair[1]:
                            continue
                        trial = dataclasses.replace(best, **{name: (pair[0], pair[1])})  # type: ignore[arg-type]  # a pair field
                    if name == "grab" and trial.grab < trial.call:
                        continue
                    s = score(deals, Policy(level, trial), opponents(trial), est)
                    if s > best_score + 1e-9:
                        best, best_score = trial, s
            print(f"  {level} round {r + 1} {name}: {best} -> {best_score:+.3f}", flush=True)
    return best


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cache", type=Path, required=True, help="fitting.bidding_outcomes file")
    parser.add_argument("--deals", type=int, default=0, help="use only the first N deals")
    parser.add_argument("--worlds", type=int, default=happy.WORLDS,
                        help="hard's sampled deals per decision")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--only", choices=("hard",), help="fit hard's thresholds alone, against "
                        "normal's in bot/ai/happy.py")
    parser.add_argument("--show-cost", type=float, default=0.0,
                        help="the landlord's win rate lost with its hand face up (fitting.show_cost)")
    args = parser.parse_args(argv)
    SHOW_COST[0] = args.show_cost
    deals = load(args.cache)
    LANDLORD_WINS[0] = sum(won for d in deals for won, _ in d.results) / (3 * len(deals))
    if args.deals:
        deals = deals[: args.deals]
    cut = len(deals) * 4 // 5
    train, held = deals[:cut], deals[cut:]
    est = Estimates(args.worlds)
    start = time.perf_counter()
    print(f"{len(train)} training deals, {len(held)} held out; hard estimates with "
          f"{args.worlds} worlds; landlords win {LANDLORD_WINS[0]:.3f}; a show costs "
          f"{SHOW_COST[0]:.3f} of it")
    hard0, normal0 = happy.HARD, happy.NORMAL

    def hard_opponents(limits: Thresholds) -> list[Policy]:
        return [Policy("hard", limits, never=True), Policy("normal", normal0)]

    hard = coordinate_search(train, "hard", hard0, hard_opponents, est, args.rounds)

    def normal_opponents(limits: Thresholds) -> list[Policy]:
        return [Policy("normal", limits, never=True), Policy("hard", hard)]

    normal = (normal0 if args.only == "hard" else
              coordinate_search(train, "normal", normal0, normal_opponents, est, args.rounds))
    print(f"fitted in {time.perf_counter() - start:.0f} s")
    print("| level | thresholds | vs never (train / held out) | vs the other level (train / held out) |")
    print("|---|---|---|---|")
    for name, level, limits, opponents in (
        ("hard, before", "hard", hard0, [Policy("hard", hard0, never=True), Policy("normal", normal0)]),
        ("hard, fitted", "hard", hard, [Policy("hard", hard, never=True), Policy("normal", normal0)]),
        ("normal, before", "normal", normal0, [Policy("normal", normal0, never=True), Policy("hard", hard)]),
        ("normal, fitted", "normal", normal, [Policy("normal", normal, never=True), Policy("hard", hard)]),
    ):
        ours = Policy(level, limits)
        cells = [f"{score(train, ours, [o], est):+.3f} / {score(held, ours, [o], est):+.3f}"
                 for o in opponents]
        print(f"| {name} | {limits} | {cells[0]} | {cells[1]} |", flush=True)
    print(f"\nHARD = {hard}\nNORMAL = {normal}")
    share = [0, 0]
    for deal in held:  # the first speaker's first words
        rate = est.hard(deal, deal.first, None, (), (0, 0, 0), deal.first)
        share[0] += answer("call", rate, False, hard)
        share[1] += answer("show", rate, False, hard) > 0
    print(f"held out, hard's first speaker: calls {share[0] / len(held):.2f} of hands, "
          f"shows at the deal {share[1] / len(held):.3f}")


if __name__ == "__main__":
    main()
