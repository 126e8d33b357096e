"""A compact playing-phase view used by the policies and the simulator.

``View`` is what a policy needs to pick a play: the seat's own cards, roles,
cards left, the play to beat and the **pool** of cards the other seats may
hold (for card counting). Built from an ``Observation`` (real games) or from a
simulated state (search rollouts). It never holds another seat's cards apart
from that undivided pool.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.ai.observation import Observation
from bot.rules import Card, Combo, RuleSet, legal_plays


@dataclass(frozen=True, slots=True)
class View:
    """One seat's playing state.

    ``last_seat`` is the seat of ``to_beat`` (``None`` on a free lead);
    ``pool`` holds the cards of the other two seats together (order unknown).
    """

    seat: int
    hand: tuple[Card, ...]
    landlord: int
    cards_left: tuple[int, int, int]
    to_beat: Combo | None
    last_seat: int | None
    pool: tuple[Card, ...]
    rules: RuleSet
    landlord_known: tuple[Card, ...] = ()
    """Pool cards certainly held by the landlord: its unplayed kitty cards."""
    history: tuple[tuple[int, Combo | None], ...] = ()
    """The public plays and passes so far (``Observation.history``; empty in the search's
    own playouts): what ``bot.ai.inference`` reads the passes from."""
    face_up: tuple[tuple[int, tuple[Card, ...]], ...] = ()
    """(seat, cards) of every other seat whose hand is face up (the Happy rules' shown
    hands, ``Observation.happy``): pool cards certainly held by that seat."""

    @property
    def is_landlord(self) -> bool:
        return self.seat == self.landlord

    @property
    def partner(self) -> int | None:
        return None if self.is_landlord else 3 - self.seat - self.landlord

    def is_friend(self, seat: int) -> bool:
        """Whether ``seat`` plays on this seat's side."""
        return seat == self.seat or (not self.is_landlord and seat != self.landlord)

    def opponents(self) -> tuple[int, ...]:
        if self.is_landlord:
            return ((self.seat + 1) % 3, (self.seat + 2) % 3)
        return (self.landlord,)

    def min_opponent_cards(self) -> int:
        return min(self.cards_left[s] for s in self.opponents())

    def unbeatable(self, combo: Combo) -> bool:
        """Whether no card set the other seats could hold beats ``combo`` (card counting).

        Conservative for peasants: the pool also holds the partner's cards.
        """
        room = max(self.cards_left[s] for s in self.opponents())
        answers = legal_plays(self.pool, combo, self.rules)
        return all(len(answer.cards) > room for answer in answers)


def view_of(obs: Observation) -> View:
    """The playing view of an Observation (raises ValueError while bidding)."""
    if obs.landlord is None:
        raise ValueError("no landlord yet: the hand is still bidding")
    last_seat, to_beat = obs.last_play if obs.last_play is not None else (None, None)
    if last_seat == obs.seat or to_beat is None:  # our own play came back: a free lead
        last_seat, to_beat = None, None
    return View(
        seat=obs.seat,
        hand=obs.hand,
        landlord=obs.landlord,
        cards_left=obs.cards_left,
        to_beat=to_beat,
        last_seat=last_seat,
        pool=obs.unseen_cards(),
        rules=obs.rules,
        landlord_known=obs.known_cards_of(obs.landlord),
        history=obs.history,
        face_up=() if obs.happy is None else obs.happy.face_up,
    )
