"""The AI drives bot.game's Hand through whole hands (Hand.observation → Observation)."""

from __future__ import annotations

import random

import pytest

import bot.ai.bidding as bidding
import bot.ai.search as search
from bot.ai import choose_bid, choose_play

hand_module = pytest.importorskip("bot.game.hand")
LEVELS = ("easy", "normal", "hard")


def _play_one(seed: int) -> bool:
    """Bid and play one dealt hand to the end; False if everybody passed."""
    from bot.rules import DEFAULT_RULES

    hand = hand_module.Hand.deal(DEFAULT_RULES, seed=seed)
    rng = random.Random(seed)
    while hand.phase == "bidding":
        seat = hand.turn
        hand.bid(seat, choose_bid(hand.observation(seat), LEVELS[seat], rng).action)
    if hand.phase != "playing":
        return False
    while hand.phase == "playing":
        seat = hand.turn
        obs = hand.observation(seat)
        assert len(obs.unseen_cards()) == sum(obs.cards_left) - len(obs.hand)
        decision = choose_play(obs, LEVELS[seat], rng)
        if decision.action is None:
            hand.pass_turn(seat)
        else:
            hand.play(seat, list(decision.action.cards), decision.action)
    assert hand.phase == "finished"
    assert sum(hand.result.points) == 0
    return True


def test_computer_players_finish_game_hands(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(search, "STEP_BUDGET", 100)
    monkeypatch.setattr(bidding, "TIME_CAP", float("inf"))  # the same bids on a loaded machine
    played = sum(_play_one(seed) for seed in range(12))
    assert played >= 3
