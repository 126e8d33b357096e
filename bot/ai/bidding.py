"""Bidding from an estimate of what a hand is worth (docs/RULES.md §Deal and bidding).

* ``hard_bid``: samples deals of the unseen cards (the kitty and the other two
  hands), weighted by how well each agrees with the bids already made (the
  others are assumed to bid like ``normal_bid``; a disagreeing deal keeps weight
  ``MISMATCH_WEIGHT``; a bid is read as "worth at least this", a pass as "not
  worth more than the highest bid"), values each possible landlord of each deal with a fitted
  model of played-out games (``landlord_value``), plays the rest of the bidding
  out under either variant (``rules.bidding``: ``"once"`` or
  ``"until_two_passes"``; our own later turns pass) and bids the amount whose
  expected points are best. Bounded by ``WORLDS`` sampled deals (reproducible
  with a seeded RNG) and a ``TIME_CAP`` wall-clock cap.
* ``normal_bid``: P(win as landlord) of the 17 dealt cards alone
  (``hand_win_rate``), bid by fitted thresholds (``THRESHOLDS``).
* ``easy_bid``: the old strength score with noise.

The weights come from ``fitting/fit_bidding.py`` (normal play in every seat on
held-apart training deals); ``benchmarks/bidding_arena.py`` measures the policies.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence

from bot.ai.bidding_features import hand_features
from bot.ai.decision import Decision
from bot.ai.evaluate import counts_of, evaluate
from bot.ai.observation import Observation

# ----- fitted constants (fitting/fit_bidding.py) -------------------------------

DEAL_WEIGHTS: tuple[float, ...] = (
    6.6442, 0.5653, 0.5210, 0.2006, 0.1015, 0.0758, 0.0551, -0.7631, -1.1438, -1.1320,
    -0.8018, -0.1291, 0.4633, 0.3265, 0.1071, -0.5653, -0.5210, -0.2006, -0.1015, 0.1280,
)
"""Logistic weights of P(landlord wins): intercept, the landlord's 20 cards'
``hand_features``, then the peasants' summed ``PEASANT_FEATURES``."""
BOMBS = 6
"""Index of the bombs (rocket included) in ``hand_features``."""
PEASANT_FEATURES: tuple[int, ...] = (BOMBS, 0, 1, 2, 3, 12)
"""Indexes into ``hand_features`` of the peasant terms: bombs, jokers, twos, aces, turns."""
HAND_WEIGHTS: tuple[float, ...] = (
    2.3181, 0.8219, 0.7455, 0.3508, 0.1486, 0.0530, 0.0436, -0.2527, -0.5357, -0.3937,
    -0.1977, -0.0853, 0.0229, -0.0133,
)
"""Logistic weights of P(landlord wins) from the landlord's 17 dealt cards only."""
MULTIPLIER: tuple[float, ...] = (1.012, 1.472, 1.827, 2.144, 2.433)
"""Mean 2^doublings of a played hand by bombs + rockets dealt (0, 1, 2, 3, ≥ 4)."""
THRESHOLDS: tuple[float, float, float] = (0.26, 0.26, 0.35)
"""normal: the lowest ``hand_win_rate`` for a bid of 1, 2 and 3."""

WORLDS = 200
"""Sampled deals per hard bidding decision."""
TIME_CAP = 0.5
"""Seconds; hard stops sampling after this (at least ``MIN_WORLDS`` deals)."""
MIN_WORLDS = 40
MISMATCH_WEIGHT = 0.25
"""Weight of a sampled deal per earlier bid the opponent model would not have made."""


def _sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, x))))


def _dot(weights: Sequence[float], features: Sequence[float]) -> float:
    """Σ weights[1 + i] × features[i] (weights[0] is the intercept)."""
    total = 0.0
    for i, f in enumerate(features):
        total += weights[i + 1] * f
    return total


def hand_win_rate(counts: Sequence[int]) -> float:
    """Estimated P(landlord wins) for a 17-card hand (rank counts), kitty unknown."""
    return _sigmoid(HAND_WEIGHTS[0] + _dot(HAND_WEIGHTS, hand_features(counts)))


def landlord_win_rate(
    landlord: Sequence[float], peasant_a: Sequence[float], peasant_b: Sequence[float]
) -> float:
    """Estimated P(landlord wins) of a whole deal, from ``hand_features`` of the
    landlord's 20 cards and of each peasant's 17 cards."""
    x = DEAL_WEIGHTS[0] + _dot(DEAL_WEIGHTS, landlord)
    offset = 1 + len(landlord)
    for k, i in enumerate(PEASANT_FEATURES):
        x += DEAL_WEIGHTS[offset + k] * (peasant_a[i] + peasant_b[i])
    return _sigmoid(x)


def landlord_value(win_rate: float, bombs: int) -> float:
    """Expected landlord points at base 1 (docs/RULES.md §Scoring: ±2P) for a win rate
    and the number of bombs + rockets dealt."""
    return 2.0 * (2.0 * win_rate - 1.0) * MULTIPLIER[min(bombs, 4)]


# ----- bidding order ---------------------------------------------------------------


def next_bidder(bids: Sequence[tuple[int, int]], variant: str) -> int | None:
    """The seat to speak after ``bids`` ((seat, amount), 0 = pass), or None when bidding
    is over (docs/RULES.md §Deal and bidding; ``variant`` = ``rules.bidding``)."""
    if not bids:
        raise ValueError("the first bidder is not known without a bid")
    amounts = [a for _, a in bids]
    if amounts[-1] == 3:
        return None
    if variant == "once" or max(amounts) == 0:
        done = len(bids) >= 3
    else:
        done = len(bids) >= 3 and amounts[-1] == 0 and amounts[-2] == 0
    return None if done else (bids[-1][0] + 1) % 3


def outcome(bids: Sequence[tuple[int, int]]) -> tuple[int, int] | None:
    """(landlord, base bid) of a finished bidding, or None when all passed."""
    best = max(bids, key=lambda b: b[1])
    return None if best[1] == 0 else (best[0], best[1])


def normal_amount(win_rate: float, highest: int) -> int:
    """normal's bid for an estimated win rate with ``highest`` already bid (0 = pass)."""
    want = sum(1 for t in THRESHOLDS if win_rate >= t)
    return want if want > highest else 0


# ----- the three levels ------------------------------------------------------------


def strength_score(counts: Sequence[int]) -> float:
    """The bidding score used before issue 16: big joker 4, small joker 3, each ``2``
    2, each bomb 6, plus up to 4 for a hand that needs few plays (``bot.ai.evaluate``)."""
    points = 4.0 * counts[14] + 3.0 * counts[13] + 2.0 * counts[12]
    points += 6.0 * sum(1 for r in range(13) if counts[r] == 4)
    return points + max(0.0, (9 - evaluate(counts)[1]) * 0.5)


def easy_bid(obs: Observation, rng: random.Random) -> Decision:
    """``strength_score`` plus noise: 3 at ≥ 11, 2 at ≥ 8, 1 at ≥ 6; simple on purpose."""
    points = strength_score(counts_of(obs.hand)) + rng.uniform(-2.0, 2.0)
    want = 3 if points >= 11 else 2 if points >= 8 else 1 if points >= 6 else 0
    return _decision(want, obs.highest_bid, None)


def normal_bid(obs: Observation) -> Decision:
    """Bid by ``hand_win_rate`` against ``THRESHOLDS`` (no search)."""
    rate = hand_win_rate(counts_of(obs.hand))
    want = sum(1 for t in THRESHOLDS if rate >= t)
    return _decision(want, obs.highest_bid, round(100 * rate))


def _decision(want: int, highest: int, percent: int | None) -> Decision:
    if want == 0:
        if percent is None:
            return Decision(0, "bid_pass_weak_hand", {})
        return Decision(0, "bid_pass_win_rate", {"n": percent})
    if want <= highest:
        return Decision(0, "bid_pass_outbid", {"bid": highest})
    if percent is None:
        return Decision(want, "bid_strong_hand" if want == 3 else "bid_fair_hand", {"bid": want})
    return Decision(want, "bid_win_rate", {"bid": want, "n": percent})


def hard_values(
    obs: Observation,
    rng: random.Random,
    worlds: int = WORLDS,
    time_cap: float | None = None,
) -> tuple[dict[int, float], float]:
    """Expected points of each allowed bid (0 = pass) for ``obs.seat``, and the
    estimated win rate as landlord, over sampled deals (see module docstring).

    ``time_cap``: seconds, default ``TIME_CAP`` read at the call (so that tests can
    lift it: a loaded machine must not change a seeded result)."""
    time_cap = TIME_CAP if time_cap is None else time_cap
    me = obs.seat
    variant = obs.rules.bidding
    allowed = [0] + [b for b in (1, 2, 3) if b > obs.highest_bid]
    unseen = [card.rank.value - 3 for card in obs.unseen_cards()]  # rank indexes
    mine = counts_of(obs.hand)
    others = [(me + 1) % 3, (me + 2) % 3]
    totals = dict.fromkeys(allowed, 0.0)
    weight_sum = rate_sum = 0.0
    start = time.perf_counter()
    for n in range(worlds):
        if n >= MIN_WORLDS and time.perf_counter() - start > time_cap:
            break
        rng.shuffle(unseen)
        kitty = [0] * 15
        counts: list[list[int]] = [mine, mine, mine]
        counts[others[0]] = [0] * 15
        counts[others[1]] = [0] * 15
        for r in unseen[:3]:
            kitty[r] += 1
        first, second = counts[others[0]], counts[others[1]]
        for r in unseen[3:20]:
            first[r] += 1
        for r in unseen[20:]:
            second[r] += 1
        dealt = [hand_features(c) for c in counts]
        rates17 = [hand_win_rate_from(f) for f in dealt]
        weight = 1.0
        for seat, (amount, before) in _their_bids(obs.bids, me):
            if not _consistent(rates17[seat], amount, before):
                weight *= MISMATCH_WEIGHT
        values = []
        for s in range(3):
            full = hand_features([a + b for a, b in zip(counts[s], kitty, strict=True)])
            rest = [dealt[t] for t in range(3) if t != s]
            rate = landlord_win_rate(full, rest[0], rest[1])
            if s == me:
                rate_sum += weight * rate
            bombs = int(full[BOMBS] + rest[0][BOMBS] + rest[1][BOMBS])
            values.append(landlord_value(rate, bombs))
        weight_sum += weight
        for bid in allowed:
            result = _play_bidding(obs, bid, variant, rates17)
            if result is not None:
                landlord, base = result
                points = base * values[me] if landlord == me else -base * values[landlord] / 2
                totals[bid] += weight * points
    return {b: v / weight_sum for b, v in totals.items()}, rate_sum / weight_sum


def hand_win_rate_from(features: Sequence[float]) -> float:
    """``hand_win_rate`` from already computed ``hand_features``."""
    return _sigmoid(HAND_WEIGHTS[0] + _dot(HAND_WEIGHTS, features))


def _their_bids(
    bids: Sequence[tuple[int, int]], me: int
) -> list[tuple[int, tuple[int, int]]]:
    """(seat, (amount, highest before it)) of each earlier bid by another seat."""
    out = []
    highest = 0
    for seat, amount in bids:
        if seat != me:
            out.append((seat, (amount, highest)))
        highest = max(highest, amount)
    return out


def _consistent(win_rate: float, amount: int, highest: int) -> bool:
    """Whether a seat with ``win_rate`` could have bid ``amount`` over ``highest`` by
    the opponent model (normal's thresholds read as bounds): a bid says the hand
    was worth at least that much, a pass that it was not worth more than ``highest``."""
    want = sum(1 for t in THRESHOLDS if win_rate >= t)
    return want >= amount if amount else want <= highest


def _play_bidding(
    obs: Observation, bid: int, variant: str, rates17: Sequence[float]
) -> tuple[int, int] | None:
    """The bidding's end if ``obs.seat`` bids ``bid`` now, the others bid like normal
    on their sampled hands and our later turns pass."""
    bids = list(obs.bids) + [(obs.seat, bid)]
    highest = max(obs.highest_bid, bid)
    seat = next_bidder(bids, variant)
    while seat is not None:
        amount = 0 if seat == obs.seat else normal_amount(rates17[seat], highest)
        bids.append((seat, amount))
        highest = max(highest, amount)
        seat = next_bidder(bids, variant)
    return outcome(bids)


def hard_bid(
    obs: Observation, rng: random.Random, worlds: int = WORLDS, time_cap: float | None = None
) -> Decision:
    """The allowed bid with the best expected points (``hard_values``, with its
    ``worlds`` and ``time_cap``); ties go to the lower bid."""
    values, rate = hard_values(obs, rng, worlds, time_cap)
    best = max(values, key=lambda b: (values[b], -b))
    percent = round(100 * rate)
    passing = _points(values[0])
    if best == 0:
        if values.get(obs.highest_bid + 1, -1.0) >= 0.0 and obs.highest_bid:
            return Decision(0, "bid_pass_outbid", {"bid": obs.highest_bid})
        bids = [b for b in values if b]
        if not bids:
            return Decision(0, "bid_pass_win_rate", {"n": percent})
        top = max(bids, key=lambda b: (values[b], -b))
        return Decision(0, "bid_pass_expected", {"n": percent, "bid": top,
                                                 "gain": _points(values[top]),
                                                 "passing": passing})
    return Decision(best, "bid_expected", {"bid": best, "n": percent,
                                           "gain": _points(values[best]), "passing": passing})


def _points(value: float) -> str:
    """Expected points as a reason's parameter: signed, one decimal (``"+0.8"``,
    ``"-1.1"``); the cogs write it the member's way (``bot.i18n.decimal``)."""
    return f"{value:+.1f}"
