"""A hand under the Happy rules (欢乐斗地主), docs/RULES.md §Happy rules.

``HappyHand`` is the classic ``Hand`` with its own decisions before the play and its
own score: call and grab instead of bids (``bot.rules.happy.auction``), show hand at
the deal (×4) or by the landlord after the kitty (×2), simultaneous doubling
(×1/×2/×4), and each peasant's stake capped and settled against the landlord
(``bot.rules.happy.stake``). The play itself is the classic one. Every decision is an
``Action`` of ``history`` (kinds ``call``, ``grab``, ``show``, ``double``), and all the
Happy state is read off it, so a HappyHand's JSON has the classic Hand's fields.

Phases: ``"bidding"`` (shows at the deal, then calls and grabs) → ``"showing"`` (the
landlord shows or not; skipped when its hand is shown already or S is 4) →
``"doubling"`` (no turn: every seat chooses, ``end_doubling`` when the timer runs out)
→ ``"playing"`` → ``"finished"``; ``"redeal"`` when nobody calls.
"""

from __future__ import annotations

import dataclasses
import random

from pydantic import ConfigDict

from bot.ai import Observation
from bot.ai.observation import HappyState
from bot.game.errors import GameError
from bot.game.hand import Hand
from bot.game.models import Action, HandResult
from bot.rules.happy import (
    DOUBLES,
    SHOW_AFTER_KITTY,
    SHOW_AT_DEAL,
    Auction,
    Stake,
    auction,
    settle,
    show_factor,
    stake,
)

HAPPY_BASE = 1
"""The Happy rules' base stake (docs/RULES.md §Happy rules, settlement)."""


class HappyResult(HandResult):
    """A finished Happy hand's score: the classic fields (``base`` 1, ``doublings`` N,
    ``points``) and the factors of the stakes.

    * ``grab`` G, ``show`` S, ``doubles`` each seat's doubling factor (1, 2, 4);
    * ``cap``: the table's cap (None: none);
    * ``raw``: each peasant's uncapped product G·S·2^N·f_L·f_i, ``stakes`` the capped
      one times the base (0 for the landlord's seat).
    """

    model_config = ConfigDict(frozen=True)

    grab: int
    show: int
    doubles: tuple[int, int, int]
    cap: int | None
    raw: tuple[int, int, int]
    stakes: tuple[int, int, int]

    def stake(self, seat: int) -> Stake:
        """Peasant ``seat``'s Stake (its factors, for the result's line). Raises
        ValueError for the landlord's seat."""
        if seat == self.landlord:
            raise ValueError("the landlord has no stake of its own")
        return stake(self.grab, self.show, self.doublings, self.doubles[self.landlord],
                     self.doubles[seat], self.cap, self.base)


class HappyHand(Hand):
    """A hand under the Happy rules (module docstring). ``winning_bid`` is the base (1)
    once the landlord is known; ``high_bidder`` the landlord so far while grabbing."""

    result: HappyResult | None = None

    # ----- derived state -----------------------------------------------------------

    @property
    def auction(self) -> Auction:
        """Calling and grabbing so far (``bot.rules.happy.auction``)."""
        decisions = [(a.seat, bool(a.amount)) for a in self.history if a.kind in ("call", "grab")]
        return auction(self.opener, decisions)

    @property
    def opener(self) -> int:
        """The seat that speaks first in the call: the first to show at the deal, else
        ``first_bidder``."""
        for action in self.history:
            if action.kind == "show":
                return action.seat
            if action.kind in ("call", "grab"):
                break
        return self.first_bidder

    @property
    def shows(self) -> tuple[int, int, int]:
        """Each seat's show factor (4 at the deal, 2 after the kitty, 0 not shown)."""
        made = [0, 0, 0]
        for action in self.history:
            if action.kind == "show" and action.amount:
                made[action.seat] = action.amount
        return made[0], made[1], made[2]

    @property
    def shown(self) -> list[int]:
        """The seats whose hand is face up for everyone until the hand ends."""
        return [seat for seat, factor in enumerate(self.shows) if factor]

    @property
    def show_factor(self) -> int:
        """S: the largest show made (1 for none)."""
        return show_factor([factor for factor in self.shows if factor])

    @property
    def grab_factor(self) -> int:
        """G = 2 ** grabs."""
        return self.auction.grab_factor

    @property
    def doubles(self) -> tuple[int | None, int | None, int | None]:
        """Each seat's doubling factor (1, 2, 4), None until it chose."""
        made: list[int | None] = [None, None, None]
        for action in self.history:
            if action.kind == "double":
                made[action.seat] = action.amount
        return made[0], made[1], made[2]

    @property
    def multiplier(self) -> int:
        """What every stake is multiplied by so far, before the doubles: G × S × 2^N."""
        return self.grab_factor * self.show_factor * int(2**self.doublings)

    def stake_of(self, seat: int) -> Stake:
        """Peasant ``seat``'s stake as things stand (a double not chosen counts ×1).
        Raises ValueError before the landlord is known or for the landlord's seat."""
        if self.landlord is None or seat == self.landlord:
            raise ValueError("a stake is a peasant's, once the landlord is known")
        doubles = [factor or 1 for factor in self.doubles]
        return stake(self.grab_factor, self.show_factor, self.doublings,
                     doubles[self.landlord], doubles[seat], self.rules.cap, HAPPY_BASE)

    @property
    def awaiting(self) -> bool:
        """A seat's turn, or the doubling, which all three decide at once."""
        return self.turn is not None or self.phase == "doubling"

    def asked(self, seat: int) -> str | None:
        """``"call"``, ``"grab"``, ``"show"`` (the landlord after the kitty), ``"double"``
        (a seat that has not doubled yet) or ``"play"``; None when nothing is asked."""
        if self.phase == "doubling":
            return "double" if seat in self.pending() else None
        if self.turn != seat:
            return None
        if self.phase == "bidding":
            return self.auction.stage if self.auction.stage in ("call", "grab") else None
        return {"showing": "show", "playing": "play"}.get(self.phase)

    def pending(self) -> list[int]:
        """The seat to act, or while doubling every seat that has not chosen."""
        if self.phase == "doubling":
            return [seat for seat, factor in enumerate(self.doubles) if factor is None]
        return super().pending()

    def decide(self, kind: str, seat: int, amount: int, *, auto: bool = False) -> Action:
        """``"bid"``/``"call"``/``"grab"`` (1 yes, 0 no: whichever the seat is asked),
        ``"show"`` (any amount but 0 shows, at the deal or after the kitty; 0: the landlord
        keeps the hand hidden) or ``"double"`` (1, 2, 4). Raises GameError as the
        method of each."""
        if kind in ("bid", "call", "grab"):
            return self.bid(seat, amount, auto=auto)
        if kind == "show":
            return self.show(seat, auto=auto) if amount else self.keep_hidden(seat, auto=auto)
        if kind == "double":
            return self.double(seat, amount, auto=auto)
        raise GameError("wrong_phase", phase=self.phase)

    def time_out(self) -> list[Action]:
        """The doubling timer ran out: ``end_doubling``."""
        return self.end_doubling()

    def observation(self, seat: int) -> Observation:
        """``Hand.observation`` with the cards the other seats hold face up (``shown``)
        and the Happy decisions so far (``happy``: calls, grabs, shows, the doubles this
        seat may know: its own, the others' once all three chose)."""
        obs = super().observation(seat)
        face_up = tuple(card for other in self.shown if other != seat
                        for card in self.holdings[other])
        doubles = [factor or 0 for factor in self.doubles]
        if self.phase == "doubling":
            doubles = [factor if other == seat else 0 for other, factor in enumerate(doubles)]
        state = HappyState(
            first=self.opener,
            calls=tuple((a.seat, a.amount or 0) for a in self.history
                        if a.kind in ("call", "grab")),
            shows=self.shows, doubles=(doubles[0], doubles[1], doubles[2]),
            face_up=tuple((other, tuple(self.holdings[other])) for other in self.shown
                          if other != seat))
        return dataclasses.replace(obs, shown=face_up, happy=state)

    def allowed_bids(self, seat: int) -> list[int]:
        """0 (Don't call / Don't grab) and 1 (Call / Grab) for the seat to speak."""
        if self.phase != "bidding" or self.turn != seat:
            return []
        return [0, 1]

    def may_show(self, seat: int) -> bool:
        """Whether ``seat`` may show its hand now: at the deal before any call (not
        shown yet), or as the landlord deciding after the kitty."""
        if seat not in (0, 1, 2):
            return False
        if self.phase == "bidding":
            return not self._spoken() and not self.shows[seat]
        return self.phase == "showing" and self.turn == seat

    # ----- actions ---------------------------------------------------------------------

    def call(self, seat: int, yes: bool, *, auto: bool = False) -> Action:
        """``seat`` says Call (``yes``) or Don't call. Raises GameError: bad_seat,
        wrong_phase (not calling now), not_your_turn."""
        self._check_turn(seat, "bidding")
        if self.auction.stage != "call":
            raise GameError("wrong_phase", phase=self.phase)
        return self._speak(Action(kind="call", seat=seat, amount=int(bool(yes)), auto=auto))

    def grab(self, seat: int, yes: bool, *, auto: bool = False) -> Action:
        """``seat`` says Grab (``yes``) or Don't grab; every grab doubles. Raises
        GameError: bad_seat, wrong_phase (nobody called yet), not_your_turn (a seat
        that said Don't call never grabs: it is never its turn)."""
        self._check_turn(seat, "bidding")
        if self.auction.stage != "grab":
            raise GameError("wrong_phase", phase=self.phase)
        return self._speak(Action(kind="grab", seat=seat, amount=int(bool(yes)), auto=auto))

    def bid(self, seat: int, amount: int, *, auto: bool = False) -> Action:
        """A bid button under the Happy rules: 1 = Call or Grab, 0 = Don't, whichever
        the seat is asked now. Raises GameError as ``call``/``grab``, invalid_bid."""
        if isinstance(amount, bool) or amount not in (0, 1):
            raise GameError("invalid_bid", amount=str(amount))
        self._check_turn(seat, "bidding")
        if self.auction.stage == "grab":
            return self.grab(seat, bool(amount), auto=auto)
        return self.call(seat, bool(amount), auto=auto)

    def show(self, seat: int, *, auto: bool = False) -> Action:
        """``seat`` shows its hand: at the deal before any call (×4; the first seat to
        show speaks first), or as the landlord after taking the kitty (×2). Raises
        GameError: bad_seat, wrong_phase (a call was made, or the hand is already
        shown, or the play began), not_your_turn (a peasant after the kitty)."""
        self._check_seat(seat)
        if self.phase == "bidding":
            if self._spoken() or self.shows[seat]:
                raise GameError("wrong_phase", phase=self.phase)
            first = not any(self.shows)
            action = Action(kind="show", seat=seat, amount=SHOW_AT_DEAL, auto=auto)
            self.history.append(action)
            if first:
                self.turn = seat
            return action
        self._check_turn(seat, "showing")
        action = Action(kind="show", seat=seat, amount=SHOW_AFTER_KITTY, auto=auto)
        self.history.append(action)
        self._start_doubling()
        return action

    def keep_hidden(self, seat: int, *, auto: bool = False) -> Action:
        """The landlord, after taking the kitty, does not show. Raises GameError:
        bad_seat, wrong_phase, not_your_turn."""
        self._check_turn(seat, "showing")
        action = Action(kind="show", seat=seat, amount=0, auto=auto)
        self.history.append(action)
        self._start_doubling()
        return action

    def pass_turn(self, seat: int, *, auto: bool = False) -> Action:
        """Don't call / Don't grab while bidding, don't show as the landlord, else a
        pass in play (``Hand.pass_turn``)."""
        if self.phase == "showing":
            return self.keep_hidden(seat, auto=auto)
        return super().pass_turn(seat, auto=auto)

    def double(self, seat: int, factor: int, *, auto: bool = False) -> Action:
        """``seat`` doubles by ``factor``: 1 (no), 2 (加倍) or 4 (超级加倍), all three at
        the same time; the last choice starts the play, the landlord leading. Raises
        GameError: bad_seat, wrong_phase (not doubling, or this seat already chose),
        invalid_bid (another factor)."""
        self._check_seat(seat)
        if self.phase != "doubling" or self.doubles[seat] is not None:
            raise GameError("wrong_phase", phase=self.phase)
        if isinstance(factor, bool) or factor not in DOUBLES:
            raise GameError("invalid_bid", amount=str(factor))
        action = Action(kind="double", seat=seat, amount=factor, auto=auto)
        self.history.append(action)
        self.round_plays[seat] = action
        if all(choice is not None for choice in self.doubles):
            self._start_play()
        return action

    def end_doubling(self) -> list[Action]:
        """The turn timer ran out while doubling: every seat that has not chosen doubles
        ×1 (recorded as automatic), and the play starts. Raises GameError: wrong_phase."""
        if self.phase != "doubling":
            raise GameError("wrong_phase", phase=self.phase)
        return [self.double(seat, 1, auto=True)
                for seat, choice in enumerate(self.doubles) if choice is None]

    def redeal(self, *, seed: int | None = None) -> Hand:
        """The next hand after nobody called: a new shuffle, the seat after the one that
        spoke first starts. Raises GameError("wrong_phase")."""
        if self.phase != "redeal":
            raise GameError("wrong_phase", phase=self.phase)
        if seed is None and self.seed is not None:
            seed = random.Random(self.seed).getrandbits(63)
        return type(self).deal(self.rules, seed=seed, first_bidder=(self.opener + 1) % 3,
                               redeals=self.redeals + 1)

    def apply(self, action: Action) -> None:
        """Apply a stored history entry again, the Happy decisions included."""
        if action.kind in ("call", "grab"):
            (self.call if action.kind == "call" else self.grab)(
                action.seat, bool(action.amount), auto=action.auto)
        elif action.kind == "show":
            if action.amount:
                self.show(action.seat, auto=action.auto)
            else:
                self.keep_hidden(action.seat, auto=action.auto)
        elif action.kind == "double":
            self.double(action.seat, action.amount or 0, auto=action.auto)
        else:
            super().apply(action)

    # ----- internals -------------------------------------------------------------------

    def _spoken(self) -> bool:
        """Whether any seat called or grabbed (or declined) yet."""
        return any(a.kind in ("call", "grab") for a in self.history)

    def _speak(self, action: Action) -> Action:
        self.history.append(action)
        self.round_plays[action.seat] = action
        state = self.auction
        if state.stage == "redeal":
            self.phase, self.turn = "redeal", None
        elif state.stage == "done":
            assert state.landlord is not None
            landlord = state.landlord
            self.landlord = self.high_bidder = landlord
            self.winning_bid = HAPPY_BASE
            self.holdings[landlord] = sorted(self.holdings[landlord] + self.kitty)
            self.round_plays = [None, None, None]
            if self.shows[landlord] or self.show_factor >= SHOW_AT_DEAL:
                self._start_doubling()
            else:
                self.phase, self.turn = "showing", landlord
        else:
            self.turn, self.high_bidder = state.turn, state.landlord  # None until a call
        return action

    def _start_doubling(self) -> None:
        self.phase, self.turn = "doubling", None
        self.round_plays = [None, None, None]

    def _start_play(self) -> None:
        self.phase, self.turn = "playing", self.landlord
        self.round_plays = [None, None, None]

    def _score(self, out_seat: int, landlord_won: bool, spring: bool,
               anti_spring: bool) -> HappyResult:
        """Each peasant's capped stake, settled against the landlord."""
        landlord = self.landlord
        assert landlord is not None
        doubles = tuple(factor or 1 for factor in self.doubles)
        stakes: list[Stake | None] = [
            None if seat == landlord else self.stake_of(seat) for seat in range(3)]
        points = settle(landlord, landlord_won, stakes)
        raw = tuple(0 if s is None else s.raw for s in stakes)
        capped = tuple(0 if s is None else s.points for s in stakes)
        return HappyResult(
            winner="landlord" if landlord_won else "peasants", landlord=landlord,
            out_seat=out_seat, base=HAPPY_BASE, doublings=self.doublings, bombs=self.bombs,
            rockets=self.rockets, spring=spring, anti_spring=anti_spring, points=points,
            grab=self.grab_factor, show=self.show_factor,
            doubles=(doubles[0], doubles[1], doubles[2]), cap=self.rules.cap,
            raw=(raw[0], raw[1], raw[2]), stakes=(capped[0], capped[1], capped[2]),
        )  # fmt: skip
