"""Skill ratings (docs/RATINGS.md): openskill Plackett-Luce, landlord vs two peasants."""

from __future__ import annotations

import math

import pytest

from bot.game.rating import (
    MU,
    NEW_RATING,
    SIGMA,
    RatedSeat,
    SkillRating,
    computer_key,
    landlord_win_chance,
    member_key,
    rate_hand,
)

A, B, C = member_key(1), member_key(2), member_key(3)


def hand(landlord: str, *peasants: str) -> list[RatedSeat]:
    return [RatedSeat(landlord, True), *(RatedSeat(p, False) for p in peasants)]


def test_newcomers_start_at_mu_25_sigma_25_thirds_and_ordinal_zero() -> None:
    assert (NEW_RATING.mu, NEW_RATING.sigma, NEW_RATING.hands) == (25.0, 25.0 / 3.0, 0)
    assert NEW_RATING.ordinal == pytest.approx(0.0)
    assert NEW_RATING.provisional
    assert not SkillRating(hands=5).provisional


def test_equal_players_give_the_landlord_an_even_chance() -> None:
    assert landlord_win_chance(NEW_RATING, (NEW_RATING, NEW_RATING)) == pytest.approx(0.5)


def test_landlord_win_among_newcomers_moves_everyone_by_the_same_amount() -> None:
    after = rate_hand(hand(A, B, C), landlord_won=True, current={})
    # Plackett-Luce (Weng-Lin 2011, Algorithm 4) by hand: each σ first grows by τ = 25/300;
    # c² = Σ team σ² + 2β² (β = 25/6); both teams' μ are 50 (the landlord's teammate
    # is μ 25), so the winner's chance was 1/2 and every member moves by σ'²/c · 1/2 (σ'² = σ² + τ²).
    tau, beta = 25 / 300, 25 / 6
    s2 = SIGMA**2 + tau**2
    c = math.sqrt(s2 + (0.001**2 + tau**2) + 2 * s2 + 2 * beta**2)
    delta = s2 / c * 0.5
    assert after[A].mu == pytest.approx(MU + delta, abs=1e-9)
    assert after[B].mu == pytest.approx(MU - delta, abs=1e-9)
    assert (after[A].mu, after[B].mu) == (pytest.approx(27.2273, abs=1e-4),
                                          pytest.approx(22.7727, abs=1e-4))
    assert after[C] == after[B]
    # σ² shrinks by the factor 1 − σ'²/σ_team² · γ σ_team²/c² · p(1−p), γ = σ_team/c.
    for key, team2 in ((A, s2 + 0.001**2 + tau**2), (B, 2 * s2)):
        shrink = math.sqrt(team2) / c * team2 / c**2 * 0.25
        assert after[key].sigma == pytest.approx(math.sqrt(s2 * (1 - s2 / team2 * shrink)))
    assert (after[A].sigma, after[B].sigma) == (pytest.approx(8.1731, abs=1e-4),
                                                pytest.approx(8.1056, abs=1e-4))
    assert [after[k].hands for k in (A, B, C)] == [1, 1, 1]


def test_peasant_win_mirrors_a_landlord_win() -> None:
    won = rate_hand(hand(A, B, C), landlord_won=True, current={})
    lost = rate_hand(hand(A, B, C), landlord_won=False, current={})
    assert lost[A].mu - MU == pytest.approx(MU - won[A].mu)
    assert lost[B].mu - MU == pytest.approx(MU - won[B].mu)
    assert lost[A].sigma == pytest.approx(won[A].sigma)


def test_beating_stronger_players_gains_more_than_beating_weaker_ones() -> None:
    strong, weak = SkillRating(mu=35.0, sigma=4.0), SkillRating(mu=15.0, sigma=4.0)
    me = SkillRating(mu=25.0, sigma=4.0, hands=20)
    vs_strong = rate_hand(hand(A, B, C), True, {A: me, B: strong, C: strong})
    vs_weak = rate_hand(hand(A, B, C), True, {A: me, B: weak, C: weak})
    assert vs_strong[A].mu - 25.0 > vs_weak[A].mu - 25.0 > 0
    assert vs_strong[A].hands == 21
    assert landlord_win_chance(me, (weak, weak)) > 0.5 > landlord_win_chance(me, (strong, strong))


def test_a_settled_rating_moves_less_than_a_newcomers() -> None:
    veteran = SkillRating(mu=25.0, sigma=2.0, hands=200)
    after = rate_hand(hand(A, B, C), True, {A: veteran})
    # The update is shared in proportion to σ²: 2² against (25/3)² for the newcomers.
    assert after[A].mu - 25.0 == pytest.approx(0.1503, abs=1e-4)
    assert 25.0 - after[B].mu > 10 * (after[A].mu - 25.0)
    assert after[A].sigma == pytest.approx(2.0, abs=0.01)  # τ keeps σ from collapsing


def test_two_computers_of_one_level_as_peasants_are_rated_once() -> None:
    normal = computer_key("normal")
    after = rate_hand(hand(A, normal, normal), landlord_won=False, current={})
    assert set(after) == {A, normal}
    assert after[normal].hands == 1 and after[normal].mu > MU
    assert after[A].mu < MU


def test_a_computer_level_on_both_sides_keeps_its_rating() -> None:
    hard = computer_key("hard")
    before = SkillRating(mu=30.0, sigma=5.0, hands=9)
    after = rate_hand(hand(hard, A, hard), landlord_won=True, current={hard: before})
    assert after[hard] == before
    assert after[A].mu < MU and after[A].hands == 1


@pytest.mark.parametrize(
    "seats",
    [
        [RatedSeat(A, True), RatedSeat(B, True), RatedSeat(C, False)],
        [RatedSeat(A, False), RatedSeat(B, False), RatedSeat(C, False)],
        [RatedSeat(A, True), RatedSeat(B, False)],
    ],
)
def test_a_hand_without_exactly_one_landlord_of_three_is_refused(seats: list[RatedSeat]) -> None:
    with pytest.raises(ValueError):
        rate_hand(seats, True, {})


# The landlord's expected win against two equal players (docs/RATINGS.md §The landlord's
# edge): σ = 25/3 (newcomers) and σ = 2 (established), before and after issue 26.
EDGE_TABLE = {
    # μ: (fixed teammate σ 25/3, fixed σ 2, table teammate σ 25/3, table σ 2)
    15.0: (0.7394, 0.9283, 0.5, 0.5),
    25.0: (0.5, 0.5, 0.5, 0.5),
    35.0: (0.2606, 0.0717, 0.5, 0.5),
}


@pytest.mark.parametrize("mu", sorted(EDGE_TABLE))
def test_three_equal_players_are_an_even_match_at_every_level(mu: float) -> None:
    got = []
    for edge in ("fixed", "table"):
        for sigma in (SIGMA, 2.0):
            equal = SkillRating(mu=mu, sigma=sigma)
            got.append(round(landlord_win_chance(equal, (equal, equal), edge=edge), 4))
    assert tuple(got) == EDGE_TABLE[mu]


def test_a_landlord_win_among_equal_strong_players_moves_ratings_like_a_peasant_win() -> None:
    strong = {k: SkillRating(mu=35.0, sigma=2.0, hands=50) for k in (A, B, C)}
    won = rate_hand(hand(A, B, C), landlord_won=True, current=strong)
    lost = rate_hand(hand(A, B, C), landlord_won=False, current=strong)
    assert won[A].mu - 35.0 == pytest.approx(35.0 - lost[A].mu, abs=1e-9)
    assert won[A].mu - 35.0 == pytest.approx(35.0 - won[B].mu, abs=1e-9)
    fixed = rate_hand(hand(A, B, C), landlord_won=True, current=strong, edge="fixed")
    assert fixed[A].mu - 35.0 > 1.5 * (won[A].mu - 35.0)  # the old model: an upset each time


def test_a_stronger_landlord_is_still_the_favourite() -> None:
    peasants = (SkillRating(mu=25.0, sigma=2.0), SkillRating(mu=25.0, sigma=2.0))
    assert landlord_win_chance(SkillRating(mu=30.0, sigma=2.0), peasants) > 0.6
    assert landlord_win_chance(SkillRating(mu=20.0, sigma=2.0), peasants) < 0.4
