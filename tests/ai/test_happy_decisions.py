"""The computers' Happy decisions (docs/AI.md §Happy rules): from the hand's strength."""

from __future__ import annotations

import pytest

from bot.ai.happy import happy_decision, strength
from bot.rules import parse_cards

STRONG = parse_cards("3333 5555 789TJQKA 2 X D".replace(" ", ""))
WEAK = parse_cards("34456789TJQ345678")


def test_a_strong_hand_calls_grabs_shows_and_super_doubles() -> None:
    assert strength(STRONG) > 0.85
    assert [happy_decision(kind, STRONG, False) for kind in ("call", "grab", "show", "double")] \
        == [1, 1, 4, 4]
    assert happy_decision("show", STRONG, True) == 2
    assert happy_decision("double", STRONG, True) == 4


def test_a_weak_hand_declines_everything() -> None:
    assert strength(WEAK) < 0.3
    assert [happy_decision(kind, WEAK, False) for kind in ("call", "grab", "show", "double")] \
        == [0, 0, 0, 1]
    assert happy_decision("show", WEAK, True) == 0


def test_no_other_decision() -> None:
    with pytest.raises(ValueError):
        happy_decision("bid", WEAK, False)
