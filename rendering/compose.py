"""Shared composition helpers: canvas colours, card fans, PNG encoding.

Images are composed in RGB and stored as 8-bit palette PNGs (``encode_png``):
a drawing holds a few thousand colours, mostly anti-aliasing shades of the
felt, panels, cards and text, and 256 look the same to a person (mean error
about 1 of 255 per channel; previews before and after in ``docs/previews/``).
The 256 are one shared palette (``SHARED_PALETTE``, ``rendering/palette_data.py``),
Pillow's fast octree of the sample images of every kind (``tools.samples``:
they hold every colour the drawings use and the shades between them; a test
checks it is still theirs, ``python -m tools.palette`` writes it anew), so
that encoding only maps pixels to it: about 6× less CPU than RGB with adaptive row
filters and 2.5× smaller files (docs/PERFORMANCE.md). PNG bytes are
deterministic: same pixels → same bytes (fixed palette, no metadata, fixed zlib
level, no optimizer search).
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw, ImageFont

from bot.rules.cards import Card
from rendering.cards import SHADOW_MARGIN, SIZES, back_sprite, card_sprite
from rendering.palette_data import SHARED_PALETTE
from rendering.strings import text
from rendering.text import draw_text, font, text_width

FELT = (24, 92, 60)
FELT_DARK = (17, 70, 45)
PANEL = (30, 108, 72)
WHITE = (245, 245, 240)
MUTED = (190, 215, 200)
GOLD = (255, 196, 0)
WARN = (255, 140, 0)
DANGER = (230, 40, 40)
INK = (28, 28, 32)
PNG_COMPRESS_LEVEL = 3
"""zlib level of the palette PNGs: 3 is as fast as 1 here and 10 % smaller."""
PNG_COLOURS = 256


def encode_png(img: Image.Image) -> bytes:
    """PNG bytes of ``img`` (an RGB composition) as an 8-bit palette image: each pixel
    mapped to the nearest colour of ``SHARED_PALETTE`` (no dithering)."""
    paletted = img.quantize(palette=_PALETTE_IMAGE, dither=Image.Dither.NONE)
    buf = io.BytesIO()
    paletted.save(buf, format="PNG", compress_level=PNG_COMPRESS_LEVEL, optimize=False)
    return buf.getvalue()


def palette_image(colours: bytes) -> Image.Image:
    """A 1×1 "P" image carrying ``colours`` (RGB triples) as its palette, the form
    ``Image.quantize(palette=...)`` takes."""
    img = Image.new("P", (1, 1))
    img.putpalette(colours)
    return img


_PALETTE_IMAGE = palette_image(SHARED_PALETTE)


def fan_step(count: int, size: str, max_width: int, max_gap: int = 4) -> int:
    """Horizontal advance per card so ``count`` cards fit in ``max_width`` px.

    Never more than card width + ``max_gap`` and never less than the corner
    strip (so each rank stays visible), even if that overflows ``max_width``.
    """
    geo = SIZES[size]
    if count <= 1:
        return geo.width + max_gap
    fit = (max_width - geo.width) // (count - 1)
    return max(geo.strip, min(geo.width + max_gap, fit))


def fan_width(count: int, size: str, step: int) -> int:
    """Pixel width of a fan of ``count`` cards advancing ``step`` px each."""
    return 0 if count == 0 else SIZES[size].width + step * (count - 1)


def paste_card(canvas: Image.Image, sprite: Image.Image, x: int, y: int) -> None:
    """Paste a card sprite so the card's top-left corner lands on (x, y)."""
    canvas.paste(sprite, (x - SHADOW_MARGIN, y - SHADOW_MARGIN), sprite)


Box = tuple[int, int, int, int]
"""A rectangle (left, top, right, bottom), right and bottom excluded, in px."""


@dataclass(frozen=True, slots=True)
class _Cut:
    """How ``paste_cards`` pastes a sprite: ``opaque``, a rectangle of it where every
    pixel's alpha is 255 (copied without a mask: ``body``, its RGB pixels there), and the
    crops of the rest blended so far, by their box (``pieces``)."""

    sprite: Image.Image
    opaque: Box
    body: Image.Image
    pieces: dict[Box, Image.Image]


_CUTS: dict[int, _Cut] = {}
"""``_Cut`` of each sprite pasted by ``paste_cards``, by ``id`` (the record holds the
sprite, so its id stays its own); the sprites are ``card_sprite``'s and
``back_sprite``'s, kept for the process."""
CUTS_KEPT = 512
"""Sprites whose cut ``_CUTS`` keeps (emptied past that: sprites drawn anew)."""
PIECES_KEPT = 64
"""Crops a ``_Cut`` keeps (emptied past that)."""


def opaque_box(sprite: Image.Image) -> Box:
    """A large rectangle of ``sprite`` (RGBA) where every pixel's alpha is 255: the card's
    body inside its anti-aliased edge (found by insetting the card's rectangle until it is
    all opaque, then growing each side while it stays so). (0, 0, 0, 0) when none."""
    alpha = sprite.getchannel("A")
    w, h = sprite.size

    def solid(left: int, top: int, right: int, bottom: int) -> bool:
        return (0 <= left < right <= w and 0 <= top < bottom <= h
                and alpha.crop((left, top, right, bottom)).getextrema() == (255, 255))

    m = SHADOW_MARGIN
    edges = next(([m + k, m + k, w - m - k, h - m - k] for k in range(min(w, h) // 2)
                  if solid(m + k, m + k, w - m - k, h - m - k)), None)
    if edges is None:
        return (0, 0, 0, 0)
    grown = True
    while grown:  # each side outwards, one row or column at a time, while all opaque
        grown = False
        for side, step in ((0, -1), (1, -1), (2, 1), (3, 1)):
            edges[side] += step
            if solid(*edges):
                grown = True
            else:
                edges[side] -= step
    left, top, right, bottom = edges
    return (left, top, right, bottom)


def _cut(sprite: Image.Image) -> _Cut:
    cut = _CUTS.get(id(sprite))
    if cut is None or cut.sprite is not sprite:
        if len(_CUTS) >= CUTS_KEPT:
            _CUTS.clear()
        opaque = opaque_box(sprite)
        cut = _Cut(sprite, opaque, sprite.crop(opaque).convert("RGB"), {})
        _CUTS[id(sprite)] = cut
    return cut


def _minus(boxes: list[Box], cut: Box) -> list[Box]:
    """The parts of ``boxes`` outside ``cut``, as rectangles (at most four of each)."""
    out: list[Box] = []
    cl, ct, cr, cb = cut
    for box in boxes:
        left, top, right, bottom = box
        if cl >= right or cr <= left or ct >= bottom or cb <= top or cl >= cr or ct >= cb:
            out.append(box)
            continue
        if ct > top:
            out.append((left, top, right, ct))
        if cb < bottom:
            out.append((left, cb, right, bottom))
        mid_top, mid_bottom = max(top, ct), min(bottom, cb)
        if cl > left:
            out.append((left, mid_top, cl, mid_bottom))
        if cr < right:
            out.append((cr, mid_top, right, mid_bottom))
    return out


def paste_cards(canvas: Image.Image, placed: Sequence[tuple[Image.Image, int, int]]) -> None:
    """Paste card sprites in order, each card's top-left corner at its (x, y): the same
    pixels as ``paste_card`` for each in turn, for about a third of its CPU (a fan of
    cards was the largest part of a hand image's, docs/PERFORMANCE.md §A fan pasted
    by parts). A sprite's opaque body (``opaque_box``) is copied without a mask; the rest
    is blended, except where the next card's opaque body covers it: that body is copied
    over it next, whatever lay there."""
    for k, (sprite, x, y) in enumerate(placed):
        cut = _cut(sprite)
        pieces = _minus([(0, 0, *sprite.size)], cut.opaque)
        if k + 1 < len(placed):
            after, ax, ay = placed[k + 1]
            cl, ct, cr, cb = _cut(after).opaque
            dx, dy = ax - x, ay - y
            pieces = _minus(pieces, (cl + dx, ct + dy, cr + dx, cb + dy))
        left, top = x - SHADOW_MARGIN, y - SHADOW_MARGIN
        for box in pieces:
            part = cut.pieces.get(box)
            if part is None:
                if len(cut.pieces) >= PIECES_KEPT:
                    cut.pieces.clear()
                part = cut.pieces[box] = sprite.crop(box)
            canvas.paste(part, (left + box[0], top + box[1]), part)
        if cut.opaque[2] > cut.opaque[0]:
            canvas.paste(cut.body, (left + cut.opaque[0], top + cut.opaque[1]))


def draw_fan(
    canvas: Image.Image,
    cards: Sequence[Card],
    x: int,
    y: int,
    size: str,
    max_width: int,
) -> int:
    """Draw ``cards`` face up, left to right, from (x, y); returns the width used."""
    step = fan_step(len(cards), size, max_width)
    paste_cards(canvas, [(card_sprite(card.index, size), x + i * step, y)
                         for i, card in enumerate(cards)])
    return fan_width(len(cards), size, step)


def draw_backs(canvas: Image.Image, count: int, x: int, y: int, size: str, step: int) -> int:
    """Draw ``count`` face-down cards from (x, y); returns the width used."""
    sprite = back_sprite(size)
    paste_cards(canvas, [(sprite, x + i * step, y) for i in range(count)])
    return fan_width(count, size, step)


def draw_pill(
    draw: ImageDraw.ImageDraw,
    x: int,
    y: int,
    label: str,
    face: ImageFont.FreeTypeFont,
    fill: tuple[int, int, int],
    ink: tuple[int, int, int],
    height: int = 28,
) -> int:
    """Draw a rounded label with its left edge at x, top at y; returns its width."""
    width = text_width(label, face) + height
    draw.rounded_rectangle((x, y, x + width, y + height), radius=height // 2, fill=fill)
    draw_text(draw, (x + width // 2, y + height // 2), label, face, ink, anchor="mm")
    return width


def role_badge(draw: ImageDraw.ImageDraw, x: int, y: int, is_landlord: bool, locale: str, right: bool = False) -> int:
    """Draw the landlord (gold, ♛) or peasant badge; ``right`` aligns its right edge to x.

    Returns the badge width in px.
    """
    label = "♛ " + text(locale, "landlord") if is_landlord else text(locale, "peasant")
    face = font(22, True)
    fill, ink = (GOLD, INK) if is_landlord else (FELT_DARK, MUTED)
    width = text_width(label, face) + 32
    return draw_pill(draw, x - width if right else x, y, label, face, fill, ink, height=32)
