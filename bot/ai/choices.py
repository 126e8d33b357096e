"""What a seat may do now, ranked once: the hand view's menu and the Hint's quick answers.

One ``normal_ranked`` call per position gives both the order of the legal-play
menu (``bot.ai.ordered_plays``) and the normal level's suggestions, the ones a
Hint can show at once while the hard search (``bot.ai.hint_options``' first pick)
is still running. Pure CPU, well under a millisecond for most positions (a few ms
for a 20-card lead).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.ai.decision import Decision
from bot.ai.observation import Observation
from bot.ai.players import choose_bid, happy_options, ordered_plays
from bot.ai.policy import normal_ranked
from bot.ai.view import view_of
from bot.rules import Combo, legal_plays


@dataclass(frozen=True)
class Choices:
    """``plays``: the legal-play menu (``bot.ai.ordered_plays``); ``legal``: how many
    legal plays there are in all; ``suggestions``: the normal level's distinct actions
    best first (a pass among them when the lead is not free; while bidding, its bid)."""

    plays: tuple[Combo, ...]
    legal: int
    suggestions: tuple[Decision, ...]


def choices(obs: Observation, happy: str | None = None) -> Choices:
    """The ranked choices of ``obs.seat`` (bidding: no plays, the normal bid; ``happy``:
    the Happy rules' decision the seat is asked, no plays, the normal level's answer,
    ``bot.ai.happy_options``)."""
    if happy is not None:
        return Choices((), 0, tuple(happy_options(obs, happy, "normal")))
    if obs.phase == "bidding":
        return Choices((), 0, (choose_bid(obs, "normal"),))
    legal = legal_plays(obs.hand, obs.to_beat, obs.rules)
    suggestions: list[Decision] = []
    seen: list[int | Combo | None] = []
    for _, decision in normal_ranked(view_of(obs)):
        if decision.action not in seen:
            seen.append(decision.action)
            suggestions.append(decision)
    ranked = [d.action for d in suggestions if isinstance(d.action, Combo)]
    plays = ordered_plays(obs, ranked=ranked, legal=legal)
    return Choices(tuple(plays), len(legal), tuple(suggestions))
