"""The match rule: who has won a server's match, given its running totals.

Spec: docs/RULES.md §Match. Pure: the storage layer keeps the ledger (the
signed running total of each member in the current match, and the hands
played) and calls ``match_winners`` after each settled hand; when the match is
over, storage records it with its winners and starts the next one at zero.
"""

from __future__ import annotations

from collections.abc import Mapping

from bot.rules import RuleSet


def match_winners(totals: Mapping[int, int], hands: int, rules: RuleSet) -> list[int] | None:
    """The winners of the match with these ``totals`` (points by member key) after
    ``hands`` settled hands, highest total first (then key); ``None`` = it goes on.

    Target (``rules.target_points``): every member at or above it wins, so both
    peasants may share the win. Fixed hands (``rules.match_hands``): once that many
    hands were played the highest total wins and equal totals share the win; but
    computers keep no total, so a highest member total below zero means the
    computers came out ahead: the match is over with no winner (``[]``).
    """
    if rules.match_hands is not None:
        if hands < rules.match_hands:
            return None
        best = max(totals.values(), default=-1)
        if best < 0:
            return []
        chosen = [player for player, total in totals.items() if total == best]
    else:
        chosen = [player for player, total in totals.items() if total >= rules.target_points]
        if not chosen:
            return None
    return sorted(chosen, key=lambda player: (-totals[player], player))
