"""Exact endgame solver (bot.ai.endgame)."""

from __future__ import annotations

from bot.ai.endgame import Solver, ranks_of
from bot.rules import parse_cards


def _hands(a: str, b: str, c: str) -> tuple:
    return tuple(ranks_of(parse_cards(text)) for text in (a, b, c))


def test_landlord_with_unbeatable_card_and_one_more_wins() -> None:
    assert Solver(landlord=0).solve(_hands("D3", "2K", "AQ"), 0, None) is True


def test_landlord_loses_when_peasant_holds_top_single_and_leads() -> None:
    assert Solver(landlord=0).solve(_hands("34", "D", "5"), 1, None) is False


def test_landlord_must_beat_or_lose_and_cannot() -> None:
    # Peasant 2 leads D (unbeatable) then its 5; the landlord never gets the lead.
    assert Solver(landlord=0).solve(_hands("2 3", "9 K", "5 D"), 2, None) is False


def test_landlord_wins_when_it_can_take_the_lead_with_top_card() -> None:
    assert Solver(landlord=0).solve(_hands("D 3", "9 K", "5 6"), 1, None) is True


def test_budget_exhaustion_returns_none() -> None:
    solver = Solver(landlord=0, budget=1)
    hands = _hands("3579JK", "468TQA", "3579JK")
    assert solver.solve(hands, 0, None) is None
