"""What one seat may know about a hand: the only input of the computer players.

Spec: docs/AI.md §Public API (a computer sees only what a player in its seat
may see), docs/RULES.md §Deal (the kitty is shown to everyone).
An ``Observation`` never holds another seat's cards; the unseen cards are
derived as "deck − own hand − cards already played − (kitty if it is ours)".
Seats are 0, 1, 2 and play goes in seat order: 0 → 1 → 2 → 0.
"""

from __future__ import annotations

import operator
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Literal

from bot.rules import DECK, DEFAULT_RULES, Card, Combo, RuleSet
from bot.rules.happy import Auction, auction

Phase = Literal["bidding", "playing"]
_INDEX = operator.attrgetter("index")
_RANK_INDEX: tuple[int, ...] = tuple(card.rank_index for card in DECK)
"""The rank index (0..14) of each card id (0..53)."""
_FULL_COUNTS: tuple[int, ...] = (4,) * 13 + (1, 1)
"""Cards of each rank in a deck: four of 3 … 2, one of each joker."""
Play = tuple[int, Combo | None]
"""One step of the play history: (seat, combo played, or None for a pass)."""


@dataclass(frozen=True)
class HappyState:
    """What every seat sees of the Happy rules' decisions before the play (docs/RULES.md
    §Happy rules), for ``Observation.happy``.

    * ``first``: the seat that spoke first in the call (the first to show at the deal,
      else the dealt first speaker).
    * ``calls``: the calls and grabs in the order spoken, as (seat, 1 = call/grab,
      0 = don't); ``bot.rules.happy.auction(first, calls)`` reads them.
    * ``shows``: each seat's show factor (4 at the deal, 2 after the kitty, 0 not shown).
    * ``doubles``: each seat's doubling factor as far as this seat knows it (its own once
      chosen, the others' once all three chose and the play began), 0 = not known.
    * ``face_up``: (seat, cards it still holds) of every *other* seat whose hand is
      face up: known cards, not hidden (the searches deal the unseen cards around them).
    """

    first: int
    calls: tuple[tuple[int, int], ...] = ()
    shows: tuple[int, int, int] = (0, 0, 0)
    doubles: tuple[int, int, int] = (0, 0, 0)
    face_up: tuple[tuple[int, tuple[Card, ...]], ...] = ()

    def auction(self, upto: int | None = None) -> Auction:
        """``bot.rules.happy.auction`` of the calls and grabs (the first ``upto`` of them)."""
        return auction(self.first, [(seat, bool(yes)) for seat, yes in self.calls[:upto]])

    @property
    def grabs(self) -> int:
        """Grabs made so far (the grab factor is 2 ** grabs)."""
        return self.auction().grabs

    @property
    def show_factor(self) -> int:
        """S so far: the largest show made (1 for none)."""
        return max([factor for factor in self.shows if factor], default=1)

    def face_up_of(self, seat: int) -> tuple[Card, ...]:
        """The cards ``seat`` holds face up (empty when its hand is hidden)."""
        return next((cards for s, cards in self.face_up if s == seat), ())


@dataclass(frozen=True)
class Observation:
    """One seat's view of a hand (immutable; build it with keyword arguments).

    * ``seat``: 0..2, the observing seat.
    * ``hand``: the seat's own cards (sorted low→high on construction).
    * ``phase``: ``"bidding"`` or ``"playing"``.
    * ``rules``: the table's RuleSet.
    * ``landlord``: landlord seat, ``None`` while bidding.
    * ``kitty``: the 3 bottom cards once revealed (public), else ``None``.
    * ``bids``: bidding history as (seat, amount) with amount 0 = pass.
    * ``highest_bid``: current highest bid (0 = none yet).
    * ``history``: plays and passes since the landlord was fixed, in order,
      as (seat, Combo) or (seat, None) for a pass.
    * ``cards_left``: cards held by seats 0, 1, 2.
    * ``last_play``: (seat, Combo) that must be beaten, or ``None`` = free lead.
    * ``shown``: the cards other seats hold face up (the Happy rules' 明牌, docs/RULES.md
      §Happy rules): seen, so the card counter leaves them out.
    * ``happy``: the Happy rules' decisions so far and whose cards are face up
      (``HappyState``); None under the classic rules.

    Raises ValueError on an impossible shape (bad seat, hand size ≠ cards_left).
    """

    seat: int
    hand: tuple[Card, ...]
    phase: Phase = "playing"
    rules: RuleSet = DEFAULT_RULES
    landlord: int | None = None
    kitty: tuple[Card, ...] | None = None
    bids: tuple[tuple[int, int], ...] = ()
    highest_bid: int = 0
    history: tuple[Play, ...] = ()
    cards_left: tuple[int, int, int] = (17, 17, 17)
    last_play: tuple[int, Combo] | None = None
    shown: tuple[Card, ...] = ()
    happy: HappyState | None = None
    _unseen: tuple[Card, ...] = field(default=(), init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.seat not in (0, 1, 2):
            raise ValueError(f"seat must be 0, 1 or 2, not {self.seat}")
        hand = tuple(sorted(self.hand, key=_INDEX))  # Card order is index order, sorted in C
        object.__setattr__(self, "hand", hand)
        if self.kitty is not None:
            object.__setattr__(self, "kitty", tuple(sorted(self.kitty, key=_INDEX)))
        if self.shown:
            object.__setattr__(self, "shown", tuple(sorted(self.shown, key=_INDEX)))
        object.__setattr__(self, "bids", tuple([(int(s), int(a)) for s, a in self.bids]))
        object.__setattr__(self, "history", tuple([(int(s), c) for s, c in self.history]))
        object.__setattr__(self, "cards_left", tuple([int(n) for n in self.cards_left]))
        if self.last_play is not None:
            object.__setattr__(self, "last_play", (int(self.last_play[0]), self.last_play[1]))
        if len(self.cards_left) != 3:
            raise ValueError("cards_left needs three counts")
        if len(self.hand) != self.cards_left[self.seat]:
            raise ValueError(
                f"hand has {len(self.hand)} cards but cards_left says {self.cards_left[self.seat]}"
            )
        if len({card.index for card in hand}) != len(hand):
            raise ValueError("a card appears twice in the hand")

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled with its cards as card ids (``_from_wire``): a ranking or hint request
        crosses a worker process's pipe without one ``Card.__reduce__`` call per card
        (docs/PERFORMANCE.md §Workers). Combos pickle compactly on their own."""
        return (_from_wire, (self.seat, _ids(self.hand), self.phase, self.rules, self.landlord,
                             None if self.kitty is None else _ids(self.kitty), self.bids,
                             self.highest_bid, self.history, self.cards_left, self.last_play,
                             _ids(self.shown), self.happy))

    # ----- roles -------------------------------------------------------------

    @property
    def is_landlord(self) -> bool:
        """Whether the observing seat is the landlord."""
        return self.landlord == self.seat

    @property
    def next_seat(self) -> int:
        """The seat that speaks after this one."""
        return (self.seat + 1) % 3

    @property
    def prev_seat(self) -> int:
        """The seat that spoke before this one."""
        return (self.seat + 2) % 3

    @property
    def partner(self) -> int | None:
        """The other peasant's seat when this seat is a peasant, else ``None``."""
        if self.landlord is None or self.is_landlord:
            return None
        return 3 - self.seat - self.landlord

    def is_friend(self, seat: int) -> bool:
        """Whether ``seat`` is on this seat's side (itself or its partner)."""
        return seat == self.seat or (seat != self.landlord and not self.is_landlord)

    def opponents(self) -> tuple[int, ...]:
        """The seats playing against this one (the peasants, or the landlord)."""
        if self.landlord is None:
            return ()
        if self.is_landlord:
            return tuple(s for s in range(3) if s != self.seat)
        return (self.landlord,)

    # ----- card counting -----------------------------------------------------

    @property
    def to_beat(self) -> Combo | None:
        """The combo to beat, or ``None`` on a free lead (also when our own play came back)."""
        if self.last_play is None or self.last_play[0] == self.seat:
            return None
        return self.last_play[1]

    def played_cards(self) -> tuple[Card, ...]:
        """Every card played so far by any seat (public), low→high."""
        out: list[Card] = []
        for _, combo in self.history:
            if combo is not None:
                out.extend(combo.cards)
        return tuple(sorted(out))

    def played_by(self, seat: int) -> tuple[Card, ...]:
        """The cards ``seat`` has played so far, low→high."""
        out: list[Card] = []
        for s, combo in self.history:
            if s == seat and combo is not None:
                out.extend(combo.cards)
        return tuple(sorted(out))

    def unseen_cards(self) -> tuple[Card, ...]:
        """Cards this seat cannot see: held by the other two seats (order unknown)."""
        if self._unseen:
            return self._unseen
        known = set(self.hand) | set(self.played_cards())
        unseen = tuple(card for card in DECK if card not in known)
        object.__setattr__(self, "_unseen", unseen)
        return unseen

    def still_out(self) -> tuple[int, ...]:
        """The card counter (记牌器, docs/RULES.md §Card counter): for each of the 15
        ranks (``Rank.index`` order, 3 … 2, X, D), how many cards this seat has not
        seen — not in its hand, not played, not a kitty card once the kitty is
        public (everyone saw it turned up), and not in a hand shown face up (``shown``). Only this Observation is read, so it never
        counts a card the seat could not have seen. Counted on card ids (ints), not
        Card objects: every redraw of a view with the counter needs it."""
        seen = {card.index for card in self.hand}
        for _, combo in self.history:
            if combo is not None:
                seen.update([card.index for card in combo.cards])
        if self.kitty is not None:
            seen.update([card.index for card in self.kitty])
        seen.update([card.index for card in self.shown])
        counts = list(_FULL_COUNTS)
        for index in seen:
            counts[_RANK_INDEX[index]] -= 1
        return tuple(counts)

    def known_cards_of(self, seat: int) -> tuple[Card, ...]:
        """Cards certainly held by another seat: the landlord's unplayed kitty cards, and
        every card of a hand held face up (``happy.face_up``)."""
        if seat == self.seat:
            return ()
        face_up = self.happy.face_up_of(seat) if self.happy is not None else ()
        if face_up:
            return face_up
        if self.kitty is None or seat != self.landlord:
            return ()
        played = set(self.played_by(seat))
        return tuple(card for card in self.kitty if card not in played)


def make_observation(
    *,
    seat: int,
    hand: Iterable[Card],
    cards_left: Iterable[int],
    phase: Phase = "playing",
    rules: RuleSet = DEFAULT_RULES,
    landlord: int | None = None,
    kitty: Iterable[Card] | None = None,
    bids: Iterable[tuple[int, int]] = (),
    highest_bid: int = 0,
    history: Iterable[Play] = (),
    last_play: tuple[int, Combo] | None = None,
) -> Observation:
    """Build an Observation from any iterables (lists are converted to tuples)."""
    return Observation(
        seat=seat,
        hand=tuple(hand),
        phase=phase,
        rules=rules,
        landlord=landlord,
        kitty=None if kitty is None else tuple(kitty),
        bids=tuple(bids),
        highest_bid=highest_bid,
        history=tuple(history),
        cards_left=tuple(cards_left),  # type: ignore[arg-type]  # three counts, one per seat
        last_play=last_play,
    )


def _ids(cards: Iterable[Card]) -> bytes:
    return bytes([card.index for card in cards])


def _from_wire(seat: int, hand: bytes, phase: Phase, rules: RuleSet, landlord: int | None,
               kitty: bytes | None, bids: tuple[tuple[int, int], ...], highest_bid: int,
               history: tuple[Play, ...], cards_left: tuple[int, int, int],
               last_play: tuple[int, Combo] | None, shown: bytes = b"",
               happy: HappyState | None = None) -> Observation:
    """The Observation that ``Observation.__reduce__`` pickled (checked again on the way in)."""
    return Observation(seat=seat, hand=tuple([DECK[i] for i in hand]), phase=phase, rules=rules,
                       landlord=landlord, kitty=None if kitty is None else tuple([DECK[i] for i in kitty]),
                       bids=bids, highest_bid=highest_bid, history=history, cards_left=cards_left,
                       last_play=last_play, shown=tuple([DECK[i] for i in shown]),
                       happy=happy)
