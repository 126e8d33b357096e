"""Computer players, hints and auto-play (pure: no discord, no I/O).

Public API::

    from bot.ai import Observation, Decision, choose_bid, choose_play, hint, REASONS
"""

from bot.ai.observation import Observation, make_observation

__all__ = ["Observation", "make_observation"]
