"""Hard level (placeholder until the search lands)."""

from __future__ import annotations

import random

from bot.ai.decision import Decision
from bot.ai.policy import normal_play
from bot.ai.view import View


def hard_play(view: View, rng: random.Random) -> Decision:
    return normal_play(view, rng)
