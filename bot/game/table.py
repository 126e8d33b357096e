"""A channel's table: three seats, the lobby, the current Hand, deadlines and ``seq``.

Pure (no discord, no clock): methods that set deadlines take ``now`` (clock
seconds, from the service's injectable clock). Every accepted action bumps
``seq`` and returns a list of ``Event`` for the listeners; every refused action
raises ``GameError`` and changes nothing.
Spec: docs/RULES.md §A hand at the table (lobby, timers, leaving, result).

Stale clicks (docs/RULES.md §Out-of-date buttons): a button drawn at ``seq`` S is
still valid while ``move_seq <= S <= seq``. ``move_seq`` moves only with what a click
can depend on: the hand (deal, bid, play, pass, stop), its phase, whose turn it is,
the play to beat, any seat's cards, and the lobby's seats. Turning auto-play on or
off, leaving a hand (a computer takes the seat over) and coming back change none of
these, so they bump ``seq`` only and leave everyone's buttons valid. A double click
still applies once: the first click moved ``move_seq`` past the second one's ``seq``.

Decisions: any seated member may start a hand or play again; only the
starter or an admin may stop a hand or cancel the table; when the starter
leaves the lobby, the next seated member becomes starter.

Auto-play and leaving (docs/RULES.md §Timers, issue 26): auto-play a member chose
lasts across deals until they turn it off or leave; auto-play from timeouts lasts
into the next deal, and a seat that played a whole hand on it is **released** at
Play again, like the seat of a member who left during a hand. A member who left is
free (``holds`` is False) as soon as that hand is over. A released seat goes to a
computer or stays empty for someone to Join, as the starter chose in the lobby
(``fill``).
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import ClassVar, Literal, Self

from pydantic import BaseModel, ConfigDict, Field, JsonValue, model_validator

from bot.ai import LEVELS, Level
from bot.game.errors import GameError
from bot.game.hand import Cards, Hand
from bot.game.models import Action, ShowThen
from bot.game.seat import (
    AUTOPLAY_AFTER_TIMEOUTS,
    PACE_MAX,
    PACE_MIN,
    Event,
    Seat,
    computer_seat,
)
from bot.game.table_upgrade import upgraded
from bot.game.variants import AnyHand, hand_type
from bot.rules import DEFAULT_RULES, Card, Combo, RuleSet

TablePhase = Literal["lobby", "playing", "finished", "closed"]
Fill = Literal["computer", "wait"]
"""What Play again does with a released seat: give it to a computer of the table's
``computer_level``, or free it and wait in the lobby for someone to Join."""
FILLS: tuple[Fill, ...] = ("computer", "wait")


def _new_id() -> str:
    return secrets.token_hex(4)


class Table(BaseModel):
    """A table's full state; ``Table.model_validate_json(t.model_dump_json()) == t``.

    ``deadline``: clock seconds by which the seat to act must act (None when
    nobody must). ``hand_no`` counts hands dealt here; ``hand_id`` names the
    current one for exactly-once settlement. ``computer_level``: the level of the
    computers added by ``/ddz start`` and, by default, by "Add computer" (stored
    tables without it load as "normal"). ``move_seq``: the ``seq`` after the last
    change a click can depend on (see the module docstring; stored tables
    without it load with ``move_seq = seq``). ``fill``: what Play again does with a
    released seat (``Fill``; the starter's lobby choice, default a computer).
    ``given_up``: the ``released`` events' params of the last Play again, kept until the
    next one, so the public message says whose seat was given up for the whole hand
    (a fast hand's redraws would lose an event's line).
    """

    id: str = Field(default_factory=_new_id)
    guild_id: int
    channel_id: int
    starter_id: int
    seats: list[Seat] = Field(default_factory=lambda: [Seat(), Seat(), Seat()])
    phase: TablePhase = "lobby"
    hand: AnyHand | None = None
    hand_no: int = 0
    seq: int = 0
    move_seq: int = 0
    deadline: float | None = None
    rules: RuleSet = DEFAULT_RULES
    message_id: int | None = None
    turn_seconds_play: float = 60.0
    turn_seconds_bid: float = 30.0
    computer_level: Level = "normal"
    kind: str = Field(default="table", exclude_if=lambda value: value == "table")
    """What the service and the cogs key a kind's handling by: ``"table"`` at a channel's
    table, else the kind of table a feature deals (registered by that feature with
    ``TableService.register``; its ``TablePayload.KIND``). Left out of the JSON at a
    channel's table."""
    private: bool = Field(default=False, exclude_if=lambda value: not value)
    """A member's private table (a feature's private deal): in no channel, no public
    message, computers answering the position alone (``bot.game.private``); left out of the
    JSON when False."""
    feature_deals: bool = Field(default=False, exclude_if=lambda value: not value)
    """Its feature deals its hands (``deal_next``), never Play again (refused with
    ``<kind>_table``), and its seats stay its members' between hands too: one who leaves
    goes on auto-play. Left out of the JSON when False."""
    feature_hands: int = Field(default=0, exclude_if=lambda value: not value)
    """How many hands its feature deals here (``feature_deals``: a round's, say), 0 when
    open-ended or not known (a table saved before): the result of the last one says the
    table closes. Left out of the JSON when 0."""
    feature: dict[str, JsonValue] = Field(default_factory=dict,
                                          exclude_if=lambda value: not value)
    """The payload of the feature whose table this is, opaque to the game: the feature reads
    and writes it through its own ``TablePayload``. Left out of the JSON when empty."""
    fill: Fill = "computer"
    given_up: list[dict[str, str | int]] = Field(default_factory=list)
    chosen: dict[str, str] = Field(default_factory=dict, exclude_if=lambda value: not value)
    """What the starter chose for this table over the server's rules (``/ddz start``):
    ``variant`` (``"classic"``/``"happy"``) and ``deal`` (``"shuffled"``/``"no-shuffle"``);
    ``rules_for`` merges it into the server's before every hand. Left out of the JSON
    when empty."""
    @model_validator(mode="before")
    @classmethod
    def _upgrade_stored_tables(cls, data: object) -> object:
        """Tables stored by older code: without ``move_seq`` (it loads as ``seq``), and with
        a field per feature (``bot.game.table_upgrade``)."""
        if not isinstance(data, dict):
            return data
        if "move_seq" not in data and "seq" in data:
            data = {**data, "move_seq": data["seq"]}
        return upgraded(data)

    # ----- construction and queries ---------------------------------------------

    def copy_for_change(self) -> Table:
        """A copy that the actions may change without touching this Table (what
        ``TableService`` applies a change to before committing it): equal to a deep
        copy, ~10× cheaper mid-hand; seats and the hand are copied, immutable values
        shared (``Hand.copy_for_change``)."""
        return self.model_copy(update={
            "seats": [seat.model_copy() for seat in self.seats],
            "given_up": list(self.given_up),
            "chosen": dict(self.chosen),
            "feature": dict(self.feature),
            "hand": None if self.hand is None else self.hand.copy_for_change(),
        })

    @classmethod
    def open(
        cls,
        guild_id: int,
        channel_id: int,
        user_id: int,
        name: str,
        locale: str | None = None,
        *,
        computers: int = 0,
        level: Level = "normal",
        rules: RuleSet = DEFAULT_RULES,
        turn_seconds_play: float = 60.0,
        turn_seconds_bid: float = 30.0,
        chosen: dict[str, str] | None = None,
    ) -> Table:
        """A lobby with the starter in seat 0 and ``computers`` (0..2) computer seats of
        ``level`` (also remembered as ``computer_level``); ``chosen``: the table's own
        rule set and deal over ``rules`` (``Table.chosen``). Raises ValueError (a
        pydantic ValidationError for a choice that is no rule set or deal)."""
        if not 0 <= computers <= 2:
            raise ValueError("computers must be 0, 1 or 2")
        chosen = {key: value for key, value in (chosen or {}).items() if value is not None}
        table = cls(
            guild_id=guild_id, channel_id=channel_id, starter_id=user_id,
            rules=rules_for(rules, chosen), chosen=chosen,
            turn_seconds_play=turn_seconds_play, turn_seconds_bid=turn_seconds_bid,
            computer_level=level,
        )
        table.seats[0] = Seat(user_id=user_id, name=name, locale=locale)
        for i in range(1, computers + 1):
            table.seats[i] = computer_seat(i, level)
        return table

    @property
    def hand_id(self) -> str:
        """``"<table id>:<hand_no>"``, the settlement key of the current hand."""
        return f"{self.id}:{self.hand_no}"

    @property
    def turn_seat(self) -> int | None:
        """The seat that must act now, or None."""
        if self.phase != "playing" or self.hand is None:
            return None
        return self.hand.turn

    @property
    def computer_to_act(self) -> bool:
        """Whether the seat to act is played by the computer (computer or autoplay)."""
        seat = self.turn_seat
        return seat is not None and self.seats[seat].automatic

    @property
    def settleable(self) -> bool:
        """A finished hand with a result (a stopped hand is not settled)."""
        return self.phase == "finished" and self.hand is not None and self.hand.result is not None

    def is_current(self, seq: int) -> bool:
        """Whether a component drawn at ``seq`` still acts on the current state: nothing
        it can depend on changed since (``move_seq <= seq <= self.seq``)."""
        return self.move_seq <= seq <= self.seq

    def seat_of(self, user_id: int) -> int | None:
        """The seat index of ``user_id``, or None."""
        for i, seat in enumerate(self.seats):
            if seat.user_id == user_id:
                return i
        return None

    def holds(self, user_id: int) -> bool:
        """Whether the member counts as seated here (one table per member per server):
        in a seat, unless they left during a hand that is over now (docs/RULES.md §Timers)."""
        index = self.seat_of(user_id)
        return index is not None and not (self.phase == "finished" and self.seats[index].away)

    def released_seats(self) -> list[int]:
        """Seats Play again releases: members who left during the hand, and members whose
        seat played the whole hand on auto-play from timeouts (none outside ``finished``)."""
        if self.phase != "finished":
            return []
        return [
            i for i, seat in enumerate(self.seats)
            if seat.user_id is not None and (seat.away or (
                seat.autoplay and seat.timeout_hand is not None
                and seat.timeout_hand < self.hand_no))
        ]

    def expired(self, now: float) -> bool:
        """Whether the turn deadline has passed at clock time ``now``."""
        return self.deadline is not None and now >= self.deadline

    # ----- lobby -----------------------------------------------------------------

    def join(
        self, user_id: int, name: str, locale: str | None = None, *, seq: int | None = None
    ) -> list[Event]:
        """Take the first empty seat (lobby or after a hand), or take back one's seat.

        Raises GameError: table_closed, stale, already_seated, wrong_phase, table_full.
        """
        self._check_open(seq)
        index = self.seat_of(user_id)
        if index is not None:
            seat = self.seats[index]
            if not seat.away:
                raise GameError("already_seated", table=self.id, channel=self.channel_id)
            seat.away, seat.autoplay, seat.timeouts = False, False, 0
            seat.timeout_hand = None
            return self._done([Event(kind="rejoined", seat=index)], moved=False)
        if self.phase == "playing":
            raise GameError("wrong_phase", phase=self.phase)
        index = self._empty_seat()
        self.seats[index] = Seat(user_id=user_id, name=name, locale=locale)
        return self._done([Event(kind="joined", seat=index)])

    def leave(self, user_id: int, *, seq: int | None = None) -> list[Event]:
        """Leave. During a hand, and between its hands too at a table whose feature deals
        them (``feature_deals``: its seats stay filled), the seat goes to autoplay and stays
        the member's.

        Outside a hand the seat is freed; a table without members closes.
        Raises GameError: table_closed, stale, not_seated.
        """
        self._check_open(seq)
        index = self._seat_index(user_id)
        seat = self.seats[index]
        if self.phase == "playing" or self.feature_deals:
            seat.away, seat.autoplay, seat.timeout_hand = True, True, None
            return self._done([Event(kind="left", seat=index, params={"during_hand": 1})],
                              moved=False)
        self.seats[index] = Seat()
        events = [Event(kind="left", seat=index)]
        if self.starter_id == user_id:
            others = [s.user_id for s in self.seats if s.user_id is not None]
            if others:
                self.starter_id = others[0]
        if all(s.user_id is None for s in self.seats):
            self.phase, self.deadline = "closed", None
            events.append(Event(kind="closed"))
        return self._done(events)

    def add_computer(
        self, user_id: int, level: str | None = None, *, seq: int | None = None
    ) -> list[Event]:
        """A seated member fills the first empty seat with a computer player of ``level``
        (None: the table's ``computer_level``).

        Raises GameError: table_closed, stale, wrong_phase, not_seated, bad_level, table_full.
        """
        self._check_open(seq)
        self._check_lobby()
        self._seat_index(user_id)
        if level is None:
            level = self.computer_level
        if level not in LEVELS:
            raise GameError("bad_level", level=level)
        index = self._empty_seat()
        self.seats[index] = computer_seat(index, level)
        return self._done([Event(kind="computer_added", seat=index, params={"level": level})])

    def remove_computer(self, user_id: int, seat: int, *, seq: int | None = None) -> list[Event]:
        """A seated member frees a computer seat. Raises GameError (…, bad_seat)."""
        self._check_open(seq)
        self._check_lobby()
        self._seat_index(user_id)
        if seat not in (0, 1, 2) or self.seats[seat].computer is None:
            raise GameError("bad_seat", seat=str(seat))
        self.seats[seat] = Seat()
        return self._done([Event(kind="computer_removed", seat=seat)])

    def start(
        self,
        user_id: int,
        now: float,
        *,
        seq: int | None = None,
        seed: int | None = None,
        first_bidder: int | None = None,
        hands: Sequence[str | Sequence[Card]] | None = None,
        kitty: str | Sequence[Card] | None = None,
    ) -> list[Event]:
        """Any seated member deals a new hand once the three seats are filled.

        Works from the lobby or after a hand (seats kept). ``seed``/``hands``/
        ``kitty``/``first_bidder`` go to ``Hand.deal`` (tests, a feature's fixed deals).
        Raises GameError: table_closed, stale, wrong_phase, not_seated, not_enough_players.
        """
        self._check_open(seq)
        self._check_lobby()
        self._seat_index(user_id)
        if any(seat.is_empty or seat.away for seat in self.seats):
            raise GameError("not_enough_players")
        return self._deal(now, seed=seed, first_bidder=first_bidder, hands=hands, kitty=kitty)

    def play_again(
        self, user_id: int, now: float, *, seq: int | None = None, seed: int | None = None
    ) -> list[Event]:
        """After a hand: release the seats of ``released_seats`` (event ``released``,
        params ``user``, ``name``, ``reason`` ``left``/``timeouts``, ``fill``): each goes
        to a computer of ``computer_level`` or is freed, as ``fill`` says; then deal if
        all three are filled, else go back to the lobby (event ``lobby``). The member who
        presses is present: their auto-play from timeouts ends (auto-play they chose
        goes on). The starter's role passes on when the starter is released.

        Raises GameError: table_closed, stale, ``<kind>_table`` (its feature deals its
        hands, ``feature_deals``: the feature's catalogs say so), wrong_phase, not_seated.
        """
        self._check_open(seq)
        if self.feature_deals:
            raise GameError(f"{self.kind}_table")
        if self.phase != "finished":
            raise GameError("wrong_phase", phase=self.phase)
        index = self._seat_index(user_id)
        if self.seats[index].away:
            raise GameError("not_seated")
        presser = self.seats[index]
        events = []
        self.given_up = []
        if presser.timeout_hand is not None:
            presser.autoplay, presser.timeout_hand = False, None
            events.append(Event(kind="autoplay_off", seat=index))
        for i in self.released_seats():
            seat = self.seats[i]
            reason = "left" if seat.away else "timeouts"
            params: dict[str, str | int] = {"user": seat.user_id or 0, "name": seat.name,
                                            "reason": reason, "fill": self.fill}
            self.seats[i] = (computer_seat(i, self.computer_level) if self.fill == "computer"
                             else Seat())
            events.append(Event(kind="released", seat=i, params=params))
            self.given_up.append(params)
        if self.seat_of(self.starter_id) is None:
            self.starter_id = user_id
        if any(seat.is_empty for seat in self.seats):
            self.phase = "lobby"
            return self._done([*events, Event(kind="lobby")])
        return events + self._deal(now, seed=seed)

    def deal_next(self, now: float, *, seed: int | None = None) -> list[Event]:
        """The next hand of a table whose feature deals its hands itself (no member presses
        anything): the same seats, a member who left still on auto-play. Raises GameError:
        table_closed, wrong_phase (a hand is being played)."""
        self._check_open(None)
        self._check_lobby()
        return self._deal(now, seed=seed)

    def changed(self, events: list[Event], *, moved: bool = True) -> list[Event]:
        """Count a change a feature's own rules made to this table's seats (outside its
        methods, e.g. a seat handed over): bump ``seq`` and return ``events``; ``moved``: a
        click may depend on the change (``move_seq`` too, see the module docstring)."""
        return self._done(events, moved=moved)

    def set_fill(
        self, user_id: int, fill: str, is_admin: bool = False, *, seq: int | None = None
    ) -> list[Event]:
        """The starter (or an admin) chooses in the lobby what Play again does with a
        released seat (``Fill``). Raises GameError: table_closed, stale, wrong_phase,
        not_starter, bad_option."""
        self._check_open(seq)
        if self.phase != "lobby":
            raise GameError("wrong_phase", phase=self.phase)
        if user_id != self.starter_id and not is_admin:
            raise GameError("not_starter")
        if fill not in FILLS:
            raise GameError("bad_option")
        self.fill = fill
        return self._done([Event(kind="fill", params={"fill": fill})])

    def cancel(self, user_id: int, is_admin: bool = False, *, seq: int | None = None) -> list[Event]:
        """The starter or an admin closes the table (a hand in progress adds no points).

        Raises GameError: table_closed, stale, not_starter.
        """
        self._check_open(seq)
        if user_id != self.starter_id and not is_admin:
            raise GameError("not_starter")
        self.phase, self.deadline = "closed", None
        return self._done([Event(kind="closed")])

    def stop_hand(
        self, user_id: int, is_admin: bool = False, *, seq: int | None = None
    ) -> list[Event]:
        """The starter or an admin abandons the hand: phase ``finished`` with no
        result (not settleable, adds no points). Raises GameError: table_closed,
        stale, wrong_phase, not_starter.
        """
        self._check_open(seq)
        if self.phase != "playing":
            raise GameError("wrong_phase", phase=self.phase)
        if user_id != self.starter_id and not is_admin:
            raise GameError("not_starter")
        self.phase, self.deadline = "finished", None
        return self._done([Event(kind="stopped")])

    def set_autoplay(
        self, user_id: int, on: bool, pace: float | None = None, *, seq: int | None = None
    ) -> list[Event]:
        """A member turns auto-play on or off for their seat (timeouts reset).

        ``pace``: seconds the computer waits before each of the seat's moves
        (``PACE_MIN``..``PACE_MAX``); None keeps the seat's pace. Auto-play turned on
        here lasts across deals until turned off (auto-play from timeouts becomes the
        member's choice). Turning on what
        is already on at that pace (a double click) changes nothing and returns
        no event. Never makes anyone's buttons stale (``move_seq`` stays).
        Raises GameError: table_closed, stale, not_seated, bad_pace.
        """
        self._check_open(seq)
        index = self._seat_index(user_id)
        seat = self.seats[index]
        if pace is not None and (isinstance(pace, bool) or not PACE_MIN <= pace <= PACE_MAX):
            raise GameError("bad_pace", pace=str(pace))
        new_pace = seat.pace if pace is None else float(pace)
        chosen = seat.timeout_hand is None  # turning on what timeouts turned on: now chosen
        if seat.autoplay == on and seat.pace == new_pace and (on or not seat.away) and chosen:
            return []
        seat.autoplay, seat.timeouts, seat.pace, seat.timeout_hand = on, 0, new_pace, None
        if not on:
            seat.away = False
        params: dict[str, str | int] = {"pace": _pace_text(new_pace)} if on else {}
        kind = "autoplay_on" if on else "autoplay_off"
        return self._done([Event(kind=kind, seat=index, params=params)], moved=False)

    # ----- hand actions ------------------------------------------------------------

    def bid(self, user_id: int, amount: int, now: float, *, seq: int | None = None) -> list[Event]:
        """The member bids (0 = pass). Raises GameError (table or ``Hand.bid`` codes)."""
        index, hand = self._acting(user_id, seq)
        action = hand.bid(index, amount)
        return self._member_acted(index) + self._applied(action, now)

    def decide(
        self, user_id: int, kind: str, amount: int, now: float, *, seq: int | None = None
    ) -> list[Event]:
        """The member makes a decision of the table's rule set before the play
        (``Hand.decide``: ``"bid"``; under the Happy rules ``"call"``, ``"grab"``,
        ``"show"``, ``"double"``). Not necessarily on a turn: a show at the deal and
        the doubling are open to every seat, and the Hand checks who may.
        Raises GameError (table or ``Hand.decide`` codes)."""
        index, hand = self._acting(user_id, seq)
        action = hand.decide(kind, index, amount)
        return self._member_acted(index) + self._applied(action, now)

    def auto_decide(self, seat: int, kind: str, amount: int, now: float) -> list[Event]:
        """The computer makes ``seat``'s decision of a kind all seats make at once
        (``Hand.pending``: the Happy rules' doubling) for a computer seat or a member on
        auto-play. Raises GameError: wrong_phase, and ``Hand.decide``'s codes."""
        if self.phase != "playing" or self.hand is None or seat not in self.hand.pending():
            raise GameError("wrong_phase", phase=self.phase)
        return self._applied(self.hand.decide(kind, seat, amount, auto=True), now)

    def time_out(self, now: float) -> list[Event]:
        """The timer ran out on a decision all seats make at once: ``Hand.time_out``
        decides for those that did not (a timeout for each member among them).
        Raises GameError("wrong_phase")."""
        if self.phase != "playing" or self.hand is None:
            raise GameError("wrong_phase", phase=self.phase)
        actions = self.hand.time_out()
        events: list[Event] = []
        for action in actions:
            events.extend(self._timed_out(action.seat))
            events.extend(self._applied(action, now, done=False))
        return self._done(events)

    def play(
        self,
        user_id: int,
        cards: Cards,
        now: float,
        reading: int | Combo | None = None,
        *,
        seq: int | None = None,
    ) -> list[Event]:
        """The member plays. Raises GameError (table or ``Hand.play`` codes)."""
        index, hand = self._acting(user_id, seq)
        action = hand.play(index, cards, reading)
        return self._member_acted(index) + self._applied(action, now)

    def pass_turn(self, user_id: int, now: float, *, seq: int | None = None) -> list[Event]:
        """The member passes (a pass bid while bidding). Raises GameError."""
        index, hand = self._acting(user_id, seq)
        action = hand.pass_turn(index)
        return self._member_acted(index) + self._applied(action, now)

    def auto_act(
        self, action: int | ShowThen | Combo | None, now: float, *, timed_out: bool = False
    ) -> list[Event]:
        """The computer acts for the seat to act: ``action`` is a bid amount while
        bidding (under the Happy rules a ``ShowThen`` at the first call: show the hand,
        then call or not), a Combo or None (pass) while playing (an AI ``Decision.action``).

        ``timed_out``: the member's deadline passed; two timeouts in a row put
        the seat on autoplay until the member acts (``Seat.timeout_hand``: this hand).
        Raises GameError.
        """
        if self.phase != "playing" or self.hand is None or self.hand.turn is None:
            raise GameError("wrong_phase", phase=self.phase)
        hand, index = self.hand, self.hand.turn
        asked = hand.asked(index)
        shown: list[Event] = []
        if isinstance(action, ShowThen):
            shown = self._applied(hand.decide("show", index, action.show, auto=True), now,
                                  done=False)
            action = action.then
        if asked not in ("play", None):
            if not isinstance(action, int):
                raise GameError("invalid_bid", amount=str(action))
            done = hand.decide(asked, index, action, auto=True)
        elif action is None:
            done = hand.pass_turn(index, auto=True)
        else:
            done = hand.play(index, action, auto=True)  # type: ignore[arg-type]  # a Combo: bids are handled above
        events = self._timed_out(index) if timed_out else []
        return events + shown + self._applied(done, now)

    def _timed_out(self, index: int) -> list[Event]:
        """A member's seat timed out: count it; two in a row put the seat on auto-play
        until the member acts (``Seat.timeout_hand``: this hand)."""
        seat = self.seats[index]
        if seat.user_id is None:
            return []
        seat.timeouts += 1
        events = [Event(kind="timeout", seat=index)]
        if seat.timeouts >= AUTOPLAY_AFTER_TIMEOUTS and not seat.autoplay:
            seat.autoplay, seat.timeout_hand = True, self.hand_no
            events.append(Event(kind="autoplay_on", seat=index, params={"timeouts": 1}))
        return events

    # ----- internals -------------------------------------------------------------------

    def _check_open(self, seq: int | None) -> None:
        if self.phase == "closed":
            raise GameError("table_closed")
        if seq is not None and not self.is_current(seq):
            raise GameError("stale")

    def _check_lobby(self) -> None:
        if self.phase not in ("lobby", "finished"):
            raise GameError("wrong_phase", phase=self.phase)

    def _seat_index(self, user_id: int) -> int:
        index = self.seat_of(user_id)
        if index is None:
            raise GameError("not_seated")
        return index

    def _empty_seat(self) -> int:
        for i, seat in enumerate(self.seats):
            if seat.is_empty:
                return i
        raise GameError("table_full")

    def _acting(self, user_id: int, seq: int | None) -> tuple[int, Hand]:
        self._check_open(seq)
        index = self._seat_index(user_id)
        if self.phase != "playing" or self.hand is None:
            raise GameError("wrong_phase", phase=self.phase)
        return index, self.hand

    def _member_acted(self, index: int) -> list[Event]:
        """A member acting clears their timeouts, autoplay and away flag."""
        seat = self.seats[index]
        was_auto = seat.autoplay
        seat.timeouts, seat.autoplay, seat.away, seat.timeout_hand = 0, False, False, None
        return [Event(kind="autoplay_off", seat=index)] if was_auto else []

    def _deal(self, now: float, **deal: object) -> list[Event]:
        """Deal the next hand with the table's rule set (``bot.game.variants``); a
        no-shuffle table deals from the previous hand's cards (docs/RULES.md §No-shuffle
        deals), its first hand and a fixed deal excepted."""
        for seat in self.seats:  # auto-play stays on (docs/RULES.md §Timers)
            seat.timeouts = 0
        previous = self.hand
        if self.rules.deal == "no-shuffle" and previous is not None and deal.get("hands") is None:
            deal["order"] = previous.next_order()
        self.hand = hand_type(self.rules).deal(self.rules, **deal)  # type: ignore[arg-type]  # deal keywords of Hand.deal, checked by it
        self.hand_no += 1
        self.phase = "playing"
        self._arm(now)
        params: dict[str, str | int] = {"hand_no": self.hand_no}
        return self._done([Event(kind="started", seat=self.hand.turn, params=params)])

    def _arm(self, now: float) -> None:
        hand = self.hand
        if self.phase != "playing" or hand is None or not hand.awaiting:
            self.deadline = None
        else:
            deciding = hand.phase != "playing"  # bids, and a rule set's other decisions
            self.deadline = now + (self.turn_seconds_bid if deciding else self.turn_seconds_play)

    def _applied(self, action: Action, now: float, *, done: bool = True) -> list[Event]:
        """Events of an accepted hand action; redeal, finish, deadline and (``done``) seq.

        A rule set's decisions other than bids make an event of their own kind
        (``call``, ``grab``, ``show``, ``double``, param ``amount``); a call or grab that
        settles who is landlord is followed by ``landlord``, as a bid is. A decision
        all seats make at once keeps the deadline running until the last of them."""
        hand = self.hand
        assert hand is not None
        seat = action.seat
        auto: dict[str, str | int] = {"auto": 1} if action.auto else {}
        events: list[Event] = []
        if action.kind == "bid":
            events.append(Event(kind="bid", seat=seat, params={"amount": action.amount or 0, **auto}))
            if hand.phase == "playing":
                kitty = "".join(c.rank.symbol for c in hand.kitty)
                params = {"base": hand.winning_bid, "kitty": kitty}
                events.append(Event(kind="landlord", seat=hand.landlord, params=params))
            elif hand.phase == "redeal":
                self.hand = hand = hand.redeal()
                params = {"first_bidder": hand.first_bidder, "redeals": hand.redeals}
                events.append(Event(kind="redeal", seat=hand.turn, params=params))
        elif action.kind in ("call", "grab", "show", "double"):
            params = {"amount": action.amount or 0, **auto}
            events.append(Event(kind=action.kind, seat=seat, params=params))
            if action.kind in ("call", "grab") and hand.landlord is not None:
                kitty = "".join(c.rank.symbol for c in hand.kitty)
                params = {"base": hand.winning_bid, "kitty": kitty}
                events.append(Event(kind="landlord", seat=hand.landlord, params=params))
            elif hand.phase == "redeal":
                self.hand = hand = hand.redeal()
                params = {"first_bidder": hand.first_bidder, "redeals": hand.redeals}
                events.append(Event(kind="redeal", seat=hand.turn, params=params))
        elif action.kind == "play":
            combo = action.combo
            assert combo is not None
            params = {"cards": combo.notation, "kind": combo.kind.value, **auto}
            events.append(Event(kind="play", seat=seat, params=params))
            if 0 < hand.cards_left(seat) <= 2:
                events.append(
                    Event(kind="warning", seat=seat, params={"cards_left": hand.cards_left(seat)})
                )
        else:
            events.append(Event(kind="pass", seat=seat, params=auto))
            if hand.last_play is None:
                events.append(Event(kind="cleared", seat=hand.turn))
        if hand.phase == "finished" and hand.result is not None:
            self.phase = "finished"
            events.append(Event(kind="finished", params={"winner": hand.result.winner}))
        # One seat's double changes nothing another seat's click depends on: their
        # buttons stay valid, and the doubling's one deadline runs on.
        alone = hand.phase == "doubling" and action.kind == "double"
        if not alone:
            self._arm(now)
        return self._done(events, moved=not alone) if done else events

    def _done(self, events: list[Event], *, moved: bool = True) -> list[Event]:
        """Bump ``seq``; ``moved``: a click may depend on this change (``move_seq`` too)."""
        self.seq += 1
        if moved:
            self.move_seq = self.seq
        return events


class TablePayload(BaseModel):
    """A feature's own data on its tables (``Table.feature``), typed by the feature: its
    wing subclasses this once with its fields and its kind (docs/ARCHITECTURE.md §Features),
    and reads and writes its tables' payload only through it (``of``, ``mark``).

    ``KIND``: the ``Table.kind`` of its tables; ``PRIVATE`` / ``DEALS``: their
    ``Table.private`` / ``Table.feature_deals``.
    """

    model_config = ConfigDict(frozen=True)

    KIND: ClassVar[str]
    PRIVATE: ClassVar[bool] = False
    DEALS: ClassVar[bool] = False

    @classmethod
    def of(cls, table: Table) -> Self | None:
        """The payload of ``table``, None at a table of another kind. Raises
        pydantic.ValidationError for a payload of this kind that is not one."""
        return cls.model_validate(table.feature) if table.kind == cls.KIND else None

    def mark(self, table: Table) -> Table:
        """Make ``table`` one of this kind holding this payload (``kind``, ``private``,
        ``feature_deals``, ``feature``); returns it."""
        table.kind, table.private, table.feature_deals = self.KIND, self.PRIVATE, self.DEALS
        table.feature = self.model_dump(mode="json")
        return table


CHOOSABLE = ("variant", "deal")
"""The RuleSet fields a table may choose over the server's (``Table.chosen``)."""


def rules_for(rules: RuleSet, chosen: dict[str, str]) -> RuleSet:
    """``rules`` with the table's ``chosen`` rule set and deal (``rules`` itself when
    nothing is chosen). Raises ValueError for another field, pydantic's
    ValidationError for a value the RuleSet does not have."""
    if not chosen:
        return rules
    if any(key not in CHOOSABLE for key in chosen):
        raise ValueError(f"a table chooses only {CHOOSABLE}, not {sorted(chosen)}")
    return RuleSet.model_validate({**rules.model_dump(), **chosen})


def _pace_text(pace: float) -> str:
    """``2.0`` → ``"2"``, ``1.5`` → ``"1.5"`` (event params are str or int)."""
    return f"{pace:g}"

