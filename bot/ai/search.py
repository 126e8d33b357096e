"""Hard level: determinized sampling over the normal policy, plus an exact endgame.

For the best few candidates of ``normal_ranked`` (a pass included when the
lead is not free), deal the unseen cards to the other two seats consistently
with what is known (cards left per seat, the landlord's unplayed kitty cards)
and likely given the passes seen so far (``bot.ai.inference``),
play each candidate out with the normal policy for every seat, and keep the
candidate that wins most often. When few cards remain, each deal is solved
exactly instead (``bot.ai.endgame``). The work is bounded by a number of
policy steps (reproducible with a seeded RNG) and by a wall-clock cap
(``time_cap=math.inf``: by the budget alone, for the daily deal).
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field

from bot.ai.decision import Decision, play
from bot.ai.endgame import Solver, ranks_of
from bot.ai.inference import follow_events, weighted_world
from bot.ai.policy import normal_action, normal_ranked
from bot.ai.view import View
from bot.rules import Card, Combo

CANDIDATES = 5
STEP_BUDGET = 3_500
"""Policy decisions simulated per hard decision: 2,500 before issue 40, 3,500 once its
cheaper playouts (``normal_action``) came in: the same CPU a decision as the issue-start
search, timed side by side (135–220 ms median here, by the day); 2,400 steps were faster
but lost to the issue-start search, and 8,000 was no stronger (docs/AI.md §Issue 40)."""
TIME_CAP = 0.6
"""Seconds; a safety net on a slow machine (RULES: a decision ≤ 1 s)."""
ENDGAME_CARDS = 14
"""Total cards in all hands at or below which each deal is solved exactly."""
ENDGAME_NODES = 4_000
PRIOR = 0.02
"""Win-rate bonus of the normal policy's first choice."""


class _Absent:
    """Type of ``_ABSENT``: no extra action to sample (None already means a pass)."""


_ABSENT = _Absent()


def sample_world(view: View, rng: random.Random) -> list[list[Card]]:
    """Deal ``view.pool`` to the other seats consistently with what is known."""
    others = [s for s in range(3) if s != view.seat]
    known = set(view.landlord_known) if view.landlord != view.seat else set()
    free = [card for card in view.pool if card not in known]
    rng.shuffle(free)
    hands: list[list[Card]] = [[], [], []]
    hands[view.seat] = list(view.hand)
    for s in others:
        need = view.cards_left[s]
        if s == view.landlord and known:
            hands[s].extend(known)
            need -= len(known)
        hands[s].extend(free[:need])
        del free[:need]
    return hands


def rollout(
    hands: list[list[Card]],
    view: View,
    first: Combo | None,
    steps: list[int],
) -> bool:
    """Play ``first`` for ``view.seat``, then the normal policy for everyone; True = landlord won."""
    landlord, rules = view.landlord, view.rules
    turn = view.seat
    last: tuple[int | None, Combo] | None = (
        None if view.to_beat is None else (view.last_seat, view.to_beat)
    )
    action: Combo | None = first
    while True:
        if action is not None:
            hand = hands[turn]
            for card in action.cards:
                hand.remove(card)
            if not hand:
                return turn == landlord
            last = (turn, action)
        turn = (turn + 1) % 3
        if last is not None and last[0] == turn:
            last = None
        pool = tuple(hands[(turn + 1) % 3]) + tuple(hands[(turn + 2) % 3])
        sub = View(
            seat=turn,
            hand=tuple(hands[turn]),
            landlord=landlord,
            cards_left=(len(hands[0]), len(hands[1]), len(hands[2])),
            to_beat=None if last is None else last[1],
            last_seat=None if last is None else last[0],
            pool=pool,
            rules=rules,
        )
        steps[0] += 1
        action = normal_action(sub)


def _exact(hands: list[list[Card]], view: View, first: Combo | None,
           solver: Solver | None = None) -> bool | None:
    """Solve the deal after ``first`` exactly; None when over budget.

    ``solver``: one shared by the deals of one decision (its memo holds exact results
    only, so sharing changes no answer; each solve gets ``ENDGAME_NODES`` new nodes)."""
    ranks = [ranks_of(h) for h in hands]
    turn = view.seat
    last = None if view.to_beat is None else (view.last_seat, view.to_beat)
    if first is not None:
        rest = list(ranks[turn])
        for card in first.cards:
            rest.remove(card.rank.index)
        if not rest:
            return turn == view.landlord
        ranks[turn] = tuple(rest)
        last = (turn, first)
    nxt = (turn + 1) % 3
    if last is not None and last[0] == nxt:
        last = None
    if solver is None:
        solver = Solver(view.landlord, view.rules, ENDGAME_NODES)
    solver.nodes = 0
    return solver.solve((ranks[0], ranks[1], ranks[2]), nxt, last)  # type: ignore[arg-type]  # last: a play, set with to_beat


@dataclass(frozen=True)
class Sampled:
    """What one hard search found: its choice and each candidate's sampled win rate.

    ``rates`` maps a candidate action (Combo, or None = pass) to (win rate 0..1 for
    the searching seat's side, worlds sampled); empty when the choice was obvious
    (one option, or a play that certainly finishes the hand) and nothing was sampled.
    """

    decision: Decision
    rates: dict[int | Combo | None, tuple[float, int]] = field(default_factory=dict)


def hard_play(view: View, rng: random.Random, step_budget: int | None = None, *,
              time_cap: float | None = None) -> Decision:
    """The hard level's choice (see module docstring); always a legal action.

    ``step_budget``: simulated policy decisions (default ``STEP_BUDGET``). ``time_cap``:
    seconds (default ``TIME_CAP``); ``math.inf`` for a search bounded by its budget
    alone, so the same view and rng always give the same choice (the daily deal's
    fairness, docs/AI.md §Fixed budget).
    """
    return hard_search(view, rng, step_budget, time_cap=time_cap).decision


def hard_search(
    view: View,
    rng: random.Random,
    step_budget: int | None = None,
    *,
    also: Combo | None | _Absent = _ABSENT,
    time_cap: float | None = None,
) -> Sampled:
    """``hard_play`` with the sampled win rates of its candidates.

    ``also``: an action (Combo, or None = pass) that must be sampled on the same
    deals as the others and kept through the halving (the review of a member's
    decision, ``bot.ai.review``); its simulations do not count toward the budget,
    so the choice equals ``hard_play``'s for the same rng (unless the wall-clock
    cap cuts the search). Without ``also`` the search is exactly ``hard_play``'s.
    """
    if step_budget is None:
        step_budget = STEP_BUDGET
    cap = TIME_CAP if time_cap is None else time_cap
    ranked = normal_ranked(view)
    best_score, best = ranked[0]
    forced = also is _ABSENT or also == best.action
    if len(ranked) == 1 or (best_score >= 100 and forced):
        return Sampled(best)
    candidates: list[Decision] = []
    for _, decision in ranked:
        if all(decision.action != c.action for c in candidates):
            candidates.append(decision)
        if len(candidates) == CANDIDATES:
            break
    if view.to_beat is not None and all(c.action is not None for c in candidates):
        candidates.append(next(d for _, d in ranked if d.action is None))
    choosable = len(candidates)  # the appended ``also`` is sampled, never chosen
    keep: int | None = None
    if not forced and not isinstance(also, _Absent):  # not forced: ``also`` is given
        keep = next((i for i, c in enumerate(candidates) if c.action == also), None)
        if keep is None:
            candidates.append(play(also, "search_best", n=0))
            keep = len(candidates) - 1
    wins = [0.0] * len(candidates)
    runs = [0] * len(candidates)
    active = list(range(choosable))
    i_am_landlord = view.is_landlord
    exact = sum(view.cards_left) <= ENDGAME_CARDS
    solver = Solver(view.landlord, view.rules, ENDGAME_NODES) if exact else None
    steps = [0]
    extra_steps = [0]  # work spent only on ``also``: outside the budget, so the choice stays
    start = time.perf_counter()
    worlds = 0

    def rate(i: int) -> float:
        # A small prior for the normal policy's own choice damps sampling noise.
        return wins[i] / max(1, runs[i]) + (PRIOR if i == 0 else 0.0)

    events = follow_events(view.history, view.landlord, view.seat)
    while steps[0] < step_budget and time.perf_counter() - start < cap and worlds < 200:
        world = weighted_world(view, rng, sample_world, events)
        worlds += 1
        extra = [keep] if keep is not None and keep not in active else []
        for i in active + extra:
            if runs[i] and time.perf_counter() - start >= cap:
                break  # every candidate has a result: stop mid-world when out of time
            counter = steps if i in active else extra_steps
            hands = [list(h) for h in world]
            won: bool | None = None
            if exact:
                won = _exact(hands, view, candidates[i].combo, solver)
                counter[0] += 25
            if won is None:
                won = rollout(hands, view, candidates[i].combo, counter)
            wins[i] += won == i_am_landlord
            runs[i] += 1
        if len(active) > 2 and worlds >= 6 and steps[0] * 2 >= step_budget:
            active = sorted(active, key=lambda i: (-rate(i), i))[:2]  # successive halving
    top = max(active, key=lambda i: (rate(i), -i))
    rates = [wins[i] / max(1, runs[i]) for i in range(len(candidates))]
    sampled = {c.action: (rates[i], runs[i]) for i, c in enumerate(candidates) if runs[i]}
    if best_score >= 100:  # sampled only for ``also``: the obvious choice stands
        return Sampled(best, sampled)
    chosen = candidates[top]
    combo = chosen.combo
    percent = round(100 * rates[top])
    if exact and rates[top] == 1.0:
        if combo is None:
            return Sampled(play(None, "endgame_pass_wins"), sampled)
        return Sampled(play(combo, "endgame_forced_win"), sampled)
    if top == 0:
        return Sampled(chosen, sampled)
    if combo is None:
        return Sampled(play(None, "search_pass", n=percent), sampled)
    return Sampled(play(combo, "search_best", n=percent), sampled)

