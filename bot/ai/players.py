"""Public entry points: ``choose_bid``, ``choose_play``, ``hint_options``, ``ordered_plays``.

Levels (docs/AI.md): ``easy`` (greedy smallest play with
some randomness), ``normal`` (hand decomposition, partner awareness, stopping
opponents, card counting), ``hard`` (normal + determinized sampling and an
exact endgame solver, ``bot.ai.search``). Randomness only comes from the
``random.Random`` passed in (default: seeded from the observation).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Literal

from bot.ai.bidding import easy_bid, hard_bid, normal_bid
from bot.ai.decision import Decision
from bot.ai.happy import advise
from bot.ai.observation import Observation
from bot.ai.policy import easy_play, normal_play, normal_ranked
from bot.ai.search import Evaluation, hard_play
from bot.ai.view import view_of
from bot.rules import Combo, ComboKind, legal_plays

Level = Literal["easy", "normal", "hard"]
"""The computer players' strengths (docs/AI.md §Levels); the one definition."""
LEVELS: tuple[Level, ...] = ("easy", "normal", "hard")


def _rng_for(obs: Observation, rng: random.Random | None) -> random.Random:
    if rng is not None:
        return rng
    cards = ",".join(str(card.index) for card in obs.hand)
    return random.Random(f"{obs.seat}|{cards}|{obs.cards_left}|{len(obs.history)}|{len(obs.bids)}")


def choose_bid(
    obs: Observation, level: str = "normal", rng: random.Random | None = None, *,
    fixed_budget: bool = False,
) -> Decision:
    """A bid (0 = pass, else above ``obs.highest_bid``, at most 3) with its reason.

    ``easy``: a strength score with noise; ``normal``: the estimated win rate as
    landlord against fitted thresholds; ``hard``: expected points of each bid over
    sampled deals (``bot.ai.bidding``; ≤ 0.5 s, or all ``WORLDS`` with
    ``fixed_budget``, never cut by the clock). Raises ValueError for an unknown level.
    """
    rng = _rng_for(obs, rng)
    if level == "easy":
        return easy_bid(obs, rng)
    if level == "normal":
        return normal_bid(obs)
    if level == "hard":
        return hard_bid(obs, rng, time_cap=math.inf if fixed_budget else None)
    raise ValueError(f"unknown level: {level}")


def choose_play(
    obs: Observation, level: str = "normal", rng: random.Random | None = None, *,
    fixed_budget: bool = False,
) -> Decision:
    """A legal play (``Combo``) or a pass (``None``) for ``obs.seat``, with its reason.

    ``fixed_budget``: the hard search is bounded by its step budget alone, never by the
    wall clock, so the choice depends only on ``obs`` and ``rng`` (the daily deal,
    docs/AI.md §Fixed budget). Raises ValueError for an unknown level or an
    observation without landlord.
    """
    rng = _rng_for(obs, rng)
    view = view_of(obs)
    if level == "easy":
        return easy_play(view, rng)
    if level == "normal":
        return normal_play(view, rng)
    if level == "hard":
        return hard_play(view, rng, time_cap=math.inf if fixed_budget else None)
    raise ValueError(f"unknown level: {level}")


HINT_SEED = 0
"""Seed of the Hint's searches (``hint_options``) and of the review's (``bot.ai.review``):
one evaluation per position, so following the Hint is never a costly decision."""
HINT_STEP_BUDGET = 500
"""Simulated decisions of the hard search behind a Hint's first suggestion (the
computer seats use ``bot.ai.search.STEP_BUDGET``, 3 500). 1 000 before issue 54's
seventh pass: 500 costs 0.71× its CPU on the Hint positions of a 400-table run and
keeps 92 % of what the search gains over normal's first choice on the regret benchmark
(docs/PERFORMANCE.md §The Hint's search at 500 steps)."""
HINT_EVALUATION: Evaluation = "truncated"
"""How the Hint's search (and the review's, which must agree with it) values a candidate
on a sampled deal: playouts cut after ``bot.ai.search.TRUNCATE`` plies and finished by the
learned evaluation. At the Hint's budget it plays stronger than whole playouts (0.542 ±
0.021 over 563 fixed-budget deals, docs/AI.md §Third pass); at the computer seats'
budget it is level with them, so those keep ``bot.ai.search.EVALUATION``."""


def hint_options(obs: Observation, step_budget: int = HINT_STEP_BUDGET, *,
                 fixed_budget: bool = False, happy: str | None = None) -> list[Decision]:
    """Every Hint suggestion for ``obs.seat``, in the order the Hint button cycles them.

    ``happy``: the Happy rules' decision the seat is asked (``Hand.asked``: ``"call"``,
    ``"grab"``, ``"show"``, ``"double"``): the hard level's answer
    (``bot.ai.happy.advise``, seeded with ``HINT_SEED``), its estimated P(win) against
    its threshold as the reason; on the first word of the call, the show at the deal
    first when the hard level would start face up (as ``bot.game.computer.decide``).

    While bidding: the hard level's bid (``bot.ai.bidding``, seeded with ``HINT_SEED``,
    so stable) with its reason. In play: the hard search's pick (with
    ``step_budget`` simulated decisions, seeded with ``HINT_SEED``), then the normal
    level's ranking of the other distinct actions (a pass is included when the lead is
    not free). ``fixed_budget``: the searches are never cut by the clock, so the same
    position always gets the same suggestions (every table asks for it:
    ``bot.game.computer.table_hint_options``; the review of a decision makes the same
    search, ``bot.ai.review.assess``: docs/AI.md §Reviews).
    Pure CPU (tens to hundreds of ms): callers run it off the event loop.
    """
    if happy is not None:
        return happy_options(obs, happy)
    cap = math.inf if fixed_budget else None
    if obs.phase == "bidding":
        return [hard_bid(obs, random.Random(HINT_SEED), time_cap=cap)]
    view = view_of(obs)
    first = hard_play(view, random.Random(HINT_SEED), step_budget=step_budget, time_cap=cap,
                      evaluation=HINT_EVALUATION)
    options: list[Decision] = [first]
    seen: list[int | Combo | None] = [first.action]
    for _, decision in normal_ranked(view):
        if decision.action not in seen:
            seen.append(decision.action)
            options.append(decision)
    return options


def happy_options(obs: Observation, kind: str, level: str = "hard") -> list[Decision]:
    """The Hint's suggestions on the Happy decision ``kind`` at ``level`` (``hint_options``
    with ``happy=``; ``"normal"``: the quick answer of ``bot.ai.choices``): the answer of
    ``bot.ai.happy.advise`` seeded with ``HINT_SEED``, after the show at the deal when the
    seat speaks first and would show. About 2 ms at hard (400 sampled deals, numpy), a
    few µs at normal. Raises ValueError for another kind."""
    options = []
    state = obs.happy
    if kind == "call" and state is not None and not state.calls and not state.shows[obs.seat]:
        show = advise(obs, "show", level, random.Random(HINT_SEED))
        if show.action:
            options.append(show)
    options.append(advise(obs, kind, level, random.Random(HINT_SEED)))
    return options


PLAYS_RANKED = 25
"""Most plays ``ordered_plays`` lists: as many as one menu of legal plays shows (the
hand view's select menu, ``cogs.hand_view.MENU_SIZE``; a test keeps the two equal)."""


def ordered_plays(obs: Observation, limit: int = PLAYS_RANKED, *,
                  ranked: Sequence[Combo] | None = None,
                  legal: Sequence[Combo] | None = None) -> list[Combo]:
    """The legal plays of ``obs.seat`` now, best first, one per set of cards, at most
    ``limit``: the normal level's ranking, then the rest from low to high (bombs and
    the rocket last). ``[]`` while bidding. ``ranked`` / ``legal``: that ranking's
    plays and the legal plays when the caller has them already (``bot.ai.choices``).
    Pure CPU (a few ms): run it off the loop."""
    if obs.phase != "playing":
        return []
    if legal is None:
        legal = legal_plays(obs.hand, obs.to_beat, obs.rules)
    if ranked is None:
        try:
            ranked = [d.action for _, d in normal_ranked(view_of(obs))
                      if isinstance(d.action, Combo)]
        except Exception:  # the ranking is a nicety; the list must still show
            ranked = []
    rest = sorted(legal, key=lambda c: (c.is_bomb, c.kind is ComboKind.ROCKET, c.rank,
                                        -len(c.cards)))
    out: list[Combo] = []
    seen: set[str] = set()
    for combo in [*ranked, *rest]:
        if combo.notation not in seen:
            seen.add(combo.notation)
            out.append(combo)
            if len(out) == limit:
                break
    return out
