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

``evaluation="model"`` (``EVALUATION``): instead of a playout, each candidate is valued
on each sampled deal by the learned evaluation (``bot.ai.value``: P(the landlord wins)
of the position right after the candidate, all hands of the deal known), every
candidate × deal in one batch; the playouts' budget then buys ``MODEL_WORLDS`` deals
instead of a few dozen (docs/AI.md §Learned evaluation). The exact endgame is unchanged.

``evaluation="pruned"``: the learned evaluation ranks normal's best ``PRUNE_WIDE`` actions
on ``PRUNE_WORLDS`` sampled deals, and the playouts compare normal's first choice and the
model's best ``PRUNE_KEEP`` − 1 others (docs/AI.md §Second pass).

``evaluation="truncated"``: each playout stops ``TRUNCATE`` plies after the candidate and
the learned evaluation values the position it reached (a batch of deals a model call), so
the budget buys more deals; ``"prunedtruncated"`` does both (docs/AI.md §Third pass).

``evaluation="tailed"``: each playout is played by normal until ``TAIL_CARDS`` cards are
left in all hands, then solved exactly (``bot.ai.endgame``, every hand of the deal known):
the value of stronger play than normal's in the last cards (docs/AI.md §Fourth pass).

``opponent_error`` (``OPPONENT_ERROR``, 0: off): in the playouts the searching side's
opponents play one of normal's next-best actions at that rate (``Errors``); ``width``:
normal's best distinct actions searched instead of ``CANDIDATES`` (docs/AI.md §Fifth pass).
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Literal

import numpy as np

from bot.ai.decision import Decision, play
from bot.ai.endgame import Solver, ranks_of
from bot.ai.evaluate import counts_of, evaluate
from bot.ai.inference import follow_events, weighted_world
from bot.ai.policy import normal_action, normal_ranked, scored_actions
from bot.ai.value import (
    N_FEATURES,
    context_block,
    context_of,
    features,
    hand_block,
    shipped,
)
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
Evaluation = Literal["playout", "model", "pruned", "truncated", "prunedtruncated", "tailed"]
EVALUATION: Evaluation = "playout"
"""How a candidate is valued on a sampled deal: played out to the end by the normal
policy (``"playout"``), by the learned evaluation (``"model"``, ``bot.ai.value``), the
playouts on the candidates the model keeps (``"pruned"``), or playouts cut after
``TRUNCATE`` plies and finished by the model (``"truncated"``, ``"prunedtruncated"``), or
playouts finished by the exact solver from ``TAIL_CARDS`` cards on (``"tailed"``)."""
PRUNE_WIDE = 8
"""Candidates (normal's best distinct actions, plus the pass when following) that the
learned evaluation ranks before the playouts (``evaluation="pruned"``)."""
PRUNE_KEEP = 3
"""Candidates kept for the playouts (``"pruned"``): normal's first and the learned
evaluation's best others."""
PRUNE_WORLDS = 64
"""Sampled deals the learned evaluation ranks the candidates on (``"pruned"``)."""
PRUNE_STEPS = 150
"""Policy steps charged to the budget for that ranking (about its CPU)."""
MODEL_WORLDS = 800
"""Sampled deals per decision with the learned evaluation, at ``STEP_BUDGET`` (a smaller
step budget, the Hint's, buys proportionally fewer)."""
MODEL_BATCH = 100
"""Deals valued in one batch (learned evaluation); the wall-clock cap is checked between
batches."""
MIN_WORLDS = 8
"""Deals sampled even when the wall-clock cap has passed (learned evaluation)."""
LOOKAHEAD = 0
"""Plies played by the normal policy after the candidate before the learned evaluation
values the position (0: at once)."""
TRUNCATE = 20
"""Plies a truncated playout plays after the candidate before the learned evaluation
values the position it reached (``evaluation="truncated"``): 20 chose best of 4–24 on the
regret benchmark (docs/AI.md §Third pass)."""
LEAF_STEPS = 3
"""Policy steps charged to the budget for valuing one leaf of a truncated playout
(about its CPU: features and its share of one batched model call)."""
TRUNC_BATCH = 4
"""Sampled deals whose truncated playouts are valued in one batch."""
TRUNC_WORLDS = 400
"""At most this many sampled deals a decision with truncated playouts (200 with whole ones)."""
TAIL_CARDS = 20
"""Total cards in all hands at or below which a playout of ``evaluation="tailed"`` stops
and its deal is solved exactly (the playout's value becomes normal's play to there, then
best play by both sides, every hand known), docs/AI.md §Fourth pass."""
TAIL_NODES = 1_000
"""Node budget of one tailed playout's solve (over it, normal plays on)."""
TAIL_STEPS = 3
TAIL_NODES_PER_STEP = 4
"""A tailed playout's solve is charged ``TAIL_STEPS`` + nodes // ``TAIL_NODES_PER_STEP``
policy steps (about its CPU: ≈ 8 µs a node and ≈ 100 µs a call against ≈ 30 µs a
normal-policy step)."""


OPPONENT_ERROR = 0.0
"""Share of the opponents' decisions in a playout where they do not play normal's best
but one of its next ``OPPONENT_CHOICES`` − 1 actions, drawn uniformly (an opponent model:
the searching side's opponents are not assumed to play normal's best every time;
0: off, the playouts of every earlier pass). docs/AI.md §Fifth pass."""
OPPONENT_CHOICES = 3
"""Normal's best actions an erring opponent draws from (its best excluded)."""


@dataclass
class Errors:
    """An opponent model for the playouts: the seats in ``seats`` play, with probability
    ``rate``, one of normal's next-best ``OPPONENT_CHOICES`` − 1 actions instead of its
    best, drawn with ``rng`` (the search's own, so a fixed-budget search stays a function
    of the position and its seed)."""

    rng: random.Random
    rate: float
    seats: frozenset[int]


class _Absent:
    """Type of ``_ABSENT``: no extra action to sample (None already means a pass)."""


_ABSENT = _Absent()


def sample_world(view: View, rng: random.Random) -> list[list[Card]]:
    """Deal ``view.pool`` to the other seats consistently with what is known: the
    landlord's unplayed kitty cards and every hand face up (``view.face_up``) stay with
    their seat, only the rest is shuffled."""
    others = [s for s in range(3) if s != view.seat]
    held: dict[int, tuple[Card, ...]] = {}
    if view.landlord != view.seat and view.landlord_known:
        held[view.landlord] = tuple(set(view.landlord_known))  # the classic order, unchanged
    for s, cards in view.face_up:
        if s != view.seat:
            held[s] = tuple(dict.fromkeys(held.get(s, ()) + cards))  # a face-up hand: all of it
    known = {card for cards in held.values() for card in cards}
    free = [card for card in view.pool if card not in known]
    rng.shuffle(free)
    hands: list[list[Card]] = [[], [], []]
    hands[view.seat] = list(view.hand)
    for s in others:
        need = view.cards_left[s]
        if s in held:
            hands[s].extend(held[s])
            need -= len(held[s])
        hands[s].extend(free[:need])
        del free[:need]
    return hands


def rollout(
    hands: list[list[Card]],
    view: View,
    first: Combo | None,
    steps: list[int],
    tail: Solver | None = None,
    errors: Errors | None = None,
) -> bool:
    """Play ``first`` for ``view.seat``, then the normal policy for everyone; True = landlord won.

    ``hands`` is changed in place; ``steps[0]`` counts the policy decisions simulated.
    ``tail``: a solver that finishes the playout exactly once ``TAIL_CARDS`` or fewer
    cards are left in all hands (``advance``). ``errors``: an opponent model (``Errors``)."""
    result = advance(hands, view, first, None, steps, tail, errors)
    assert isinstance(result, bool)
    return result


def advance(
    hands: list[list[Card]],
    view: View,
    first: Combo | None,
    plies: int | None,
    steps: list[int] | None = None,
    tail: Solver | None = None,
    errors: Errors | None = None,
) -> bool | tuple[int, tuple[int, Combo] | None]:
    """Play ``first`` for ``view.seat``, then ``plies`` normal-policy decisions (None: to
    the end of the hand).

    ``hands`` is changed in place; ``steps[0]``, when given, counts the decisions. Returns
    True/False when a seat went out (the landlord won), else (seat to move, (seat, play to
    beat) or None on a free lead). ``tail``: once ``TAIL_CARDS`` or fewer cards are left in
    all hands, the rest is solved exactly with this solver (every hand known, each solve
    within the solver's node budget, charged ``TAIL_STEPS + nodes // TAIL_NODES_PER_STEP``
    steps);
    a solve over its budget leaves the normal policy to play on. ``errors``: the seats in
    ``errors.seats`` err at ``errors.rate`` (``Errors``)."""
    landlord, rules = view.landlord, view.rules
    turn = view.seat
    last: tuple[int, Combo] | None = (
        None if view.to_beat is None or view.last_seat is None
        else (view.last_seat, view.to_beat)
    )
    action: Combo | None = first
    left = -1 if plies is None else plies
    total = len(hands[0]) + len(hands[1]) + len(hands[2])
    while True:
        if action is not None:
            hand = hands[turn]
            for card in action.cards:
                hand.remove(card)
            if not hand:
                return turn == landlord
            total -= len(action.cards)
            last = (turn, action)
        turn = (turn + 1) % 3
        if last is not None and last[0] == turn:
            last = None
        if left == 0:
            return turn, last
        if tail is not None and total <= TAIL_CARDS:
            tail.nodes = 0
            won = tail.solve((ranks_of(hands[0]), ranks_of(hands[1]), ranks_of(hands[2])),
                             turn, last)
            if steps is not None:
                steps[0] += TAIL_STEPS + tail.nodes // TAIL_NODES_PER_STEP
            if won is not None:
                return won
            tail = None  # over its budget: the normal policy plays on
        left -= 1
        if steps is not None:
            steps[0] += 1
        seen = View(
            seat=turn, hand=tuple(hands[turn]), landlord=landlord,
            cards_left=(len(hands[0]), len(hands[1]), len(hands[2])),
            to_beat=None if last is None else last[1],
            last_seat=None if last is None else last[0],
            pool=tuple(hands[(turn + 1) % 3]) + tuple(hands[(turn + 2) % 3]), rules=rules)
        if errors is not None and turn in errors.seats and errors.rng.random() < errors.rate:
            action = erring_action(seen, errors.rng)
        else:
            action = normal_action(seen)


def erring_action(view: View, rng: random.Random) -> Combo | None:
    """An opponent's error: one of normal's next-best ``OPPONENT_CHOICES`` − 1 distinct
    actions (its best excluded), drawn uniformly; normal's best when it has no other, or
    when its best finishes the hand or certainly wins (score ≥ 100: no one misses those)."""
    ranked = sorted(scored_actions(view), key=lambda sc: -sc[0])  # stable: ties keep order
    if ranked[0][0] >= 100:
        return ranked[0][1]
    others: list[Combo | None] = []
    for _, combo in ranked[1:]:
        if combo != ranked[0][1] and combo not in others:
            others.append(combo)
        if len(others) == OPPONENT_CHOICES - 1:
            break
    return rng.choice(others) if others else ranked[0][1]


def model_values(
    worlds: list[list[list[Card]]],
    view: View,
    actions: list[Combo | None],
    plies: int = 0,
) -> np.ndarray:
    """P(the landlord wins) of every action (rows) on every sampled deal (columns), by the
    learned evaluation after ``plies`` normal-policy decisions: one batch for all."""
    if plies == 0:
        return _model_values_now(worlds, view, actions)
    return _model_values_played(worlds, view, actions, plies)


def _model_values_played(
    worlds: list[list[list[Card]]],
    view: View,
    actions: list[Combo | None],
    plies: int,
) -> np.ndarray:
    """``model_values`` by playing each action (and ``plies`` more) on a copy of each deal."""
    out = np.zeros((len(actions), len(worlds)), dtype=np.float32)
    rows: list[tuple[int, int]] = []
    leaves: list[tuple[list[list[Card]], int, tuple[int, Combo] | None]] = []
    for j, world in enumerate(worlds):
        for i, action in enumerate(actions):
            hands = [list(h) for h in world]
            after = advance(hands, view, action, plies)
            if isinstance(after, bool):
                out[i, j] = float(after)
                continue
            leaves.append((hands, *after))
            rows.append((i, j))
    if rows:
        idx = np.array(rows)
        out[idx[:, 0], idx[:, 1]] = leaf_values(leaves, view.landlord)
    return out


def leaf_values(
    leaves: list[tuple[list[list[Card]], int, tuple[int, Combo] | None]],
    landlord: int,
) -> np.ndarray:
    """P(the landlord wins) of each leaf (all hands, seat to move, (seat, play to beat) or
    None), by the learned evaluation: one batch."""
    rel = [(landlord + k) % 3 for k in range(3)]
    counts: list[list[list[int]]] = []
    decomp: list[list[tuple[float, int]]] = []
    context: list[tuple[int, int, int, int, int, int]] = []
    for hands, turn, last in leaves:
        per_seat = [counts_of(hands[s]) for s in rel]
        counts.append(per_seat)
        decomp.append([evaluate(c)[:2] for c in per_seat])
        context.append(context_of(
            (turn - landlord) % 3,
            None if last is None else ((last[0] - landlord) % 3, last[1])))
    return shipped().predict(features(np.array(counts, dtype=np.uint8),
                                      np.array(decomp, dtype=np.float32),
                                      np.array(context, dtype=np.int16)))


def _model_values_now(
    worlds: list[list[list[Card]]],
    view: View,
    actions: list[Combo | None],
) -> np.ndarray:
    """``model_values`` with no lookahead (``candidate_features``, one batch)."""
    x, live, out = candidate_features(worlds, view, actions)
    if live:
        out[live] = shipped().predict(x).reshape(len(live), len(worlds))
    return out


def candidate_features(
    worlds: list[list[list[Card]]],
    view: View,
    actions: list[Combo | None],
) -> tuple[np.ndarray, list[int], np.ndarray]:
    """The learned evaluation's inputs for every action right after it on every deal.

    Returns (x, live, out): ``x`` (len(live) × len(worlds), ``N_FEATURES``) rows, action
    by action, the deals in order within each; ``live`` the indices of the actions that
    do not end the hand; ``out`` (actions, deals) zeros, and the outcome (1.0 = the
    landlord won) of the actions that end it. The other hands are those of each deal
    whatever the action, the searching seat's hand after an action the same on every
    deal, so each hand's features are computed once and the rows assembled by repetition."""
    landlord, seat = view.landlord, view.seat
    out = np.zeros((len(actions), len(worlds)), dtype=np.float32)
    base = counts_of(view.hand)
    live: list[int] = []
    mine_counts: list[list[int]] = []
    contexts: list[tuple[int, int, int, int, int, int]] = []
    nxt = (seat + 1) % 3
    for i, action in enumerate(actions):
        last: tuple[int, Combo] | None
        if action is None:
            last = None if view.to_beat is None or view.last_seat in (None, nxt) else (
                view.last_seat, view.to_beat)
            rest = base
        else:
            rest = base.copy()
            for r in action.ranks:
                rest[r] -= 1
            if not any(rest):
                out[i, :] = float(seat == landlord)
                continue
            last = (seat, action)
        live.append(i)
        mine_counts.append(rest)
        contexts.append(context_of((nxt - landlord) % 3, None if last is None else (
            (last[0] - landlord) % 3, last[1])))
    if not live or not worlds:
        return np.zeros((0, N_FEATURES), dtype=np.float32), live, out
    c, w = len(live), len(worlds)
    segments: list[np.ndarray] = [np.empty(0)] * 3
    every = np.empty((c * w, 3, 15), dtype=np.uint8)  # all hands of every row
    mine = np.array(mine_counts, dtype=np.uint8)
    every[:, (seat - landlord) % 3] = np.repeat(mine, w, axis=0)
    segments[(seat - landlord) % 3] = np.repeat(
        hand_block(mine, np.array([evaluate(r)[:2] for r in mine_counts], dtype=np.float32)),
        w, axis=0)
    for other in ((seat + 1) % 3, (seat + 2) % 3):
        counts = [counts_of(world[other]) for world in worlds]
        theirs = np.array(counts, dtype=np.uint8)
        every[:, (other - landlord) % 3] = np.tile(theirs, (c, 1))
        block = hand_block(theirs, np.array([evaluate(k)[:2] for k in counts], dtype=np.float32))
        segments[(other - landlord) % 3] = np.tile(block, (c, 1))
    context = np.repeat(np.array(contexts), w, axis=0)
    x = np.concatenate([*segments, context_block(context, every)], axis=1)
    return x, live, out


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
              time_cap: float | None = None, evaluation: Evaluation | None = None,
              width: int | None = None, opponent_error: float | None = None) -> Decision:
    """The hard level's choice (see module docstring); always a legal action.

    ``step_budget``: simulated policy decisions (default ``STEP_BUDGET``). ``time_cap``:
    seconds (default ``TIME_CAP``); ``math.inf`` for a search bounded by its budget
    alone, so the same view and rng always give the same choice (the daily deal's
    fairness, docs/AI.md §Fixed budget). ``evaluation``, ``width``, ``opponent_error``:
    see ``hard_search``.
    """
    return hard_search(view, rng, step_budget, time_cap=time_cap, evaluation=evaluation,
                       width=width, opponent_error=opponent_error).decision



def top_candidates(ranked: list[tuple[float, Decision]], width: int,
                   following: bool) -> list[Decision]:
    """The search's candidates of a ranking (``normal_ranked``, best first): its best
    ``width`` distinct actions, plus its pass when ``following`` and none of them passes
    (a follow's ranking always holds the pass; StopIteration otherwise)."""
    out: list[Decision] = []
    for _, decision in ranked:
        if all(decision.action != c.action for c in out):
            out.append(decision)
        if len(out) == width:
            break
    if following and all(c.action is not None for c in out):
        out.append(next(d for _, d in ranked if d.action is None))
    return out

def hard_search(
    view: View,
    rng: random.Random,
    step_budget: int | None = None,
    *,
    also: Combo | None | _Absent = _ABSENT,
    time_cap: float | None = None,
    evaluation: Evaluation | None = None,
    width: int | None = None,
    opponent_error: float | None = None,
) -> Sampled:
    """``hard_play`` with the sampled win rates of its candidates.

    ``also``: an action (Combo, or None = pass) that must be sampled on the same
    deals as the others and kept through the halving (the review of a member's
    decision, ``bot.ai.review``); its simulations do not count toward the budget,
    so the choice equals ``hard_play``'s for the same rng (unless the wall-clock
    cap cuts the search). Without ``also`` the search is exactly ``hard_play``'s.
    ``evaluation``: ``"playout"`` or ``"model"`` (default ``EVALUATION``, module docstring).
    ``width``: normal's best distinct actions searched (default ``CANDIDATES``).
    ``opponent_error``: the opponents' error rate in the playouts (default
    ``OPPONENT_ERROR``; ``Errors``).
    """
    if step_budget is None:
        step_budget = STEP_BUDGET
    cap = TIME_CAP if time_cap is None else time_cap
    ranked = normal_ranked(view)
    best_score, best = ranked[0]
    forced = also is _ABSENT or also == best.action
    if len(ranked) == 1 or (best_score >= 100 and forced):
        return Sampled(best)
    mode = EVALUATION if evaluation is None else evaluation
    exact = sum(view.cards_left) <= ENDGAME_CARDS
    pruned = mode in ("pruned", "prunedtruncated") and not exact
    truncated = mode in ("truncated", "prunedtruncated") and not exact
    candidates = top_candidates(
        ranked, PRUNE_WIDE if pruned else CANDIDATES if width is None else width,
        view.to_beat is not None)
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
    solver = Solver(view.landlord, view.rules, ENDGAME_NODES) if exact else None
    tail = (Solver(view.landlord, view.rules, TAIL_NODES)
            if mode == "tailed" and not exact else None)
    error = OPPONENT_ERROR if opponent_error is None else opponent_error
    errors = (Errors(rng, error, frozenset(view.opponents())) if error > 0 and not exact
              else None)
    steps = [0]
    extra_steps = [0]  # work spent only on ``also``: outside the budget, so the choice stays
    start = time.perf_counter()
    worlds = 0

    def rate(i: int) -> float:
        # A small prior for the normal policy's own choice damps sampling noise.
        return wins[i] / max(1, runs[i]) + (PRIOR if i == 0 else 0.0)

    events = follow_events(view.history, view.landlord, view.seat)
    if pruned and choosable > PRUNE_KEEP:
        # the learned evaluation keeps the normal policy's first choice and the best
        # others on PRUNE_WORLDS deals; the playouts then share the budget among fewer
        drawn = [weighted_world(view, rng, sample_world, events) for _ in range(PRUNE_WORLDS)]
        values = model_values(drawn, view, [c.combo for c in candidates[:choosable]])
        score = (values if i_am_landlord else 1.0 - values).mean(axis=1)
        steps[0] += PRUNE_STEPS
        others = sorted(range(1, choosable), key=lambda i: (-float(score[i]), i))
        active = [0, *sorted(others[:PRUNE_KEEP - 1])]
    if mode == "model" and not exact:
        target = max(MIN_WORLDS, step_budget * MODEL_WORLDS // STEP_BUDGET)
        actions = [c.combo for c in candidates]
        while worlds < target and (worlds < MIN_WORLDS or time.perf_counter() - start < cap):
            # a batch at a time, so the clock is checked between batches
            size = (min(MODEL_BATCH, target - worlds) if time.perf_counter() - start < cap
                    else MIN_WORLDS - worlds)
            drawn = [weighted_world(view, rng, sample_world, events) for _ in range(size)]
            values = model_values(drawn, view, actions, LOOKAHEAD)
            mine = values if i_am_landlord else 1.0 - values
            worlds += size
            for i in range(len(candidates)):
                wins[i] += float(mine[i].sum())
                runs[i] = worlds
    elif truncated:
        # truncated playouts: TRUNCATE plies, then the learned evaluation of the position
        # reached; a batch of deals at a time (one model call), the clock checked between
        while (steps[0] < step_budget and time.perf_counter() - start < cap
               and worlds < TRUNC_WORLDS):
            leaves: list[tuple[list[list[Card]], int, tuple[int, Combo] | None]] = []
            owners: list[int] = []
            for _ in range(min(TRUNC_BATCH, TRUNC_WORLDS - worlds)):
                world = weighted_world(view, rng, sample_world, events)
                worlds += 1
                extra = [keep] if keep is not None and keep not in active else []
                for i in active + extra:
                    counter = steps if i in active else extra_steps
                    hands = [list(h) for h in world]
                    after = advance(hands, view, candidates[i].combo, TRUNCATE, counter)
                    runs[i] += 1
                    if isinstance(after, bool):
                        wins[i] += after == i_am_landlord
                    else:
                        leaves.append((hands, *after))
                        owners.append(i)
            if leaves:
                p = leaf_values(leaves, view.landlord)
                for i, v in zip(owners, p.tolist(), strict=True):
                    wins[i] += v if i_am_landlord else 1.0 - v
                    (steps if i in active else extra_steps)[0] += LEAF_STEPS
            if len(active) > 2 and worlds >= 8 and steps[0] * 2 >= step_budget:
                active = sorted(active, key=lambda i: (-rate(i), i))[:2]  # successive halving
    else:
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
                    won = rollout(hands, view, candidates[i].combo, counter, tail, errors)
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

