"""Computer players, hints and auto-play (pure: no discord, no I/O).

Public API::

    from bot.ai import Observation, Decision, choose_bid, choose_play, hint_options, ordered_plays, REASONS
"""

from bot.ai.decision import Decision
from bot.ai.observation import Observation, make_observation
from bot.ai.players import (
    HINT_STEP_BUDGET,
    LEVELS,
    PLAYS_RANKED,
    Level,
    choose_bid,
    choose_play,
    hint_options,
    ordered_plays,
)
from bot.ai.reasons import REASONS

__all__ = [
    "HINT_STEP_BUDGET",
    "LEVELS",
    "Level",
    "REASONS",
    "Decision",
    "Observation",
    "PLAYS_RANKED",
    "choose_bid",
    "choose_play",
    "hint_options",
    "make_observation",
    "ordered_plays",
]
