"""The public table image (docs/RULES.md §A hand at the table, step 4).

Layout (palette PNG, ``WIDTH`` = 800 px, fixed height): a header with the hand
number, bid, multiplier and the kitty (face down until revealed); one panel per
seat with name, role badge, cards left (warnings at 2 and 1), and the seat's
last play of this round ("pass" or small cards) — while bidding, its bid
("Pass" / "Bid 2") instead; the seat to act is outlined in gold with a ▶ and
reads "to play" (or "to bid"), also when its own earlier play of the round is
still shown (then as a pill in its name row); the play to beat is outlined in
gold and marked "to beat", a bomb or the rocket tagged with its doubling ("BOMB
×2"); a plain-text status line at the bottom says in words who is to act and what
to beat. Every text is at least ``MIN_PX`` (22 px: 11 px at the ~400 px a phone
shows the 800 px image).

Under the Happy rules (docs/RULES.md §Happy rules) a seat whose hand is shown (明牌)
gets a strip under its row with those cards face up (large cards, as in a hand view:
their corner ranks 11 px tall at a phone's 400 px) and a "Shown hand" mark in its name row, so the image grows
by ``SHOWN_H`` per shown hand (``table_height``); while calling and grabbing each seat's
slot holds its latest word ("Grab ×2", "Don't call"), and the seat asked reads "▶ to call",
"▶ to grab", "▶ to show or not" or, all at once, "▶ to double". A classic table's image
is unchanged: ``HEIGHT`` px.
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.rules.cards import Card
from rendering.bands import Band, Codec, assemble, band, kept
from rendering.cards import LARGE, SMALL
from rendering.compose import (
    DANGER,
    FELT,
    FELT_DARK,
    GOLD,
    INK,
    MUTED,
    PANEL,
    WARN,
    WHITE,
    draw_backs,
    draw_fan,
    draw_pill,
    role_badge,
)
from rendering.models import LastAction, SeatView, TableView
from rendering.strings import text, text_n
from rendering.text import Draw, draw_text, fit_text, font, text_width

WIDTH = 800
PAD = 16
HEADER_H = 100
ROW_H = 126
ROW_GAP = 8
STATUS_H = 44
HEIGHT = HEADER_H + 3 * (ROW_H + ROW_GAP) + STATUS_H
PLAY_X = 300  # left edge of the last-play area inside a seat panel
NAME_SIZES = (26, 24, 22)
MIN_PX = 22
"""Smallest text size in px on the image (11 px at a phone's ~400 px width)."""
PILL_H = 32
SHOWN_H = LARGE.height + 16
"""Height in px of a shown hand's strip under its seat's row (Happy rules): large cards,
as in a hand view, so their corner ranks are 11 px at a phone's 400 px (small cards': 8)."""
SHOWN_FILL = (40, 70, 120)
"""The "Shown hand" mark's colour: a blue apart from gold ("to beat") and red (bombs)."""
BAND_LEVEL = 2
"""ISA-L level (``rendering.bands.FACES_LEVEL``'s codec) of the table's bands: a fifth of
zlib's CPU at level 4, which they had, for 8 % more bytes, still fewer than the issue-54
start's whole encoding (``encode_png``): 19.1 against 17.7 and 20.0 KB a table image of
a recorded 400-table run (docs/PERFORMANCE.md §Table bands deflated by ISA-L)."""
BAND_CODEC: Codec = "isal"
"""The deflate of the table's bands (``rendering.bands.band``'s ``codec``)."""
HEADERS_KEPT = 1024
"""Header bands kept per process (≈ 3 KB each): a table's header changes a few times a
hand (bid, multiplier, kitty) and every table's is redrawn at each board; 256 kept was
fewer than the tables a render worker serves at 400 tables, so it was drawn again."""


def row_height(seat: SeatView) -> int:
    """A seat's row in px: ``ROW_H``, plus ``SHOWN_H`` when its hand is shown."""
    return ROW_H + (SHOWN_H if seat.shown is not None else 0)


def table_height(view: TableView) -> int:
    """The image's height in px: ``HEIGHT`` unless a hand is shown (Happy rules)."""
    return HEADER_H + sum(row_height(seat) + ROW_GAP for seat in view.seats) + STATUS_H


def _header(img: Image.Image, draw: ImageDraw.ImageDraw, view: TableView, locale: str) -> None:
    if view.hand_number is not None:
        draw.text((PAD, 8), text(locale, "hand_number", n=view.hand_number), font=font(MIN_PX),
                  fill=MUTED)
    kitty_x = WIDTH - PAD - 3 * (SMALL.width + 6) + 6
    label = text(locale, "kitty")
    if view.rules:  # no bids under these rules: their name instead (docs/RULES.md §Happy rules)
        room = kitty_x - 24 - text_width(label, font(MIN_PX, True)) - PAD
        rules, face = fit_text(view.rules, room, (26, 24, MIN_PX), bold=True)
        draw_text(draw, (PAD, 38), rules, face, WHITE)
    else:
        bid = text(locale, "no_bid") if not view.bid else f"{text(locale, 'bid')} {view.bid}"
        draw.text((PAD, 38), bid, font=font(26, True), fill=WHITE)
    draw.text((PAD, 70), text(locale, "multiplier", n=view.multiplier), font=font(MIN_PX, True),
              fill=GOLD)
    draw.text((kitty_x - 12, 50), label, font=font(MIN_PX, True), fill=MUTED, anchor="rm")
    if view.kitty is None:
        draw_backs(img, 3, kitty_x, 14, "small", SMALL.width + 6)
    else:
        draw_fan(img, list(view.kitty), kitty_x, 14, "small", 3 * (SMALL.width + 6))


def _cards_left(img: Image.Image, draw: ImageDraw.ImageDraw, seat: SeatView, x: int, y: int, locale: str) -> None:
    """Card back with the count on it, the count in words, and the 2/1 warning."""
    draw_backs(img, 1, x, y, "small", 0)
    draw.text((x + SMALL.width // 2, y + SMALL.height // 2), str(seat.cards_left), font=font(22, True),
              fill=WHITE, anchor="mm", stroke_width=2, stroke_fill=(10, 30, 70))
    words = text_n(locale, "cards_left", seat.cards_left, n=seat.cards_left)
    tx = x + SMALL.width + 12
    draw.text((tx, y + 2), words, font=font(MIN_PX, True), fill=WHITE)
    if seat.cards_left in (1, 2):
        key, fill = ("warn_one", DANGER) if seat.cards_left == 1 else ("warn_two", WARN)
        label, face = fit_text(text(locale, key), PLAY_X - tx - PILL_H - 8, (MIN_PX,), bold=True)
        draw_pill(draw, tx, y + 34, label, face, fill, WHITE, height=PILL_H)


def _outlined(draw: ImageDraw.ImageDraw, label: str, top: int, colour: tuple[int, int, int]) -> None:
    """A rounded outline with ``label`` inside, in the last-action slot ("Pass", "Bid 2")."""
    x, face = PLAY_X, font(24, True)
    w = text_width(label, face) + 36
    draw.rounded_rectangle((x, top + 14, x + w, top + SMALL.height - 14), radius=20, outline=colour, width=2)
    draw.text((x + w // 2, top + SMALL.height // 2), label, font=face, fill=colour, anchor="mm")


def _last_action(img: Image.Image, draw: ImageDraw.ImageDraw, seat: SeatView, top: int,
                 bidding: bool, locale: str) -> None:
    """The seat's play of this round, or while bidding its bid; else "▶ to play/bid"."""
    x, right = PLAY_X, WIDTH - PAD - 12
    if seat.asking is not None and (bidding or seat.last_action is None):
        draw.text((x, top + SMALL.height // 2), "▶ " + seat.asking, font=font(22, True),
                  fill=GOLD, anchor="lm")
        return
    if bidding and seat.said is not None:  # the Happy rules' call or grab
        _outlined(draw, seat.said, top, GOLD if seat.said_yes else MUTED)
        return
    shown = seat.bid if bidding else seat.last_action
    if shown is None or (bidding and seat.is_turn):
        if seat.is_turn:
            label = text(locale, "turn_bid" if bidding else "turn")
            draw.text((x, top + SMALL.height // 2), "▶ " + label, font=font(22, True), fill=GOLD, anchor="lm")
        return
    if shown == "pass" or (bidding and shown == 0):
        _outlined(draw, text(locale, "pass"), top, MUTED)
    elif bidding:
        _outlined(draw, text(locale, "base_bid", n=shown), top, GOLD)
    else:
        used = draw_fan(img, list(seat.last_action), x, top, "small", right - x)  # type: ignore[arg-type]  # a play: a pass is drawn above
        if seat.to_beat:
            draw.rounded_rectangle((x - 6, top - 5, x + used + 5, top + SMALL.height + 5), radius=9,
                                   outline=GOLD, width=3)


def _seat(img: Image.Image, draw: ImageDraw.ImageDraw, seat: SeatView, top: int,
          landlord_known: bool, bidding: bool, locale: str, parts: tuple[int, ...] = (0, 1)) -> None:
    """A seat's panel with its top at row ``top``: the panel, and of what is on it only
    ``parts`` (0: the name row, badge and marks, above ``SEAT_SPLIT``; 1: the body, cards
    left, last action and a shown hand, below it), so a band of one part draws nothing
    the band does not hold."""
    box = (PAD, top, WIDTH - PAD, top + row_height(seat))
    if seat.is_turn:
        draw.rounded_rectangle(box, radius=14, fill=PANEL, outline=GOLD, width=4)
    else:
        draw.rounded_rectangle(box, radius=14, fill=PANEL)
    x = PAD + 12
    if 0 in parts:
        right = WIDTH - PAD - 12
        if landlord_known:
            right -= role_badge(draw, right, top + 8, seat.is_landlord, locale, right=True) + 10
        right -= _pills(draw, seat, right, top + 8, bidding, locale)
        prefix = "▶ " if seat.is_turn else ""
        tag = f"  ({text(locale, 'computer')})" if seat.is_computer else ""
        tag_face = font(MIN_PX)
        avail = right - x - text_width(tag, tag_face)
        name, face = fit_text(prefix + seat.name, avail, NAME_SIZES, bold=True)
        draw_text(draw, (x, top + 24), name, face, GOLD if seat.is_turn else WHITE, anchor="lm")
        if tag:
            draw.text((x + text_width(name, face), top + 24), tag, font=tag_face, fill=MUTED,
                      anchor="lm")
    if 1 in parts:
        body = top + 46
        _cards_left(img, draw, seat, x, body, locale)
        _last_action(img, draw, seat, body, bidding, locale)
        if seat.shown is not None:  # 明牌: face up for everyone (docs/RULES.md §Happy rules)
            draw_fan(img, list(seat.shown), x, top + ROW_H - 2, "large", WIDTH - PAD - 12 - x)


def _pills(draw: ImageDraw.ImageDraw, seat: SeatView, right: int, top: int, bidding: bool,
           locale: str) -> int:
    """The name row's marks, right-aligned at ``right``: the bomb/rocket tag, "to beat",
    and "▶ to play" when the seat's own earlier play fills its last-action slot.
    Returns the width they take (with their gaps), 0 for none."""
    marks: list[tuple[str, tuple[int, int, int], tuple[int, int, int]]] = []
    if (seat.is_turn or seat.asking) and not bidding and seat.last_action is not None:
        marks.append(("▶ " + (seat.asking or text(locale, "turn")), GOLD, INK))
    if seat.to_beat and not bidding:
        marks.append((text(locale, "to_beat"), GOLD, INK))
    if seat.last_tag is not None and not bidding:
        marks.append((text(locale, f"tag_{seat.last_tag}"), DANGER, WHITE))
    if seat.shown is not None and seat.shown_label:
        marks.append((seat.shown_label, SHOWN_FILL, WHITE))
    face = font(MIN_PX, True)
    used = 0
    for label, fill, ink in marks:
        width = text_width(label, face) + PILL_H
        draw_pill(draw, right - used - width, top, label, face, fill, ink, height=PILL_H)
        used += width + 8
    return used


def table_image(view: TableView, *, locale: str = "en") -> Image.Image:
    """The RGB canvas ``render_table`` encodes, drawn in one piece (arguments and errors
    as there)."""
    if len(view.seats) != 3:
        raise ValueError(f"a table has 3 seats, got {len(view.seats)}")
    height = table_height(view)
    img = Image.new("RGB", (WIDTH, height), FELT)
    draw = Draw(img)
    draw.rectangle((0, 0, WIDTH, HEADER_H - 4), fill=FELT_DARK)
    _header(img, draw, view, locale)
    landlord_known = any(seat.is_landlord for seat in view.seats)
    top = SEATS_TOP
    for seat in view.seats:
        _seat(img, draw, seat, top, landlord_known, view.bidding, locale)
        top += row_height(seat) + ROW_GAP
    _status(draw, view.status, height)
    return img


SEATS_TOP = HEADER_H + 4
"""Top row of the first seat's panel; each seat's band is its panel and the gap under it."""


def _status(draw: ImageDraw.ImageDraw, status: str, bottom: int) -> None:
    """The status line, centred above ``bottom`` (the image's last row + 1)."""
    if status:
        line, face = fit_text(status, WIDTH - 2 * PAD, (24, MIN_PX))
        draw_text(draw, (WIDTH // 2, bottom - STATUS_H // 2 - 2), line, face, WHITE, anchor="mm")


def render_table(view: TableView, *, locale: str = "en") -> bytes:
    """PNG bytes of the public table (``WIDTH`` × ``table_height(view)`` px: ``HEIGHT``
    unless a hand is shown; palette PNG).

    Raises ValueError unless ``view.seats`` has exactly 3 seats. Names and the
    status line are drawn with glyph fallback and shrunk/ellipsized to fit.
    Pure CPU work: call through ``asyncio.to_thread``.

    Assembled from bands (``rendering.bands``) kept per process: the header, each
    seat's name row and body (the bodies are alike at every table: "17 cards", "Bid 2"),
    the status line, each drawn once for what it shows, so a move redraws only the parts
    of the seats it changed and the status. The pixels are
    ``table_image``'s.
    """
    if len(view.seats) != 3:
        raise ValueError(f"a table has 3 seats, got {len(view.seats)}")
    kitty = None if view.kitty is None else tuple(view.kitty)
    landlord_known = any(seat.is_landlord for seat in view.seats)
    return assemble([
        _header_band(view.hand_number, view.rules, view.bid, view.multiplier, kitty, locale),
        *(part for seat in view.seats
          for part in _seat_bands(_hashable(seat), landlord_known, view.bidding, locale)),
        _status_band(view.status),
    ])


def _hashable(seat: SeatView) -> SeatView:
    """``seat`` with its played and shown cards as tuples (a list does not hash)."""
    if seat.shown is not None and not isinstance(seat.shown, tuple):
        seat = replace(seat, shown=tuple(seat.shown))
    if seat.last_action is None or isinstance(seat.last_action, (str, tuple)):
        return seat
    return replace(seat, last_action=tuple(seat.last_action))


@kept
@lru_cache(maxsize=HEADERS_KEPT)
def _header_band(hand_number: int | None, rules: str | None, bid: int | None, multiplier: int,
                 kitty: tuple[Card, ...] | None, locale: str) -> Band:
    img = Image.new("RGB", (WIDTH, SEATS_TOP), FELT)
    draw = Draw(img)
    draw.rectangle((0, 0, WIDTH, HEADER_H - 4), fill=FELT_DARK)
    view = TableView(seats=(), bid=bid, multiplier=multiplier, kitty=kitty,
                     hand_number=hand_number, rules=rules)
    _header(img, draw, view, locale)
    return band(img, BAND_LEVEL, codec=BAND_CODEC)


SEAT_SPLIT = 41
"""Row of a seat's panel where its name row's band ends and its body's begins (above the
body's highest mark: the "to beat" outline, 5 px over the played cards)."""


def _seat_bands(seat: SeatView, landlord_known: bool, bidding: bool, locale: str) -> list[Band]:
    """A seat's panel as two bands: its name row (name, badge, marks: by the seat), and its
    body (cards left, last action or bid, a shown hand: by what it shows, the same at
    every table)."""
    marks: LastAction = None if seat.last_action is None else "pass"  # the name row asks "any?"
    top = replace(seat, cards_left=0, last_action=marks, bid=None)
    body = replace(seat, name="", is_landlord=False, is_computer=False, last_tag=None,
                   shown_label="")
    return [_seat_band(top, landlord_known, bidding, locale, 0),
            _seat_band(body, False, bidding, locale, 1)]


@kept
@lru_cache(maxsize=4096)
def _seat_band(seat: SeatView, landlord_known: bool, bidding: bool, locale: str,
               part: int) -> Band:
    """Part 0 (the name row, rows ``0 .. SEAT_SPLIT``) or 1 (the body, a shown hand and
    the gap under the panel) of a seat's panel; ``seat`` holds only what that part shows."""
    start, end = (0, SEAT_SPLIT) if part == 0 else (SEAT_SPLIT, row_height(seat) + ROW_GAP)
    img = Image.new("RGB", (WIDTH, end - start), FELT)
    _seat(img, Draw(img), seat, -start, landlord_known, bidding, locale, (part,))
    return band(img, BAND_LEVEL, codec=BAND_CODEC)


@kept
@lru_cache(maxsize=1024)
def _status_band(status: str) -> Band:
    top = SEATS_TOP + 3 * (ROW_H + ROW_GAP)
    img = Image.new("RGB", (WIDTH, HEIGHT - top), FELT)
    _status(Draw(img, stamps=False), status, HEIGHT - top)
    return band(img, BAND_LEVEL, final=True, codec=BAND_CODEC)
