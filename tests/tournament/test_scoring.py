"""Match points and standings of a tournament (docs/RULES.md §Tournaments), with the
worked numbers of the rules."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.features.tournaments.scoring import seat_match_points, standings, table_match_points
from tests.support.properties import examples

ANA, BEN, CAL, DEE, EVE, FAY, GUS = range(1, 8)
SEVEN = [ANA, BEN, CAL, DEE, EVE, FAY, GUS]


class Played:
    def __init__(self, seats, points) -> None:  # type: ignore[no-untyped-def]
        self.seats = tuple(seats)
        self.points = None if points is None else tuple(points)


def test_places_give_three_one_and_zero() -> None:
    assert table_match_points({0: 6, 1: -3, 2: -2}) == {0: 3, 1: 0, 2: 1}


def test_equal_points_share_the_places_match_points() -> None:
    assert table_match_points({0: 4, 1: 4, 2: -8}) == {0: 2, 1: 2, 2: 0}
    assert table_match_points({0: 8, 1: -4, 2: -4}) == {0: 3, 1: Fraction(1, 2),
                                                        2: Fraction(1, 2)}
    assert table_match_points({0: 0, 1: 0, 2: 0}) == dict.fromkeys(range(3), Fraction(4, 3))
    with pytest.raises(ValueError):
        table_match_points({0: 1, 1: 2})


def test_computer_seats_are_ranked_but_not_listed() -> None:
    # Cal +4, Ana -2, the computer -2: Ana shares 2nd and 3rd with the computer
    assert seat_match_points((CAL, ANA, None), (4, -2, -2)) == {CAL: 3, ANA: Fraction(1, 2)}
    # the computer wins the table: the members are 2nd and 3rd
    assert seat_match_points((CAL, None, ANA), (-2, 4, -2)) == {CAL: Fraction(1, 2),
                                                                ANA: Fraction(1, 2)}
    assert seat_match_points((CAL, None, None), (2, -1, -1)) == {CAL: 3}
    with pytest.raises(ValueError):
        seat_match_points((CAL, CAL, None), (1, 1, -2))


def test_worked_example_standings_after_two_rounds() -> None:
    # docs/RULES.md §Tournaments
    r1 = [Played((GUS, EVE, BEN), (6, -3, -3)), Played((CAL, ANA, None), (4, -2, -2)),
          Played((FAY, DEE, None), (-2, 4, -2))]
    after1 = standings(SEVEN, r1)
    assert [(r.user_id, r.match_points, r.points) for r in after1] == [
        (GUS, 3, 6), (CAL, 3, 4), (DEE, 3, 4), (ANA, Fraction(1, 2), -2),
        (FAY, Fraction(1, 2), -2), (BEN, Fraction(1, 2), -3), (EVE, Fraction(1, 2), -3)]
    # Cal and Dee: same match points and points; Buchholz equal (½ each): they share 2nd
    # place, Cal listed (and seated) first, as he joined first
    assert [r.buchholz for r in after1[:3]] == [1, Fraction(1, 2), Fraction(1, 2)]
    assert [(r.place, r.shown, r.shared) for r in after1[:3]] == [(1, 1, 0), (2, 2, 2),
                                                                   (3, 2, 2)]
    # Ana and Fay (½, −2, Buchholz 3 and 3) share 4th; Ben and Eve (½, −3, 3 and 3) 6th
    assert [r.shown for r in after1] == [1, 2, 2, 4, 4, 6, 6]
    # round 2: Cal and Dee share 1st (2 each), Gus 0; Ana and Ben share 1st (2 each);
    # Eve shares 1st with the computer (2), Fay 0
    r2 = [Played((GUS, CAL, DEE), (-4, 2, 2)), Played((ANA, BEN, None), (4, 4, -8)),
          Played((FAY, EVE, None), (-6, 3, 3))]
    rows = standings(SEVEN, r1 + r2)
    assert [(r.place, r.user_id, r.match_points, r.points, r.buchholz) for r in rows] == [
        # Cal and Dee: 5 match points and 6 points each; Buchholz: Cal sat with Ana (2.5),
        # Gus (3) and Dee (5) = 10.5, Dee with Fay (0.5), Gus and Cal = 8.5
        (1, CAL, 5, 6, Fraction(21, 2)),
        (2, DEE, 5, 6, Fraction(17, 2)),
        (3, GUS, 3, 2, 15),
        (4, ANA, Fraction(5, 2), 2, Fraction(15, 2)),
        (5, BEN, Fraction(5, 2), 1, 8),
        (6, EVE, Fraction(5, 2), 0, 6),
        (7, FAY, Fraction(1, 2), -8, Fraction(15, 2)),
    ]
    assert [r.tables for r in rows] == [2] * 7
    assert [r.shown for r in rows] == [1, 2, 3, 4, 5, 6, 7]  # no full tie left


def test_members_equal_on_every_measure_share_the_place() -> None:
    # playtest: two members tied on match points, points and Buchholz got 🥇 and 🥈 by
    # join order. Ana and Ben each win one table against Cal and a computer.
    rows = standings([ANA, BEN, CAL], [Played((ANA, CAL, None), (4, -2, -2)),
                                       Played((BEN, CAL, None), (4, -2, -2))])
    assert [(r.user_id, r.place, r.shown, r.shared) for r in rows] == [
        (ANA, 1, 1, 1), (BEN, 2, 1, 1), (CAL, 3, 3, 0)]


def test_unfinished_tables_are_not_counted() -> None:
    rows = standings([ANA, BEN, CAL], [Played((ANA, BEN, CAL), None)])
    assert [(r.user_id, r.match_points, r.tables) for r in rows] == [
        (ANA, 0, 0), (BEN, 0, 0), (CAL, 0, 0)]


def test_a_member_who_never_played_stays_listed_last_by_join() -> None:
    rows = standings([ANA, BEN, CAL, DEE], [Played((BEN, CAL, DEE), (0, 0, 0))])
    assert [(r.user_id, r.match_points, r.tables) for r in rows] == [
        (BEN, Fraction(4, 3), 1), (CAL, Fraction(4, 3), 1), (DEE, Fraction(4, 3), 1),
        (ANA, 0, 0)]
    with pytest.raises(ValueError):
        standings([ANA, BEN], [Played((ANA, BEN, CAL), (1, 0, -1))])


@settings(max_examples=examples(200), deadline=None)
@given(st.lists(st.integers(-48, 48), min_size=3, max_size=3))
def test_a_full_table_always_gives_four_match_points(points: list[int]) -> None:
    shares = table_match_points(dict(enumerate(points)))
    assert sum(shares.values()) == 4
    for a in range(3):
        for b in range(3):
            if points[a] > points[b]:
                assert shares[a] > shares[b]
            if points[a] == points[b]:
                assert shares[a] == shares[b]
