"""The private hand image: an overlapping fan of up to 20 cards.

Image: palette PNG (composed in RGB, ``rendering.compose.encode_png``), ``WIDTH`` (800) px wide, so Discord's ~400 px mobile preview
shows each corner rank at about half size and still readable. Selected cards
are raised by ``RAISE`` px and outlined in gold; optional 1-based position
labels sit under each card's visible strip. An optional card counter strip
(记牌器, docs/RULES.md §Card counter) sits under the cards: a title ("Not seen by
you yet"), then for each rank 3 … 2, X, D the number of cards the player has not
seen, greyed when none is. Every text is at least ``MIN_PX`` (22 px: 11 px at the
~400 px a phone shows the 800 px image); the counter's ranks and counts are drawn
``COUNTER_PX`` (32 px) so their digits themselves are 11 px tall there.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from functools import lru_cache

from PIL import Image

from bot.rules.cards import RANKS, Card
from rendering.cards import LARGE, SortMode, card_sprite, rank_label, sort_cards
from rendering.compose import (
    FELT,
    GOLD,
    INK,
    MUTED,
    PANEL,
    WHITE,
    encode_png,
    fan_step,
    fan_width,
    paste_card,
)
from rendering.strings import text
from rendering.text import Draw, font

WIDTH = 800
MARGIN = 12
RAISE = 26
TOP = MARGIN + RAISE
LABEL_H = 30
LABEL_PX = 22
MIN_PX = 22
"""Smallest text size in px on the image (11 px at a phone's ~400 px width)."""
COUNTER_H = 116
"""Height in px of the card counter strip (with its top gap)."""
COUNTER_TITLE_H = 30
"""Height in px of the counter's title line, above its cells."""
COUNTER_LABEL_W = 0
COUNTER_PX = 32
"""Size in px of the counter's ranks and counts: their digits are 23 px tall, 11.5 px on
a phone's 400 px (issue 37 §5; at 24 px they were 18 px, 9 px on a phone)."""
GREYED = (82, 128, 104)
"""Colour of a rank whose cards are all seen (count 0)."""


def hand_height(show_indices: bool = True, counter: bool = False) -> int:
    """Image height in px (fixed for a given ``show_indices`` and ``counter``)."""
    extra = (LABEL_H + 4 if show_indices else 0) + (COUNTER_H if counter else 0)
    return TOP + LARGE.height + extra + MARGIN


def counter_cells(top: int) -> list[tuple[int, int, int, int]]:
    """The 15 cells (left, top, right, bottom) px of the counter strip, in rank order
    (under its title line)."""
    left = MARGIN + 6 + COUNTER_LABEL_W
    width = (WIDTH - MARGIN - 6 - left) // len(RANKS)
    y0 = top + COUNTER_TITLE_H
    return [(left + i * width, y0, left + (i + 1) * width - 2, top + COUNTER_H - 8)
            for i in range(len(RANKS))]


def _draw_counter(img: Image.Image, top: int, counts: Sequence[int], locale: str) -> None:
    """The strip: its title, then each rank symbol over its count (greyed when 0)."""
    draw = Draw(img)
    draw.rounded_rectangle((MARGIN, top, WIDTH - MARGIN, top + COUNTER_H - 8), radius=8, fill=PANEL)
    draw.text((MARGIN + 12, top + 4), text(locale, "counter"), font=font(MIN_PX, True), fill=MUTED)
    for (x0, y0, x1, _), rank, count in zip(counter_cells(top), RANKS, counts, strict=True):
        colour = WHITE if count else GREYED
        cx = (x0 + x1) // 2
        draw.text((cx, y0 + 18), rank_label(rank), font=font(COUNTER_PX, True), fill=colour,
                  anchor="mm")
        draw.text((cx, y0 + 55), str(count), font=font(COUNTER_PX, True), fill=colour, anchor="mm")


def fan_positions(count: int) -> list[int]:
    """Left x (px) of each displayed card's face for a hand of ``count`` cards."""
    step = fan_step(count, "large", WIDTH - 2 * MARGIN, max_gap=6)
    left = (WIDTH - fan_width(count, "large", step)) // 2
    return [left + i * step for i in range(count)]


def render_hand(
    cards: Sequence[Card],
    *,
    selected: Collection[int] = (),
    sort: SortMode = "rank",
    locale: str = "en",
    show_indices: bool = True,
    counter: Sequence[int] | None = None,
) -> bytes:
    """PNG bytes of a hand.

    ``selected`` holds ``Card.index`` values (0..53); those cards are raised.
    ``sort`` picks the display order (see ``sort_cards``); position labels
    (1..n, left to right) follow that order. ``counter``: 15 counts (cards still
    out per rank, ``Rank.index`` order) drawn as a strip under the cards, or None.
    ``locale`` matters for the empty-hand text and the counter's label. Pure CPU
    work: call through ``asyncio.to_thread``. Raises ValueError on a counter that
    is not 15 counts.
    """
    if counter is not None and len(counter) != len(RANKS):
        raise ValueError(f"counter needs {len(RANKS)} counts, not {len(counter)}")
    ordered = sort_cards(cards, sort)
    chosen = set(selected)
    img = Image.new("RGB", (WIDTH, hand_height(show_indices, counter is not None)), FELT)
    draw = Draw(img)
    if counter is not None:
        _draw_counter(img, img.height - MARGIN - COUNTER_H + 8, counter, locale)
    if not ordered:
        draw.text((WIDTH // 2, (img.height - (COUNTER_H if counter else 0)) // 2),
                  text(locale, "no_cards"), font=font(26, True), fill=MUTED, anchor="mm")
        return encode_png(img)
    xs = fan_positions(len(ordered))
    for x, card in zip(xs, ordered, strict=True):
        up = card.index in chosen
        paste_card(img, card_sprite(card.index, "large", up), x, TOP - RAISE if up else TOP)
    if show_indices:
        label_font = font(LABEL_PX, True)
        cy = TOP + LARGE.height + 4 + LABEL_H // 2
        for pos, (x, card) in enumerate(zip(xs, ordered, strict=True), start=1):
            cx = x + LARGE.strip // 2
            if card.index in chosen:
                draw.rounded_rectangle((cx - 15, cy - 14, cx + 15, cy + 14), radius=7, fill=GOLD)
                draw.text((cx, cy), str(pos), font=label_font, fill=INK, anchor="mm")
            else:
                draw.text((cx, cy), str(pos), font=label_font, fill=MUTED, anchor="mm")
    return encode_png(img)


HAND_CACHE_SIZE = 64
"""Hand PNGs kept by ``render_hand_cached`` (≈ 40 KB each, so ≈ 2.5 MB at most)."""


@lru_cache(maxsize=HAND_CACHE_SIZE)
def _render_hand_memo(
    cards: tuple[Card, ...], selected: frozenset[int], sort: SortMode, locale: str,
    show_indices: bool, counter: tuple[int, ...] | None,
) -> bytes:
    return render_hand(cards, selected=selected, sort=sort, locale=locale,
                       show_indices=show_indices, counter=counter)


def render_hand_cached(
    cards: Sequence[Card],
    *,
    selected: Collection[int] = (),
    sort: SortMode = "rank",
    locale: str = "en",
    show_indices: bool = True,
    counter: Sequence[int] | None = None,
) -> bytes:
    """``render_hand`` memoized on (cards, selected, sort, locale, show_indices, counter):
    the same bytes, drawn once while among the last ``HAND_CACHE_SIZE`` hands asked
    for (an unchanged hand view redrawn after another player's move costs nothing).
    Thread-safe (``functools.lru_cache``); call through ``asyncio.to_thread``."""
    return _render_hand_memo(tuple(cards), frozenset(selected), sort, locale, show_indices,
                             None if counter is None else tuple(counter))
