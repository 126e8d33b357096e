"""Bundled fonts and safe text: glyph fallback, fitting to a width.

Only the fonts in ``rendering/fonts/`` are used, never a system font, so
every machine draws the same pixels: DejaVu Sans (regular and bold) first,
then Droid Sans Fallback (Chinese, Japanese kana, Korean Hangul; no bold)
for characters DejaVu lacks. Text is laid out with Pillow's BASIC engine; mixed
text is drawn as runs, one per font, on DejaVu's baseline. Every ``Draw.text`` of a
DejaVu face is drawn that way when a character needs another font, so a catalog's
Chinese text needs nothing of its caller.

Bold Chinese (where the Latin text is bold) is drawn with a subset of Noto Sans CJK SC
Bold (``NotoSansCJKsc-Bold-subset.otf``, SIL OFL 1.1, ``LICENSE-NotoSansCJK``; from
Debian's ``fonts-noto-cjk``, made by ``tools/cjk_bold_subset.py``: the common characters
of both scripts and every character of the Chinese catalogs, 1.5 MB). Looked at on a
phone-sized image (400 px wide), Pillow's ``stroke_width=1`` on Droid Sans Fallback
filled in dense characters (彈, 獲, 勝) where the bold face stays legible. A character
the subset lacks (a rare one in a name) is drawn regular.

Right-to-left text (any Hebrew or Arabic letter: bidi class R, AL or AN) is laid out
with Pillow's RAQM engine where Pillow has it (``COMPLEX_LAYOUT``: raqm and fribidi
loaded), so ``דניאל`` reads right to left and Arabic letters join; its runs are placed
right to left when the text's first strong letter is right-to-left. Where raqm or
fribidi is missing the BASIC engine draws it (letters in logical order, unjoined), never
an error. Text with no right-to-left letter is always laid out BASIC (the same pixels
as before). Widths and masks are cached per font object, and the RAQM faces are
separate objects (``complex_face``), so a cached entry never crosses engines.

Emoji neither has are drawn in monochrome with Noto Emoji (``NotoEmoji-Regular.ttf``,
SIL OFL 1.1, ``LICENSE-NotoEmoji``; from the npm package
``@expo-google-fonts/noto-emoji``) at the text size. Symbols no bundled
font has are dropped, never drawn as boxes; letters of a script none has become
``□`` (U+25A1), so a name still shows that something is there. Invisible format
characters (ZWJ, variation selectors) and skin-tone modifiers are dropped, so an
emoji sequence is drawn as its visible symbols.

The images draw through ``Draw``, which pastes one-line text from a cache of alpha masks
(the same pixels as Pillow's own text, faster: docs/PERFORMANCE.md §Larger text), and
``text_width`` is memoized.
"""

from __future__ import annotations

import itertools
import math
import unicodedata
from functools import lru_cache
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw, ImageFont, features

FONT_DIR = Path(__file__).with_name("fonts")
REGULAR = FONT_DIR / "DejaVuSans.ttf"
BOLD = FONT_DIR / "DejaVuSans-Bold.ttf"
FALLBACK = FONT_DIR / "DroidSansFallback.ttf"
BOLD_FALLBACK = FONT_DIR / "NotoSansCJKsc-Bold-subset.otf"
EMOJI = FONT_DIR / "NotoEmoji-Regular.ttf"
EMOJI_SCALE = 1.0
"""Emoji size relative to the text around them (as large: readable on a phone)."""
DEJAVU, DROID, NOTO_EMOJI, DROID_BOLD = 0, 1, 2, 3
"""Which bundled font draws a run (``font_runs``; ``DROID_BOLD``: a fallback run of bold
text whose characters the bold Chinese face has, ``_layout``)."""
REPLACEMENT = "\u25a1"
ELLIPSIS = "\u2026"
_ABSENT = "\U0010fffd"  # a private-use code point no bundled font maps
COMPLEX_LAYOUT = bool(features.check("raqm") and features.check("fribidi"))
"""True when Pillow can lay out right-to-left text (libraqm with fribidi and HarfBuzz);
else it is drawn with the BASIC engine. Read on every call (tests switch it)."""
_RTL_CLASSES = frozenset({"R", "AL", "AN"})


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


@lru_cache(maxsize=64)
def bold_fallback_font(size: int) -> ImageFont.FreeTypeFont:
    """The bundled bold Chinese face (``BOLD_FALLBACK``, Noto Sans CJK SC Bold, a subset)
    at ``size`` pixels, cached."""
    return ImageFont.truetype(str(BOLD_FALLBACK), size, layout_engine=ImageFont.Layout.BASIC)


@lru_cache(maxsize=64)
def emoji_font(size: int) -> ImageFont.FreeTypeFont:
    """The bundled Noto Emoji (monochrome) at ``size`` pixels, cached."""
    return ImageFont.truetype(str(EMOJI), size, layout_engine=ImageFont.Layout.BASIC)


def _signature(face: ImageFont.FreeTypeFont, char: str) -> tuple[tuple[int, int], bytes]:
    mask = face.getmask(char)
    return mask.size, bytes(mask)


@lru_cache(maxsize=4)
def _notdef_signature(which: int) -> tuple[tuple[int, int], bytes]:
    face = (font(20), fallback_font(20), emoji_font(20), bold_fallback_font(20))[which]
    return _signature(face, _ABSENT)


@lru_cache(maxsize=4096)
def has_glyph(char: str) -> bool:
    """True if DejaVu Sans draws ``char`` (one code point) with a real glyph."""
    if char in " \t":
        return True
    return _signature(font(20), char) != _notdef_signature(DEJAVU)


@lru_cache(maxsize=4096)
def uses_fallback(char: str) -> bool:
    """True if ``char`` (one code point) is drawn with Droid Sans Fallback:
    DejaVu Sans lacks it and the fallback has a real glyph for it."""
    if has_glyph(char):
        return False
    return _signature(fallback_font(20), char) != _notdef_signature(DROID)


@lru_cache(maxsize=4096)
def face_of(char: str) -> int:
    """Which bundled font draws ``char`` (one code point): ``DEJAVU``, ``DROID``,
    ``NOTO_EMOJI``, or -1 for none. Emoji (``So``) go to Noto Emoji even when
    DejaVu has a plain-text form, except the few symbols the images use themselves."""
    if char.isascii() or char in _OWN_SYMBOLS:
        return DEJAVU
    pictograph = unicodedata.category(char) == "So" and ord(char) >= 0x1F000
    if pictograph and _signature(emoji_font(20), char) != _notdef_signature(NOTO_EMOJI):
        return NOTO_EMOJI
    if has_glyph(char):
        return DEJAVU
    if uses_fallback(char):
        return DROID
    if _signature(emoji_font(20), char) != _notdef_signature(NOTO_EMOJI):
        return NOTO_EMOJI
    return -1


_OWN_SYMBOLS = frozenset("♛▶♠♥♦♣★☆×−·…✓⚠")
"""Symbols the images draw themselves with DejaVu (badges, suits, marks)."""


def safe_text(text: str) -> str:
    """``text`` with newlines flattened and only what the bundled fonts draw.

    Characters DejaVu, the fallback or Noto Emoji draws are kept. Combining or format
    characters (category M*/C*: ZWJ, U+FE0F) and skin-tone modifiers are dropped, so
    an emoji sequence yields its visible symbols; a symbol no font has is dropped;
    a letter or digit no font has becomes ``□``.
    """
    out: list[str] = []
    for char in " ".join(text.split()):
        if 0x1F3FB <= ord(char) <= 0x1F3FF or 0xFE00 <= ord(char) <= 0xFE0F \
                or unicodedata.category(char)[0] == "C":  # skin tones, selectors, ZWJ
            continue
        if face_of(char) >= 0:
            out.append(char)
        elif unicodedata.category(char)[0] in "LN":
            out.append(REPLACEMENT)
    return " ".join("".join(out).split())


def font_runs(text: str) -> list[tuple[str, int]]:
    """Split safe ``text`` into maximal runs ``(run, face)`` by the font that draws them
    (``face_of``); ASCII text is one DejaVu run without per-character checks."""
    if text.isascii():
        return [(text, DEJAVU)] if text else []
    return [("".join(group), key) for key, group in itertools.groupby(text, face_of)]


def _run_face(face: ImageFont.FreeTypeFont, which: int) -> ImageFont.FreeTypeFont:
    if which == DROID:
        return fallback_font(int(face.size))
    if which == DROID_BOLD:
        return bold_fallback_font(int(face.size))
    if which == NOTO_EMOJI:
        return emoji_font(max(1, round(face.size * EMOJI_SCALE)))
    return face


@lru_cache(maxsize=4096)
def has_bold_fallback(char: str) -> bool:
    """True if the bold Chinese face (``BOLD_FALLBACK``) has a real glyph for ``char``."""
    return _signature(bold_fallback_font(20), char) != _notdef_signature(DROID_BOLD)


def _bold_runs(runs: list[tuple[str, int]]) -> list[tuple[str, int]]:
    """Bold text's fallback runs split by the bold Chinese face: what it has is drawn
    ``DROID_BOLD``, a rarer character (a name's) stays regular ``DROID``."""
    out: list[tuple[str, int]] = []
    for run, which in runs:
        if which != DROID:
            out.append((run, which))
            continue
        out += [("".join(group), DROID_BOLD if bold else DROID)
                for bold, group in itertools.groupby(run, has_bold_fallback)]
    return out


@lru_cache(maxsize=64)
def complex_face(face: ImageFont.FreeTypeFont) -> ImageFont.FreeTypeFont:
    """``face``'s file and size with Pillow's RAQM layout engine, cached (one object per
    ``face``, so the width and mask caches keyed by font keep the engines apart)."""
    return ImageFont.truetype(str(face.path), int(face.size),
                              layout_engine=ImageFont.Layout.RAQM)


@lru_cache(maxsize=4096)
def _bidi(text: str) -> tuple[bool, bool]:
    """(``text`` has a right-to-left letter, its first strong letter is right-to-left)."""
    if text.isascii():
        return False, False
    classes = [unicodedata.bidirectional(char) for char in text]
    first = next((c for c in classes if c in _RTL_CLASSES or c == "L"), "L")
    return any(c in _RTL_CLASSES for c in classes), first in _RTL_CLASSES


def _layout(text: str, face: ImageFont.FreeTypeFont
            ) -> tuple[list[tuple[str, ImageFont.FreeTypeFont]], bool]:
    """The runs of safe ``text`` with the font object that lays each out, in visual
    order (right-to-left text with ``COMPLEX_LAYOUT``: RAQM faces, runs reversed when
    the text starts right-to-left), and whether RAQM is used."""
    rtl, starts_rtl = _bidi(text)
    complex_ = rtl and COMPLEX_LAYOUT
    pieces = font_runs(text)
    if _is_bold(face) and any(which == DROID for _, which in pieces):
        pieces = _bold_runs(pieces)
    runs = [(run, complex_face(_run_face(face, which)) if complex_ else _run_face(face, which))
            for run, which in pieces]
    return (runs[::-1] if complex_ and starts_rtl else runs), complex_


def text_width(text: str, face: ImageFont.FreeTypeFont) -> int:
    """Advance width of safe ``text`` in pixels with ``face`` (DejaVu) and the
    fallback font at the same size for its runs (``getlength``, rounded up), laid out
    as ``draw_text`` draws it (RAQM for right-to-left text where Pillow has it).
    Cached: the same labels, names and sizes are measured on every render (fitting
    tries each size), and FreeType's layout is a tenth of a table image's time."""
    return _width(text, face, COMPLEX_LAYOUT)


@lru_cache(maxsize=4096)
def _width(text: str, face: ImageFont.FreeTypeFont, complex_layout: bool) -> int:
    length = sum(run_face.getlength(run) for run, run_face in _layout(text, face)[0])
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

    Text in one DejaVu run is a plain ``draw.text`` (with ``complex_face(face)`` if
    it is right-to-left and Pillow has RAQM). Mixed text is drawn run by run
    (fallback runs with ``fallback_font(face.size)``), all on the baseline DejaVu's
    ``anchor`` puts at ``xy``, starting where the total width (``text_width``) and
    the horizontal anchor (l/m/r) place it, in visual order (``_layout``).
    """
    runs, complex_ = _layout(text, face)
    if len(runs) <= 1 and not (runs and font_runs(text)[0][1] != DEJAVU):
        draw.text(xy, text, font=complex_face(face) if complex_ else face, fill=fill,
                  anchor=anchor)
        return
    x, y = xy
    x -= {"l": 0.0, "m": 0.5, "r": 1.0}[anchor[0]] * text_width(text, face)
    y += _baseline_offset(face, anchor[1])
    for run, run_face in runs:
        draw.text((x, y), run, font=run_face, fill=fill, anchor="ls")
        x += run_face.getlength(run)


@lru_cache(maxsize=256)
def _baseline_offset(face: ImageFont.FreeTypeFont, vertical: str) -> float:
    """Pixels from a point with vertical anchor ``vertical`` down to the baseline."""
    return face.getbbox("x", anchor="l" + vertical)[1] - face.getbbox("x", anchor="ls")[1]


def two_lines(label: str, width: int, face: ImageFont.FreeTypeFont) -> list[str]:
    """``label`` (safe text) broken at spaces into at most two lines of ``width`` px with
    ``face`` (DejaVu, bold or not); a first word wider than ``width`` or the second line
    is ellipsized (``fit_text``) if the words still do not fit."""
    if text_width(label, face) <= width:
        return [label]
    words = label.split(" ")
    first = words[0]
    for k in range(1, len(words)):
        candidate = " ".join(words[:k + 1])
        if text_width(candidate, face) > width:
            break
        first = candidate
    rest = label[len(first):].strip()
    if text_width(first, face) > width or not rest:
        return [fit_text(label, width, (int(face.size),), bold=_is_bold(face))[0]]
    return [first, fit_text(rest, width, (int(face.size),), bold=_is_bold(face))[0]]


def _is_bold(face: ImageFont.FreeTypeFont) -> bool:
    return Path(str(face.path)).name == BOLD.name


def _is_latin_face(face: ImageFont.FreeTypeFont) -> bool:
    return Path(str(face.path)).name in (BOLD.name, REGULAR.name)


@lru_cache(maxsize=4096)
def _needs_runs(text: str) -> bool:
    """Whether a character of ``text`` is drawn by another font than DejaVu."""
    return any(which != DEJAVU for _, which in font_runs(text))


STAMP_CACHE_SIZE = 1024
"""Text stamps kept per process by ``Draw`` (a few KB each: a label's alpha mask)."""
_STAMP_MARGIN = 2


@lru_cache(maxsize=STAMP_CACHE_SIZE)
def _stamp(text: str, face: ImageFont.FreeTypeFont, anchor: str,
           stroke: int = 0) -> tuple[Image.Image, int, int]:
    """The alpha mask ("L") Pillow draws for ``text`` at a whole-pixel anchor point (with
    ``stroke``: its outline of that width, filled, as Pillow draws it under stroked
    text), and the offset from that point to the mask's top-left corner."""
    left, top, right, bottom = face.getbbox(text, anchor=anchor, stroke_width=stroke)
    ox, oy = _STAMP_MARGIN - math.floor(left), _STAMP_MARGIN - math.floor(top)
    size = (math.ceil(right) + ox + _STAMP_MARGIN, math.ceil(bottom) + oy + _STAMP_MARGIN)
    stamp = Image.new("L", size, 0)
    ImageDraw.Draw(stamp).text((ox, oy), text, fill=255, font=face, anchor=anchor,
                               stroke_width=stroke, stroke_fill=255)
    return stamp, -ox, -oy


class Draw(ImageDraw.ImageDraw):
    """``ImageDraw.Draw`` for the images' RGB canvases whose one-line text at whole-pixel
    coordinates (a FreeType font, a colour; an outline too, ``stroke_width`` and
    ``stroke_fill``, for ASCII text) is pasted from a cache of alpha masks, ``_stamp``,
    pixel for pixel what Pillow draws: the same labels, names and counts come back on
    every render, and laying out and rasterizing them was a third of a table image's
    time (docs/PERFORMANCE.md).
    Anything else is drawn by Pillow as usual."""

    def __init__(self, im: Image.Image, stamps: bool = True) -> None:
        super().__init__(im)
        self.canvas = im
        self.stamps = stamps
        """False: text drawn once only (a table's status line, new at every move) is drawn
        by Pillow, as fast as a stamp's first drawing, and keeps no stamp (docs/PERFORMANCE.md
        §Table bands deflated by ISA-L)."""

    def text(self, xy: Any, text: Any, fill: Any = None, font: Any = None,
             anchor: str | None = None, *args: Any, **kwargs: Any) -> None:
        stroke, stroke_fill = kwargs.get("stroke_width", 0), kwargs.get("stroke_fill")
        if (args or set(kwargs) - {"stroke_width", "stroke_fill"}
                or not isinstance(font, ImageFont.FreeTypeFont)
                or not isinstance(text, str) or "\n" in text or not isinstance(fill, tuple)
                or len(fill) != len(self.canvas.getbands())
                or not isinstance(stroke, int) or stroke < 0
                or (stroke and not (isinstance(stroke_fill, tuple)
                                    and len(stroke_fill) == len(fill)))):
            return super().text(xy, text, fill, font, anchor, *args, **kwargs)
        if not text.isascii() and _is_latin_face(font) and _needs_runs(text) and not stroke:
            return draw_text(self, xy, text, font, fill, anchor or "la")  # CJK, emoji runs
        x, y = xy
        if x != int(x) or y != int(y) or (stroke and not text.isascii()) or not self.stamps:
            # a sub-pixel start (FreeType places it its own way), an outlined text in runs
            return super().text(xy, text, fill, font, anchor, **kwargs)
        if stroke and isinstance(stroke_fill, tuple):
            # the outline first, filled, then the text if in another colour
            outline, dx, dy = _stamp(text, font, anchor or "la", stroke)
            self.canvas.paste(stroke_fill, (int(x) + dx, int(y) + dy), outline)
            if stroke_fill == fill:
                return None
        stamp, dx, dy = _stamp(text, font, anchor or "la")
        self.canvas.paste(fill, (int(x) + dx, int(y) + dy), stamp)
        return None

