"""Shared composition helpers: canvas colours, card fans, PNG encoding.

Images are composed in RGB and stored as 8-bit palette PNGs (``encode_png``):
a drawing holds a few thousand colours, mostly anti-aliasing shades of the
felt, panels, cards and text, and 256 look the same to a person (mean error
about 1 of 255 per channel; previews before and after in ``docs/previews/``).
The 256 are one shared palette (``shared_palette``), chosen once per process by
Pillow's fast octree from the sample images of every kind (``rendering.samples``:
they hold every colour the drawings use and the shades between them), so that
encoding only maps pixels to it: about 6× less CPU than RGB with adaptive row
filters and 2.5× smaller files (docs/PERFORMANCE.md). PNG bytes are
deterministic: same pixels → same bytes (fixed palette, no metadata, fixed zlib
level, no optimizer search).
"""

from __future__ import annotations

import io
import threading
from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from bot.rules.cards import Card
from rendering.cards import SHADOW_MARGIN, SIZES, back_sprite, card_sprite
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
EXACT_COLOURS = 32
"""The most frequent colours of the samples, kept exact in the shared palette."""


_sampling = threading.local()
"""While ``shared_palette`` draws the samples in a thread, ``encode_png`` keeps the
RGB drawings there instead of encoding them."""


def encode_png(img: Image.Image) -> bytes:
    """PNG bytes of ``img`` (an RGB composition) as an 8-bit palette image: each pixel
    mapped to the nearest of ``shared_palette``'s colours (no dithering)."""
    kept = getattr(_sampling, "images", None)
    if kept is not None:
        kept.append(img.copy())
        return b""
    paletted = img.quantize(palette=shared_palette(), dither=Image.Dither.NONE)
    buf = io.BytesIO()
    paletted.save(buf, format="PNG", compress_level=PNG_COMPRESS_LEVEL, optimize=False)
    return buf.getvalue()


@lru_cache(maxsize=1)
def shared_palette() -> Image.Image:
    """A "P" image whose ``PNG_COLOURS`` colours are Pillow's fast octree of the
    sample hand, tables (playing, bidding), result and stats chart (English: other
    languages only change the words, not the colours), drawn once (≈ 0.3 s of CPU;
    ``rendering.warm_up`` does it at start-up). Same samples → same palette."""
    from rendering import hand, result, samples, stats, table

    _sampling.images = drawn = []
    try:
        hand.render_hand(samples.landlord_hand(), selected=samples.selected_three())
        table.render_table(samples.mid_game_table())
        table.render_table(samples.bidding_table())
        result.render_result(samples.spring_result())
        stats.render_stats(samples.stats_chart())
    finally:
        _sampling.images = None
    atlas = Image.new("RGB", (max(i.width for i in drawn), sum(i.height for i in drawn)))
    top = 0
    for img in drawn:
        atlas.paste(img, (0, top))
        top += img.height
    paletted = atlas.quantize(PNG_COLOURS, method=Image.Quantize.FASTOCTREE)
    flat = list(paletted.getpalette() or [])[: 3 * PNG_COLOURS]
    entries = [tuple(flat[i:i + 3]) for i in range(0, len(flat), 3)]
    # The octree averages each bucket; the flat colours (felt, panels, paper, text)
    # replace their nearest entries so that they stay exact.
    taken: set[int] = set()
    for _, colour in sorted(atlas.getcolors(1 << 24) or [], reverse=True)[:EXACT_COLOURS]:
        nearest = min((i for i in range(len(entries)) if i not in taken),
                      key=lambda i: sum((a - b) ** 2 for a, b in zip(entries[i], colour, strict=True)))
        entries[nearest] = colour
        taken.add(nearest)
    paletted.putpalette([v for entry in entries for v in entry])
    return paletted


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
    for i, card in enumerate(cards):
        paste_card(canvas, card_sprite(card.index, size), x + i * step, y)
    return fan_width(len(cards), size, step)


def draw_backs(canvas: Image.Image, count: int, x: int, y: int, size: str, step: int) -> int:
    """Draw ``count`` face-down cards from (x, y); returns the width used."""
    sprite = back_sprite(size)
    for i in range(count):
        paste_card(canvas, sprite, x + i * step, y)
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
    face = font(17, True)
    fill, ink = (GOLD, INK) if is_landlord else (FELT_DARK, MUTED)
    width = text_width(label, face) + 28
    return draw_pill(draw, x - width if right else x, y, label, face, fill, ink)
