"""The match ledger: signed running totals per player toward a target (docs/RULES.md §Match).

Players are keyed by an int (the Discord user id); computer seats never enter
the ledger. Pure: the storage layer persists it (a pydantic model, JSON round trip).
"""

from __future__ import annotations

from collections.abc import Mapping

from pydantic import BaseModel, ConfigDict, Field

from bot.rules import DEFAULT_RULES, RuleSet


class MatchResult(BaseModel):
    """A finished match: its number, winners (sharing the win), final totals, hands played."""

    model_config = ConfigDict(frozen=True)

    number: int
    winners: tuple[int, ...]
    totals: dict[int, int]
    hands: int


class Match(BaseModel):
    """Running totals of one match (docs/RULES.md §Match).

    * ``target``: points that win (default 30); ``hands_limit``: the seed-003
      variant, a fixed number of hands instead (``None`` = play to the target).
    * ``totals``: signed net points per player key; ``hands``: hands applied.
    * ``number``: 1 for the first match, +1 on every ``reset``.
    """

    target: int = 30
    hands_limit: int | None = None
    number: int = 1
    hands: int = 0
    totals: dict[int, int] = Field(default_factory=dict)

    @classmethod
    def for_rules(cls, rules: RuleSet = DEFAULT_RULES, *, number: int = 1) -> Match:
        """A fresh match with the target / hand limit of ``rules``."""
        return cls(target=rules.target_points, hands_limit=rules.match_hands, number=number)

    def apply(self, points_by_player: Mapping[int, int]) -> list[int]:
        """Add one settled hand's changes; return the match winners (``[]`` = go on).

        Target mode: every player at ``target`` or more wins (several share it,
        e.g. both peasants). Hand-limit mode: after ``hands_limit`` hands the
        highest total wins, equal totals tie. Winners are sorted by total
        (highest first), then key. Totals are kept; call ``reset`` (or use
        ``settle``) to start the next match. An abandoned hand is simply never applied.
        """
        for player, points in points_by_player.items():
            self.totals[player] = self.totals.get(player, 0) + points
        self.hands += 1
        return self.winners()

    def winners(self) -> list[int]:
        """Who has won the match with the totals as they stand (``[]`` if nobody yet)."""
        if self.hands_limit is not None:
            if self.hands < self.hands_limit or not self.totals:
                return []
            best = max(self.totals.values())
            chosen = [p for p, total in self.totals.items() if total == best]
        else:
            chosen = [p for p, total in self.totals.items() if total >= self.target]
        return sorted(chosen, key=lambda p: (-self.totals[p], p))

    def settle(self, points_by_player: Mapping[int, int]) -> MatchResult | None:
        """``apply``, and when someone wins return the MatchResult and ``reset``."""
        winners = self.apply(points_by_player)
        if not winners:
            return None
        result = MatchResult(
            number=self.number, winners=tuple(winners), totals=dict(self.totals), hands=self.hands
        )
        self.reset()
        return result

    def reset(self) -> None:
        """Start the next match: totals and hands back to zero, ``number`` + 1."""
        self.totals = {}
        self.hands = 0
        self.number += 1

    def total(self, player: int) -> int:
        """A player's current total (0 if absent)."""
        return self.totals.get(player, 0)
