"""The answer of a computer player: an action plus a localizable reason."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bot.ai.reasons import REASONS
from bot.rules import Combo, show_cards


@dataclass(frozen=True)
class Decision:
    """One decision of a computer player.

    * ``action``: while bidding, the bid (0 = pass, 1..3); while playing, the
      ``Combo`` to play or ``None`` for a pass.
    * ``reason``: a stable code, a key of ``bot.ai.reasons.REASONS``.
    * ``params``: placeholders for the reason's message (str or int values).
    """

    action: int | Combo | None
    reason: str
    params: dict[str, str | int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.reason not in REASONS:
            raise ValueError(f"unknown reason code: {self.reason}")

    @property
    def is_pass(self) -> bool:
        """True for a pass (a play decision whose action is ``None``, or bid 0)."""
        return self.action is None or self.action == 0

    @property
    def bid(self) -> int:
        """``action`` of a bidding decision (0 = pass, 1..3); TypeError for a play decision."""
        if isinstance(self.action, int):
            return self.action
        raise TypeError(f"not a bid: {self.action!r}")

    @property
    def combo(self) -> Combo | None:
        """``action`` of a playing decision (the ``Combo``, or ``None`` for a pass);
        TypeError for a bid."""
        if isinstance(self.action, int):
            raise TypeError(f"not a play: {self.action!r}")
        return self.action

    def message(self) -> str:
        """The English sentence of the reason with its placeholders filled."""
        return REASONS[self.reason].format_map(_Defaults(self.params))


class _Defaults(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def play(combo: Combo | None, reason: str, **params: str | int) -> Decision:
    """A play decision; ``cards`` defaults to the combo as players read it
    (``show_cards``: ten written ``10``)."""
    if combo is not None:
        params.setdefault("cards", show_cards(combo.notation))
    return Decision(combo, reason, dict(params))
