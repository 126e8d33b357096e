"""The Happy rules' arithmetic and call-and-grab order (docs/RULES.md §Happy rules).

Pure values and functions, no state: ``auction`` reads who speaks next and who is
landlord off the decisions so far; ``settle`` turns the hand's factors into each
peasant's stake and the three point changes. ``bot.game.happy.HappyHand`` plays a
hand with them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

SHOW_AT_DEAL = 4
"""Show factor of a hand shown at the deal, before any call (明牌开始)."""
SHOW_AFTER_KITTY = 2
"""Show factor of the landlord's hand shown after taking the kitty (明牌)."""
DOUBLES = (1, 2, 4)
"""A seat's doubling choices: no double, double (加倍), super double (超级加倍)."""
MAX_GRABS = 3

Stage = Literal["call", "grab", "done", "redeal"]


@dataclass(frozen=True)
class Auction:
    """Where calling and grabbing stand.

    * ``stage``: ``"call"`` (seats say Call or Don't call), ``"grab"`` (Grab or Don't
      grab), ``"done"`` (``landlord`` known) or ``"redeal"`` (nobody called).
    * ``turn``: the seat to speak (None once done or redealing).
    * ``caller``: the seat that called; ``landlord``: the last seat that grabbed, else
      the caller, once done (while grabbing: the landlord so far).
    * ``grabs``: grabs made; the grab factor is ``2 ** grabs``.
    * ``declined``: the seats that said Don't call (they never grab).
    """

    stage: Stage
    turn: int | None
    caller: int | None
    landlord: int | None
    grabs: int
    declined: frozenset[int]

    @property
    def grab_factor(self) -> int:
        """G = 2 ** grabs (1, 2, 4 or 8)."""
        return int(2**self.grabs)


def auction(first: int, decisions: Sequence[tuple[int, bool]]) -> Auction:
    """The auction after ``decisions``, each ``(seat, yes)`` in the order spoken, from
    ``first`` (the seat that speaks first).

    Calling goes round from ``first`` until a seat calls (yes) or all three decline
    (``"redeal"``). After a call, each other seat that has not declined, in seat order
    from the caller, grabs (yes) or not, once; if one grabbed, the caller speaks once
    more. Raises ValueError when a decision is not by the seat to speak, or comes
    after the auction is over.
    """
    if first not in (0, 1, 2):
        raise ValueError(f"first must be 0, 1 or 2, not {first}")
    declined: set[int] = set()
    caller: int | None = None
    seat = first
    index = 0
    while caller is None:
        if len(declined) == 3:
            if index < len(decisions):
                raise ValueError("a decision after all three declined")
            return Auction("redeal", None, None, None, 0, frozenset(declined))
        if index == len(decisions):
            return Auction("call", seat, None, None, 0, frozenset(declined))
        speaker, yes = decisions[index]
        if speaker != seat:
            raise ValueError(f"seat {speaker} spoke in seat {seat}'s turn")
        index += 1
        if yes:
            caller = seat
        else:
            declined.add(seat)
            seat = (seat + 1) % 3
    order = [s for s in ((caller + 1) % 3, (caller + 2) % 3) if s not in declined]
    landlord, grabs = caller, 0
    for position, speaker in enumerate(order + [caller]):
        if position == len(order) and grabs == 0:
            break  # nobody grabbed: the caller does not speak again
        if index == len(decisions):
            return Auction("grab", speaker, caller, landlord, grabs, frozenset(declined))
        said, yes = decisions[index]
        if said != speaker:
            raise ValueError(f"seat {said} spoke in seat {speaker}'s turn")
        index += 1
        if yes:
            landlord, grabs = speaker, grabs + 1
    if index < len(decisions):
        raise ValueError("a decision after the landlord is known")
    return Auction("done", None, caller, landlord, grabs, frozenset(declined))


def show_factor(shows: Sequence[int]) -> int:
    """S: the largest show factor made (``SHOW_AT_DEAL`` or ``SHOW_AFTER_KITTY``), 1 for none."""
    return max(shows, default=1)


@dataclass(frozen=True)
class Stake:
    """One peasant's stake against the landlord: its factors and the capped product.

    ``grab`` G, ``show`` S, ``doublings`` N (bombs and rockets played, plus a spring or
    anti-spring), ``landlord_double`` f_L, ``double`` f_i; ``raw`` = G·S·2^N·f_L·f_i,
    ``cap`` the cap (None: none) and ``points`` = base × min(raw, cap).
    """

    grab: int
    show: int
    doublings: int
    landlord_double: int
    double: int
    raw: int
    cap: int | None
    points: int

    @property
    def capped(self) -> bool:
        """Whether the cap cut the product."""
        return self.cap is not None and self.raw > self.cap


def stake(grab: int, show: int, doublings: int, landlord_double: int, double: int,
          cap: int | None, base: int = 1) -> Stake:
    """A peasant's ``Stake``: ``base × min(G·S·2^N·f_L·f_i, cap)`` (docs/RULES.md §Happy
    rules, settlement). Raises ValueError on a factor the rules do not have."""
    if grab not in (1, 2, 4, 8) or show not in (1, SHOW_AFTER_KITTY, SHOW_AT_DEAL):
        raise ValueError(f"no such grab or show factor: {grab}, {show}")
    if landlord_double not in DOUBLES or double not in DOUBLES or doublings < 0:
        raise ValueError(f"no such doubling: {landlord_double}, {double}, N={doublings}")
    raw = grab * show * 2**doublings * landlord_double * double
    limited = raw if cap is None else min(raw, cap)
    return Stake(grab, show, doublings, landlord_double, double, raw, cap, base * limited)


def settle(landlord: int, landlord_won: bool, stakes: Sequence[Stake | None]
           ) -> tuple[int, int, int]:
    """The three seats' point changes: ``stakes`` by seat (None for the landlord's).

    Landlord wins: each peasant loses its stake and the landlord gains their sum;
    peasants win: the reverse. The changes sum to zero.
    """
    sign = 1 if landlord_won else -1
    points = [0, 0, 0]
    for seat in range(3):
        if seat == landlord:
            continue
        peasant = stakes[seat]
        if peasant is None:
            raise ValueError(f"peasant seat {seat} has no stake")
        points[seat] = -sign * peasant.points
        points[landlord] += sign * peasant.points
    return points[0], points[1], points[2]
