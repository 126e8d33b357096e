"""A tiny self-play driver on ``bot.rules`` alone (tests and benchmarks).

Deals a hand, fixes the landlord (no bidding), asks each seat's agent for a
play given only its ``Observation``, checks the answer is legal and scores the
result (docs/RULES.md §Play, §Scoring). Not the game engine of the bot (that is
``bot.game``); this exists so the AI can be tested and measured alone.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from bot.ai.decision import Decision
from bot.ai.observation import Observation
from bot.rules import DECK, DEFAULT_RULES, Card, Combo, RuleSet, legal_plays

Agent = Callable[[Observation, random.Random], Decision]
"""An agent: (observation, rng) -> play Decision."""


class IllegalDecision(AssertionError):
    """An agent answered with something ``legal_plays`` does not allow."""


@dataclass
class Outcome:
    """Result of one hand: winning side, points per seat (sum 0) and counters."""

    landlord_won: bool
    points: tuple[int, int, int]
    bombs: int
    spring: bool
    anti_spring: bool
    history: list[tuple[int, Combo | None]] = field(default_factory=list)
    decisions: list[tuple[int, Decision]] = field(default_factory=list)


def deal(rng: random.Random) -> tuple[list[list[Card]], list[Card]]:
    """Shuffle the deck: three 17-card hands and a 3-card kitty (docs/RULES.md §Deal)."""
    deck = list(DECK)
    rng.shuffle(deck)
    return [sorted(deck[i * 17 : (i + 1) * 17]) for i in range(3)], sorted(deck[51:])


def observation_for(
    seat: int,
    hands: Sequence[Sequence[Card]],
    landlord: int,
    kitty: Sequence[Card],
    history: Sequence[tuple[int, Combo | None]],
    last: tuple[int, Combo] | None,
    rules: RuleSet = DEFAULT_RULES,
    base: int = 1,
) -> Observation:
    """What ``seat`` may know in a playing phase (only its own hand of ``hands``)."""
    return Observation(
        seat=seat,
        hand=tuple(hands[seat]),
        phase="playing",
        rules=rules,
        landlord=landlord,
        kitty=tuple(kitty),
        bids=((landlord, base),),
        highest_bid=base,
        history=tuple(history),
        cards_left=(len(hands[0]), len(hands[1]), len(hands[2])),
        last_play=last,
    )


def score(
    landlord: int, landlord_won: bool, base: int, bombs: int, spring: bool, anti_spring: bool
) -> tuple[int, int, int]:
    """Points per seat: P = B × 2^N; landlord ±2P, each peasant ∓P (docs/RULES.md §Scoring)."""
    p = base * 2 ** (bombs + int(spring) + int(anti_spring))
    sign = 1 if landlord_won else -1
    return tuple(2 * p * sign if s == landlord else -p * sign for s in range(3))


def play_hand(
    agents: Sequence[Agent],
    hands: Sequence[Sequence[Card]],
    landlord: int,
    kitty: Sequence[Card],
    rng: random.Random,
    rules: RuleSet = DEFAULT_RULES,
    base: int = 1,
    check: bool = True,
) -> Outcome:
    """Play one hand to the end; the landlord takes the kitty and leads.

    ``agents[s]`` plays seat ``s``. Raises IllegalDecision when an agent
    answers with an illegal play (``check``) or passes on a free lead.
    """
    cards = [list(h) for h in hands]
    cards[landlord] = sorted(cards[landlord] + list(kitty))
    history: list[tuple[int, Combo | None]] = []
    decisions: list[tuple[int, Decision]] = []
    plays = [0, 0, 0]
    bombs = 0
    last: tuple[int, Combo] | None = None
    turn = landlord
    while True:
        obs = observation_for(turn, cards, landlord, kitty, history, last, rules, base)
        decision = agents[turn](obs, rng)
        decisions.append((turn, decision))
        combo = decision.action
        if combo is None:
            if last is None:
                raise IllegalDecision(f"seat {turn} passed on a free lead")
        else:
            if not isinstance(combo, Combo):
                raise IllegalDecision(f"seat {turn} answered {combo!r}")
            if check and combo not in legal_plays(
                cards[turn], None if last is None else last[1], rules
            ):
                raise IllegalDecision(f"seat {turn} played {combo} illegally")
            hand = cards[turn]
            for card in combo.cards:
                hand.remove(card)  # raises ValueError if the card is not held
            plays[turn] += 1
            bombs += combo.is_bomb
            last = (turn, combo)
        history.append((turn, combo))
        if combo is not None and not cards[turn]:
            landlord_won = turn == landlord
            peasants = [s for s in range(3) if s != landlord]
            spring = landlord_won and all(plays[s] == 0 for s in peasants)
            anti = not landlord_won and plays[landlord] == 1
            points = score(landlord, landlord_won, base, bombs, spring, anti)
            return Outcome(landlord_won, points, bombs, spring, anti, history, decisions)
        turn = (turn + 1) % 3
        if last is not None and last[0] == turn:
            last = None  # the other two passed: the table clears
