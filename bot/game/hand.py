"""One hand of Dou Dizhu as a pure state machine: deal → bidding → playing → finished.

Spec: docs/RULES.md §Deal, bidding, landlord; §Play; §Scoring. Seats are 0, 1, 2 and
speak in seat order (0 → 1 → 2 → 0). Every action either raises ``GameError``
and changes nothing, or is applied and recorded in ``history``. The model
round-trips through JSON: ``Hand.model_validate_json(h.model_dump_json()) == h``.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Literal

from pydantic import BaseModel, Field

from bot.ai import Observation
from bot.game.deal import deal_cards, deal_from_order, played_order
from bot.game.errors import GameError
from bot.game.models import Action, CardField, HandResult, LastPlay
from bot.rules import (
    DEFAULT_RULES,
    Card,
    CardParseError,
    Combo,
    ComboKind,
    Rank,
    RuleSet,
    classify,
    legal_plays,
    parse_ranks,
    show_cards,
)

Phase = Literal["bidding", "showing", "doubling", "playing", "finished", "redeal"]
"""A hand's phases; ``"showing"`` and ``"doubling"`` only under the Happy rules
(``bot.game.happy``)."""
Cards = str | Sequence[Card] | Combo
"""What ``Hand.play`` accepts: docs/RULES.md notation, a sequence of Cards, or a Combo."""


class Hand(BaseModel):
    """A hand's full state (secret parts included; see ``observation`` for one seat's view).

    * ``phase``: ``"bidding"`` → ``"playing"`` → ``"finished"``, or ``"redeal"``
      when all three pass (then ``redeal()`` gives the next Hand).
    * ``turn``: seat to act, ``None`` when finished or awaiting a redeal.
    * ``dealt``: the three 17-card hands as dealt; ``holdings``: cards held now
      (the landlord's include the kitty); ``kitty``: the 3 bottom cards, secret
      until ``landlord`` is set, public after (docs/RULES.md §Deal).
    * ``winning_bid``: highest bid so far (0 = none); the base B once bidding ends.
    * ``last_play``: what must be beaten, ``None`` on a free lead.
    * ``passes``: consecutive passes since the last play (2 clears the table).
    * ``round_plays``: each seat's last action in the current round (bids while
      bidding; plays/passes since the last free lead), for the table image.
    * ``doublings``: bombs + rockets played (+ spring / anti-spring once finished).
    """

    rules: RuleSet = DEFAULT_RULES
    seed: int | None = None
    first_bidder: int = 0
    redeals: int = 0
    phase: Phase = "bidding"
    turn: int | None = 0
    dealt: list[list[CardField]]
    holdings: list[list[CardField]]
    kitty: list[CardField]
    landlord: int | None = None
    winning_bid: int = 0
    high_bidder: int | None = None
    history: list[Action] = Field(default_factory=list)
    last_play: LastPlay | None = None
    passes: int = 0
    round_plays: list[Action | None] = Field(default_factory=lambda: [None, None, None])  # type: ignore[arg-type]  # list[None] is a list[Action | None]
    doublings: int = 0
    bombs: int = 0
    rockets: int = 0
    result: HandResult | None = None

    # ----- construction ------------------------------------------------------

    @classmethod
    def deal(
        cls,
        rules: RuleSet = DEFAULT_RULES,
        *,
        seed: int | None = None,
        first_bidder: int | None = None,
        hands: Sequence[str | Sequence[Card]] | None = None,
        kitty: str | Sequence[Card] | None = None,
        redeals: int = 0,
        order: Sequence[Card] | None = None,
    ) -> Hand:
        """Deal a new hand (docs/RULES.md §Deal).

        ``hands is None``: shuffle with ``random.Random(seed)`` (a fresh random
        seed is drawn and stored when ``seed is None``), or, given ``order`` (the
        previous hand's ``next_order()``), deal it without shuffling
        (docs/RULES.md §No-shuffle deals, ``deal_from_order``). Otherwise ``hands`` are
        three 17-card hands in docs/RULES.md notation (suits assigned so that all 54
        cards are distinct) and ``kitty`` the 3 bottom cards (default: the rest
        of the deck). ``first_bidder`` (0..2) is drawn from the seeded RNG when
        ``None``. Raises ValueError on an impossible fixed deal.
        """
        if seed is None and hands is None:
            seed = random.SystemRandom().getrandbits(63)
        rng = random.Random(seed)
        if order is not None and hands is None:
            dealt, bottom = deal_from_order(rng, order)
        else:
            dealt, bottom = deal_cards(rng, hands, kitty)
        if first_bidder is None:
            first_bidder = rng.randrange(3)
        if first_bidder not in (0, 1, 2):
            raise ValueError(f"first_bidder must be 0, 1 or 2, not {first_bidder}")
        return cls(
            rules=rules,
            seed=seed,
            first_bidder=first_bidder,
            redeals=redeals,
            turn=first_bidder,
            dealt=[list(h) for h in dealt],
            holdings=[list(h) for h in dealt],
            kitty=list(bottom),
        )

    def copy_for_change(self) -> Hand:
        """A copy that the actions may change without touching this Hand: equal to a deep
        copy, sharing only immutable values (Cards, Actions, the rule set, the result).
        Every mutable field is a list, copied here; keep it so when adding one
        (tests/game/test_table_copy.py checks it)."""
        return self.model_copy(update={
            "dealt": [list(cards) for cards in self.dealt],
            "holdings": [list(cards) for cards in self.holdings],
            "kitty": list(self.kitty),
            "history": list(self.history),
            "round_plays": list(self.round_plays),
        })

    def redeal(self, *, seed: int | None = None) -> Hand:
        """The next Hand after all three passed: new shuffle, the next seat bids first.

        ``seed``: default derived from this hand's seed (random if it had none).
        ``redeals`` counts consecutive redeals. Raises GameError("wrong_phase").
        """
        if self.phase != "redeal":
            raise GameError("wrong_phase", phase=self.phase)
        if seed is None and self.seed is not None:
            seed = random.Random(self.seed).getrandbits(63)
        return type(self).deal(
            self.rules, seed=seed, first_bidder=(self.first_bidder + 1) % 3,
            redeals=self.redeals + 1,
        )

    # ----- derived state -------------------------------------------------------

    @property
    def to_beat(self) -> Combo | None:
        """The combo the seat to play must beat; ``None`` on a free lead."""
        return None if self.last_play is None else self.last_play.combo

    def next_order(self) -> list[Card]:
        """The 54 cards in the order a no-shuffle table deals its next hand from
        (docs/RULES.md §No-shuffle deals, ``bot.game.deal.played_order``)."""
        plays = [a.cards for a in self.history if a.kind == "play"]
        return played_order(plays, self.holdings, self.kitty if self.landlord is None else ())

    def to_beat_for(self, seat: int) -> Combo | None:
        """What ``seat`` must beat: ``None`` on a free lead, and while the table still
        shows ``seat``'s own play (it leads again if both others pass)."""
        last = self.last_play
        return None if last is None or last.seat == seat else last.combo

    @property
    def multiplier(self) -> int:
        """2 ** doublings."""
        return int(2**self.doublings)

    @property
    def bids(self) -> list[tuple[int, int]]:
        """Bidding so far as (seat, amount), amount 0 = pass."""
        return [(a.seat, a.amount or 0) for a in self.history if a.kind == "bid"]

    def cards_left(self, seat: int) -> int:
        """Number of cards ``seat`` holds."""
        return len(self.holdings[seat])

    def hand_of(self, seat: int) -> list[Card]:
        """A copy of the cards ``seat`` holds, low→high."""
        return sorted(self.holdings[seat])

    def plays_made(self, seat: int) -> int:
        """How many plays (not passes) ``seat`` has made (docs/RULES.md §Scoring, spring)."""
        return sum(1 for a in self.history if a.kind == "play" and a.seat == seat)

    def allowed_bids(self, seat: int) -> list[int]:
        """Bids ``seat`` may make now: 0 (pass) and every amount above the highest bid."""
        if self.phase != "bidding" or self.turn != seat:
            return []
        return [0] + [b for b in (1, 2, 3) if b > self.winning_bid]

    def legal_plays(self, seat: int) -> list[Combo]:
        """Plays ``seat`` could make against the current table (``[]`` outside play)."""
        if self.phase != "playing":
            return []
        return legal_plays(self.holdings[seat], self.to_beat_for(seat), self.rules)

    def readings_for(self, seat: int, cards: Sequence[Card]) -> list[Combo]:
        """The readings of ``cards`` that ``seat`` may play now, in ``classify`` order
        (longest body, then highest body rank, first): every reading on a free lead,
        else those that beat ``to_beat_for(seat)``. ``[]`` for no cards or none
        playable. Does not check turn or ownership (docs/RULES.md §Several readings)."""
        if not cards:
            return []
        readings = classify(cards, self.rules)
        to_beat = self.to_beat_for(seat)
        if to_beat is None:
            return readings
        return [combo for combo in readings if combo.beats(to_beat)]

    def observation(self, seat: int) -> Observation:
        """What ``seat`` may know (docs/AI.md): never others' cards.

        The kitty appears only once the landlord is known; ``history`` holds the
        plays and passes as (seat, Combo | None).
        """
        self._check_seat(seat)
        return Observation(
            seat=seat,
            hand=tuple(self.holdings[seat]),
            phase="bidding" if self.phase in ("bidding", "redeal") else "playing",
            rules=self.rules,
            landlord=self.landlord,
            kitty=tuple(self.kitty) if self.landlord is not None else None,
            bids=tuple(self.bids),
            highest_bid=self.winning_bid,
            history=tuple((a.seat, a.combo) for a in self.history if a.kind in ("play", "pass")),
            cards_left=(self.cards_left(0), self.cards_left(1), self.cards_left(2)),
            last_play=None if self.last_play is None else (self.last_play.seat, self.to_beat),  # type: ignore[arg-type]  # to_beat is set with last_play
        )

    # ----- actions ---------------------------------------------------------------

    def bid(self, seat: int, amount: int, *, auto: bool = False) -> Action:
        """``seat`` bids ``amount`` (0 = pass, 1..3) (docs/RULES.md §Deal, bidding, landlord).

        A bid must be above the highest so far; 3 ends bidding at once. With
        ``rules.bidding == "once"`` bidding ends after three decisions, with
        ``"until_two_passes"`` after two passes in a row follow the last bid.
        All pass → phase ``"redeal"``. The highest bidder becomes landlord, takes
        the kitty and leads. Raises GameError: wrong_phase, bad_seat,
        not_your_turn, invalid_bid, bid_too_low.
        """
        self._check_turn(seat, "bidding")
        if isinstance(amount, bool) or amount not in (0, 1, 2, 3):
            raise GameError("invalid_bid", amount=str(amount))
        if amount and amount <= self.winning_bid:
            raise GameError("bid_too_low", amount=amount, highest=self.winning_bid)
        action = Action(kind="bid", seat=seat, amount=amount, auto=auto)
        self.history.append(action)
        self.round_plays[seat] = action
        if amount:
            self.winning_bid, self.high_bidder = amount, seat
        bids = self.bids
        if amount == 3:
            done = True
        elif self.rules.bidding == "once" or self.high_bidder is None:
            done = len(bids) == 3
        else:
            done = len(bids) >= 3 and bids[-1][1] == 0 and bids[-2][1] == 0
        if not done:
            self.turn = (seat + 1) % 3
        elif self.high_bidder is None:
            self.phase, self.turn = "redeal", None
        else:
            landlord = self.high_bidder
            self.landlord = landlord
            self.holdings[landlord] = sorted(self.holdings[landlord] + self.kitty)
            self.phase, self.turn = "playing", landlord
            self.round_plays = [None, None, None]
        return action

    def play(
        self, seat: int, cards: Cards, reading: int | Combo | None = None, *, auto: bool = False
    ) -> Action:
        """``seat`` plays ``cards`` (docs/RULES.md §Play, §Beating a play).

        ``cards``: docs/RULES.md notation (cards of those ranks are taken from the
        seat's hand), Cards, or a Combo (which also gives the reading).
        ``reading``: among the readings that beat the table (all readings on a
        free lead), an index or a Combo with the same reading; default the first
        (longest body, then highest rank). Bombs and the rocket add a doubling.
        Playing the last card ends the hand and scores it. Raises GameError:
        wrong_phase, bad_seat, not_your_turn, bad_cards, no_cards,
        cards_not_in_hand, not_a_combination, does_not_beat, bad_reading.
        """
        self._check_turn(seat, "playing")
        if isinstance(cards, Combo):
            reading = cards if reading is None else reading
            cards = cards.cards
        chosen = self._take(seat, cards)
        readings = self.readings_for(seat, chosen)
        to_beat = self.to_beat_for(seat)
        if not readings:
            if to_beat is None or not classify(chosen, self.rules):
                raise GameError("not_a_combination", cards=show_cards(chosen))
            raise GameError("does_not_beat", cards=show_cards(chosen),
                            to_beat=show_cards(to_beat.notation))
        combo = _pick(readings, reading)

        played = set(combo.cards)
        self.holdings[seat] = [card for card in self.holdings[seat] if card not in played]
        action = Action(kind="play", seat=seat, combo=combo, auto=auto)
        self.history.append(action)
        if to_beat is None:
            self.round_plays = [None, None, None]
        self.round_plays[seat] = action
        self.last_play = LastPlay(seat=seat, combo=combo)
        self.passes = 0
        if combo.kind is ComboKind.BOMB:
            self.bombs += 1
            self.doublings += 1
        elif combo.kind is ComboKind.ROCKET:
            self.rockets += 1
            self.doublings += 1
        if self.holdings[seat]:
            self.turn = (seat + 1) % 3
        else:
            self._finish(seat)
        return action

    def pass_turn(self, seat: int, *, auto: bool = False) -> Action:
        """``seat`` passes (docs/RULES.md §Play). While bidding this is ``bid(seat, 0)``.

        After two passes in a row the table clears and the last player leads.
        Raises GameError: wrong_phase, bad_seat, not_your_turn, cannot_pass_lead.
        """
        if self.phase == "bidding":
            return self.bid(seat, 0, auto=auto)
        self._check_turn(seat, "playing")
        if self.last_play is None:
            raise GameError("cannot_pass_lead")
        action = Action(kind="pass", seat=seat, auto=auto)
        self.history.append(action)
        self.round_plays[seat] = action
        self.passes += 1
        if self.passes == 2:
            self.last_play, self.passes = None, 0
        self.turn = (seat + 1) % 3
        return action

    @property
    def awaiting(self) -> bool:
        """Whether someone must decide now (a seat's turn, or a decision all seats make
        at once): what the table's timer runs for."""
        return self.turn is not None

    def asked(self, seat: int) -> str | None:
        """What ``seat`` is asked now: ``"bid"`` or ``"play"`` on its turn, else None.
        A rule set with other decisions names them (``bot.game.happy``)."""
        if self.turn != seat:
            return None
        return "bid" if self.phase == "bidding" else "play" if self.phase == "playing" else None

    def pending(self) -> list[int]:
        """The seats that must decide now: the seat to act, if any."""
        return [] if self.turn is None else [self.turn]

    def decide(self, kind: str, seat: int, amount: int, *, auto: bool = False) -> Action:
        """A decision before the play, by kind: here only ``"bid"`` (``bid``). Raises
        GameError: wrong_phase for a kind this rule set does not have, and ``bid``'s."""
        if kind != "bid":
            raise GameError("wrong_phase", phase=self.phase)
        return self.bid(seat, amount, auto=auto)

    def time_out(self) -> list[Action]:
        """The timer ran out on a decision all seats make at once; the classic game has
        none. Raises GameError("wrong_phase")."""
        raise GameError("wrong_phase", phase=self.phase)

    def apply(self, action: Action) -> None:
        """Apply a stored history entry again (a replay), through the same checks.
        Raises GameError when it is illegal here. A rule set with decisions of its own
        extends it (``bot.game.happy.HappyHand``)."""
        if action.kind == "bid":
            self.bid(action.seat, action.amount or 0, auto=action.auto)
        elif action.kind == "pass":
            self.pass_turn(action.seat, auto=action.auto)
        elif action.kind == "play" and action.combo is not None:
            self.play(action.seat, action.combo, auto=action.auto)
        else:
            raise GameError("bad_cards", token="")

    # ----- internals -----------------------------------------------------------

    def _check_seat(self, seat: int) -> None:
        if isinstance(seat, bool) or seat not in (0, 1, 2):
            raise GameError("bad_seat", seat=str(seat))

    def _check_turn(self, seat: int, phase: Phase) -> None:
        self._check_seat(seat)
        if self.phase != phase:
            raise GameError("wrong_phase", phase=self.phase)
        if self.turn != seat:
            raise GameError("not_your_turn", turn=-1 if self.turn is None else self.turn)

    def _take(self, seat: int, cards: str | Sequence[Card]) -> list[Card]:
        """The cards of ``seat``'s hand that ``cards`` names; raises GameError."""
        held = self.holdings[seat]
        if isinstance(cards, str):
            try:
                jokers = {c.rank for c in held if c.rank_index >= 13}
                ranks = parse_ranks(cards, jokers.pop() if len(jokers) == 1 else None)
            except CardParseError as error:
                if error.reason == "which joker":
                    raise GameError("which_joker") from None
                raise GameError("bad_cards", token=error.token) from None
            _check_deck(ranks)
            pool = sorted(held)
            chosen: list[Card] = []
            for rank in ranks:
                card = next((c for c in pool if c.rank is rank), None)
                if card is None:
                    raise GameError("cards_not_in_hand", cards=show_cards(ranks))
                pool.remove(card)
                chosen.append(card)
        else:
            chosen = list(cards)
            if any(not isinstance(c, Card) for c in chosen):
                raise GameError("bad_cards", token=str(cards))
            if len(set(chosen)) != len(chosen) or not set(chosen) <= set(held):
                raise GameError("cards_not_in_hand", cards=show_cards(chosen))
        if not chosen:
            raise GameError("no_cards")
        return chosen

    def _finish(self, out_seat: int) -> None:
        """Score the hand (docs/RULES.md §Scoring): P = B × 2^N, landlord ±2P, peasants ∓P."""
        landlord = self.landlord
        assert landlord is not None
        landlord_won = out_seat == landlord
        peasant_plays = sum(self.plays_made(s) for s in range(3) if s != landlord)
        spring = landlord_won and peasant_plays == 0
        anti_spring = not landlord_won and self.plays_made(landlord) == 1
        self.doublings += int(spring) + int(anti_spring)
        self.result = self._score(out_seat, landlord_won, spring, anti_spring)
        self.phase, self.turn = "finished", None

    def _score(self, out_seat: int, landlord_won: bool, spring: bool,
               anti_spring: bool) -> HandResult:
        """The result of the classic rules: ``P = B × 2^N``, landlord ±2P, peasants ∓P
        (``doublings`` already counts the spring). A rule set scores its own way here."""
        landlord = self.landlord
        assert landlord is not None
        p = self.winning_bid * 2**self.doublings
        sign = 1 if landlord_won else -1
        points = tuple(sign * (2 * p if s == landlord else -p) for s in range(3))
        return HandResult(
            winner="landlord" if landlord_won else "peasants",
            landlord=landlord,
            out_seat=out_seat,
            base=self.winning_bid,
            doublings=self.doublings,
            bombs=self.bombs,
            rockets=self.rockets,
            spring=spring,
            anti_spring=anti_spring,
            points=points,
        )


def _pick(readings: list[Combo], reading: int | Combo | None) -> Combo:
    """Choose one of ``readings`` (non-empty); raises GameError("bad_reading")."""
    if reading is None:
        return readings[0]
    if isinstance(reading, Combo):
        for combo in readings:
            if combo.reading == reading.reading:
                return combo
        raise GameError("bad_reading", reading=reading.kind.value)
    if isinstance(reading, int) and not isinstance(reading, bool) and 0 <= reading < len(readings):
        return readings[reading]
    raise GameError("bad_reading", reading=str(reading))


def _check_deck(ranks: Sequence[Rank]) -> None:
    """Refuse typed cards no deck holds (docs/RULES.md §Notation: four of each rank, one
    small joker and one big joker): ``XX`` or ``DD`` raises GameError ``joker_twice``,
    ``33333`` ``rank_too_often``. Before, a member holding the small joker who typed ``XX``
    read "You don't hold small joker small joker."."""
    counts = Counter(ranks)
    if any(count > 1 for rank, count in counts.items() if rank.index >= 13):
        raise GameError("joker_twice")
    if any(count > 4 for count in counts.values()):
        raise GameError("rank_too_often")
