"""Bundled fonts and safe text: glyph fallback, fitting to a width.

Only the DejaVu Sans files in ``rendering/fonts/`` are used, never a system
font, so every machine draws the same pixels. Text is laid out with Pillow's
BASIC engine (no libraqm dependency) for the same reason.

Characters the font lacks (CJK, most emoji) are replaced by ``□`` (U+25A1);
invisible format characters it lacks (ZWJ, variation selectors) are dropped.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache
from pathlib import Path

from PIL import ImageDraw, ImageFont

FONT_DIR = Path(__file__).with_name("fonts")
REGULAR = FONT_DIR / "DejaVuSans.ttf"
BOLD = FONT_DIR / "DejaVuSans-Bold.ttf"
REPLACEMENT = "\u25a1"
ELLIPSIS = "\u2026"
_ABSENT = "\U0010fffd"  # a private-use code point no bundled font maps


@lru_cache(maxsize=64)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The bundled DejaVu Sans (or Bold) at ``size`` pixels, cached."""
    return ImageFont.truetype(
        str(BOLD if bold else REGULAR), size, layout_engine=ImageFont.Layout.BASIC
    )


@lru_cache(maxsize=1)
def _notdef_signature() -> tuple[tuple[int, int], bytes]:
    mask = font(20).getmask(_ABSENT)
    return mask.size, bytes(mask)


@lru_cache(maxsize=4096)
def has_glyph(char: str) -> bool:
    """True if DejaVu Sans draws ``char`` (one code point) with a real glyph."""
    if char in " \t":
        return True
    mask = font(20).getmask(char)
    return (mask.size, bytes(mask)) != _notdef_signature()


def safe_text(text: str) -> str:
    """``text`` with newlines flattened and glyphs the font lacks replaced.

    Missing printable characters become ``□``; missing combining or format
    characters (category M*/Cf, e.g. ZWJ, U+FE0F) are dropped so an emoji
    sequence yields one box per visible symbol.
    """
    out: list[str] = []
    for char in " ".join(text.split()):
        if has_glyph(char):
            out.append(char)
        elif unicodedata.category(char)[0] not in "MC":
            out.append(REPLACEMENT)
    return "".join(out)


def text_width(text: str, face: ImageFont.FreeTypeFont) -> int:
    """Advance width of ``text`` in pixels (Pillow ``getlength``, rounded up)."""
    return int(face.getlength(text) + 0.999)


def fit_text(
    text: str, max_width: int, sizes: tuple[int, ...], bold: bool = False
) -> tuple[str, ImageFont.FreeTypeFont]:
    """Make ``text`` fit in ``max_width`` px: try each size (largest first), then ellipsize.

    Returns the (possibly shortened) safe text and the font to draw it with;
    its width is always ≤ ``max_width``. ``sizes`` must not be empty.
    """
    clean = safe_text(text)
    for size in sizes:
        face = font(size, bold)
        if text_width(clean, face) <= max_width:
            return clean, face
    face = font(sizes[-1], bold)
    low, high = 0, len(clean)
    while low < high:
        mid = (low + high + 1) // 2
        if text_width(clean[:mid].rstrip() + ELLIPSIS, face) <= max_width:
            low = mid
        else:
            high = mid - 1
    return clean[:low].rstrip() + ELLIPSIS, face


def draw_text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    face: ImageFont.FreeTypeFont,
    fill: tuple[int, ...] | str,
    anchor: str = "la",
) -> None:
    """Draw already-safe ``text``; a thin wrapper so all text uses one call shape."""
    draw.text(xy, text, font=face, fill=fill, anchor=anchor)
