"""Expected texts of a match's end, written out by the tests (docs/RULES.md §Match)."""

from __future__ import annotations

ENDED = ("won the match", "the match is over")
"""Words of either announcement at the end of a fixed-length match (English)."""


def fixed_match_end(name: str, hands: int, total: int) -> str:
    """The English announcement after a ``hands``-hand match that ``name``, the only
    member, finished with ``total`` points: her win at or above zero, else no winner
    (the computers came out ahead)."""
    if total >= 0:
        return (f"🎉 After {hands} hands, {name} won the match with {total} points!"
                " A new match starts at zero.")
    return (f"🏁 After {hands} hands the match is over: no member finished at or above zero,"
            " the computers came out ahead. A new match starts at zero.")
