"""The private hand view: what one seated player sees in their ephemeral message.

``build_screen`` turns (table, seat, ViewState, language, notice) into text, alt
text and components; ``render_screen`` adds the PNG (off the event loop).
Components (≤ 5 rows, ≤ 25 items, every custom_id unique):

* row 0: the card menu, a multi-select of the cards held (one option per card,
  ``max_values`` = cards held, ticked = selected: any play is chosen in one
  interaction, then Play), or Pass / Bid 1-3 while bidding, or one button per
  reading when a selection can be played several ways;
* rows 1-3: one button per rank held, each adding one more card of that rank (a
  full rank clears back to none), then Take back (the last card added leaves the
  selection) and Auto. With 14 or 15 ranks held the jokers' buttons give their
  places to those two (the card menu holds the jokers);
* row 4: Play, Pass, Hint, Clear, Sort. While bidding, Play and Pass are left
  out (row 0 holds the bid Pass) and Clear shows only once cards are selected;
  Hint then gives bid advice.

Every control is in every hand and phase (tests/cogs/test_view_limits.py walks
many random positions and checks it, and Discord's limits).
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import discord

from bot.game.errors import GameError
from bot.game.happy import HappyHand
from bot.game.table import Table
from bot.i18n import decimal, t, tn
from bot.rules import (
    RANKS,
    Card,
    Combo,
    RuleSet,
    classify,
    rank_counts,
    show_cards,
    spaced_cards,
)
from bot.service.renderer import HandKey, Renderer, hand_key
from cogs import texts
from cogs.components import Components
from cogs.happy_texts import button_label, shown_hands, shown_lines, shown_seats
from cogs.items import SortMode, ViewState
from rendering import render_hand_cached
from rendering.cards import rank_label, sort_cards

B = discord.ButtonStyle


@dataclass
class Screen:
    """One rendering of the hand view (``png`` filled by ``render_screen``)."""

    content: str
    alt: str
    view: Components | None
    cards: list[Card]
    state: ViewState
    seq: int
    png: bytes | None = None
    lang: str = "en"
    counts: tuple[int, ...] | None = None
    shown: tuple[tuple[str, tuple[Card, ...]], ...] = ()
    """The hands other seats show face up (``cogs.happy_texts.shown_hands``)."""

    @property
    def image_key(self) -> HandKey:
        """What the hand image shows (``bot.service.renderer.hand_key``)."""
        return hand_key(self.cards, self.state.selected, self.state.sort, self.lang,
                        self.counts, self.shown)


def selected_cards(hand_cards: Sequence[Card], state: ViewState) -> list[Card]:
    """The selected cards still in hand, low→high."""
    return sorted(c for c in hand_cards if c.index in state.selected)


def add_rank(hand_cards: Sequence[Card], state: ViewState, rank_index: int) -> ViewState:
    """One more card of that rank; when all are selected, none of it (docs/RULES.md notation)."""
    of_rank = sorted(c for c in hand_cards if c.rank.index == rank_index)
    chosen = [c for c in of_rank if c.index in state.selected]
    if not of_rank:
        return state
    if len(chosen) >= len(of_rank):
        return state.with_selected(state.selected - {c.index for c in of_rank})
    nxt = next(c for c in of_rank if c.index not in state.selected)
    return state.with_selected(state.selected | {nxt.index})


def take_back(hand_cards: Sequence[Card], state: ViewState) -> ViewState:
    """The last card added leaves the selection (Take back: ``ViewState.added``, the
    highest selected card of its rank, the one ``add_rank`` added last), or ``state``
    when nothing is selected."""
    rank = state.take_back()
    if rank is None:
        return state
    chosen = sorted(c for c in hand_cards if c.rank.index == rank and c.index in state.selected)
    if not chosen:
        return state
    return replace(state, added=state.added[:-1]).with_selected(
        state.selected - {chosen[-1].index})


def choose_cards(hand_cards: Sequence[Card], state: ViewState, value: str) -> ViewState:
    """The card menu's values (``"5,6,17"``, ``Card.index`` in decimal; ``""`` for none)
    as the new selection. Raises GameError ``bad_option`` on a value no client sends
    (not a number, repeated, more than 20, or no card: 54 and up) and
    ``cards_not_in_hand`` on a card not held (a forged value or a menu drawn before a
    play), naming those cards."""
    parts = [p for p in value.split(",") if p] if value else []
    if len(parts) > 20 or not all(p.isascii() and p.isdigit() and len(p) <= 2 for p in parts) \
            or len(set(parts)) != len(parts):
        raise GameError("bad_option")
    wanted = frozenset(int(p) for p in parts)
    if any(i >= 54 for i in wanted):  # no card has this index: no "You don't hold ?."
        raise GameError("bad_option")
    held = frozenset(c.index for c in hand_cards)
    if not wanted <= held:
        missing = sorted(Card.from_index(i) for i in wanted - held)
        raise GameError("cards_not_in_hand", cards=show_cards(missing))
    return state.with_selected(wanted)


def shows_autoplay(table: Table, seat: int) -> bool:
    """Whether ``seat``'s hand view says auto-play is on (and at what pace): during the
    hand, and after it when it goes on for the next (docs/RULES.md §Timers); a private
    deal's result: a next deal is a new table, dealt with auto-play off, so nothing
    "stays on"."""
    me = table.seats[seat]
    return me.autoplay and (table.phase == "playing" or (not me.away and not table.private))


_ASKED_LINES = {"call": "hand.your_turn_call", "grab": "hand.your_turn_grab",
                "show": "hand.your_turn_show", "double": "hand.your_turn_double"}
"""The turn line of a Happy decision (``Hand.asked``)."""


def _turn_line(table: Table, seat: int, lang: str) -> str:
    hand = table.hand
    if table.phase == "playing" and hand is not None and hand.phase == "doubling":
        return t("hand.your_turn_double" if seat in hand.pending() else "hand.waiting_double",
                 lang)
    if table.phase != "playing" or hand is None or hand.turn is None:
        return t("hand.over", lang)
    asked = hand.asked(seat)
    if asked in _ASKED_LINES:
        return t(_ASKED_LINES[asked], lang)
    to_beat = hand.last_play if hand.last_play is not None and hand.last_play.seat != seat else None
    if hand.turn != seat:
        line = t("hand.waiting", lang, name=texts.seat_name(table, hand.turn, lang))
        if hand.phase == "playing" and hand.last_play is not None:
            combo = hand.last_play.combo
            if hand.last_play.seat == seat:  # the member's own play: "yours", not their name
                line += " " + t("hand.to_beat_yours", lang, cards=show_cards(combo.notation),
                                kind=texts.play_kind(combo, lang))
            else:
                line += " " + t("hand.to_beat", lang, cards=show_cards(combo.notation),
                                kind=texts.play_kind(combo, lang),
                                name=texts.plain_name(table, hand.last_play.seat))
        return line
    if hand.phase == "bidding":
        return t("hand.your_turn_bid", lang)
    if to_beat is None:
        return t("hand.your_turn_lead", lang)
    return t("hand.your_turn_beat", lang, cards=show_cards(to_beat.combo.notation),
             kind=texts.play_kind(to_beat.combo, lang), name=texts.plain_name(table, to_beat.seat))


def counter_text(counts: Sequence[int] | None, lang: str) -> str | None:
    """"Not seen by you yet: 3×2, 5, 2×4, X, D" (ranks low→high, ×n when more than one; ranks
    all seen left out), or None without a counter (docs/RULES.md §Card counter)."""
    if counts is None:
        return None
    return _counter_text(tuple(counts), lang)


def _counted(index: int, lang: str) -> str:
    """A rank in the counter's words: "10", "small joker" (issue 48: not X and D)."""
    if index < 13:
        return show_cards([RANKS[index]])
    word = t("card.small_joker" if index == 13 else "card.big_joker", lang)
    return word[:1].lower() + word[1:]


@functools.lru_cache(maxsize=1024)
def _counter_text(counts: tuple[int, ...], lang: str) -> str:
    """``counter_text`` once per (counts, language): every redraw of a view at one
    position shows the same counter."""
    parts = [_counted(rank.index, lang) + (f"×{n}" if n > 1 else "")
             for rank, n in zip(RANKS, counts, strict=True) if n]
    return (t("alt.counter", lang, cards=t("sep.list", lang).join(parts)) if parts
            else t("alt.counter_none", lang))


def build_screen(table: Table, seat: int, state: ViewState, lang: str, *,
                 notice: str | None = None, hint: str | None = None,
                 readings: Sequence[Combo] | None = None,
                 plays: Sequence[Combo] = (), legal: int | None = None,
                 counter: bool = False, inputs: ImageInputs | None = None,
                 title: str | None = None) -> Screen:
    """Text, alt text and components of the hand view of ``seat``.

    ``title``: the first line, as the table's kind names it (``TableService.hand_title``,
    translated); default a channel table's ("Your hand · table ab12 · hand #3").

    ``plays``: the ranked legal plays (kept for callers; the card menu lists cards),
    ``legal``: how many legal plays there are (default: counted here); ``readings``:
    ask which reading to play; ``notice``: an ack or a refusal; ``hint``: a reason.
    ``counter``: add the card counter (the server's ``/ddz config counter``) to
    the image and the alt text, computed from ``seat``'s observation only.
    ``inputs``: ``image_inputs(table, seat, state, counter)`` when the caller has them.
    """
    hand = table.hand
    cards, state, counts = inputs or image_inputs(table, seat, state, counter)
    chosen = selected_cards(cards, state)
    lines = [title or t("hand.title", lang, table=table.id)]
    if hand is not None and hand.landlord is not None:
        lines.append(t("hand.role_landlord", lang) if hand.landlord == seat else
                     t("hand.role_peasant", lang, name=texts.plain_name(table, hand.landlord)))
    elif hand is not None and not isinstance(hand, HappyHand):
        lines.append(t("hand.bidding", lang, bid=hand.winning_bid) if hand.winning_bid else
                     t("hand.bidding_none", lang))
    if isinstance(hand, HappyHand):  # G × S × 2^N so far (docs/RULES.md §Happy rules)
        lines.append(t("table.multiplier", lang, multiplier=hand.multiplier))
        lines += shown_lines(table, lang, viewer=seat)
    lines.append(_turn_line(table, seat, lang))
    asked = hand is not None and table.phase == "playing" and hand.asked(seat) is not None
    when = texts.deadline_text(table, lang) if asked and not table.seats[seat].automatic \
        else None
    if when:  # a Discord relative timestamp: it counts down by itself
        lines.append(when)
    me = table.seats[seat]
    if shows_autoplay(table, seat):
        key = "hand.autoplay_timeouts" if me.timeout_hand is not None else "hand.autoplay"
        if me.away and table.phase == "playing" and not table.private:
            # left mid-hand: played at the computers' pace to the end of this hand, or of
            # this table where a feature deals its hands (docs/RULES.md §Timers)
            key = "hand.autoplay_left_table" if table.feature_deals else "hand.autoplay_left"
        elif table.phase != "playing":  # after the result: whether it goes on next hand
            key += "_next"
        elif table.private:  # a private deal: no next hand at this table
            key += "_private"
        lines.append(t(key, lang, pace=decimal(me.pace, lang, 2, trim=True)))
    if chosen:
        lines.append(selected_line(chosen, table.rules, lang))
    elif hand is not None and hand.phase == "playing" and table.phase == "playing":
        lines.append(t("hand.selected_none", lang))
    if hint:
        lines.append(t("hand.hint", lang, reason=hint))
    if notice:
        lines.append(notice)
    if readings:
        lines.append(t("hand.readings", lang))
    # the alt text writes the cards one by one for a screen reader (docs/RULES.md §Notation)
    alt_parts = [t("alt.hand", lang, cards=spaced_cards(cards)) if cards
                 else t("alt.hand_empty", lang)]
    if counts is not None:
        alt_parts.append(counter_text(counts, lang) or "")
    shown = shown_hands(table, lang, viewer=seat)  # face up on the image (明牌)
    alt_parts += [t("table.shown_hand", lang, name=table.seats[other].name or "?",
                    cards=spaced_cards(face_up))
                  for other, (_, face_up) in zip(shown_seats(table, seat), shown, strict=True)]
    if chosen:
        alt_parts.append(t("alt.selected", lang, selected=spaced_cards(chosen)))
    alt = t("sep.sentence", lang).join(alt_parts)
    view = None
    if table.phase == "playing" and hand is not None:
        view = _components(table, seat, state, lang, cards, readings or (), legal)
    return Screen("\n".join(lines), alt, view, cards, state, table.seq, lang=lang, counts=counts,
                  shown=shown)


def selected_line(chosen: Sequence[Card], rules: RuleSet, lang: str) -> str:
    """The hand view's line for the selected cards, named as the table names a play
    (docs/RULES.md §Notation): "Selected: the rocket (both jokers)", "Selected: the small
    joker (single)", "Selected: 55 (pair)"; a play with kickers shows its reading
    ("Selected: 33344 (trio with a pair: 333 + 44)"), cards that are no play bare
    ("Selected: 3 small joker")."""
    cards = show_cards(chosen)
    found = classify(chosen, rules)
    if not found:
        return t("hand.selected", lang, cards=cards)
    if found[0].kickers:
        return t("hand.selected_reading", lang, cards=cards,
                 reading=texts.reading_label(found[0], lang))
    return t("hand.selected_kind", lang, cards=cards, kind=texts.play_kind(found[0], lang))


MENU_SIZE = 25
"""Most options a Discord select menu takes (the AI ranks that many plays, ``PLAYS_RANKED``)."""
CARD_OPTIONS = MENU_SIZE
"""The card menu's most options (a hand holds at most 20 cards)."""
ROWS = 5
"""Discord's most action rows in one message, and buttons in one row."""


@functools.lru_cache(maxsize=64)
def card_label(index: int, lang: str) -> str:
    """A card's label in the card menu: "10♥", "3♠", "Small joker" (the ten written as on
    the card images, ``rendering.cards.rank_label``)."""
    card = Card.from_index(index)
    if card.suit is None:
        return t("card.small_joker" if card.rank_index == 13 else "card.big_joker", lang)
    return rank_label(card.rank) + card.suit.symbol


def card_options(cards: Sequence[Card], state: ViewState, lang: str) -> list[dict[str, Any]]:
    """The card menu's options: one per card held, in the image's order
    (``rendering.cards.sort_cards``), value ``str(Card.index)``, the selected ones ticked.
    The same list object comes back for the same cards, selection, sort and language
    (every redraw of a view at one position): it is sent as is, never changed."""
    return _card_options(tuple(c.index for c in cards), state.selected, state.sort, lang)


@functools.lru_cache(maxsize=1024)
def _card_options(indices: tuple[int, ...], selected: frozenset[int], sort: SortMode,
                  lang: str) -> list[dict[str, Any]]:
    ordered = sort_cards([Card.from_index(i) for i in indices], sort)
    return [{"label": card_label(c.index, lang), "value": str(c.index),
             "default": c.index in selected} for c in ordered[:CARD_OPTIONS]]


def rank_buttons(held: Sequence[int]) -> list[int]:
    """The rank indices that get a button: all held, unless they would leave no room
    for Take back and Auto in rows 1-3 (15 places); then the jokers, single cards
    the card menu holds anyway, go (docs/ARCHITECTURE.md §The hand view)."""
    if len(held) + 2 <= 3 * ROWS:
        return list(held)
    return [index for index in held if index < 13]


def _components(table: Table, seat: int, state: ViewState, lang: str, cards: list[Card],
                readings: Sequence[Combo], legal: int | None) -> Components:
    hand = table.hand
    assert hand is not None
    view = Components()
    prefix, suffix = f"ddz:{table.id}:{table.seq}:h", "." + state.encode()  # HAND_TEMPLATE
    my_turn = hand.turn == seat

    def button(verb: str, label: str, row: int, style: B = B.secondary, disabled: bool = False) -> None:
        view.button(prefix + verb + suffix, label, row, style, disabled)

    if readings:
        for k, combo in enumerate(readings[:5]):
            button(f"rd{k}", texts.reading_label(combo, lang), 0, B.primary)
    elif isinstance(hand, HappyHand) and hand.phase in ("bidding", "showing", "doubling"):
        for verb, label, style, disabled in happy_buttons(hand, seat, lang):
            button(verb, label, 0, style, disabled)
    elif hand.phase == "bidding":
        allowed = hand.allowed_bids(seat)
        button("b0", t("btn.bid_pass", lang), 0, disabled=0 not in allowed)
        for amount in (1, 2, 3):
            button(f"b{amount}", t("btn.bid", lang, n=amount), 0, B.primary,
                   disabled=amount not in allowed)
    elif cards:
        if my_turn:
            count = len(hand.legal_plays(seat)) if legal is None else legal
            placeholder = tn("select.cards", count, lang, n=count)
        else:  # no count: what beats the play on the table now may not be what is asked
            placeholder = t("select.cards_waiting", lang)
        view.select(prefix + "cards" + suffix, card_options(cards, state, lang), placeholder, 0,
                    min_values=0, max_values=min(len(cards), CARD_OPTIONS))
    totals = tuple(rank_counts(cards))  # by rank index
    chosen_of = tuple(rank_counts([c for c in cards if c.index in state.selected])) \
        if state.selected else _NONE
    specs = _rank_row(totals, chosen_of, lang)
    for verb, label, row, chosen, disabled in specs:
        button(verb, label, row, B.success if chosen else B.secondary, disabled)
    slot = len(specs)  # the rank buttons and Take back, then Auto
    me = table.seats[seat]
    if me.autoplay:  # Auto says what a click does: a0 turns it off, a1 on (at me.pace)
        # "every hand" only at a channel's table: a private deal is one hand, and the
        # hands of a table a feature deals end with that table
        key = ("btn.auto_on_deal" if table.private else "btn.auto_on" if table.kind == "table"
               else "btn.auto_on_table")
        if me.timeout_hand is not None:
            key = "btn.auto_on_timeouts"
        elif me.away and not table.private:  # left: the computers' pace, to the hand's end
            key = "btn.auto_on_left_table" if table.feature_deals else "btn.auto_on_left"
        button("a0", t(key, lang, pace=decimal(me.pace, lang, 2, trim=True)), 1 + slot // ROWS, B.success)
    else:
        button("a1", t("btn.auto_off", lang), 1 + slot // ROWS)
    playing = hand.phase == "playing"
    if playing:
        lead = hand.to_beat_for(seat) is None
        # Play waits for cards picked (a click with none, stale or forged, is refused politely)
        button("play", t("btn.play", lang), 4, B.primary,
               disabled=not (my_turn and cards and state.selected))
        button("pass", t("btn.pass", lang), 4, disabled=not (my_turn and not lead))
    # the Hint answers what the seat is asked now (a bid or a play on its turn; a Happy
    # hand's call, grab, show or double: docs/AI.md §Happy rules), nothing while it
    # waits for others (docs/RULES.md §Controls)
    button("hint", t("btn.hint", lang), 4, disabled=not cards or hand.asked(seat) is None)
    if playing or state.selected:
        button("clear", t("btn.clear", lang), 4, B.danger, disabled=not state.selected)
    button("sort", t("btn.sort_groups" if state.sort == "groups" else "btn.sort_rank", lang), 4)
    return view


_NONE = (0,) * 15


def happy_buttons(hand: HappyHand, seat: int, lang: str) -> list[tuple[str, str, B, bool]]:
    """Row 0 of a Happy hand's view before the play: (verb, label, style, disabled).

    Calling or grabbing: Call / Don't call or Grab / Don't grab (``b1`` / ``b0``, enabled on
    the seat's turn), and Show hand ×4 (``show4``) while the deal may still be shown; the
    landlord after the kitty: Show hand ×2 (``show2``) / Keep hidden (``show0``); the
    doubling: ×1 / ×2 / ×4 (``dbl1`` ``dbl2`` ``dbl4``) until the seat has chosen. The
    service checks every click again (``HappyHand``)."""
    asked = hand.asked(seat)
    found: list[tuple[str, str, B, bool]] = []
    if hand.phase == "bidding":
        stage = hand.auction.stage if hand.auction.stage in ("call", "grab") else "call"
        mine = asked == stage
        found.append(("b1", button_label(stage, 1, lang), B.primary, not mine))
        found.append(("b0", button_label(stage, 0, lang), B.secondary, not mine))
        if hand.may_show(seat):
            found.append(("show4", button_label("show", 4, lang), B.success, False))
    elif hand.phase == "showing" and asked == "show":
        found.append(("show2", button_label("show", 2, lang), B.success, False))
        found.append(("show0", button_label("show", 0, lang), B.secondary, False))
    elif hand.phase == "doubling" and asked == "double":
        for factor, style in ((1, B.secondary), (2, B.primary), (4, B.danger)):
            found.append((f"dbl{factor}", button_label("double", factor, lang), style, False))
    return found


@functools.lru_cache(maxsize=4096)
def _rank_row(totals: tuple[int, ...], chosen_of: tuple[int, ...], lang: str
              ) -> tuple[tuple[str, str, int, bool, bool], ...]:
    """The rank buttons and Take back as (verb, label, row, chosen, disabled), from the
    counts held and selected per rank index: the same few come back on every redraw.
    Only strs, ints and bools: the garbage collector stops tracking such tuples, so the
    4,096 kept rows (≈ 50,000 tuples) are not scanned by every full collection
    (docs/PERFORMANCE.md §Collector)."""
    shown = rank_buttons([index for index in range(15) if totals[index]])
    out = []
    for i, index in enumerate(shown):
        chosen = chosen_of[index]
        out.append((f"r{index}", rank_button_label(index, chosen, totals[index], lang), 1 + i // ROWS,
                    bool(chosen), False))
    out.append(("back", t("btn.take_back", lang), 1 + len(shown) // ROWS, False,
                not any(chosen_of)))
    return tuple(out)


@functools.lru_cache(maxsize=256)
def rank_button_label(index: int, chosen: int, total: int, lang: str) -> str:
    """A rank button's label: "7", "7 ×3" (three held), "7 2/3" (two of three selected);
    the ten reads "10", as on the cards; a joker by the players' word ("Small joker",
    "Big joker 1/1"), so the two never have to be told apart by X and D."""
    if index >= 13:
        symbol = t("card.small_joker" if index == 13 else "card.big_joker", lang)
    else:
        symbol = rank_label(RANKS[index])
    return symbol + (f" {chosen}/{total}" if chosen else (f" ×{total}" if total > 1 else ""))


ImageInputs = tuple[list[Card], ViewState, tuple[int, ...] | None]
"""What a hand image shows: the cards, the view state, the counter's counts (or None)."""


def image_inputs(table: Table, seat: int, state: ViewState, counter: bool = False, *,
                 counts: tuple[int, ...] | None = None) -> ImageInputs:
    """What ``seat``'s hand image shows, without the rest of the screen: the cards, the
    state with its selection narrowed to them (none once the hand is over), and the card
    counter's 15 counts (None
    when ``counter`` is off; ``counts``: those counts when the caller has them,
    ``TableService.still_out``)."""
    hand = table.hand
    cards = hand.hand_of(seat) if hand is not None else []
    # once the hand is over nothing can be played: no card stays raised, no "Selected:"
    kept = selected_cards(cards, state) if table.phase == "playing" else []
    state = state.with_selected(frozenset(c.index for c in kept))
    if not counter or hand is None:
        counts = None
    elif counts is None:
        counts = hand.observation(seat).still_out()
    return cards, state, counts


async def render_screen(screen: Screen, lang: str, renderer: Renderer | None = None) -> Screen:
    """``screen`` with its hand image (``draw_image``)."""
    screen.png = await draw_image(screen.cards, screen.state, lang, screen.counts, renderer,
                                  shown=screen.shown)
    return screen


async def draw_image(cards: Sequence[Card], state: ViewState, lang: str,
                     counts: tuple[int, ...] | None, renderer: Renderer | None = None,
                     urgent: bool = False,
                     shown: Sequence[tuple[str, Sequence[Card]]] = ()) -> bytes:
    """The hand image (selected cards raised) drawn by ``renderer``'s worker processes
    (``bot.service.renderer``), or without any in a worker thread; an image drawn
    lately is reused either way (``rendering.render_hand_cached``). No position labels
    under the cards: the view selects by rank, so 1..n would mean nothing (the raised
    cards show the selection); ``image_key`` needs no flag for it. ``urgent``: a
    member waits for it (ahead of the public table images, ``WorkerPool.run``).
    ``shown``: the hands other seats show face up (``Screen.shown``)."""
    if renderer is not None and renderer.pool.workers:
        return await renderer.hand(cards, selected=state.selected, sort=state.sort, locale=lang,
                                   counter=counts, urgent=urgent, shown=shown)
    return await asyncio.to_thread(render_hand_cached, tuple(cards), selected=state.selected,
                                   sort=state.sort, locale=lang, show_indices=False,
                                   counter=counts, shown=shown)


def rank_of_verb(verb: str) -> int | None:
    """``r7`` → 7 (a rank index 0..14), else None."""
    if verb.startswith("r") and verb[1:].isdigit():
        index = int(verb[1:])
        return index if 0 <= index < len(RANKS) else None
    return None
