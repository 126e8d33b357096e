"""Scenario tests of issue 5: partner awareness, finishing, stopping the landlord."""

from __future__ import annotations

import random

import pytest

from bot.ai import choose_play, hint_options, search
from bot.ai.decision import Decision
from tests.support.ai_builders import combo, nth_hint, playing

LEVELS = ["normal", "hard"]


@pytest.fixture(autouse=True)
def whole_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """The hard search bounded by its step budget alone: the scenarios check what it plays,
    not how far it got before the 0.6 s wall-clock cap on a loaded machine (the suite's
    parallel workers share the cores; the hard 9 instead of the 2 below was such a cut)."""
    monkeypatch.setattr(search, "TIME_CAP", float("inf"))


@pytest.mark.parametrize("level", LEVELS)
def test_peasant_does_not_overtake_partner_who_goes_out_next(level: str) -> None:
    # Landlord 2 passed on partner 1's T; partner has one card: passing lets it lead and win.
    obs = playing(
        0,
        "4 6 8 J A 2",
        landlord=2,
        cards_left=(6, 1, 9),
        last=(1, "T"),
        history=((2, "9"), (0, None), (1, "T"), (2, None)),
    )
    decision = choose_play(obs, level, random.Random(1))
    assert decision.action is None
    assert decision.reason in {"let_partner_win", "endgame_pass_wins"}


def test_hint_first_suggestion_does_not_overtake_partner() -> None:
    obs = playing(0, "4 6 8 J A 2", landlord=2, cards_left=(6, 1, 9), last=(1, "T"))
    assert nth_hint(obs, 0).action is None


@pytest.mark.parametrize("level", ["easy", *LEVELS])
def test_single_last_card_with_the_lead_wins(level: str) -> None:
    obs = playing(1, "7", landlord=0, cards_left=(5, 1, 4))
    decision = choose_play(obs, level, random.Random(2))
    assert decision.action == combo("7")
    assert decision.reason == "finish_hand"


@pytest.mark.parametrize("level", LEVELS)
def test_last_card_that_beats_the_table_goes_out(level: str) -> None:
    obs = playing(1, "K", landlord=0, cards_left=(5, 1, 4), last=(0, "9"))
    assert choose_play(obs, level, random.Random(2)).action == combo("K")


@pytest.mark.parametrize("level", LEVELS)
def test_peasant_leads_highest_single_when_landlord_has_one_card(level: str) -> None:
    # The landlord (seat 2) answers right after seat 1.
    obs = playing(1, "3 5 9 K", landlord=2, cards_left=(6, 4, 1))
    decision = choose_play(obs, level, random.Random(3))
    assert decision.action == combo("K")


@pytest.mark.parametrize("level", LEVELS)
def test_peasant_beats_with_highest_single_when_landlord_has_one_card(level: str) -> None:
    # Landlord 2 played its 8, partner 0 passed; the landlord answers right after seat 1.
    obs = playing(1, "4 9 J 2", landlord=2, cards_left=(6, 4, 1), last=(2, "8"))
    decision = choose_play(obs, level, random.Random(3))
    assert decision.action == combo("2")


def test_normal_reason_names_the_landlord_stop() -> None:
    obs = playing(1, "4 9 J 2", landlord=0, cards_left=(1, 4, 6), last=(0, "8"))
    decision = choose_play(obs, "normal", random.Random(3))
    assert decision.reason == "stop_landlord_one_card"
    assert decision.params["cards"] == "2"


def test_peasant_leads_pair_rather_than_single_when_landlord_has_one_card() -> None:
    obs = playing(1, "3 5 5 9", landlord=2, cards_left=(6, 4, 1))
    decision = choose_play(obs, "normal", random.Random(3))
    assert decision.action == combo("55")


@pytest.mark.parametrize("level", LEVELS)
def test_plays_unbeatable_card_before_the_last_one(level: str) -> None:
    # Jokers and the other 2s are gone and nobody holds 4 cards: the 2 is unbeatable.
    obs = playing(
        0,
        "2 4",
        landlord=0,
        cards_left=(2, 3, 3),
        history=((0, "XD"), (1, None), (2, None), (0, "222"), (1, None), (2, None)),
    )
    decision = choose_play(obs, level, random.Random(4))
    assert decision.action == combo("2")


def test_peasant_tops_weak_partner_single_before_one_card_landlord() -> None:
    # Partner 0 led a 5; the landlord (seat 2, one card) answers after seat 1.
    obs = playing(1, "4 9 J 2", landlord=2, cards_left=(6, 4, 1), last=(0, "5"))
    decision = choose_play(obs, "normal", random.Random(3))
    assert decision.action == combo("2")


def test_normal_passes_on_partner_play_even_when_it_could_beat() -> None:
    obs = playing(2, "5 6 7 Q Q", landlord=0, cards_left=(10, 8, 5), last=(1, "J"))
    decision = choose_play(obs, "normal", random.Random(5))
    assert decision.action is None
    assert decision.reason == "let_partner_win"


def test_cannot_beat_passes_with_reason() -> None:
    obs = playing(1, "3 4", landlord=0, cards_left=(10, 2, 17), last=(0, "D"))
    decision = choose_play(obs, "normal", random.Random(5))
    assert decision.action is None
    assert decision.reason == "pass_cannot_beat"


def test_hint_cycles_through_distinct_legal_actions() -> None:
    """Pressing Hint again and again (``nth_hint``'s cycle over ``hint_options``) shows
    distinct actions until it comes back to the first, which is the hard level's move.
    The suggestions are computed once and cycled as ``nth_hint`` does: calling it for
    each press searched the position again each time (about 20 hard searches, 5 s of
    CPU) for the same list."""
    # hint 0 equals hard's seeded move only when the wall-clock cap cuts neither search
    # (whole_search).
    obs = playing(0, "3 3 5 7 8 9 T J Q", landlord=0, cards_left=(9, 17, 17))
    options = hint_options(obs, search.STEP_BUDGET)  # as nth_hint asks for them

    def press(n: int) -> Decision:
        return options[n % len(options)]

    first = press(0)
    seen = [first.action]
    n = 1
    while True:
        decision = press(n)
        if decision.action == first.action and decision.reason == first.reason:
            break
        assert decision.action not in seen
        seen.append(decision.action)
        n += 1
    assert len(seen) >= 3
    assert first.action == choose_play(obs, "hard", random.Random(0)).action


def test_decision_message_fills_placeholders() -> None:
    obs = playing(1, "7", landlord=0, cards_left=(5, 1, 4))
    assert choose_play(obs, "normal").message() == "Play 7: it empties the hand and wins."


def test_own_play_that_came_back_is_a_free_lead() -> None:
    obs = playing(1, "5 5 9", landlord=0, cards_left=(10, 3, 12), last=(1, "8"))
    assert obs.to_beat is None
    assert choose_play(obs, "normal", random.Random(1)).action is not None


# Raising the partner's low card (docs/AI.md §Partnership): seat 1's partner is seat 0,
# and the landlord (seat 2) plays right after seat 1.
@pytest.mark.parametrize(("hand", "last", "expected"), [
    ("3 3 6 6 9 9 K", "5", "K"),  # a loose K: the landlord must spend an A, a 2 or a joker
    ("3 6 7 K K 9 9", "5 5", "K K"),  # pairs too
])
def test_peasant_raises_the_partners_low_card_when_the_landlord_plays_next(
    hand: str, last: str, expected: str
) -> None:
    obs = playing(1, hand, landlord=2, cards_left=(10, 7, 12), last=(0, last))
    decision = choose_play(obs, "normal", random.Random(1))
    assert decision.action == combo(expected)
    assert decision.reason == "raise_partner"


@pytest.mark.parametrize(("hand", "landlord", "last", "why"), [
    ("3 3 6 6 9 9 K", 2, (0, "J"), "a J or higher already costs the landlord a high card"),
    ("3 3 6 6 9 9 K", 0, (2, "5"), "the landlord played before us: the partner's 5 stands"),
    ("3 3 6 6 9 9 2", 2, (0, "5"), "only a T..A raises: the 2 is kept for control"),
    ("3 3 6 Q Q Q K", 2, (0, "5 5"), "no pair from T to A without breaking the trio"),
])
def test_peasant_lets_the_partners_play_stand_otherwise(
    hand: str, landlord: int, last: tuple[int, str], why: str
) -> None:
    cards_left = (10, 7, 12) if landlord == 2 else (12, 7, 10)
    obs = playing(1, hand, landlord=landlord, cards_left=cards_left, last=last)
    decision = choose_play(obs, "normal", random.Random(1))
    assert decision.action is None, why
    assert decision.reason == "let_partner_win"
