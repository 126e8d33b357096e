"""Glicko-2 ratings for puzzles and puzzle solvers (docs/RULES.md §Puzzles).

Mark Glickman, "Example of the Glicko-2 system" (2013): one rating period per
update, on the Glicko scale (r = 1500, RD = 350 for a newcomer). An attempt is one
game between a member and a puzzle: the member scores 1 for a solve and 0 for a
failure, the puzzle the opposite, each rated against the other's rating from
before the attempt (as lichess rates its puzzles).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

SCALE = 173.7178
"""Glicko-2's factor between the Glicko scale and its internal one (400 / ln 10)."""
TAU = 0.5
"""The system constant: how much the volatility may change (Glickman suggests 0.3–1.2)."""
EPSILON = 1e-6
"""Convergence tolerance of the volatility iteration."""
PUZZLE_RD = 100.0
"""A new puzzle's rating deviation: its initial rating comes from the solver's depth and
choice count (``bot.features.puzzles.model``), fairly known, not a newcomer's 350."""
MIN_RD = 45.0
"""No deviation falls below this, so ratings keep moving (lichess keeps a floor too)."""
MAX_RD = 350.0
"""No deviation grows beyond a newcomer's."""
PERIOD_SECONDS = 86_400
"""One rating period: a UTC day (docs/RATINGS.md §Puzzle ratings). Attempts of the same
day are rated one after another, each as a period of one game; a day without an attempt
is a period without games."""


@dataclass(frozen=True)
class Glicko2Rating:
    """A rating on the Glicko scale: ``rating`` (r), ``rd`` (rating deviation) and
    ``volatility`` (σ)."""

    rating: float = 1500.0
    rd: float = 350.0
    volatility: float = 0.06


DEFAULT_RATING = Glicko2Rating()
"""A member's first puzzle rating."""


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _e(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def expected_score(player: Glicko2Rating, opponent: Glicko2Rating) -> float:
    """The player's expected score (0..1) against ``opponent`` (Glickman's E)."""
    return _e((player.rating - 1500.0) / SCALE, (opponent.rating - 1500.0) / SCALE,
              opponent.rd / SCALE)


def update(
    player: Glicko2Rating,
    results: Sequence[tuple[Glicko2Rating, float]],
    tau: float = TAU,
    min_rd: float = 0.0,
) -> Glicko2Rating:
    """The player's rating after one rating period of ``results`` (opponent's rating
    before the period, score 1/0.5/0), Glickman's steps 2–8. With no results only the
    deviation grows. ``min_rd`` floors the new deviation (``MIN_RD`` for puzzles);
    the deviation never exceeds ``MAX_RD``."""
    mu = (player.rating - 1500.0) / SCALE
    phi = player.rd / SCALE
    sigma = player.volatility
    if not results:
        phi_star = math.sqrt(phi * phi + sigma * sigma)
        rd = min(MAX_RD, max(min_rd, phi_star * SCALE))
        return Glicko2Rating(player.rating, rd, sigma)
    v_inv = 0.0
    delta_sum = 0.0
    for opponent, score in results:
        mu_j = (opponent.rating - 1500.0) / SCALE
        phi_j = opponent.rd / SCALE
        g = _g(phi_j)
        e = _e(mu, mu_j, phi_j)
        v_inv += g * g * e * (1.0 - e)
        delta_sum += g * (score - e)
    v = 1.0 / v_inv
    delta = v * delta_sum
    sigma_new = _volatility(phi, sigma, v, delta, tau)
    phi_star = math.sqrt(phi * phi + sigma_new * sigma_new)
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu_new = mu + phi_new * phi_new * delta_sum
    rd = min(MAX_RD, max(min_rd, phi_new * SCALE))
    return Glicko2Rating(mu_new * SCALE + 1500.0, rd, sigma_new)


def _volatility(phi: float, sigma: float, v: float, delta: float, tau: float) -> float:
    """Glickman's step 5: the new volatility by the Illinois algorithm."""
    a = math.log(sigma * sigma)
    d2 = delta * delta
    p2 = phi * phi

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (d2 - p2 - v - ex) / (2.0 * (p2 + v + ex) ** 2) - (x - a) / (tau * tau)

    big_a = a
    if d2 > p2 + v:
        big_b = math.log(d2 - p2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def idle_periods(last: float, now: float) -> int:
    """The rating periods without a game between a game at ``last`` and one at ``now``
    (Unix seconds): the whole UTC days strictly between their two days, 0 on the same
    day or the next (``PERIOD_SECONDS``)."""
    return max(0, int(now // PERIOD_SECONDS) - int(last // PERIOD_SECONDS) - 1)


def age(player: Glicko2Rating, periods: int, min_rd: float = 0.0) -> Glicko2Rating:
    """The player's rating after ``periods`` rating periods without games: Glickman's
    step 6 alone, once per period (φ' = √(φ² + periods · σ²)); rating and volatility stay,
    the deviation is floored at ``min_rd`` and never exceeds ``MAX_RD``. A year away
    (365 periods) takes a deviation of 118.6 to about 232 at σ = 0.06."""
    if periods <= 0:
        return player
    phi = player.rd / SCALE
    grown = math.sqrt(phi * phi + periods * player.volatility * player.volatility) * SCALE
    return Glicko2Rating(player.rating, min(MAX_RD, max(min_rd, grown)), player.volatility)


def rate_attempt(
    member: Glicko2Rating, puzzle: Glicko2Rating, solved: bool
) -> tuple[Glicko2Rating, Glicko2Rating]:
    """(member's, puzzle's) ratings after one attempt: one game each, against the other's
    rating from before it; both deviations floored at ``MIN_RD``."""
    score = 1.0 if solved else 0.0
    return (update(member, [(puzzle, score)], min_rd=MIN_RD),
            update(puzzle, [(member, 1.0 - score)], min_rd=MIN_RD))
