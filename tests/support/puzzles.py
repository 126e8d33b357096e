"""Hand-made endgame puzzles for the service and cog tests (docs/RULES.md §Puzzles), each
proved by the solver (``tests/service/test_puzzles.py`` checks it), so that the tests do
not depend on the shipped data file's contents."""

from __future__ import annotations

from bot.features.puzzles.model import Puzzle

PEASANT = Puzzle(
    id="ptestpeasant", hands=("K2", "55789", "TTQ"), landlord=0, turn=2, to_beat=None,
    member_seat=2, member_role="peasant", depth=4, solution="TT", line=("TT", "", "", "Q"),
    rating=1450, generator="test")
"""The member (seat 2, a peasant with a computer partner in seat 1) must lead TT: the
landlord cannot beat it, then Q wins. Any other lead loses (the landlord's 2, K)."""

LANDLORD = Puzzle(
    id="ptestlandlord", hands=("3TTA", "5JAD"), landlord=0, turn=0, to_beat=None,
    member_seat=0, member_role="landlord", depth=9, solution="TT",
    line=("TT", "", "3", "A", "", "D", "", "5", "A"), rating=1550, generator="test")
"""Two hands: the member is the landlord (seat 0) against one peasant; only TT first wins."""

PUZZLES = (LANDLORD, PEASANT)

PASSER = Puzzle(
    id="ptestpasser", hands=("67KK", "T", "99T"), landlord=1, turn=0, to_beat=(2, "J"),
    member_seat=0, member_role="peasant", depth=6, solution="", line=("", "", "T", "", "", "99"),
    rating=1500, generator="test")
"""The member (seat 0, a peasant) must pass their partner's J (seat 2), and pass again
when the partner leads T after the landlord's pass: the partner then goes out with 99.
Not in ``PUZZLES`` (its only winning move is the pass); tests/cogs/test_puzzles.py proves
it."""
