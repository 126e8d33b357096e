"""Plain view models the renderers draw (no dependency on ``bot.game``).

The caller builds these from its own state; every field is already what
should be shown (names, counts), so rendering makes no game decisions.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from bot.rules.cards import Card

LastAction = None | Literal["pass"] | Sequence[Card]
DoublingKind = Literal["bomb", "rocket", "spring", "anti_spring"]


@dataclass(frozen=True)
class SeatView:
    """One seat on the table image.

    ``last_action``: None (nothing yet this round), ``"pass"``, or the cards
    played in this round. ``cards_left`` of 2 or 1 shows a warning. ``bid``:
    this seat's latest bid of the hand (None = not spoken yet, 0 = pass, 1-3);
    drawn in the last-action slot while ``TableView.bidding``. ``to_beat``: its play
    of this round is the one the seat to act must beat (marked "to beat");
    ``last_tag``: that play is a bomb or the rocket (tagged with its doubling).

    Under the Happy rules (docs/RULES.md §Happy rules): ``shown``, the cards the seat
    holds face up (明牌), drawn in a strip under its row and marked ``shown_label``;
    ``said``, its latest call or grab in the reader's words ("Grab", "Don't call"),
    drawn in the last-action slot while ``TableView.bidding`` (``said_yes``: gold, else
    grey); ``asking``: what the seat is asked now in the reader's words ("to grab", "to
    double"), drawn "▶ to grab" in place of "to bid" / "to play".
    """

    name: str
    is_landlord: bool = False
    cards_left: int = 17
    last_action: LastAction = None
    is_turn: bool = False
    is_computer: bool = False
    bid: int | None = None
    to_beat: bool = False
    last_tag: Literal["bomb", "rocket"] | None = None
    shown: Sequence[Card] | None = None
    shown_label: str = ""
    said: str | None = None
    said_yes: bool = False
    asking: str | None = None


@dataclass(frozen=True)
class TableView:
    """The public table: exactly 3 seats in seat order.

    ``bid``: 0-3 or None before any bid; ``multiplier``: the current 2^N
    (1, 2, 4, …); ``kitty``: the 3 bottom cards once revealed, None while
    hidden; ``status``: a one-line, already localized plain-text status (no
    Markdown: it is drawn as is); ``bidding``: the hand is still in bidding, so
    the seat to act reads "to bid" and each seat shows its ``bid``; ``rules``: the
    table's rule set named in the reader's language ("Happy, cap ×64"), drawn in the
    bid's place for a rule set without bids (docs/RULES.md §Happy rules), else None.
    """

    seats: Sequence[SeatView]
    bid: int | None = None
    multiplier: int = 1
    kitty: Sequence[Card] | None = None
    status: str = ""
    hand_number: int | None = None
    bidding: bool = False
    rules: str | None = None


@dataclass(frozen=True)
class SeatResult:
    """One seat on the result image: ``change`` and ``total`` in points (``total`` None:
    not in the match ledger — a computer, or a member who used ``/ddz forget`` — and
    no total is drawn)."""

    name: str
    is_landlord: bool
    change: int
    total: int | None
    remaining: Sequence[Card] = ()


@dataclass(frozen=True)
class ResultView:
    """A settled hand (docs/RULES.md §Scoring): ``points`` is P = bid × 2^len(doublings).

    ``doublings``: (kind, seat name or None) per doubling, in play order, e.g.
    ``[("bomb", "Ana"), ("rocket", "Bo"), ("spring", None)]``.
    ``match_winners``: names that reached the match target with this hand.
    ``stakes``: under the Happy rules, each peasant's stake as its line of factors, in the
    reader's language ("Bo: grab ×4 · bombs ×2 = 8", docs/RULES.md §Happy rules), drawn
    instead of the bid and the formula P = B × 2^N; empty for a classic hand.
    """

    winner: Literal["landlord", "peasants"]
    bid: int
    points: int
    seats: Sequence[SeatResult]
    doublings: Sequence[tuple[DoublingKind, str | None]] = ()
    hand_number: int | None = None
    match_winners: Sequence[str] = field(default_factory=tuple)
    stakes: Sequence[str] = field(default_factory=tuple)
