"""Puzzle positions: legal moves, applying them, the end of the game (bot.features.puzzles.position)."""

from __future__ import annotations

import pytest

from bot.features.puzzles.position import Position, apply, is_over, legal_moves, team_of, winner
from bot.rules import classify, format_cards, parse_cards


def play(text: str):
    return classify(parse_cards(text))[0]


def test_from_text_gives_distinct_cards_across_hands() -> None:
    pos = Position.from_text(["33", "33", "X"], landlord=0, turn=0)
    cards = [card for hand in pos.hands for card in hand]
    assert len(set(cards)) == 5
    assert [format_cards(h) for h in pos.hands] == ["33", "33", "X"]


def test_from_text_refuses_a_fifth_card_of_a_rank_and_a_play_that_is_no_combination() -> None:
    with pytest.raises(ValueError):
        Position.from_text(["333", "33"], landlord=0, turn=0)
    with pytest.raises(ValueError):
        Position.from_text(["3", "4", "5"], landlord=0, turn=1, last=(0, "34"))


def test_a_seat_never_has_to_beat_its_own_play() -> None:
    with pytest.raises(ValueError):
        Position.from_text(["3", "4", "5"], landlord=0, turn=1, last=(1, "6"))


def test_legal_moves_add_the_pass_only_with_a_play_to_beat() -> None:
    free = Position.from_text(["34", "5", "6"], landlord=0, turn=0)
    assert [m.notation if m else None for m in legal_moves(free)] == ["3", "4"]
    follow = Position.from_text(["34", "5", "6"], landlord=0, turn=0, last=(2, "3"))
    assert [m.notation if m else None for m in legal_moves(follow)] == ["4", None]


def test_two_passes_give_the_lead_back_to_the_play_maker() -> None:
    pos = Position.from_text(["3K", "45", "67"], landlord=0, turn=1, last=(0, "K"))
    pos = apply(pos, None)
    assert pos.turn == 2 and pos.last is not None and pos.last[0] == 0
    pos = apply(pos, None)
    assert pos.turn == 0 and pos.last is None


def test_with_two_hands_one_pass_gives_the_lead_back() -> None:
    pos = Position.from_text(["3K", "45"], landlord=0, turn=1, last=(0, "K"))
    pos = apply(pos, None)
    assert pos.turn == 0 and pos.last is None


def test_apply_refuses_illegal_moves() -> None:
    pos = Position.from_text(["34", "5", "6"], landlord=0, turn=0, last=(2, "5"))
    with pytest.raises(ValueError):
        apply(pos, play("4"))  # does not beat 5
    with pytest.raises(ValueError):
        apply(pos, play("7"))  # not held
    free = Position.from_text(["34", "5", "6"], landlord=0, turn=0)
    with pytest.raises(ValueError):
        apply(free, None)  # a free lead cannot pass


def test_apply_removes_the_very_cards_played_when_held() -> None:
    pos = Position.from_text(["33", "5", "6"], landlord=0, turn=0)
    second = pos.hands[0][1]
    from bot.rules import Combo, ComboKind

    after = apply(pos, Combo(ComboKind.SINGLE, second.rank, 1, [second]))
    assert after.hands[0] == (pos.hands[0][0],)


def test_the_game_ends_when_a_hand_is_empty_and_peasants_win_together() -> None:
    pos = Position.from_text(["3K", "4", "56"], landlord=0, turn=1)
    after = apply(pos, play("4"))
    assert is_over(after) and winner(after) == "peasants"
    assert legal_moves(after) == []
    assert team_of(pos, 2) == "peasants" and team_of(pos, 0) == "landlord"
    with pytest.raises(ValueError):
        apply(after, play("5"))


def test_from_text_gives_the_play_to_beat_cards_no_hand_holds() -> None:
    pos = Position.from_text(["AA", "A", "5"], landlord=0, turn=2, last=(1, "A"))
    assert pos.last is not None
    held = {card for hand in pos.hands for card in hand}
    assert not held & set(pos.last[1].cards)
    assert pos.last[1].notation == "A"
