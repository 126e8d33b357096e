"""The hard computer player's view of one decision of a member (``/ddz review``).

Pure (no discord, no I/O). The only input about the hand is the ``Observation``
of the member's seat at the moment of the decision (docs/AI.md:
what a player in that seat may see), built by ``Hand.observation`` on the position
rebuilt from the stored history — so a review never uses a card the member could
not see. For a play (or a pass), the hard player's search (``bot.ai.search``)
samples deals of the unseen cards and plays each candidate out; the member's own
action is sampled on the same deals, so both win chances come from one sampling.
For a bid, the hard player's bid (``choose_bid`` at level ``hard``) is given; for a
decision of the Happy rules (call, grab, show, double) the hard player's answer to it
(``bot.ai.happy.advise``).
By default that search is the Hint's own (``bot.ai.hint_options``: seed ``HINT_SEED``,
``HINT_STEP_BUDGET``, no clock cap), so the review's choice is the Hint's first
suggestion and following the Hint is never a costly decision (docs/AI.md §Reviews).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from typing import Literal

from bot.ai.decision import Decision
from bot.ai.happy import advise
from bot.ai.observation import Observation
from bot.ai.players import (
    HINT_EVALUATION,
    HINT_SEED,
    HINT_STEP_BUDGET,
    choose_bid,
    hint_options,
)
from bot.ai.search import hard_search
from bot.ai.view import view_of
from bot.rules import Combo, legal_plays

HappyKind = Literal["call", "grab", "show", "double"]
"""The Happy rules' decisions a review judges (``bot.ai.happy.KINDS``)."""

Action = int | Combo | None
"""A bid (0 = pass, 1..3), a Combo, or None for a pass in play."""


@dataclass(frozen=True)
class Assessment:
    """The hard player's opinion of one decision.

    * ``kind``: ``"bid"`` or ``"play"`` (a pass in play is a ``play`` with None), or a
      Happy decision, ``"call"``, ``"grab"``, ``"show"``, ``"double"`` (the amounts of
      ``Hand.decide``: 1/0, the show factor or 0, the doubling factor).
    * ``played``: the member's action; ``best``: the hard player's, with its reason
      code and params (``bot.ai.reasons``).
    * ``played_win`` / ``best_win``: estimated chances (0..1) that the member's side
      wins after each action, from the same sampled deals; None for bids and for
      obvious choices the search did not need to sample.
    * ``worlds``: deals sampled for the member's action (0 when not sampled).
    """

    kind: Literal["bid", "play", "call", "grab", "show", "double"]
    played: Action
    best: Action
    reason: str
    params: dict[str, str | int] = field(default_factory=dict)
    played_win: float | None = None
    best_win: float | None = None
    worlds: int = 0

    @property
    def agrees(self) -> bool:
        """Whether the member did what the hard player would do."""
        return self.played == self.best

    @property
    def measured(self) -> bool:
        """Whether both win chances were sampled (never for a bid or a Happy decision,
        nor for an obvious choice the search did not simulate): only then is ``loss``
        known."""
        return self.played_win is not None and self.best_win is not None

    @property
    def loss(self) -> float:
        """Win chance given up by the member's action (0..1; 0 when unknown or none:
        see ``measured`` before reading a 0 as "no loss")."""
        if self.agrees or self.played_win is None or self.best_win is None:
            return 0.0
        return max(0.0, self.best_win - self.played_win)


Verdict = Literal["none", "costly", "agreed", "unmeasured", "no_loss"]
"""What a review can say of a whole hand (``verdict``)."""


def verdict(assessments: list[Assessment]) -> Verdict:
    """What the review knows of a member's decisions, and nothing more:

    * ``"none"``: no decision of their own;
    * ``"costly"``: some measured decision lost win chance;
    * ``"agreed"``: every decision was the hard player's;
    * ``"unmeasured"``: some differed and at least one of those was not measured
      (a bid, or an obvious play the search did not simulate): its cost is unknown;
    * ``"no_loss"``: every decision that differed was measured and lost nothing.
    """
    if not assessments:
        return "none"
    if any(a.loss > 0 for a in assessments):
        return "costly"
    differed = [a for a in assessments if not a.agrees]
    if not differed:
        return "agreed"
    if any(not a.measured for a in differed):
        return "unmeasured"
    return "no_loss"


def is_choice(obs: Observation) -> bool:
    """Whether the seat had more than one option (a forced pass is no decision)."""
    if obs.phase == "bidding":
        return True
    to_beat = obs.to_beat
    plays = legal_plays(obs.hand, to_beat, obs.rules)
    return len(plays) + (to_beat is not None) >= 2


def assess(
    obs: Observation, played: Action, rng: random.Random | None = None,
    step_budget: int | None = None, *, happy: HappyKind | None = None,
) -> Assessment:
    """The hard player's choice and both win chances for the member's ``played``.

    ``obs``: the member's observation just before the decision; ``played``: what
    they did (a bid while ``obs.phase == "bidding"``, else a Combo or None).
    Without ``rng``: the Hint's evaluation (its seed, ``HINT_STEP_BUDGET`` or
    ``step_budget``, never cut by the clock), so ``best`` is the Hint's first
    suggestion for ``obs`` and a member who played it ``agrees``. With ``rng``: a hard
    search seeded by it (``step_budget``: simulated policy decisions, default
    ``bot.ai.search``'s). ``happy``: ``played`` is the member's answer to that Happy
    decision (``Hand.asked``), judged against the hard level's (``bot.ai.happy.advise``,
    the Hint's seed without ``rng``; no chances). Raises ValueError when the observation
    has no landlord in play.
    """
    if happy is not None:
        decision = advise(obs, happy, "hard", rng or random.Random(HINT_SEED))
        return Assessment(happy, played, decision.action, decision.reason, dict(decision.params))
    hint = rng is None
    if obs.phase == "bidding":
        decision = (hint_options(obs, fixed_budget=True)[0] if rng is None
                    else choose_bid(obs, "hard", rng))
        return Assessment("bid", played, decision.action, decision.reason, dict(decision.params))
    if rng is None:
        rng, step_budget = random.Random(HINT_SEED), step_budget or HINT_STEP_BUDGET
    sampled = hard_search(view_of(obs), rng, step_budget, also=played,  # type: ignore[arg-type]  # a play's Combo: bids returned above
                          time_cap=math.inf if hint else None,
                          evaluation=HINT_EVALUATION if hint else None)
    best: Decision = sampled.decision
    played_rate = sampled.rates.get(played)
    best_rate = sampled.rates.get(best.action)
    return Assessment(
        "play", played, best.action, best.reason, dict(best.params),
        played_win=None if played_rate is None else played_rate[0],
        best_win=None if best_rate is None else best_rate[0],
        worlds=0 if played_rate is None else played_rate[1],
    )  # fmt: skip
