"""What a click in the private hand view does (selection, hint, play, pass, bid, auto).

Selection changes are local (they live in the custom_ids); Play / Pass / Bid go
through the TableService with the view's ``seq``, refused as stale only when
something they act on changed since the view was drawn (``Table.is_current``:
the hand, its phase, whose turn, the play to beat, the seat's cards) — another
seat's auto-play toggle, leaving or coming back leaves them valid. Auto carries
its intent (``a1`` on, ``a0`` off), so a double click applies once. A refused
play keeps the selection and says why (docs/RULES.md §Out-of-date buttons).
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, replace

from bot.game.errors import GameError
from bot.game.table import Table
from bot.i18n import decimal, t, tn
from bot.i18n.numbers import MINUS
from bot.rules import Card, Combo, show_cards
from bot.service import Decision, TableService
from cogs.hand_view import (
    add_rank,
    choose_cards,
    rank_of_verb,
    selected_cards,
    shows_autoplay,
    take_back,
)
from cogs.happy_texts import choice_label
from cogs.items import ViewState, mask_to_indices, parse_mask
from cogs.replies import error_message

log = logging.getLogger("cogs.ddz")


@dataclass
class Outcome:
    """The next view: its state and an optional notice, hint reason, or reading choice.

    ``table``: the Table the service returned for an accepted action (or the latest
    one after a stale refusal); None when the click changed no table. ``later``:
    after a first Hint answered before the hard search was done, that search
    (``TableService.hint_now``): its pick may replace the one shown."""

    state: ViewState
    notice: str | None = None
    hint: str | None = None
    readings: list[Combo] | None = None
    table: Table | None = None
    later: asyncio.Task[list[Decision]] | None = None


LOCAL_VERBS = frozenset({"clear", "sort", "cards", "back"})
"""Selection verbs: they only select cards of the current hand (re-checked against it)."""
INTENT_VERBS = frozenset({"a0", "a1"})
"""Auto off / on: they say what they want, so applying one twice changes nothing."""


def is_stale(table: Table, seq: int, verb: str) -> bool:
    """Whether a hand-view click drawn at ``seq`` is out of date for ``table``.

    True when no hand is in play (lobby, finished, closed, redeal), or when
    something the click acts on changed since ``seq`` (``Table.is_current``) and
    ``verb`` is neither a local selection verb (``r<k>``, ``clear``, ``sort``)
    nor an intent verb (``a0``, ``a1``). The legal-play menu (``pick``) is checked:
    its options were computed for the play to beat when it was drawn.
    """
    hand = table.hand
    if table.phase != "playing" or hand is None or hand.phase in ("finished", "redeal"):
        return True
    if table.is_current(seq):
        return False
    return not (verb in LOCAL_VERBS or verb in INTENT_VERBS or rank_of_verb(verb) is not None)


async def handle_hand_verb(service: TableService, table: Table, seat: int, user_id: int, seq: int,
                           verb: str, state: ViewState, value: str | None, lang: str) -> Outcome:
    """Apply one hand-view click; never raises GameError (it becomes the notice).

    Staleness is checked before anything else (docs/RULES.md §Controls: "A button of
    an old hand or of a finished game answers that it is stale"): with no hand in play every
    verb answers ``hand.refreshed``; a ``seq`` behind the table's refuses every
    verb but the purely local selection ones (``r<k>``, ``clear``, ``sort``),
    which only ever select cards of the current hand and are re-applied to it.
    """
    hand = table.hand
    cards = hand.hand_of(seat) if hand is not None else []
    state = state.with_selected(frozenset(c.index for c in selected_cards(cards, state)))
    rank = rank_of_verb(verb)
    if is_stale(table, seq, verb):
        if verb == "hint" and hand is not None and hand.asked(seat) is None \
                and table.phase == "playing" and hand.phase not in ("finished", "redeal"):
            # a Hint drawn on the seat's turn, pressed once it was over: the reason it is off
            return Outcome(state, t("hand.error", lang,
                                    message=error_message(GameError("not_your_turn"), lang)))
        return Outcome(state, t("hand.refreshed", lang))
    try:
        if rank is not None:
            return Outcome(add_rank(cards, state, rank))
        if verb == "cards":
            return Outcome(choose_cards(cards, state, value or ""))
        if verb == "back":
            return Outcome(take_back(cards, state))
        if verb == "clear":
            return Outcome(ViewState(sort=state.sort))
        if verb == "sort":
            return Outcome(replace(state, sort="groups" if state.sort == "rank" else "rank"))
        if verb == "pick":
            wanted = mask_to_indices(parse_mask(value or "0"))
            held = frozenset(c.index for c in cards)
            if not wanted <= held:  # only a modified client (or a replayed menu) names these
                missing = sorted(Card.from_index(i) for i in wanted - held)
                raise GameError("cards_not_in_hand", cards=show_cards(missing))
            return Outcome(state.with_selected(wanted))
        if verb == "hint":
            return await _hint(service, table, seat, state, lang)
        if verb in INTENT_VERBS or verb == "auto":  # "auto": a toggle drawn by older versions
            on = verb == "a1" or (verb == "auto" and not table.seats[seat].autoplay)
            done = await service.set_autoplay(table.id, user_id, on)
            # the view's own line says auto-play is on and at what pace: not twice
            ack = None if on and shows_autoplay(done, seat) else autoplay_ack(done, seat, on, lang)
            return Outcome(state, ack, table=done)
        decision = _decision_verb(verb)
        if decision is not None:  # the Happy rules' Show and Double (docs/RULES.md §Happy rules)
            kind, amount = decision
            done = await service.decide(table.id, user_id, kind, amount, seq=seq)
            return Outcome(replace(state, hint=0),
                           t("hand.chose", lang, choice=choice_label(kind, amount, lang)),
                           table=done)
        if verb.startswith("b") and verb[1:].isdigit():
            amount = int(verb[1:])
            asked = hand.asked(seat) if hand is not None else None
            done = await service.bid(table.id, user_id, amount, seq=seq)
            if asked in ("call", "grab"):  # Call / Grab under the Happy rules
                return Outcome(replace(state, hint=0),
                               t("hand.chose", lang, choice=choice_label(asked, amount, lang)),
                               table=done)
            # a new position: the Hint starts again from its first suggestion
            return Outcome(replace(state, hint=0),
                           t("hand.bid_done", lang, amount=amount) if amount
                           else t("hand.passed", lang), table=done)
        if verb == "pass":
            done = await service.pass_turn(table.id, user_id, seq=seq)
            return Outcome(ViewState(sort=state.sort), t("hand.passed", lang), table=done)
        if verb == "play" or verb.startswith("rd"):
            return await _play(service, table, seat, user_id, seq, verb, state, cards, lang)
    except GameError as error:
        if error.code == "stale":  # the table moved on meanwhile: show the latest
            return Outcome(state, t("hand.refreshed", lang), table=service.get(table.id))
        return Outcome(state, t("hand.error", lang, message=error_message(error, lang)))
    return Outcome(state)


def _decision_verb(verb: str) -> tuple[str, int] | None:
    """``show<n>`` → ("show", n), ``dbl<n>`` → ("double", n); None for another verb. The
    amount is only a claim: the service refuses one the rules do not have."""
    for prefix, kind in (("show", "show"), ("dbl", "double")):
        if verb.startswith(prefix) and verb[len(prefix):].isdigit():
            return kind, int(verb[len(prefix):])
    return None


def autoplay_ack(table: Table, seat: int, on: bool, lang: str) -> str:
    """"Auto-play is on (one move every 2 s)…" / "Auto-play is off…" for ``seat``."""
    if on:
        key = "ack.autoplay_on_private" if table.private else "ack.autoplay_on"  # no next hand
        return t(key, lang, pace=decimal(table.seats[seat].pace, lang, 2, trim=True))
    return t("ack.autoplay_off", lang)


async def _hint(service: TableService, table: Table, seat: int, state: ViewState, lang: str) -> Outcome:
    """The next suggestion, answered at once (``TableService.hint_now``): the hard
    search's list when ready, else the normal level's, with the search as ``later``;
    a first suggestion from the normal level's list says it is a quick look (the review
    makes the search's evaluation, docs/AI.md §Reviews).
    At a private table (``Table.private``) always the search's list, waited for (``hint_options``): the
    same position gets the same Hint however busy the bot is (docs/AI.md §Fixed budget)."""
    hand = table.hand
    if hand is None:
        raise GameError("wrong_phase")
    if hand.asked(seat) is None:  # asked nothing now: the button is off (a forged click)
        raise GameError("not_your_turn")
    if table.private:
        options, later = await service.hint_options(table, seat), None
        quick = False
    else:
        options, later = service.hint_now(table, seat)
        quick = not service.hint_ready(table, seat)
    if not options:
        return Outcome(state)
    decision = options[state.hint % len(options)]
    shown = hint_state(replace(state, hint=state.hint + 1), decision)
    reason = hint_reason(decision, lang)
    if quick and state.hint == 0:  # the normal level's pick, not the search the review makes
        reason = t("hand.hint_quick", lang, reason=reason)
    return Outcome(shown, hint=reason, later=later if state.hint == 0 else None)


def hint_state(state: ViewState, decision: Decision) -> ViewState:
    """``state`` with the cards of a suggested play selected (none for a pass or a bid)."""
    if isinstance(decision.action, Combo):
        return state.with_selected(frozenset(c.index for c in decision.action.cards))
    return state.with_selected(frozenset())


def hint_reason(decision: Decision, lang: str) -> str:
    """The localized reason of a suggestion (``reason.<code>``; a count ``n`` picks the
    plural form where the message has one)."""
    params = dict(decision.params)
    for key in ("gain", "passing"):  # expected points, "+0.8": the member's decimal mark
        value = params.get(key)
        if isinstance(value, str):
            params[key] = decimal(float(value), lang, 1, sign=True, minus=MINUS)
    count = params.get("n")
    if isinstance(count, int):
        return tn(f"reason.{decision.reason}", count, lang, **params)
    return t(f"reason.{decision.reason}", lang, **params)


async def _play(service: TableService, table: Table, seat: int, user_id: int, seq: int, verb: str,
                state: ViewState, cards: list[Card], lang: str) -> Outcome:
    chosen = selected_cards(cards, state)
    if not chosen:
        raise GameError("no_cards")
    readings = table.hand.readings_for(seat, chosen) if table.hand is not None else []
    if verb.startswith("rd"):
        index = int(verb[2:]) if verb[2:].isdigit() else -1
        if not 0 <= index < len(readings):
            raise GameError("bad_reading", reading=verb[2:])
        combo = readings[index]
        done = await service.play(table.id, user_id, list(combo.cards), reading=combo, seq=seq)
    elif len(readings) > 1 and len({c.reading for c in readings}) > 1:
        return Outcome(state, readings=readings[:5])
    else:
        done = await service.play(table.id, user_id, chosen, seq=seq)
    return Outcome(ViewState(sort=state.sort), t("hand.played", lang, cards=show_cards(chosen)),
                   table=done)
