"""Play policies: random, greedy, easy and normal (hand decomposition).

Every policy picks from ``bot.rules.legal_plays`` (plus a pass when the lead
is not free), so every decision is legal. ``normal_ranked`` scores each
candidate by the value of the hand it leaves (``bot.ai.evaluate``) with
priorities for finishing, playing unbeatable cards before the last play,
partner awareness and stopping an opponent who has 1–2 cards left.
"""

from __future__ import annotations

import math
import random
from collections import defaultdict
from typing import Any

from bot.ai.decision import Decision, play
from bot.ai.evaluate import counts_of, evaluate
from bot.ai.view import View
from bot.rules import Combo, ComboKind, Rank, legal_plays

K = ComboKind
INITIATIVE = 4.0
"""Value of holding the lead, in hand-value points (see bot.ai.evaluate)."""
RAISE_BELOW = Rank.JACK
"""A partner's single or pair below this rank is raised when the landlord plays
next (docs/AI.md §Partnership: raising the partner's low card)."""
RAISE_WITH = range(Rank.TEN.index, Rank.ACE.index + 1)
"""Rank indexes a raise may use: high enough to cost the landlord a high card, below
the 2s and jokers kept for control."""
RAISE_COST = 3.0
"""The most hand value (points of bot.ai.evaluate) a raise may break up."""
KICKER_KINDS = (
    K.TRIO_SINGLE,
    K.TRIO_PAIR,
    K.AIRPLANE_SINGLES,
    K.AIRPLANE_PAIRS,
    K.FOUR_TWO_SINGLES,
    K.FOUR_TWO_PAIRS,
)
CHAIN_KINDS = (K.STRAIGHT, K.PAIR_CHAIN)
AIRPLANES = (K.AIRPLANE, K.AIRPLANE_SINGLES, K.AIRPLANE_PAIRS)


def random_play(view: View, rng: random.Random) -> Decision:
    """Uniformly random legal action (a pass counts as one action when allowed)."""
    legal = legal_plays(view.hand, view.to_beat, view.rules)
    options: list[Combo | None] = list(legal)
    if view.to_beat is not None:
        options.append(None)
    choice = rng.choice(options)
    return play(choice, "play_random") if choice is not None else play(None, "pass_random")


def greedy_play(view: View, rng: random.Random | None = None) -> Decision:
    """The smallest legal play: lowest body rank, then more cards; bombs last; never passes."""
    legal = legal_plays(view.hand, view.to_beat, view.rules)
    if not legal:
        return play(None, "pass_cannot_beat")
    best = min(legal, key=lambda c: (c.is_bomb, c.rank, -len(c.cards)))
    if len(best.cards) == len(view.hand):
        return play(best, "finish_hand")
    if view.to_beat is None:
        reason = _lead_reason(best)
        if reason == "lead_fewest_plays":  # its message names the plays left
            return play(best, reason, n=evaluate(_remove(counts_of(view.hand), best))[1])
        return play(best, reason)
    return play(best, "beat_with_smallest")


def easy_play(view: View, rng: random.Random) -> Decision:
    """Greedy smallest play with some randomness (legal by docs/RULES.md, never smart)."""
    roll = rng.random()
    for combo in legal_plays(view.hand, view.to_beat, view.rules):
        if len(combo.cards) == len(view.hand):
            return play(combo, "finish_hand")
    if view.to_beat is not None and roll < 0.15:
        return play(None, "pass_random")
    if roll < 0.3:
        legal = [c for c in legal_plays(view.hand, view.to_beat, view.rules) if not c.is_bomb]
        if legal:
            choice = rng.choice(legal)
            return play(choice, "play_random")
    return greedy_play(view, rng)


def prune(legal: list[Combo], keep: int = 3) -> list[Combo]:
    """Keep every play, but only the ``keep`` lowest kicker choices per body."""
    out: list[Combo] = []
    by_body: dict[tuple[Any, ...], list[Combo]] = defaultdict(list)
    for combo in legal:
        if combo.kind in KICKER_KINDS:
            by_body[combo.reading].append(combo)
        else:
            out.append(combo)
    for group in by_body.values():
        # One body per group, so the sum of all ranks orders the kickers like theirs alone.
        group.sort(key=lambda c: sum(c.ranks))
        out.extend(group[:keep])
    return out


def _remove(counts: list[int], combo: Combo) -> list[int]:
    rest = counts.copy()
    for r in combo.ranks:
        rest[r] -= 1
    return rest


LOW_UP_TO = Rank.TEN
"""The highest rank a reason calls "low" (a lead of an A is no "low single")."""


def _lead_reason(combo: Combo) -> str:
    if combo.kind is K.SINGLE:
        return "lead_lowest_single" if combo.rank <= LOW_UP_TO else "lead_single"
    if combo.kind is K.PAIR:
        return "lead_lowest_pair" if combo.rank <= LOW_UP_TO else "lead_pair"
    if combo.kind in CHAIN_KINDS:
        return "lead_longest_chain"
    if combo.kind in AIRPLANES:
        return "lead_airplane"
    if combo.kind in (K.TRIO, K.TRIO_SINGLE, K.TRIO_PAIR):
        return "lead_trio"
    if combo.kind is K.ROCKET:  # named as one play: "Lead the rocket" (docs/RULES.md §Notation)
        return "lead_rocket"
    if combo.is_bomb:
        return "lead_bomb"
    return "lead_fewest_plays"


def _scored(view: View) -> list[tuple[float, Combo | None, str, dict[str, str | int]]]:
    """Every candidate action with its score, reason and reason params, in generation
    order (the legal plays, then a pass when the lead is not free)."""
    legal = legal_plays(view.hand, view.to_beat, view.rules)
    n = len(view.hand)
    finishing = [c for c in legal if len(c.ranks) == n]
    if finishing:
        return [(1e9, finishing[0], "finish_hand", {})]
    counts = counts_of(view.hand)
    base, base_turns, _ = evaluate(counts)
    lead = view.to_beat is None
    opp_min = view.min_opponent_cards()
    partner = view.partner
    scored: list[tuple[float, Combo | None, str, dict[str, str | int]]] = []
    friend_played = not lead and view.is_friend(view.last_seat)  # type: ignore[arg-type]  # not a lead: last_seat is set
    urgent = not lead and not friend_played and opp_min <= 2
    to_beat = view.to_beat
    landlord_next = view.landlord == (view.seat + 1) % 3
    raise_kind = (  # the landlord plays next: make it spend a high card on the partner's low one
        to_beat.kind
        if friend_played and landlord_next and to_beat is not None
        and to_beat.kind in (K.SINGLE, K.PAIR) and to_beat.rank < RAISE_BELOW
        else None
    )
    guard = (  # the partner's play may fall to a landlord about to go out right after us
        friend_played
        and landlord_next
        and view.cards_left[view.landlord] <= 2
        and not view.unbeatable(view.to_beat)  # type: ignore[arg-type]  # not a lead: to_beat is set
    )
    highest = max(c.rank.index for c in view.hand) if lead and opp_min == 1 else -1
    for combo in prune(legal):
        value, rest_turns, _ = evaluate(_remove(counts, combo))
        score = value
        reason = _lead_reason(combo) if lead else "beat_keep_shape"
        params: dict[str, str | int] = {"n": rest_turns} if reason == "lead_fewest_plays" else {}
        top = combo.rank.index
        if rest_turns <= 1 and (lead or not friend_played) and view.unbeatable(combo):
            score += 100
            reason = "bomb_to_win" if combo.is_bomb else "play_control_then_finish"
        elif lead:
            if opp_min == 1 and combo.kind is K.SINGLE:
                score -= 40 - 3 * top
                # every single is scored, only the highest is "your highest single" (a
                # Hint pressed again shows the lower ones: say what they risk)
                reason = "lead_highest_single" if top == highest else "lead_low_single_risky"
            elif opp_min == 2 and combo.kind is K.PAIR:
                score -= 25 - top
            elif opp_min <= 2 and combo.kind not in (K.SINGLE, K.PAIR):
                reason = "lead_avoid_single" if opp_min == 1 else "lead_avoid_pair"
            if (
                partner is not None
                and partner == (view.seat + 1) % 3
                and view.cards_left[partner] <= 2
                and combo.kind is (K.SINGLE if view.cards_left[partner] == 1 else K.PAIR)
            ):
                score += 60 - top
                reason = "feed_partner"
        elif guard:
            score += 40 + (3 * top if combo.kind is K.SINGLE else 0)
            reason = "stop_landlord_one_card" if opp_min == 1 else "stop_opponent_few_cards"
            params["n"] = opp_min
        elif combo.kind is raise_kind and top in RAISE_WITH and value >= base - RAISE_COST:
            score += 60  # above the partner's pass (base + 50): a raise costs < RAISE_COST
            reason = "raise_partner"
        elif friend_played:
            score -= 60
        elif urgent:
            score += 40
            if combo.kind is K.SINGLE:
                score += 3 * top  # the highest single stops a one-card opponent
            if combo.is_bomb:
                reason = "bomb_to_stop"
            elif view.landlord in view.opponents() and not view.is_landlord:
                reason = "stop_landlord_one_card" if opp_min == 1 else "stop_opponent_few_cards"
            else:
                reason = "stop_opponent_few_cards"
            params["n"] = opp_min
        else:
            if combo.is_bomb and rest_turns <= 2:
                score += 10
                reason = "bomb_to_win"
            elif top >= 12 and combo.kind in (K.SINGLE, K.PAIR) and base_turns > 3:
                score -= 3  # keep 2s and jokers for later control
            if value >= base - 1e-9:
                reason = "beat_keep_shape"
        scored.append((score, combo, reason, params))
    if not lead:
        if not legal:
            return [(0.0, None, "pass_cannot_beat", {})]
        pass_score = base - INITIATIVE
        reason = "pass_save_cards"
        if guard:
            pass_score -= 100
        elif friend_played:
            pass_score = base + 50
            reason = "let_partner_win"
        elif urgent:
            pass_score -= 100
        elif all(c.is_bomb for _, c, _, _ in scored if c is not None):
            reason = "keep_bomb_for_control"
        scored.append((pass_score, None, reason, {}))
    return scored


def normal_ranked(view: View) -> list[tuple[float, Decision]]:
    """Every candidate action with its score, best first (ties keep generation order)."""
    ranked = [(score, play(combo, reason, **params))
              for score, combo, reason, params in _scored(view)]
    ranked.sort(key=lambda item: -item[0])
    return ranked


def normal_action(view: View) -> Combo | None:
    """``normal_play(view).action`` without building the decisions and their reasons
    (the hard search's playouts call it for every seat, ``bot.ai.search.rollout``)."""
    best_score, best = -math.inf, None
    for score, combo, _, _ in _scored(view):
        if score > best_score:  # strictly: ties keep generation order, as the sort does
            best_score, best = score, combo
    return best


def scored_actions(view: View) -> list[tuple[float, Combo | None]]:
    """Every candidate action of the normal policy with its score (higher is better), in
    generation order, without the reasons (the hard search's opponent model,
    ``bot.ai.search.erring_action``)."""
    return [(score, combo) for score, combo, _, _ in _scored(view)]


def normal_play(view: View, rng: random.Random | None = None) -> Decision:
    """The normal level's choice: the best-scored candidate of ``normal_ranked``."""
    ranked = normal_ranked(view)
    decision = ranked[0][1]
    if decision.reason == "beat_keep_shape" and view.to_beat is not None:
        legal_same = [c for _, d in ranked if (c := d.combo) is not None]
        combo = decision.combo
        if legal_same and combo == min(legal_same, key=lambda c: (c.is_bomb, c.rank)):
            return play(combo, "beat_with_smallest")
    return decision
