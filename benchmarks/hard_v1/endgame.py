"""Exact solver for small perfect-information endgames (used by the hard level).

Given all three hands (a determinization), whose turn it is and the play to
beat, decide whether the landlord's side wins with best play by both sides
(docs/RULES.md §Play: the peasants win together). Moves come from
``bot.rules.legal_plays``; suits never matter, so hands are kept as sorted
rank-index tuples and mapped to canonical cards. A node budget bounds the
work: ``solve`` returns ``None`` when it runs out.
"""

from __future__ import annotations

from typing import Any

from bot.rules import DECK, DEFAULT_RULES, Card, Combo, RuleSet, legal_plays

_CANON: list[list[Card]] = [[card for card in DECK if card.rank.index == r] for r in range(15)]

Hand = tuple[int, ...]
"""A hand as sorted rank indices (0 = ``3`` … 14 = big joker)."""


def ranks_of(cards: list[Card] | tuple[Card, ...]) -> Hand:
    """The sorted rank indices of some cards."""
    return tuple(sorted(card.rank.index for card in cards))


def cards_of(hand: Hand) -> list[Card]:
    """Canonical cards for a rank-index hand (lowest suits first)."""
    out: list[Card] = []
    i = 0
    while i < len(hand):
        r = hand[i]
        j = i
        while j < len(hand) and hand[j] == r:
            j += 1
        out.extend(_CANON[r][: j - i])
        i = j
    return out


class _OutOfBudget(Exception):
    pass


class Solver:
    """Memoized boolean minimax: does the landlord win from this state?"""

    def __init__(self, landlord: int, rules: RuleSet = DEFAULT_RULES, budget: int = 20_000) -> None:
        self.landlord = landlord
        self.rules = rules
        self.budget = budget
        self.nodes = 0
        self.memo: dict[tuple[Any, ...], bool] = {}
        self.moves: dict[tuple[Hand, tuple[Any, ...] | None], list[tuple[Combo, Hand]]] = {}

    def solve(
        self, hands: tuple[Hand, Hand, Hand], turn: int, last: tuple[int, Combo] | None
    ) -> bool | None:
        """True/False = the landlord wins/loses with best play; None = budget exhausted."""
        try:
            return self._wins(hands, turn, last)
        except _OutOfBudget:
            return None

    def _children(self, hand: Hand, to_beat: Combo | None) -> list[tuple[Combo, Hand]]:
        key = (hand, None if to_beat is None else (to_beat.reading, len(to_beat.cards)))
        hit = self.moves.get(key)
        if hit is not None:
            return hit
        out = []
        for combo in legal_plays(cards_of(hand), to_beat, self.rules):
            rest = list(hand)
            for card in combo.cards:
                rest.remove(card.rank.index)
            out.append((combo, tuple(rest)))
        out.sort(key=lambda item: len(item[1]))  # bigger plays first: faster cut-offs
        self.moves[key] = out
        return out

    def _wins(
        self, hands: tuple[Hand, Hand, Hand], turn: int, last: tuple[int, Combo] | None
    ) -> bool:
        key = (
            hands,
            turn,
            None if last is None else (last[0], last[1].reading, len(last[1].cards)),
        )
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        self.nodes += 1
        if self.nodes > self.budget:
            raise _OutOfBudget
        maximizing = turn == self.landlord
        nxt = (turn + 1) % 3
        result = not maximizing
        for combo, rest in self._children(hands[turn], None if last is None else last[1]):
            if not rest:
                result = maximizing
                break
            child = list(hands)
            child[turn] = rest
            win = self._wins(tuple(child), nxt, (turn, combo))  # type: ignore[arg-type]  # a play here: combo is not None
            if win == maximizing:
                result = maximizing
                break
        else:
            if last is not None:
                after = None if last[0] == nxt else last
                win = self._wins(hands, nxt, after)
                if win == maximizing:
                    result = maximizing
        self.memo[key] = result
        return result
