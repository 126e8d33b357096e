"""Expected texts of a match's end, written out by the tests (docs/RULES.md §Match)."""

from __future__ import annotations

ENDED = ("won the match", "the match is over")
"""Words of either announcement at the end of a fixed-length match (English)."""


def fixed_match_end(name: str, hands: int, total: int) -> str:
    """The English announcement after a ``hands``-hand match that ``name``, the only
    member, finished with ``total`` points: her win at or above zero, else no winner
    (the computers came out ahead). Counts of one are singular ("1 hand", "1 point")."""
    after = f"{hands} hand" if hands == 1 else f"{hands} hands"
    if total >= 0:
        points = f"{total} point" if total == 1 else f"{total} points"
        return (f"🎉 After {after}, {name} won the match with {points}!"
                " A new match starts at zero.")
    return (f"🏁 After {after} the match is over: no member finished at or above zero,"
            " the computers came out ahead. A new match starts at zero.")
