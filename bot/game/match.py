"""The match rule: who has won a server's match, given its running totals.

Spec: docs/RULES.md §Match. Pure: the storage layer keeps the ledger (the
signed running total of each member in the current match, and the hands
played) and calls ``match_winners`` after each settled hand; when it names
winners, storage records the match and starts the next one at zero.
"""

from __future__ import annotations

from collections.abc import Mapping

from bot.rules import RuleSet


def match_winners(totals: Mapping[int, int], hands: int, rules: RuleSet) -> list[int]:
    """The winners of the match with these ``totals`` (points by player key) after
    ``hands`` settled hands, highest total first (then key); ``[]`` = it goes on.

    Target (``rules.target_points``): every player at or above it wins, so both
    peasants may share the win. Fixed hands (``rules.match_hands``): once that many
    hands were played the highest total wins, and equal totals share the win.
    """
    if rules.match_hands is not None:
        if hands < rules.match_hands or not totals:
            return []
        best = max(totals.values())
        chosen = [player for player, total in totals.items() if total == best]
    else:
        chosen = [player for player, total in totals.items() if total >= rules.target_points]
    return sorted(chosen, key=lambda player: (-totals[player], player))
