"""The hard search's playout policy is the normal level (bot/ai/policy.py, docs/AI.md §Issue 40)."""

from __future__ import annotations

import random

from bot.ai.decision import Decision
from bot.ai.observation import Observation
from bot.ai.policy import normal_action, normal_play
from bot.ai.selfplay import deal, play_hand
from bot.ai.view import view_of


def test_normal_action_is_normal_plays_action_at_every_decision() -> None:
    checked = 0
    differ: list[str] = []

    def agent(obs: Observation, rng: random.Random) -> Decision:
        nonlocal checked
        view = view_of(obs)
        decision = normal_play(view)
        if normal_action(view) != decision.action:
            differ.append(f"{obs.hand} {view.to_beat}")
        checked += 1
        return decision

    for seed in range(30):
        hands, kitty = deal(random.Random(seed))
        play_hand([agent] * 3, hands, seed % 3, kitty, random.Random(seed))
    assert checked > 600
    assert differ == []
