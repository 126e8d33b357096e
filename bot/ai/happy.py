"""Computer decisions under the Happy rules (docs/RULES.md §Happy rules): call, grab,
show (at the deal ×4, the landlord after the kitty ×2) and double (×1/×2/×4).

Each decision compares one number, P(the seat's side wins), with fitted thresholds
(``fitting/fit_happy.py``, docs/AI.md §Happy rules):

* ``normal`` (and ``easy``, with noise): ``strength``, the bidding model's
  ``hand_win_rate`` of the seat's own cards (17 dealt; the landlord's 20 once it has the
  kitty, which the model, fitted on 17 cards, reads lower: the landlord's thresholds
  allow for it). A peasant reads its own hand's rate the same way.
* ``hard``: ``estimate``, the bidding model's whole-deal evaluator (``landlord_win_rate``)
  averaged over sampled deals of the cards it has not seen, dealt around what it has:
  hands shown face up stay with their seat, the kitty once revealed is the landlord's,
  and a deal in which another seat's call, grab or refusal disagrees with ``OPPONENT``
  on that seat's sampled hand keeps weight ``MISMATCH_WEIGHT`` per decision (the grabs
  so far say the landlord is strong). Seeded; ``WORLDS`` deals, never cut by a clock.

A show or a double that cannot raise any stake (the cap reached already) is not made.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from bot.ai.bidding import (
    DEAL_WEIGHTS,
    HAND_WEIGHTS,
    MISMATCH_WEIGHT,
    PEASANT_FEATURES,
    hand_win_rate,
)
from bot.ai.bidding_features import hand_features_batch
from bot.ai.decision import Decision
from bot.ai.evaluate import counts_of
from bot.ai.observation import Observation
from bot.rules import DECK, Card
from bot.rules.happy import SHOW_AFTER_KITTY, SHOW_AT_DEAL

KINDS = ("call", "grab", "show", "double")
"""The Happy decisions a computer is asked."""


@dataclass(frozen=True)
class Thresholds:
    """The lowest P(win) for each decision (0..1). ``show_deal``: start with the hand
    face up (×4); ``show_kitty``: the landlord shows its 20 cards (×2);
    ``landlord_double`` / ``peasant_double``: double ×2 from the first, ×4 from the
    second."""

    call: float
    grab: float
    show_deal: float
    show_kitty: float
    landlord_double: tuple[float, float]
    peasant_double: tuple[float, float]


# ----- fitted constants (fitting/fit_happy.py) ---------------------------------------

NORMAL = Thresholds(call=0.38, grab=0.62, show_deal=0.94, show_kitty=0.94,
                    landlord_double=(0.54, 0.54), peasant_double=(0.58, 0.58))
"""normal's thresholds on ``strength`` (the seat's own cards); fitted (docs/AI.md §Happy
rules). A pair with equal ends: straight to the super double."""
HARD = Thresholds(call=0.26, grab=0.46, show_deal=0.94, show_kitty=0.94,
                  landlord_double=(0.58, 0.58), peasant_double=(0.54, 0.58))
"""hard's thresholds on ``estimate`` (sampled deals of what it has not seen); fitted."""
OPPONENT = (0.45, 0.60)
"""hard's reading of another seat's words: a call says ``strength`` of its 17 dealt cards
≥ the first, a grab ≥ the second, a refusal the opposite (fixed: not refitted with
``NORMAL``, so the fit of ``HARD`` does not move its own estimates)."""
EASY_NOISE = 0.08
"""easy: ``strength`` ± up to this much, uniformly, before normal's thresholds."""

WORLDS = 400
"""Sampled deals per hard decision (all of them always: a few ms with numpy)."""


def strength(cards: Sequence[Card]) -> float:
    """``hand_win_rate`` of ``cards``' rank counts (0..1)."""
    return hand_win_rate(counts_of(cards))


def happy_decision(kind: str, cards: Sequence[Card], landlord: bool) -> int:
    """normal's answer to ``kind`` (``"call"``, ``"grab"``, ``"show"`` at the deal or, as
    ``landlord``, after the kitty, ``"double"``) for a seat holding ``cards``, on its
    cards alone: 1/0 for call and grab, the show factor or 0, the doubling factor 1, 2
    or 4. Raises ValueError for another kind."""
    return answer(kind, strength(cards), landlord, NORMAL)


def answer(kind: str, rate: float, landlord: bool, limits: Thresholds) -> int:
    """The answer to ``kind`` for a seat whose side wins with probability ``rate``
    (``happy_decision``'s values). Raises ValueError for another kind."""
    if kind == "call":
        return int(rate >= limits.call)
    if kind == "grab":
        return int(rate >= limits.grab)
    if kind == "show":
        if landlord:
            return SHOW_AFTER_KITTY if rate >= limits.show_kitty else 0
        return SHOW_AT_DEAL if rate >= limits.show_deal else 0
    if kind == "double":
        low, high = limits.landlord_double if landlord else limits.peasant_double
        return 4 if rate >= high else 2 if rate >= low else 1
    raise ValueError(f"no Happy decision {kind!r}")


def choose_happy(obs: Observation, kind: str, level: str = "normal",
                 rng: random.Random | None = None, *, fixed_budget: bool = False) -> int:
    """``obs.seat``'s answer to the Happy decision ``kind`` at ``level`` (module
    docstring; values as ``happy_decision``). ``"show"`` is the show at the deal while
    ``obs.landlord`` is None, else the landlord's after the kitty. ``fixed_budget``: hard
    is accepted for symmetry with ``choose_bid``: hard's estimate always samples all its
    deals, so its answer is a function of ``obs`` and ``rng`` (the daily deal). Raises
    ValueError for an unknown kind or level."""
    return advise(obs, kind, level, rng).bid


def advise(obs: Observation, kind: str, level: str = "hard",
           rng: random.Random | None = None) -> Decision:
    """``choose_happy``'s answer as a ``Decision`` with its reason: the seat's estimated
    P(win) as ``n`` (%) and the threshold the answer turned on as ``need`` (%; ``high``:
    the super double's, beside a plain double), or the cap that makes a show or a double
    worthless (``happy_*_cap``). What the Hint says on a Happy decision and what the review
    compares a member's with (``bot.ai.hint_options`` with ``happy=``, seeded there).
    Raises ValueError for an unknown kind or level."""
    if kind not in KINDS:
        raise ValueError(f"no Happy decision {kind!r}")
    landlord = obs.landlord is not None and obs.landlord == obs.seat
    if level == "hard":
        rng = rng or random.Random(_seed_of(obs, kind))
        rate, limits = estimate(obs, rng), HARD
    elif level in ("normal", "easy"):
        rate, limits = strength(obs.hand), NORMAL
        if level == "easy":
            rate += (rng or random.Random(_seed_of(obs, kind))).uniform(-EASY_NOISE, EASY_NOISE)
    else:
        raise ValueError(f"unknown level: {level}")
    wanted = answer(kind, rate, landlord, limits)
    choice = useful(obs, kind, wanted)
    return _explained(kind, choice, wanted, rate, landlord, limits)


def _explained(kind: str, choice: int, wanted: int, rate: float, landlord: bool,
               limits: Thresholds) -> Decision:
    """The Decision of ``choice`` (``wanted`` before ``useful``) with its reason code."""
    n = round(100 * rate)
    if choice != wanted:  # the cap: a show or a double that could raise nothing
        return Decision(choice, "happy_keep_hidden_cap" if kind == "show" else "happy_no_double_cap")
    if kind == "call":
        return Decision(choice, "happy_call" if choice else "happy_no_call",
                        {"n": n, "need": round(100 * limits.call)})
    if kind == "grab":
        return Decision(choice, "happy_grab" if choice else "happy_no_grab",
                        {"n": n, "need": round(100 * limits.grab)})
    if kind == "show":
        need = round(100 * (limits.show_kitty if landlord else limits.show_deal))
        code = ("happy_keep_hidden" if not choice else
                "happy_show" if landlord else "happy_show_deal")
        return Decision(choice, code, {"n": n, "need": need})
    low, high = limits.landlord_double if landlord else limits.peasant_double
    if choice == 4:
        return Decision(4, "happy_super_double", {"n": n, "need": round(100 * high)})
    if choice == 2:
        return Decision(2, "happy_double", {"n": n, "need": round(100 * low),
                                            "high": round(100 * high)})
    return Decision(1, "happy_no_double", {"n": n, "need": round(100 * low)})


def useful(obs: Observation, kind: str, choice: int) -> int:
    """``choice`` trimmed to what can change a stake: no double, and no show after the
    kitty, once every stake it would raise is at the cap already (``obs.rules.cap``)."""
    cap, state = obs.rules.cap, obs.happy
    if cap is None or state is None or kind not in ("show", "double") or choice <= 1:
        return choice
    base = 2**state.grabs * state.show_factor
    if kind == "show":
        return choice if base < cap and state.show_factor < choice else 0
    known = [factor or 1 for factor in state.doubles]
    landlord = obs.landlord
    if landlord is None:
        return choice
    if obs.seat == landlord:
        least = min(known[s] for s in range(3) if s != landlord)
    else:
        least = known[landlord]
    return choice if base * least < cap else 1


def _seed_of(obs: Observation, kind: str) -> str:
    cards = ",".join(str(card.index) for card in obs.hand)
    calls = "" if obs.happy is None else str(obs.happy.calls)
    return f"happy|{kind}|{obs.seat}|{cards}|{calls}|{obs.landlord}"


def estimate(obs: Observation, rng: random.Random, worlds: int = WORLDS) -> float:
    """P(``obs.seat``'s side wins) over ``worlds`` sampled deals (module docstring): as the
    landlord with the kitty while the landlord is not known yet (calling, grabbing,
    showing at the deal), else as the seat is (landlord or peasant). All deals at once
    (numpy, a few ms); a function of ``obs`` and ``rng``'s state alone."""
    me, landlord = obs.seat, obs.landlord
    state = obs.happy
    face_up = {s: counts_of(cards) for s, cards in (state.face_up if state else ())
               if s != me}
    seen = {card.index for card in obs.hand}
    for s, cards in (state.face_up if state else ()):
        if s != me:
            seen.update(card.index for card in cards)
    kitty = counts_of(obs.kitty) if obs.kitty is not None and landlord is not None else None
    if obs.kitty is not None and kitty is not None and landlord != me and landlord not in face_up:
        seen.update(card.index for card in obs.kitty)
    unseen = np.array([DECK[i].rank_index for i in range(54) if i not in seen], dtype=np.int8)
    generator = np.random.Generator(np.random.PCG64(rng.getrandbits(64)))
    drawn = generator.permuted(np.tile(unseen, (worlds, 1)), axis=1)
    ranks = np.arange(15, dtype=np.int8)

    def counts(first: int, size: int) -> np.ndarray:
        return np.asarray((drawn[:, first:first + size, None] == ranks).sum(axis=1))

    mine = np.tile(np.array(counts_of(obs.hand)), (worlds, 1))
    hands: list[np.ndarray] = [mine, mine, mine]
    at = 0
    for s in ((me + 1) % 3, (me + 2) % 3):
        if s in face_up:
            hands[s] = np.tile(np.array(face_up[s]), (worlds, 1))
            continue
        hands[s] = counts(at, 17)  # a hidden hand's 17 dealt cards
        at += 17
        if kitty is not None and s == landlord:
            hands[s] = hands[s] + np.array(kitty)
    if kitty is None:  # nobody is landlord yet: the rest is the kitty, and we take it
        boss = me
        full = mine + counts(at, 3)
        dealt = hands
    else:
        assert landlord is not None
        boss = landlord
        full = hands[landlord]
        dealt = [hands[s] - np.array(kitty) if s == landlord else hands[s] for s in range(3)]
    weight = np.ones(worlds)
    rates: dict[int, np.ndarray] = {}
    for seat, grab, yes in _their_decisions(obs):
        if seat not in rates:
            rates[seat] = _rate17(hand_features_batch(dealt[seat]))
        agree = (rates[seat] >= (OPPONENT[1] if grab else OPPONENT[0])) == yes
        weight *= np.where(agree, 1.0, MISMATCH_WEIGHT)
    peasants = [hand_features_batch(hands[s]) for s in range(3) if s != boss]
    p = _deal_rate(hand_features_batch(full), peasants[0] + peasants[1])
    side = p if boss == me else 1.0 - p
    return float((weight * side).sum() / weight.sum())


def _sigmoid(x: np.ndarray) -> np.ndarray:
    return np.asarray(1.0 / (1.0 + np.exp(-np.clip(x, -30.0, 30.0))))


def _rate17(features: np.ndarray) -> np.ndarray:
    """``hand_win_rate`` of each row of ``hand_features_batch``."""
    weights = np.array(HAND_WEIGHTS)
    return _sigmoid(np.asarray(weights[0] + features @ weights[1:]))


def _deal_rate(landlord: np.ndarray, peasants: np.ndarray) -> np.ndarray:
    """``landlord_win_rate`` of each row: the landlord's features and the peasants' summed."""
    weights = np.array(DEAL_WEIGHTS)
    width = landlord.shape[1]
    x = weights[0] + landlord @ weights[1:1 + width]
    x = x + peasants[:, list(PEASANT_FEATURES)] @ weights[1 + width:]
    return _sigmoid(x)


def _their_decisions(obs: Observation) -> list[tuple[int, bool, bool]]:
    """(seat, a grab?, yes) of each call or grab by another seat so far."""
    state = obs.happy
    if state is None:
        return []
    out = []
    for index, (seat, yes) in enumerate(state.calls):
        before = state.auction(index)
        if seat != obs.seat:
            out.append((seat, before.stage == "grab", bool(yes)))
    return out
