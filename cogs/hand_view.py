"""The private hand view: what one seated player sees in their ephemeral message.

``build_screen`` turns (table, seat, ViewState, language, notice) into text, alt
text and components; ``render_screen`` adds the PNG (off the event loop).
Components (≤ 5 rows, ≤ 25 items, every custom_id unique):

* row 0: the select menu of legal plays (≤ 25, best first, each option a whole
  play), or Pass / Bid 1-3 while bidding, or one button per reading when a
  selection can be played several ways;
* rows 1-3: one button per rank held (≤ 15), each adding one more card of that
  rank (a full rank clears back to none), then Auto;
* row 4: Play, Pass, Hint, Clear, Sort. While bidding, Play and Pass are left
  out (row 0 holds the bid Pass) and Clear shows only once cards are selected;
  Hint then gives bid advice.

With all 15 ranks in hand there is no slot left for Auto; the text then points
to ``/ddz autoplay``.
"""

from __future__ import annotations

import asyncio
import functools
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import discord

from bot.game.table import Table
from bot.i18n import t, tn
from bot.rules import RANKS, Card, Combo, ComboKind, classify, format_cards, rank_counts
from bot.service.renderer import Renderer
from cogs import texts
from cogs.components import Components
from cogs.items import ViewState, cards_to_mask, to_base36
from rendering import render_hand_cached

B = discord.ButtonStyle


ImageKey = tuple[tuple[int, ...], frozenset[int], str, str, tuple[int, ...] | None]
"""What a hand image shows: (card indices, selected indices, sort, language)."""


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

    @property
    def image_key(self) -> ImageKey:
        """What the hand image shows: (card indices, selected, sort, language, counter)."""
        return (tuple(c.index for c in self.cards), self.state.selected, self.state.sort,
                self.lang, self.counts)


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


def _turn_line(table: Table, seat: int, lang: str) -> str:
    hand = table.hand
    if table.phase != "playing" or hand is None or hand.turn is None:
        return t("hand.over", lang)
    to_beat = hand.last_play if hand.last_play is not None and hand.last_play.seat != seat else None
    if hand.turn != seat:
        line = t("hand.waiting", lang, name=texts.seat_name(table, hand.turn, lang))
        if hand.phase == "playing" and hand.last_play is not None:
            combo = hand.last_play.combo
            line += " " + t("hand.to_beat", lang, cards=combo.notation,
                            kind=texts.kind_name(combo, lang),
                            name=texts.plain_name(table, hand.last_play.seat))
        return line
    if hand.phase == "bidding":
        return t("hand.your_turn_bid", lang)
    if to_beat is None:
        return t("hand.your_turn_lead", lang)
    return t("hand.your_turn_beat", lang, cards=to_beat.combo.notation,
             kind=texts.kind_name(to_beat.combo, lang), name=texts.plain_name(table, to_beat.seat))


def counter_text(counts: Sequence[int] | None, lang: str) -> str | None:
    """"Still out: 3×2, 5, 2×4, X, D" (ranks low→high, ×n when more than one; ranks
    all seen left out), or None without a counter (docs/RULES.md §Card counter)."""
    if counts is None:
        return None
    return _counter_text(tuple(counts), lang)


@functools.lru_cache(maxsize=1024)
def _counter_text(counts: tuple[int, ...], lang: str) -> str:
    """``counter_text`` once per (counts, language): every redraw of a view at one
    position shows the same counter."""
    parts = [rank.symbol + (f"×{n}" if n > 1 else "") for rank, n in zip(RANKS, counts, strict=True)
             if n]
    return t("alt.counter", lang, cards=", ".join(parts)) if parts else t("alt.counter_none", lang)


def build_screen(table: Table, seat: int, state: ViewState, lang: str, *,
                 notice: str | None = None, hint: str | None = None,
                 readings: Sequence[Combo] | None = None,
                 plays: Sequence[Combo] = (), legal: int | None = None,
                 counter: bool = False, inputs: ImageInputs | None = None) -> Screen:
    """Text, alt text and components of the hand view of ``seat``.

    ``plays``: the select menu's options (``bot.ai.ordered_plays``), ``legal``: how
    many legal plays there are (default: counted here); ``readings``:
    ask which reading to play; ``notice``: an ack or a refusal; ``hint``: a reason.
    ``counter``: add the card counter (the server's ``/ddz config counter``) to
    the image and the alt text, computed from ``seat``'s observation only.
    ``inputs``: ``image_inputs(table, seat, state, counter)`` when the caller has them.
    """
    hand = table.hand
    cards, state, counts = inputs or image_inputs(table, seat, state, counter)
    chosen = selected_cards(cards, state)
    lines = [t("hand.title", lang, table=table.id, hand=table.hand_no)]
    if hand is not None and hand.landlord is not None:
        lines.append(t("hand.role_landlord", lang) if hand.landlord == seat else
                     t("hand.role_peasant", lang, name=texts.plain_name(table, hand.landlord)))
    elif hand is not None:
        lines.append(t("hand.bidding", lang, bid=hand.winning_bid) if hand.winning_bid else
                     t("hand.bidding_none", lang))
    lines.append(_turn_line(table, seat, lang))
    if table.seats[seat].autoplay:
        lines.append(t("hand.autoplay", lang, pace=f"{table.seats[seat].pace:g}"))
    if chosen:
        found = classify(chosen, table.rules)
        lines.append(t("hand.selected_reading", lang, cards=format_cards(chosen),
                       reading=texts.reading_label(found[0], lang)) if found else
                     t("hand.selected", lang, cards=format_cards(chosen)))
    elif hand is not None and hand.phase == "playing" and table.phase == "playing":
        lines.append(t("hand.selected_none", lang))
    if hint:
        lines.append(t("hand.hint", lang, reason=hint))
    if notice:
        lines.append(notice)
    if readings:
        lines.append(t("hand.readings", lang))
    alt_parts = [t("alt.hand", lang, cards=format_cards(cards)) if cards
                 else t("alt.hand_empty", lang)]
    if counts is not None:
        alt_parts.append(counter_text(counts, lang) or "")
    if chosen:
        alt_parts.append(t("alt.selected", lang, selected=format_cards(chosen)))
    alt = ". ".join(alt_parts)
    view = None
    if table.phase == "playing" and hand is not None:
        view = _components(table, seat, state, lang, cards, readings or (), plays, legal)
        if len({c.rank_index for c in cards}) >= 15:
            lines.append(t("hand.sort_hint", lang))
    return Screen("\n".join(lines), alt, view, cards, state, table.seq, lang=lang, counts=counts)


@functools.lru_cache(maxsize=4096)
def _play_label(ranks: tuple[int, ...], kind: ComboKind, lang: str) -> str:
    """A menu option's label, "33344 (full house)", from the play's rank indices
    (``Combo.ranks``): the same few hundred labels come back on every redraw of every
    view (up to 25 per menu), so they are made once."""
    notation = "".join([RANKS[r].symbol for r in ranks])
    return t("play.label", lang, cards=notation, kind=texts.kind_label(kind, lang))


_MENUS: OrderedDict[tuple[int, str], tuple[Sequence[Combo], list[dict[str, Any]]]] = OrderedDict()
"""The menus made lately, by (id of the ranked plays, language); the plays are kept with
their menu, so an id is never mistaken for a later object's."""
MENUS_KEPT = 512
MENU_SIZE = 25
"""Most options a Discord select menu takes: the legal-play menu lists that many."""


def _menu_options(plays: Sequence[Combo], lang: str) -> list[dict[str, Any]]:
    """The legal-play menu's options (label, base-36 card mask) for ``plays``, the
    position's ranking (``TableService.ranked``, one object per position): every
    screen of that position (each click of its seat, each refresh) shows the same menu."""
    key = (id(plays), lang)
    found = _MENUS.get(key)
    if found is not None and found[0] is plays:
        return found[1]
    options = [Components.option(_play_label(c.ranks, c.kind, lang), to_base36(cards_to_mask(c.cards)))
               for c in plays[:MENU_SIZE]]
    if not isinstance(plays, tuple):  # a list could change under the same id
        return options
    _MENUS[key] = (plays, options)
    while len(_MENUS) > MENUS_KEPT:
        _MENUS.popitem(last=False)
    return options


def _components(table: Table, seat: int, state: ViewState, lang: str, cards: list[Card],
                readings: Sequence[Combo], plays: Sequence[Combo],
                legal: int | None) -> Components:
    hand = table.hand
    assert hand is not None
    view = Components()
    prefix, suffix = f"ddz:{table.id}:{table.seq}:h", "." + state.encode()  # cogs.items.hand_id
    my_turn = hand.turn == seat

    def button(verb: str, label: str, row: int, style: B = B.secondary, disabled: bool = False) -> None:
        view.button(prefix + verb + suffix, label, row, style, disabled)

    if readings:
        for k, combo in enumerate(readings[:5]):
            button(f"rd{k}", texts.reading_label(combo, lang), 0, B.primary)
    elif hand.phase == "bidding":
        allowed = hand.allowed_bids(seat)
        button("b0", t("btn.bid_pass", lang), 0, disabled=0 not in allowed)
        for amount in (1, 2, 3):
            button(f"b{amount}", t("btn.bid", lang, n=amount), 0, B.primary,
                   disabled=amount not in allowed)
    else:
        options = _menu_options(plays, lang)
        if options:
            count = len(hand.legal_plays(seat)) if legal is None else legal
            placeholder = tn("select.placeholder", count, lang, n=count)
            view.select(prefix + "pick" + suffix, options, placeholder, 0)
        else:
            view.select(prefix + "pick" + suffix, [Components.option(t("select.none", lang), "0")],
                        t("select.none", lang), 0, disabled=True)
    totals = rank_counts(cards)  # by rank index
    chosen_of = rank_counts([c for c in cards if c.index in state.selected])
    held = [index for index in range(15) if totals[index]]
    for i, index in enumerate(held):
        chosen = chosen_of[index]
        button(f"r{index}", _rank_label(index, chosen, totals[index]), 1 + i // 5,
               B.success if chosen else B.secondary)
    if len(held) < 15:
        me = table.seats[seat]
        if me.autoplay:  # Auto says what a click does: a0 turns it off, a1 on (at me.pace)
            button("a0", t("btn.auto_on", lang, pace=f"{me.pace:g}"), 1 + len(held) // 5, B.success)
        else:
            button("a1", t("btn.auto_off", lang), 1 + len(held) // 5)
    playing = hand.phase == "playing"
    if playing:
        lead = hand.to_beat_for(seat) is None
        button("play", t("btn.play", lang), 4, B.primary, disabled=not (my_turn and cards))
        button("pass", t("btn.pass", lang), 4, disabled=not (my_turn and not lead))
    button("hint", t("btn.hint", lang), 4, disabled=not cards)
    if playing or state.selected:
        button("clear", t("btn.clear", lang), 4, B.danger, disabled=not state.selected)
    button("sort", t("btn.sort_groups" if state.sort == "groups" else "btn.sort_rank", lang), 4)
    return view


@functools.lru_cache(maxsize=256)
def _rank_label(index: int, chosen: int, total: int) -> str:
    """A rank button's label: "7", "7 ×3" (three held), "7 2/3" (two of three selected)."""
    symbol = RANKS[index].symbol
    return symbol + (f" {chosen}/{total}" if chosen else (f" ×{total}" if total > 1 else ""))


ImageInputs = tuple[list[Card], ViewState, tuple[int, ...] | None]
"""What a hand image shows: the cards, the view state, the counter's counts (or None)."""


def image_inputs(table: Table, seat: int, state: ViewState, counter: bool = False, *,
                 counts: tuple[int, ...] | None = None) -> ImageInputs:
    """What ``seat``'s hand image shows, without the rest of the screen: the cards, the
    state with its selection narrowed to them, and the card counter's 15 counts (None
    when ``counter`` is off; ``counts``: those counts when the caller has them,
    ``TableService.still_out``)."""
    hand = table.hand
    cards = hand.hand_of(seat) if hand is not None else []
    state = state.with_selected(frozenset(c.index for c in selected_cards(cards, state)))
    if not counter or hand is None:
        counts = None
    elif counts is None:
        counts = hand.observation(seat).still_out()
    return cards, state, counts


async def render_screen(screen: Screen, lang: str, renderer: Renderer | None = None) -> Screen:
    """``screen`` with its hand image (``draw_image``)."""
    screen.png = await draw_image(screen.cards, screen.state, lang, screen.counts, renderer)
    return screen


async def draw_image(cards: Sequence[Card], state: ViewState, lang: str,
                     counts: tuple[int, ...] | None, renderer: Renderer | None = None,
                     urgent: bool = False) -> bytes:
    """The hand image (selected cards raised) drawn by ``renderer``'s worker processes
    (``bot.service.renderer``), or without any in a worker thread; an image drawn
    lately is reused either way (``rendering.render_hand_cached``). No position labels
    under the cards: the view selects by rank, so 1..n would mean nothing (the raised
    cards show the selection); ``image_key`` needs no flag for it. ``urgent``: a
    member waits for it (ahead of the public table images, ``WorkerPool.run``)."""
    if renderer is not None and renderer.pool.workers:
        return await renderer.hand(cards, selected=state.selected, sort=state.sort, locale=lang,
                                   counter=counts, urgent=urgent)
    return await asyncio.to_thread(render_hand_cached, tuple(cards), selected=state.selected,
                                   sort=state.sort, locale=lang, show_indices=False,
                                   counter=counts)


def rank_of_verb(verb: str) -> int | None:
    """``r7`` → 7 (a rank index 0..14), else None."""
    if verb.startswith("r") and verb[1:].isdigit():
        index = int(verb[1:])
        return index if 0 <= index < len(RANKS) else None
    return None
