"""The limits of a tournament (docs/RULES.md §Tournaments)."""

from __future__ import annotations

MIN_ENTRANTS = 3
"""Entrants needed to start: below it ``start`` (or the scheduled time) says so and the
sign-up stays open."""
MAX_ENTRANTS = 90
"""Entrants at most: Join is refused past it ("the tournament is full"). 90 members sit
at ``MAX_TABLES`` tables, so no server ever has more tables of a tournament at once."""
MAX_TABLES = 30
"""Tables of one round at most (``ceil(MAX_ENTRANTS / 3)``); one tournament at a time
per server, so this is the most tournament tables a server plays at once."""
MAX_ROUNDS = 9
"""Rounds at most (``/ddz tournament create rounds:`` 1–9)."""
MAX_HANDS = 12
"""Hands per round at each table at most (``hands:`` 1–12)."""
DEFAULT_HANDS = 3
"""Hands per round when ``hands:`` is not given."""
MIN_ACTIVE = 2
"""Members still in (not withdrawn or dropped) needed to seat another round: with fewer,
the tournament finishes after the round being played (a member alone with two computers
is no tournament game)."""
