"""Domain errors of the game flow: one exception type with a stable code.

Every refused action raises ``GameError`` and changes nothing. ``code`` is a
stable snake_case id; the i18n catalogs hold one message per code under
``error.<code>``, with ``params`` as placeholders (docs/ARCHITECTURE.md §Layers).

Codes raised by bot.game (hand.py, table.py):

* turn and phase: ``not_your_turn``, ``wrong_phase``, ``stale``
* bidding: ``bid_too_low`` (params ``amount``, ``highest``), ``invalid_bid`` (``amount``)
* playing: ``cards_not_in_hand`` (``cards``), ``bad_cards`` (``token``),
  ``joker_twice`` and ``rank_too_often`` (typed cards no deck holds: ``XX``, ``33333``),
  ``no_cards``, ``not_a_combination`` (``cards``), ``does_not_beat`` (``cards``,
  ``to_beat``), ``bad_reading`` (``reading``), ``cannot_pass_lead``
* table: ``not_seated``, ``table_full``, ``already_seated`` (``table``, ``channel``: the
  member's table and its channel id), ``table_exists``,
  ``not_enough_players``, ``not_starter``, ``table_closed``, ``bad_seat`` (``seat``),
  ``bad_level`` (``level``), ``bad_pace`` (``pace``)
"""

from __future__ import annotations

CODES: frozenset[str] = frozenset(
    {
        "not_your_turn",
        "wrong_phase",
        "stale",
        "bid_too_low",
        "invalid_bid",
        "cards_not_in_hand",
        "bad_cards",
        "joker_twice",
        "rank_too_often",
        "no_cards",
        "not_a_combination",
        "does_not_beat",
        "bad_reading",
        "cannot_pass_lead",
        "not_seated",
        "table_full",
        "already_seated",
        "table_exists",
        "not_enough_players",
        "not_starter",
        "table_closed",
        "bad_seat",
        "bad_level",
        "bad_pace",
    }
)
"""Every code this package raises (``table_exists`` is raised by the service)."""


class GameError(Exception):
    """A refused game action. ``code``: stable id; ``params``: message placeholders.

    >>> GameError("bid_too_low", amount=1, highest=2).params
    {'amount': 1, 'highest': 2}
    """

    def __init__(self, code: str, **params: str | int) -> None:
        self.code = code
        self.params: dict[str, str | int] = params
        detail = ", ".join(f"{key}={value!r}" for key, value in params.items())
        super().__init__(f"{code}({detail})" if detail else code)

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, GameError)
            and self.code == other.code
            and self.params == other.params
        )

    def __hash__(self) -> int:
        return hash(self.code)
