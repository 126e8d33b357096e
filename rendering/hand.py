"""The private hand image: an overlapping fan of up to 20 cards.

Image: palette PNG (composed in RGB, ``rendering.compose.encode_png``), ``WIDTH`` (800) px wide, so Discord's ~400 px mobile preview
shows each corner rank at about half size and still readable. Selected cards
are raised by ``RAISE`` px and outlined in gold; optional 1-based position
labels sit under each card's visible strip. An optional card counter strip
(记牌器, docs/RULES.md §Card counter) sits above the cards: a title ("Not seen by
you yet"), then for each rank 3 … 2 and the jokers (by the card faces' marks: ☆ the
small joker, a red ★ the big one) the number of cards the player has not seen, greyed
when none is. It is on top so that no count sits in the bottom-left corner, where
Discord draws its ALT badge over an image with alt text (issue 48: the first count hid
there). Every text is at least ``MIN_PX`` (22 px: 11 px at the ~400 px a phone shows
the 800 px image); the counter's ranks and counts are drawn ``COUNTER_PX`` (40 px) so
their digits themselves are 15 px tall there.

Under the Happy rules a hand another seat shows (明牌, docs/RULES.md §Happy rules) is
drawn face up at the top, one strip of ``SHOWN_STRIP_H`` px per shown hand ("Ana's hand,
shown", then her cards across the width as large as the member's own, their corner ranks
11 px tall at a phone's 400 px), above the counter, which already leaves those cards out; the rest of
the image is drawn as without them.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from functools import lru_cache

from PIL import Image, ImageFont

from bot.rules.cards import DECK, RANKS, Card
from rendering.bands import FACES_LEVEL, Band, assemble, band, kept, paletted
from rendering.cards import (
    LARGE,
    SHADOW_MARGIN,
    SortMode,
    card_sprite,
    rank_label,
    sort_cards,
)
from rendering.compose import (
    FELT,
    GOLD,
    INK,
    MUTED,
    PANEL,
    WHITE,
    draw_fan,
    encode_png,
    fan_step,
    fan_width,
    paste_cards,
)
from rendering.strings import text
from rendering.text import Draw, draw_text, fit_text, font

WIDTH = 800
MARGIN = 12
RAISE = 26
TOP = MARGIN + RAISE
LABEL_H = 30
LABEL_PX = 22
MIN_PX = 22
"""Smallest text size in px on the image (11 px at a phone's ~400 px width)."""
COUNTER_H = 132
"""Height in px of the card counter strip (with its gap to the cards)."""
COUNTER_TOP = MARGIN
"""Top in px of the card counter strip: above the cards."""
COUNTER_TITLE_H = 30
"""Height in px of the counter's title line, above its cells."""
COUNTER_LABEL_W = 0
COUNTER_PX = 40
"""Size in px of the counter's ranks and counts: their digits are 30 px tall, 15 px on
a phone's 400 px (issue 48: at 32 px they were 23 px, about 9 px in Discord's narrower
mobile preview; issue 37 §5: at 24 px, 18 px). "10" is drawn smaller to fit its cell."""
BIG_JOKER_RED = (240, 96, 96)
"""The big joker's ★ on the counter: the card face's red, lightened to read on green."""
GREYED = (82, 128, 104)
"""Colour of a rank whose cards are all seen (count 0)."""
SHOWN_STRIP_H = MARGIN + 34 + LARGE.height + 12
"""Height in px of one shown hand's strip (its panel: title line, the small cards)."""
ShownHands = Sequence[tuple[str, Sequence[Card]]]
"""Hands other seats show face up: (title in the reader's words, cards), in seat order."""


def hand_height(show_indices: bool = True, counter: bool = False, shown: int = 0) -> int:
    """Image height in px (fixed for a given ``show_indices``, ``counter`` and number of
    ``shown`` hands)."""
    extra = (LABEL_H + 4 if show_indices else 0) + (COUNTER_H if counter else 0)
    return TOP + LARGE.height + extra + MARGIN + shown * SHOWN_STRIP_H


def shown_image(title: str, cards: Sequence[Card]) -> Image.Image:
    """One shown hand's strip (RGB, ``WIDTH`` × ``SHOWN_STRIP_H``): a panel with its
    title, then its cards face up, in rank order."""
    img = Image.new("RGB", (WIDTH, SHOWN_STRIP_H), FELT)
    draw = Draw(img)
    draw.rounded_rectangle((MARGIN, MARGIN, WIDTH - MARGIN, SHOWN_STRIP_H - 4), radius=8,
                           fill=PANEL)
    label, face = fit_text(title, WIDTH - 2 * MARGIN - 24, (MIN_PX,), bold=True)
    draw_text(draw, (MARGIN + 12, MARGIN + 4), label, face, GOLD)
    draw_fan(img, sort_cards(cards), MARGIN + 12, MARGIN + 34, "large",
             WIDTH - 2 * MARGIN - 24)
    return img


def counter_cells(top: int) -> list[tuple[int, int, int, int]]:
    """The 15 cells (left, top, right, bottom) px of the counter strip, in rank order
    (under its title line)."""
    left = MARGIN + 6 + COUNTER_LABEL_W
    width = (WIDTH - MARGIN - 6 - left) // len(RANKS)
    y0 = top + COUNTER_TITLE_H
    return [(left + i * width, y0, left + (i + 1) * width - 2, top + COUNTER_H - 8)
            for i in range(len(RANKS))]


def counter_mark(index: int) -> str:
    """What the counter writes over rank ``index``'s count: the rank as on the cards, the
    jokers by their faces' marks (☆ small, ★ big) rather than X and D."""
    return ("☆", "★")[index - 13] if index >= 13 else rank_label(RANKS[index])


def _fitting(label: str, room: int) -> ImageFont.FreeTypeFont:
    """``COUNTER_PX`` bold, or smaller until ``label`` fits ``room`` px ("10")."""
    size = COUNTER_PX
    while size > MIN_PX and font(size, True).getlength(label) > room:
        size -= 2
    return font(size, True)


def _draw_counter(img: Image.Image, top: int, counts: Sequence[int], locale: str,
                  parts: Collection[int] = (0, 1, 2)) -> None:
    """The strip: its title (part 0), then each rank's mark (part 1) over its count
    (part 2), greyed when 0; ``parts``: which of them to draw on the panel."""
    draw = Draw(img)
    draw.rounded_rectangle((MARGIN, top, WIDTH - MARGIN, top + COUNTER_H - 8), radius=8, fill=PANEL)
    if 0 in parts:
        draw.text((MARGIN + 12, top + 4), text(locale, "counter"), font=font(MIN_PX, True),
                  fill=MUTED)
    for index, ((x0, y0, x1, _), count) in enumerate(zip(counter_cells(top), counts, strict=True)):
        colour = WHITE if count else GREYED
        mark_colour = BIG_JOKER_RED if index == 14 and count else colour
        cx = (x0 + x1) // 2
        mark = counter_mark(index)
        if 1 not in parts:
            pass
        elif index == 13:  # the hollow star, its lines thickened to read at a phone's size
            draw.text((cx, y0 + 24), mark, fill=mark_colour, font=font(COUNTER_PX, True),
                      anchor="mm", stroke_width=2, stroke_fill=mark_colour)
        else:
            draw.text((cx, y0 + 24), mark, font=_fitting(mark, x1 - x0 - 2), fill=mark_colour,
                      anchor="mm")
        if 2 in parts:
            draw.text((cx, y0 + 70), str(count), font=font(COUNTER_PX, True), fill=colour,
                      anchor="mm")


def fan_positions(count: int) -> list[int]:
    """Left x (px) of each displayed card's face for a hand of ``count`` cards."""
    step = fan_step(count, "large", WIDTH - 2 * MARGIN, max_gap=6)
    left = (WIDTH - fan_width(count, "large", step)) // 2
    return [left + i * step for i in range(count)]


def hand_image(
    cards: Sequence[Card],
    *,
    selected: Collection[int] = (),
    sort: SortMode = "rank",
    locale: str = "en",
    show_indices: bool = True,
    counter: Sequence[int] | None = None,
    shown: ShownHands = (),
) -> Image.Image:
    """The RGB canvas ``render_hand`` encodes, drawn in one piece (arguments as there).
    Raises ValueError on a counter that is not 15 counts."""
    if counter is not None and len(counter) != len(RANKS):
        raise ValueError(f"counter needs {len(RANKS)} counts, not {len(counter)}")
    if shown:  # the strips on top of the image drawn without them
        rest = hand_image(cards, selected=selected, sort=sort, locale=locale,
                          show_indices=show_indices, counter=counter)
        img = Image.new("RGB", (WIDTH, len(shown) * SHOWN_STRIP_H + rest.height), FELT)
        for i, (title, face_up) in enumerate(shown):
            img.paste(shown_image(title, face_up), (0, i * SHOWN_STRIP_H))
        img.paste(rest, (0, len(shown) * SHOWN_STRIP_H))
        return img
    ordered = sort_cards(cards, sort)
    img = Image.new("RGB", (WIDTH, hand_height(show_indices, counter is not None)), FELT)
    shift = 0
    if counter is not None:
        _draw_counter(img, COUNTER_TOP, counter, locale)
        shift = COUNTER_H
    if not ordered:
        Draw(img).text((WIDTH // 2, (img.height + shift) // 2), text(locale, "no_cards"),
                       font=font(26, True), fill=MUTED, anchor="mm")
        return img
    _draw_fan(img, ordered, set(selected), TOP + shift, show_indices)
    return img


def _draw_fan(img: Image.Image, ordered: Sequence[Card], chosen: Collection[int], top: int,
              show_indices: bool) -> None:
    """The fan of ``ordered`` cards with its top edge at ``top`` px (a selected card
    ``RAISE`` px higher), and the position labels under it when ``show_indices``."""
    draw = Draw(img)
    xs = fan_positions(len(ordered))
    placed = []
    for x, card in zip(xs, ordered, strict=True):
        up = card.index in chosen
        placed.append((card_sprite(card.index, "large", up), x, top - RAISE if up else top))
    paste_cards(img, placed)
    if show_indices:
        label_font = font(LABEL_PX, True)
        cy = top + LARGE.height + 4 + LABEL_H // 2
        for pos, (x, card) in enumerate(zip(xs, ordered, strict=True), start=1):
            cx = x + LARGE.strip // 2
            if card.index in chosen:
                draw.rounded_rectangle((cx - 15, cy - 14, cx + 15, cy + 14), radius=7, fill=GOLD)
                draw.text((cx, cy), str(pos), font=label_font, fill=INK, anchor="mm")
            else:
                draw.text((cx, cy), str(pos), font=label_font, fill=MUTED, anchor="mm")


def render_hand(
    cards: Sequence[Card],
    *,
    selected: Collection[int] = (),
    sort: SortMode = "rank",
    locale: str = "en",
    show_indices: bool = True,
    counter: Sequence[int] | None = None,
    shown: ShownHands = (),
) -> bytes:
    """PNG bytes of a hand.

    ``selected`` holds ``Card.index`` values (0..53); those cards are raised.
    ``sort`` picks the display order (see ``sort_cards``); position labels
    (1..n, left to right) follow that order. ``counter``: 15 counts (cards still
    out per rank, ``Rank.index`` order) drawn as a strip above the cards, or None.
    ``shown``: the hands other seats show face up (Happy rules), a strip each on top
    (``SHOWN_STRIP_H`` px). ``locale`` matters for the empty-hand text and the counter's
    label. Pure CPU
    work: call through ``asyncio.to_thread``. Raises ValueError on a counter that
    is not 15 counts.

    Assembled from bands (``rendering.bands``) kept per process: the fan of cards
    (by cards, selection, sort), the counter's title (by language), its marks (by which
    ranks are all seen) and its counts, so a redraw after another player's move draws
    and deflates only the counts' rows. The pixels are ``hand_image``'s.
    """
    if counter is not None and len(counter) != len(RANKS):
        raise ValueError(f"counter needs {len(RANKS)} counts, not {len(counter)}")
    if not cards:
        return encode_png(hand_image(cards, locale=locale, show_indices=show_indices,
                                     counter=counter, shown=shown))
    indices = tuple(sorted(c.index for c in cards))
    chosen = frozenset(selected) & frozenset(indices)
    fan = _fan_band(indices, chosen, sort, show_indices, counter is not None)
    strips = [_shown_band(title, tuple(sorted(c.index for c in face_up)))
              for title, face_up in shown]
    if counter is None:
        return assemble([*strips, fan])
    counts = tuple(counter)
    return assemble([*strips, _counter_band(0, (), locale),
                     _counter_band(1, tuple(c > 0 for c in counts), ""),
                     _counter_band(2, counts, ""), fan])


@kept
@lru_cache(maxsize=64)
def _shown_band(title: str, indices: tuple[int, ...]) -> Band:
    """A shown hand's strip (``shown_image``) as a band."""
    return band(shown_image(title, [DECK[i] for i in indices]), FACES_LEVEL, codec="isal")


COUNTER_SPLITS = (0, COUNTER_TOP + COUNTER_TITLE_H, COUNTER_TOP + COUNTER_TITLE_H + 48,
                  TOP + COUNTER_H - RAISE - SHADOW_MARGIN)
"""Rows where the counter's bands start: its title, its marks, its counts; the last is
where the fan's band starts (the highest row a raised card's shadow reaches)."""


FAN_BANDS = 2048
"""Fans kept per process (``_fan_band``; ≈ 11 KB each, so ≈ 22 MB at most): at 400 tables
the 1,024 kept before dropped a waiting member's fan before their card counter's next
refresh, which then drew it again (docs/PERFORMANCE.md §Card faces deflated by ISA-L)."""


@kept
@lru_cache(maxsize=FAN_BANDS)
def _fan_band(indices: tuple[int, ...], chosen: frozenset[int], sort: SortMode,
              show_indices: bool, counter: bool) -> Band:
    """The rows of the fan (with its labels), from ``COUNTER_SPLITS[-1]`` down with a
    counter strip, all of them without."""
    start = COUNTER_SPLITS[-1] if counter else 0
    img = Image.new("RGB", (WIDTH, hand_height(show_indices, counter) - start), FELT)
    _draw_fan(img, sort_cards([DECK[i] for i in indices], sort), chosen,
              TOP + (COUNTER_H if counter else 0) - start, show_indices)
    return band(img, FACES_LEVEL, final=True, codec="isal")


_ANY_COUNTS = (1,) * len(RANKS)


@kept
@lru_cache(maxsize=2048)
def _counter_band(part: int, key: tuple[int, ...] | tuple[bool, ...], locale: str) -> Band:
    """Band ``part`` of the counter strip: 0 its title (``locale``), 1 its marks (``key``:
    which ranks still have cards out), 2 its counts (``key``: the 15 counts)."""
    if part == 2:  # the counts: each cell's tile on the panel
        img = _counts_panel().copy()
        for index, count in enumerate(key):
            tile, left, top = _count_tile(int(count), index)
            img.paste(tile, (left, top))
        return band(img)
    start, end = COUNTER_SPLITS[part], COUNTER_SPLITS[part + 1]
    counts = tuple(int(bool(k)) for k in key) if part == 1 else _ANY_COUNTS
    img = Image.new("RGB", (WIDTH, end - start), FELT)
    _draw_counter(img, COUNTER_TOP - start, counts, locale or "en", (part,))
    return band(img)


@kept
@lru_cache(maxsize=1)
def _counts_panel() -> Image.Image:
    """The counts' band with no count on it ("P", ``SHARED_PALETTE``)."""
    start, end = COUNTER_SPLITS[2], COUNTER_SPLITS[3]
    img = Image.new("RGB", (WIDTH, end - start), FELT)
    _draw_counter(img, COUNTER_TOP - start, _ANY_COUNTS, "en", ())
    return paletted(img)


@kept
@lru_cache(maxsize=256)
def _count_tile(count: int, index: int) -> tuple[Image.Image, int, int]:
    """Cell ``index``'s count ``count`` as drawn on the counts' band: ("P" tile, left,
    top) in the band, the cell's inside (2 px in from its sides, clear of the panel's
    corners) from its count's row down to the band's end."""
    start, end = COUNTER_SPLITS[2], COUNTER_SPLITS[3]
    x0, y0, x1, _ = counter_cells(COUNTER_TOP - start)[index]
    img = Image.new("RGB", (WIDTH, end - start), FELT)
    counts = [1] * len(RANKS)
    counts[index] = count
    _draw_counter(img, COUNTER_TOP - start, counts, "en", (2,))
    box = (x0 + 2, max(0, y0), x1 - 2, y0 + 94)
    return paletted(img.crop(box)), box[0], box[1]


HAND_CACHE_SIZE = 64
"""Hand PNGs kept by ``render_hand_cached`` (≈ 40 KB each, so ≈ 2.5 MB at most)."""


@kept
@lru_cache(maxsize=HAND_CACHE_SIZE)
def _render_hand_memo(
    cards: tuple[Card, ...], selected: frozenset[int], sort: SortMode, locale: str,
    show_indices: bool, counter: tuple[int, ...] | None,
    shown: tuple[tuple[str, tuple[Card, ...]], ...] = (),
) -> bytes:
    return render_hand(cards, selected=selected, sort=sort, locale=locale,
                       show_indices=show_indices, counter=counter, shown=shown)


def render_hand_cached(
    cards: Sequence[Card],
    *,
    selected: Collection[int] = (),
    sort: SortMode = "rank",
    locale: str = "en",
    show_indices: bool = True,
    counter: Sequence[int] | None = None,
    shown: ShownHands = (),
) -> bytes:
    """``render_hand`` memoized on (cards, selected, sort, locale, show_indices, counter,
    shown):
    the same bytes, drawn once while among the last ``HAND_CACHE_SIZE`` hands asked
    for (an unchanged hand view redrawn after another player's move costs nothing).
    Thread-safe (``functools.lru_cache``); call through ``asyncio.to_thread``."""
    return _render_hand_memo(tuple(cards), frozenset(selected), sort, locale, show_indices,
                             None if counter is None else tuple(counter),
                             tuple((title, tuple(face_up)) for title, face_up in shown))
