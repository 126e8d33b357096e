"""A puzzle position: every hand face up, whose turn it is, the play to beat.

Spec: docs/RULES.md §Play (seat order, passing, the peasants win together) and
§Puzzles. Two or three hands; with two, the landlord faces one peasant. Moves are
``bot.rules.Combo`` plays from ``legal_plays`` or ``None`` for a pass.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from bot.rules import (
    DECK,
    DEFAULT_RULES,
    Card,
    Combo,
    classify,
    format_cards,
    legal_plays,
    parse_cards,
    parse_ranks,
)

Move = Combo | None
"""A play, or ``None`` for a pass."""
Team = Literal["landlord", "peasants"]
Role = Literal["landlord", "peasant"]


@dataclass(frozen=True)
class Position:
    """All hands face up (2 or 3, in seat order), the landlord's seat, the seat to move
    and the play to beat as ``(seat that made it, combo)`` (``None``: a free lead).

    Play goes ``turn`` → ``(turn + 1) % len(hands)``; when every other seat has passed
    after a play, its maker leads freely (docs/RULES.md §Play). Over once a hand is empty.
    """

    hands: tuple[tuple[Card, ...], ...]
    landlord: int
    turn: int
    last: tuple[int, Combo] | None = None

    def __post_init__(self) -> None:
        n = len(self.hands)
        if n not in (2, 3):
            raise ValueError("a position has 2 or 3 hands")
        if not (0 <= self.landlord < n and 0 <= self.turn < n):
            raise ValueError("landlord and turn are seats of the position")
        if self.last is not None and not 0 <= self.last[0] < n:
            raise ValueError("the play to beat was made by a seat of the position")
        if self.last is not None and self.last[0] == self.turn:
            raise ValueError("a seat never has to beat its own play")
        seen = [card for hand in self.hands for card in hand]
        if len(set(seen)) != len(seen):
            raise ValueError("a card appears twice")

    @classmethod
    def from_text(
        cls,
        hands: Sequence[str],
        landlord: int,
        turn: int,
        last: tuple[int, str] | None = None,
    ) -> Position:
        """A position from docs/RULES.md notation (``"334XD"``), each hand taking the lowest
        suits still free of each rank, then the play to beat (when its ranks are all
        still free, else the lowest suits), read as its highest reading
        (``bot.rules.classify``'s first). Raises ValueError (``CardParseError``
        included) for bad cards or a play that is no combination."""
        pool: list[list[Card]] = [[card for card in DECK if card.rank_index == r]
                                  for r in range(15)]
        parsed: list[tuple[Card, ...]] = []
        for text in hands:
            hand = []
            for rank in parse_ranks(text):
                if not pool[rank.index]:
                    raise ValueError(f"too many cards of rank {rank.symbol}")
                hand.append(pool[rank.index].pop(0))
            parsed.append(tuple(sorted(hand)))
        beat: tuple[int, Combo] | None = None
        if last is not None:
            ranks = parse_ranks(last[1])
            if all(pool[r.index][ranks[:i].count(r):] for i, r in enumerate(ranks)):
                cards = [pool[r.index][ranks[:i].count(r)] for i, r in enumerate(ranks)]
            else:
                cards = parse_cards(last[1])
            readings = classify(cards)
            if not readings:
                raise ValueError(f"not a combination: {last[1]!r}")
            beat = (last[0], readings[0])
        return cls(tuple(parsed), landlord, turn, beat)

    def to_beat(self) -> Combo | None:
        """The play on the table the mover must beat, or None on a free lead."""
        return None if self.last is None else self.last[1]

    def role(self, seat: int) -> Role:
        """``"landlord"`` or ``"peasant"``."""
        return "landlord" if seat == self.landlord else "peasant"

    def cards_in_play(self) -> int:
        """The number of cards left in all hands."""
        return sum(len(hand) for hand in self.hands)

    def text(self) -> str:
        """A one-line description, e.g. ``"L:33 | 4 | 5 ; turn 0 ; beat -"`` (logs, tests)."""
        hands = " | ".join(
            ("L:" if s == self.landlord else "") + format_cards(h) for s, h in enumerate(self.hands)
        )
        beat = "-" if self.last is None else f"{self.last[0]}:{self.last[1].notation}"
        return f"{hands} ; turn {self.turn} ; beat {beat}"


def team_of(pos: Position, seat: int) -> Team:
    """The side of ``seat``: ``"landlord"`` or ``"peasants"`` (docs/RULES.md §Play)."""
    return "landlord" if seat == pos.landlord else "peasants"


def is_over(pos: Position) -> bool:
    """Whether some seat has played its last card."""
    return any(not hand for hand in pos.hands)


def winner(pos: Position) -> Team | None:
    """The team of the seat whose hand is empty, or None while the game goes on."""
    for seat, hand in enumerate(pos.hands):
        if not hand:
            return team_of(pos, seat)
    return None


def legal_moves(pos: Position) -> list[Move]:
    """Every legal move of the seat to move: ``legal_plays`` (docs/RULES.md §Beating a
    play) and, when there is a play to beat, the pass (``None``, last). ``[]`` once over."""
    if is_over(pos):
        return []
    moves: list[Move] = list(legal_plays(pos.hands[pos.turn], pos.to_beat(), DEFAULT_RULES))
    if pos.last is not None:
        moves.append(None)
    return moves


def _take(hand: tuple[Card, ...], combo: Combo) -> tuple[Card, ...] | None:
    """The hand without the combo's cards: the very cards when all are held, else the
    lowest-suit cards of its ranks; None when the ranks are not held."""
    cards = combo.cards
    if all(card in hand for card in cards):
        gone = set(cards)
        return tuple(card for card in hand if card not in gone)
    rest = list(hand)
    for r in combo.ranks:
        for i, card in enumerate(rest):
            if card.rank_index == r:
                del rest[i]
                break
        else:
            return None
    return tuple(rest)


def apply(pos: Position, move: Move) -> Position:
    """The position after the seat to move plays ``move`` (docs/RULES.md §Play).

    A play must be one of ``legal_moves(pos)`` up to suits; a pass is allowed only
    with a play to beat. Raises ValueError for an illegal move or a finished game.
    """
    if is_over(pos):
        raise ValueError("the game is over")
    n = len(pos.hands)
    nxt = (pos.turn + 1) % n
    if move is None:
        if pos.last is None:
            raise ValueError("a free lead cannot pass")
        last = None if pos.last[0] == nxt else pos.last
        return Position(pos.hands, pos.landlord, nxt, last)
    if move not in legal_plays(pos.hands[pos.turn], pos.to_beat(), DEFAULT_RULES):
        raise ValueError(f"not a legal play here: {move.notation}")
    rest = _take(pos.hands[pos.turn], move)
    if rest is None:  # pragma: no cover - legal_plays only offers held ranks
        raise ValueError(f"cards not held: {move.notation}")
    hands = list(pos.hands)
    hands[pos.turn] = rest
    return Position(tuple(hands), pos.landlord, nxt, (pos.turn, move))
