"""View models of replay pages (``/ddz replay``, ``/ddz review``); no ``bot.game`` import.

The caller turns a rebuilt hand (``bot.game.replay``) into these; every field is
what should be drawn, so the renderer makes no game decisions.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from bot.rules.cards import Card

PageKind = Literal["deal", "bidding", "trick"]
LineKind = Literal["bid", "lead", "follow", "pass", "call", "grab", "show", "double"]


@dataclass(frozen=True)
class ReviewMark:
    """One of the member's decisions that lost the most (``rank`` 1..3, 1 = worst).

    ``best``: the hard player's choice (cards; empty = pass); ``best_win`` /
    ``played_win``: estimated win chances in percent (0..100) after each action.
    """

    rank: int
    best: Sequence[Card]
    best_win: int
    played_win: int


@dataclass(frozen=True)
class ReplayLine:
    """One action on a page, in order.

    ``kind``: ``bid`` (``amount`` 0 = pass, 1..3), ``lead`` / ``follow`` (``cards``),
    or ``pass``; under the Happy rules (docs/RULES.md §Happy rules) ``call`` / ``grab``
    (``amount`` 1 yes, 0 no), ``show`` (4 or 2, 0 kept hidden) and ``double`` (1, 2, 4),
    with ``multiplier``, the multiplier G × S after a call, grab or show (0: none drawn).
    ``doubling``: ``bomb`` / ``rocket`` for those plays. ``auto``: the computer acted
    for the seat (timeout or auto-play). ``mark``: review mark.
    """

    seat: int
    kind: LineKind
    cards: Sequence[Card] = ()
    amount: int = 0
    doubling: Literal["bomb", "rocket"] | None = None
    auto: bool = False
    mark: ReviewMark | None = None
    multiplier: int = 0


@dataclass(frozen=True)
class ReplaySeat:
    """A seat on a replay page: ``cards`` it holds at the end of the page (the
    deal page: as dealt)."""

    name: str
    is_landlord: bool = False
    is_computer: bool = False
    cards: Sequence[Card] = ()


@dataclass(frozen=True)
class ReplayPage:
    """One page: 3 ``seats`` in seat order and the ``lines`` of this step.

    * ``kind``: ``deal`` (every hand and the kitty), ``bidding`` (bids, landlord,
      kitty), ``trick`` (``trick`` of ``tricks``).
    * ``hand_number``: the server's hand number; ``page`` / ``pages``: 1-based.
    * ``bid`` / ``multiplier``: the base bid (None before any) and 2^N after the page.
    * ``first_bidder``: seat that spoke first (deal page).
    * ``happy``: a hand under the Happy rules: its bidding page is the call, the grabs,
      the shows and the doubles, and the header names the rules instead of a bid.
    """

    kind: PageKind
    seats: Sequence[ReplaySeat]
    lines: Sequence[ReplayLine] = ()
    kitty: Sequence[Card] = ()
    hand_number: int | None = None
    page: int = 1
    pages: int = 1
    trick: int = 0
    tricks: int = 0
    bid: int | None = None
    multiplier: int = 1
    first_bidder: int = 0
    happy: bool = False
