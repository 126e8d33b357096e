"""Reason codes are stable snake_case keys with an English sentence each."""

from __future__ import annotations

import re

import pytest

from bot.ai import REASONS, Decision


def test_every_reason_code_is_snake_case_with_a_sentence() -> None:
    for code, text in REASONS.items():
        assert re.fullmatch(r"[a-z][a-z0-9_]*", code)
        assert text.endswith(".") and len(text) > 5


def test_issue_reason_codes_exist() -> None:
    for code in (
        "lead_lowest_single",
        "keep_bomb_for_control",
        "let_partner_win",
        "stop_landlord_one_card",
        "finish_hand",
        "pass_cannot_beat",
        "beat_with_smallest",
        "bomb_to_win",
    ):
        assert code in REASONS


def test_unknown_reason_code_is_rejected() -> None:
    with pytest.raises(ValueError):
        Decision(None, "no_such_reason")


def test_leading_a_four_with_two_names_the_plays_left_in_every_language() -> None:
    # The Hint showed "Abre con 44889999: deja la mano con menos jugadas ({n})." with the
    # count left out (normal's ranking and greedy gave no ``n`` for this reason).
    from bot.ai.policy import greedy_play, normal_ranked
    from bot.ai.view import view_of
    from bot.i18n import t
    from tests.support.ai_builders import playing

    obs = playing(0, "3334456889999TJKKK2D", landlord=0, cards_left=(20, 17, 17))
    ranked = {d.action.notation: d for _, d in normal_ranked(view_of(obs)) if d.action}
    four = ranked["44889999"]
    assert four.reason == "lead_fewest_plays"
    assert four.message() == "Lead 44889999: it leaves the hand with the fewest plays (6)."
    assert t("reason.lead_fewest_plays", "es", **four.params) == (
        "Abre con 44889999: deja la mano con menos jugadas (6).")
    greedy = greedy_play(view_of(playing(0, "6666778", landlord=0, cards_left=(7, 17, 17))))
    assert greedy.action is not None and greedy.action.notation == "666677", greedy
    assert greedy.message() == "Lead 666677: it leaves the hand with the fewest plays (1)."
    for _, decision in normal_ranked(view_of(obs)):
        assert "{" not in decision.message(), decision


def test_a_lead_of_an_ace_is_no_low_single_in_either_language() -> None:
    # The Hint said "Lead the low single A to get rid of it.": an ace is not low. In Spanish
    # the card is named as in any sentence ("Abre con el comodín pequeño…", never "la carta
    # comodín pequeño": tests/cogs/test_hint_words.py).
    from bot.ai.policy import greedy_play
    from bot.ai.view import view_of
    from bot.i18n import t
    from tests.support.ai_builders import playing

    ace = greedy_play(view_of(playing(0, "A22", landlord=0, cards_left=(3, 17, 17))))
    assert ace.action is not None and ace.action.notation == "A"
    assert ace.message() == "Lead the single A to get rid of it."
    assert t(f"reason.{ace.reason}", "es", **ace.params) == (
        "Abre con A para deshacerte de esa carta suelta.")
    pair = greedy_play(view_of(playing(0, "AA22", landlord=0, cards_left=(4, 17, 17))))
    assert pair.message() == "Lead the pair AA to get rid of it."
    three = greedy_play(view_of(playing(0, "3A", landlord=0, cards_left=(2, 17, 17))))
    assert three.message() == "Lead the low single 3 to get rid of it."


def test_a_decision_gives_its_bid_or_its_play_typed_and_refuses_the_other() -> None:
    from bot.ai.decision import play
    from bot.rules import classify, parse_cards

    bid = Decision(2, "bid_fair_hand", {"bid": 2})
    assert bid.bid == 2
    with pytest.raises(TypeError):
        _ = bid.combo
    combo = classify(parse_cards("33"))[0]
    chosen = play(combo, "beat_with_smallest")
    assert chosen.combo is combo
    assert play(None, "pass_cannot_beat").combo is None
    with pytest.raises(TypeError):
        _ = chosen.bid
