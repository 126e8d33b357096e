"""Computer players' decisions for a table's seat to act (auto-play, timeouts, computers).

Pure and synchronous (no asyncio, no I/O): ``decide`` asks ``bot.ai`` at the
seat's level, ``hint_options`` lists a seat's Hint suggestions. The service runs
them off the event loop (``bot.service.deciders``, ``bot.service.hints``); the
``*_from_json`` variants are the entry points of the AI worker process.
"""

from __future__ import annotations

import random

from bot.ai import Decision, Level, choose_bid, choose_play, hint_options
from bot.ai.happy import KINDS as HAPPY_KINDS
from bot.ai.happy import choose_happy
from bot.game.errors import GameError
from bot.game.happy import HappyHand
from bot.game.models import ShowThen
from bot.game.table import Table
from bot.rules import Combo

AutoAction = int | ShowThen | Combo | None
"""A computer's action: a bid (0 = pass, 1..3) while bidding, the amount of another
decision before the play (``Hand.asked``: the Happy rules' call, grab, show; a
``ShowThen`` for a first call made with the hand face up), a Combo, or None = pass."""


def fallback_action(table: Table) -> int | Combo | None:
    """A safe action for the seat to act: open the bidding with 1 (else pass); in play,
    the first legal play on a free lead, else pass. Raises GameError("wrong_phase")."""
    hand, seat = table.hand, table.turn_seat
    if hand is None or seat is None:
        raise GameError("wrong_phase", phase=table.phase)
    asked = hand.asked(seat)
    if asked == "bid":
        return 1 if hand.winning_bid == 0 else 0
    if asked != "play":
        return 1 if asked == "call" and not hand.history else 0
    if hand.to_beat_for(seat) is None:
        return hand.legal_plays(seat)[0]
    return None


def seat_level(table: Table) -> Level:
    """The level the computer plays at for the seat to act: a computer seat's own
    level; "normal" for a member's seat on auto-play (and when nobody is to act)."""
    seat = table.turn_seat
    level = table.seats[seat].computer if seat is not None else None
    return level or "normal"


def decide(table: Table, rng: random.Random) -> AutoAction:
    """The computer's action for the seat to act (``bot.ai`` at ``seat_level``).

    At a private table (``Table.private``: the daily deal, an event's deal) the hard
    searches (bids and plays) run to their fixed budget, never cut by the clock
    (docs/RULES.md §Daily deal: the same position and ``rng`` give the same move). Pure
    and synchronous (run it in a thread or the worker).
    Raises GameError("wrong_phase").
    """
    hand, seat = table.hand, table.turn_seat
    if hand is None or seat is None:
        raise GameError("wrong_phase", phase=table.phase)
    asked = hand.asked(seat)
    level = seat_level(table)
    obs = hand.observation(seat)
    fixed = table.private
    if asked not in ("bid", "play", None):
        # before anyone has spoken the first word may be said face up (×4)
        happy = obs.happy
        show = (asked == "call" and happy is not None and not happy.calls
                and not happy.shows[seat]
                and choose_happy(obs, "show", level, rng, fixed_budget=fixed))
        amount = choose_happy(obs, asked, level, rng, fixed_budget=fixed)
        return ShowThen(amount) if show else amount
    if hand.phase == "bidding":
        return choose_bid(obs, level, rng, fixed_budget=fixed).action
    return choose_play(obs, level, rng, fixed_budget=fixed).action


def decide_pending(table: Table) -> list[tuple[int, str, int]]:
    """The computer's part of a decision all seats make at once (``Hand.pending``, the
    Happy rules' doubling): ``(seat, kind, amount)`` for each pending seat that a
    computer plays (a computer seat, or a member on auto-play; ``bot.ai.happy.choose_happy``
    at its level, seeded by the position). Pure; a hard seat samples up to
    ``bot.ai.happy.WORLDS`` deals (a few ms)."""
    hand = table.hand
    if hand is None or table.phase != "playing" or hand.turn is not None:
        return []
    decisions = []
    for seat in hand.pending():
        asked = hand.asked(seat)
        if asked is not None and table.seats[seat].automatic:
            level = table.seats[seat].computer or "normal"
            obs = hand.observation(seat)
            # seeded by the position: the same table always gets the same answers
            amount = choose_happy(obs, asked, level, None, fixed_budget=True)
            decisions.append((seat, asked, amount))
    return decisions


def decide_from_json(table_json: str, rng: random.Random) -> AutoAction:
    """``decide`` on a serialized Table (the worker process's entry point; the action
    and the rng pickle, so the result equals ``decide`` on the same table and rng)."""
    return decide(Table.model_validate_json(table_json), rng)


def table_hint_options(table: Table, seat: int) -> list[Decision]:
    """``bot.ai.hint_options`` for ``seat`` of ``table`` (what the Hint button cycles),
    with the fixed budget and no clock cap at every table: the same position always gets
    the same Hint, and the review of that decision makes the same search
    (``bot.ai.review.assess``), so following the Hint is never a costly decision
    (docs/AI.md §Reviews). On a Happy decision (``Hand.asked``: call, grab, show,
    double) the hard level's answer to it (``bot.ai.hint_options`` with ``happy=``).
    None while a Happy seat is asked nothing before the play. Raises
    GameError("wrong_phase") without a hand."""
    hand = table.hand
    if hand is None:
        raise GameError("wrong_phase", phase=table.phase)
    asked = hand.asked(seat)
    happy = asked if asked in HAPPY_KINDS else None  # the Happy rules' call, grab, show, double
    if happy is None and isinstance(hand, HappyHand) and hand.phase != "playing":
        return []  # a Happy seat asked nothing before the play: no classic bid to suggest
    return hint_options(hand.observation(seat), fixed_budget=True, happy=happy)


def hint_options_from_json(table_json: str, seat: int) -> list[Decision]:
    """``table_hint_options`` on a serialized Table (the worker process's entry point)."""
    return table_hint_options(Table.model_validate_json(table_json), seat)
