"""Duplicate events, pure parts (docs/RULES.md §Events): seats by deal, seeds, the
member's table of a deal, duplicate scores with worked numbers, shared places."""

from __future__ import annotations

from fractions import Fraction

import pytest

from bot.features.events.rules import (
    EVENT_SEAT,
    deal_scores,
    event_label,
    event_seed,
    event_table,
    landlord_seat,
    parse_label,
    role_of,
    shown_score,
    standings,
)
from bot.features.events.values import EventDeal
from bot.rules import DEFAULT_RULES

KEY = bytes(range(32))


def table_of(deal: int, seed: int = 7, user: int = 101):
    return event_table(1, user, "Ana", "en", event_id="ab12", deal=deal, seed=seed,
                       level="normal", rules=DEFAULT_RULES, turn_seconds=60, now=0.0)


def test_worked_example_of_the_rules_three_entrants_on_one_deal() -> None:
    # docs/RULES.md §Events: +6, -3, +12 → the field's mean is 5 → +1, -8, +7
    assert deal_scores({1: 6, 2: -3, 3: 12}) == {1: 1, 2: -8, 3: 7}


def test_worked_example_over_three_deals_totals_and_a_shared_place() -> None:
    # deal 1: +6 -3 +12 (mean 5) → +1 -8 +7; deal 2: +4 +4 -8 (mean 0) → +4 +4 -8;
    # deal 3: -2 +4 +4 (mean 2) → -4 +2 +2. Totals: Ana +1, Ben -2, Cal +1.
    results = {1: {1: 6, 2: -3, 3: 12}, 2: {1: 4, 2: 4, 3: -8}, 3: {1: -2, 2: 4, 3: 4}}
    rows = standings(results, [1, 2, 3])
    # Ana and Cal share first place; Ben is third (not second)
    assert [(r.user_id, r.place, r.total) for r in rows] == [(1, 1, 1), (3, 1, 1), (2, 3, -2)]
    assert [r.points for r in rows] == [8, 8, 5]


def test_equal_totals_share_the_place_and_the_next_place_skips() -> None:
    rows = standings({1: {1: 6, 2: 6, 3: -12, 4: 0}}, [1, 2, 3, 4])
    assert [(r.user_id, r.place) for r in rows] == [(1, 1), (2, 1), (4, 3), (3, 4)]
    assert [r.total for r in rows] == [Fraction(6), Fraction(6), Fraction(0), Fraction(-12)]


def test_scores_of_a_deal_sum_to_zero_and_stay_exact() -> None:
    scores = deal_scores({1: 3, 2: -6, 3: -6})  # mean -3
    assert scores == {1: 6, 2: -3, 3: -3} and sum(scores.values()) == 0
    thirds = deal_scores({1: 2, 2: 0, 3: 0})  # mean 2/3
    assert thirds[1] == Fraction(4, 3) and sum(thirds.values()) == 0
    assert deal_scores({}) == {} and deal_scores({5: 24}) == {5: 0}


def test_an_entrant_without_a_result_on_a_deal_is_left_out_of_its_field() -> None:
    rows = standings({1: {1: 6, 2: -6}, 2: {1: 3}}, [1, 2, 3])
    by = {r.user_id: r for r in rows}
    assert by[1].total == 6 and by[2].total == -6 and by[3].total == 0


def test_shown_scores_are_signed_with_one_decimal_when_not_whole() -> None:
    assert [shown_score(Fraction(v)) for v in (7, -8, 0)] == ["+7", "-8", "0"]
    assert shown_score(Fraction(3, 2)) == "+1.5" and shown_score(Fraction(-1, 3)) == "-0.3"
    assert shown_score(Fraction(-1, 30)) == "0" and shown_score(Fraction(4, 3)) == "+1.3"


def test_seats_go_landlord_then_each_peasant_seat_in_turn() -> None:
    assert [landlord_seat(d) for d in range(1, 7)] == [0, 2, 1, 0, 2, 1]
    assert [role_of(d) for d in (1, 2, 3)] == ["landlord", "peasant_after", "peasant_before"]
    with pytest.raises(ValueError):
        landlord_seat(0)


@pytest.mark.parametrize("deal", [1, 2, 3])
def test_the_deal_is_ready_the_landlord_at_bid_3_with_the_kitty(deal: int) -> None:
    table, events = table_of(deal)
    hand = table.hand
    assert hand is not None and table.private and EventDeal.of(table) == EventDeal(event_id="ab12", deal=deal)
    landlord = landlord_seat(deal)
    assert hand.phase == "playing" and hand.landlord == landlord and hand.winning_bid == 3
    assert hand.turn == landlord  # the landlord leads
    assert [len(h) for h in hand.holdings] == [20 if s == landlord else 17 for s in range(3)]
    assert table.seats[EVENT_SEAT].user_id == 101 and not table.seats[EVENT_SEAT].automatic
    assert [s.computer for s in table.seats] == [None, "normal", "normal"]
    assert [e.kind for e in events] == ["started", "bid", "landlord"]


def test_every_entrant_gets_the_same_cards_in_the_same_seats() -> None:
    ana, _ = table_of(2, seed=99, user=101)
    ben, _ = table_of(2, seed=99, user=102)
    assert ana.hand is not None and ben.hand is not None
    assert ana.hand.dealt == ben.hand.dealt and ana.hand.kitty == ben.hand.kitty
    assert ana.hand.holdings == ben.hand.holdings


def test_seeds_differ_by_deal_event_and_key_and_are_not_the_daily_seed() -> None:
    from bot.features.daily.rules import daily_seed

    seeds = {event_seed(KEY, 1, "ab12", d) for d in range(1, 13)}
    assert len(seeds) == 12
    assert event_seed(KEY, 1, "ab12", 1) == event_seed(KEY, 1, "ab12", 1)
    assert event_seed(KEY, 1, "ab12", 1) != event_seed(KEY, 1, "cd34", 1)
    assert event_seed(KEY, 1, "ab12", 1) != event_seed(bytes(32), 1, "ab12", 1)
    assert event_seed(KEY, 1, "ab12", 1) != daily_seed(KEY, 1, "2026-12-01")
    assert 0 <= event_seed(KEY, 1, "ab12", 1) < 2 ** 63


def test_labels_round_trip() -> None:
    assert parse_label(event_label("ab12", 11)) == ("ab12", 11)
    with pytest.raises(ValueError):
        parse_label("2026-12-01")
