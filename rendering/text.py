"""Bundled fonts and safe text: glyph fallback, fitting to a width.

Only the fonts in ``rendering/fonts/`` are used, never a system font, so
every machine draws the same pixels: DejaVu Sans (regular and bold) first,
then Droid Sans Fallback (Chinese, Japanese kana, Korean Hangul; no bold)
for characters DejaVu lacks. Text is laid out with Pillow's BASIC engine (no
libraqm dependency) for the same reason; mixed text is drawn as runs, one per
font, on DejaVu's baseline.

Characters neither font has (most emoji) are replaced by ``□`` (U+25A1);
invisible format characters they lack (ZWJ, variation selectors) are dropped.
"""

from __future__ import annotations

import itertools
import unicodedata
from functools import lru_cache
from pathlib import Path

from PIL import ImageDraw, ImageFont

FONT_DIR = Path(__file__).with_name("fonts")
REGULAR = FONT_DIR / "DejaVuSans.ttf"
BOLD = FONT_DIR / "DejaVuSans-Bold.ttf"
FALLBACK = FONT_DIR / "DroidSansFallback.ttf"
REPLACEMENT = "\u25a1"
ELLIPSIS = "\u2026"
_ABSENT = "\U0010fffd"  # a private-use code point no bundled font maps


@lru_cache(maxsize=64)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The bundled DejaVu Sans (or Bold) at ``size`` pixels, cached."""
    return ImageFont.truetype(
        str(BOLD if bold else REGULAR), size, layout_engine=ImageFont.Layout.BASIC
    )


@lru_cache(maxsize=64)
def fallback_font(size: int) -> ImageFont.FreeTypeFont:
    """The bundled Droid Sans Fallback at ``size`` pixels (regular only), cached."""
    return ImageFont.truetype(str(FALLBACK), size, layout_engine=ImageFont.Layout.BASIC)


def _signature(face: ImageFont.FreeTypeFont, char: str) -> tuple[tuple[int, int], bytes]:
    mask = face.getmask(char)
    return mask.size, bytes(mask)


@lru_cache(maxsize=2)
def _notdef_signature(fallback: bool) -> tuple[tuple[int, int], bytes]:
    return _signature(fallback_font(20) if fallback else font(20), _ABSENT)


@lru_cache(maxsize=4096)
def has_glyph(char: str) -> bool:
    """True if DejaVu Sans draws ``char`` (one code point) with a real glyph."""
    if char in " \t":
        return True
    return _signature(font(20), char) != _notdef_signature(False)


@lru_cache(maxsize=4096)
def uses_fallback(char: str) -> bool:
    """True if ``char`` (one code point) is drawn with Droid Sans Fallback:
    DejaVu Sans lacks it and the fallback has a real glyph for it."""
    if has_glyph(char):
        return False
    return _signature(fallback_font(20), char) != _notdef_signature(True)


def safe_text(text: str) -> str:
    """``text`` with newlines flattened and glyphs no bundled font has replaced.

    Characters DejaVu or the fallback draws are kept. Other printable
    characters become ``□``; other combining or format characters (category
    M*/C*, e.g. ZWJ, U+FE0F) are dropped so an emoji sequence yields one box
    per visible symbol.
    """
    out: list[str] = []
    for char in " ".join(text.split()):
        if has_glyph(char) or uses_fallback(char):
            out.append(char)
        elif unicodedata.category(char)[0] not in "MC":
            out.append(REPLACEMENT)
    return "".join(out)


def font_runs(text: str) -> list[tuple[str, bool]]:
    """Split safe ``text`` into maximal runs ``(run, is_fallback)`` by the font
    that draws them; ASCII text is one DejaVu run without per-character checks."""
    if text.isascii():
        return [(text, False)] if text else []
    return [("".join(group), key) for key, group in itertools.groupby(text, uses_fallback)]


def _run_face(face: ImageFont.FreeTypeFont, is_fallback: bool) -> ImageFont.FreeTypeFont:
    return fallback_font(int(face.size)) if is_fallback else face


def text_width(text: str, face: ImageFont.FreeTypeFont) -> int:
    """Advance width of safe ``text`` in pixels with ``face`` (DejaVu) and the
    fallback font at the same size for its runs (``getlength``, rounded up)."""
    length = sum(_run_face(face, fb).getlength(run) for run, fb in font_runs(text))
    return int(length + 0.999)


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
    """Draw already-safe ``text`` at ``xy`` with Pillow's two-letter ``anchor``.

    Text in one DejaVu run is a plain ``draw.text``. Mixed text is drawn run by
    run (fallback runs with ``fallback_font(face.size)``), all on the baseline
    DejaVu's ``anchor`` puts at ``xy``, starting where the total width
    (``text_width``) and the horizontal anchor (l/m/r) place it.
    """
    runs = font_runs(text)
    if len(runs) <= 1 and not (runs and runs[0][1]):
        draw.text(xy, text, font=face, fill=fill, anchor=anchor)
        return
    x, y = xy
    x -= {"l": 0.0, "m": 0.5, "r": 1.0}[anchor[0]] * text_width(text, face)
    y += _baseline_offset(face, anchor[1])
    for run, is_fallback in runs:
        run_face = _run_face(face, is_fallback)
        draw.text((x, y), run, font=run_face, fill=fill, anchor="ls")
        x += run_face.getlength(run)


@lru_cache(maxsize=256)
def _baseline_offset(face: ImageFont.FreeTypeFont, vertical: str) -> float:
    """Pixels from a point with vertical anchor ``vertical`` down to the baseline."""
    return face.getbbox("x", anchor="l" + vertical)[1] - face.getbbox("x", anchor="ls")[1]
