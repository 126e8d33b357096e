"""Inference of the unseen cards from the passes (used by the hard search).

A seat that passes on an opponent's play it could have beaten with the same kind of
play is rarer than one that passes because it cannot: so a pass makes the deals in
which that seat held such an answer less likely. ``follow_events`` lists the passes
of a history that say something (a seat following an *opponent's* play: passing on
the partner's play is the partnership's rule, not a lack of cards); ``PASS_RATE``
(fitted on self-play by ``fitting/fit_inference.py``, docs/AI.md §Inference) gives
P(pass | the seat could beat, its role, the kind); ``weighted_world`` draws a few
consistent deals and keeps one with probability proportional to the likelihood of
the observed passes (sampling-importance-resampling), so the search's deals follow
the inferred distribution instead of the uniform one.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from bot.ai.inference_weights import PASS_RATE
from bot.ai.view import View
from bot.rules import Card, Combo, ComboKind

K = ComboKind
TEMPER = 1.0
"""Exponent on each pass's likelihood (< 1: the passes of one seat are not independent
evidence), fitted with ``PASS_RATE``."""
DRAWS = 6
"""Consistent deals drawn per deal kept (sampling-importance-resampling)."""
ACE = 11
"""Rank index of the ace: the highest rank a chain may reach (docs/RULES.md §Combinations)."""
TWO = 12
"""Rank index of the 2: a body from here up (2s, jokers) is kept for control."""

_WIDTH = {
    K.SINGLE: 1, K.STRAIGHT: 1,
    K.PAIR: 2, K.PAIR_CHAIN: 2,
    K.TRIO: 3, K.TRIO_SINGLE: 3, K.TRIO_PAIR: 3,
    K.AIRPLANE: 3, K.AIRPLANE_SINGLES: 3, K.AIRPLANE_PAIRS: 3,
}
"""Cards per body rank of the kinds the inference reads (bombs and 4+2 are left out)."""

Event = tuple[int, str, bool, Combo, tuple[int, ...]]
"""(seat that passed, bucket, seat is landlord, play it passed on, per-rank counts of the
cards that seat played afterwards)."""


def bucket(kind: ComboKind) -> str | None:
    """The kind group ``PASS_RATE`` is fitted per: ``single``, ``pair`` or ``other`` (None:
    a kind the inference ignores)."""
    if kind not in _WIDTH:
        return None
    if kind is K.SINGLE:
        return "single"
    if kind is K.PAIR:
        return "pair"
    return "other"


def can_beat(counts: Sequence[int], combo: Combo) -> int:
    """How a hand with per-rank ``counts`` (15 rank indices) could beat ``combo`` with a
    same-kind body (kickers and bombs are not considered): 0 = it could not, 1 = only
    with 2s or jokers (cards one keeps for control), 2 = with a lower body."""
    width = _WIDTH[combo.kind]
    length = combo.length
    top = combo.rank.index
    highest = ACE if length > 1 else (14 if combo.kind is K.SINGLE else 12)
    run = 0
    found = 0
    for r in range(top - length + 2, highest + 1):
        if r < 0:
            continue
        if counts[r] >= width:
            run += 1
            if run >= length and r > top:
                if r < TWO:
                    return 2
                found = 1
        else:
            run = 0
    return found


def follow_events(history: Sequence[tuple[int, Combo | None]], landlord: int,
                  me: int) -> list[Event]:
    """The informative passes of ``history`` by seats other than ``me``.

    A pass counts when the play to beat came from the passing seat's opponent and its
    kind is one ``bucket`` knows. Each event carries the counts of the cards its seat
    played later, so the seat's hand at the time is "its hand now + those cards".
    """
    raw: list[tuple[int, int, Combo]] = []
    last: tuple[int, Combo] | None = None
    for i, (seat, combo) in enumerate(history):
        if combo is not None:
            last = (seat, combo)
            continue
        if last is None or last[0] == seat:
            continue
        if seat == me or (seat != landlord and last[0] != landlord):
            continue
        if bucket(last[1].kind) is None:
            continue
        raw.append((i, seat, last[1]))
    events: list[Event] = []
    for i, seat, combo in raw:
        later = [0] * 15
        for s, c in history[i + 1:]:
            if s == seat and c is not None:
                for r in c.ranks:
                    later[r] += 1
        events.append((seat, bucket(combo.kind), seat == landlord, combo, tuple(later)))  # type: ignore[arg-type]  # filtered above: a known bucket
    return events


def likelihood(hands: Sequence[Sequence[Card]], events: Sequence[Event]) -> float:
    """P(the observed passes | these hands), up to a constant (``PASS_RATE``)."""
    weight = 1.0
    counts: dict[int, list[int]] = {}
    for seat, kind, is_landlord, combo, later in events:
        base = counts.get(seat)
        if base is None:
            base = [0] * 15
            for card in hands[seat]:
                base[card.rank_index] += 1
            counts[seat] = base
        then = [a + b for a, b in zip(base, later, strict=True)]
        weight *= PASS_RATE[(is_landlord, kind, can_beat(then, combo))] ** TEMPER
    return weight


def weighted_world(view: View, rng: random.Random,
                   sample: Callable[[View, random.Random], list[list[Card]]],
                   events: Sequence[Event], draws: int = DRAWS) -> list[list[Card]]:
    """One deal of the unseen cards drawn from the inferred distribution.

    ``sample`` draws a consistent deal uniformly (``bot.ai.search.sample_world``);
    without events this is one such draw. Deterministic for a seeded ``rng``.
    """
    if not events:
        return sample(view, rng)
    worlds = [sample(view, rng) for _ in range(draws)]
    weights = [likelihood(w, events) for w in worlds]
    total = sum(weights)
    pick = rng.random() * total
    for world, weight in zip(worlds, weights, strict=True):
        pick -= weight
        if pick < 0:
            return world
    return worlds[-1]
