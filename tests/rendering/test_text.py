"""Glyph fallback and fitting text to a width (rendering.text)."""

from __future__ import annotations

import math
from typing import Any

import pytest
from PIL import Image, ImageDraw, ImageFont, features

import rendering.text as text_module
from rendering.text import (
    BOLD,
    ELLIPSIS,
    NOTO_EMOJI,
    REPLACEMENT,
    Draw,
    draw_text,
    face_of,
    fallback_font,
    fit_text,
    font,
    font_runs,
    has_glyph,
    safe_text,
    text_width,
    uses_fallback,
)
from tools.samples import CJK_NAME, LONG_NAME


def test_latin_accents_and_suits_are_in_the_font() -> None:
    assert all(has_glyph(c) for c in "Ñandú ¡¿ ♠♥♦♣ ★☆ ♛ ▶ −")
    assert safe_text("Ñandú ♠") == "Ñandú ♠"


def test_cjk_missing_from_dejavu_comes_from_the_fallback_font() -> None:
    assert not has_glyph("张") and uses_fallback("张")
    assert all(uses_fallback(c) for c in "斗地主大师김철수たなか")
    assert not any(uses_fallback(c) for c in "Ñandú ♠ ▶ W")
    assert safe_text("张伟") == "张伟"
    assert safe_text(LONG_NAME).startswith("张伟😀")


def test_emoji_are_drawn_symbols_no_font_has_dropped_and_only_letters_boxed() -> None:
    """Issue 27 §4: emoji in names became □ boxes on every image."""
    assert safe_text("\U0001f468\U0001f469") == "\U0001f468\U0001f469"  # Noto Emoji draws them
    assert all(face_of(c) == NOTO_EMOJI for c in "😀👨👩👧🦄🔥")
    assert safe_text("👍🏽 Bo\ufe0f") == "👍 Bo"  # skin tone and selector dropped
    assert safe_text("\U0001f468\u200d\U0001f469\u200d\U0001f467") == "👨👩👧"  # ZWJ family
    assert safe_text("Ana \ue000\ue001 B") == "Ana B"  # a symbol no font has: dropped
    assert safe_text("a\u0915b") == "a" + REPLACEMENT + "b"  # Devanagari KA: a letter, boxed
    assert REPLACEMENT not in safe_text(LONG_NAME)
    assert all(face_of(c) >= 0 for c in safe_text(LONG_NAME))


def test_an_emoji_name_draws_ink_not_a_box() -> None:
    def render(text: str) -> bytes:
        img = Image.new("L", (300, 40), 0)
        draw_text(ImageDraw.Draw(img), (4, 20), text, font(22, True), 255, anchor="lm")
        return img.tobytes()

    assert render("Bo 🦄") != render("Bo " + REPLACEMENT) != render("Bo ")


def test_32_character_cjk_name_keeps_every_character() -> None:
    assert len(CJK_NAME) == 32
    assert safe_text(CJK_NAME) == CJK_NAME and REPLACEMENT not in safe_text(CJK_NAME)
    assert font_runs("Li 李娜 (AI)") == [("Li ", False), ("李娜", True), (" (AI)", False)]
    assert font_runs("") == []


def _ink_box(text: str, anchor: str, x: int = 150) -> tuple[int, int, int, int]:
    img = Image.new("L", (300, 60), 0)
    draw_text(ImageDraw.Draw(img), (x, 30), text, font(20, True), 255, anchor=anchor)
    box = img.getbbox()
    assert box is not None
    return box


def test_fallback_glyphs_are_drawn_not_boxed() -> None:
    def render(text: str) -> bytes:
        img = Image.new("L", (300, 40), 0)
        draw_text(ImageDraw.Draw(img), (4, 20), text, font(20, True), 255, anchor="lm")
        return img.tobytes()

    assert render("斗地主") != render(REPLACEMENT * 3)
    assert render("김철수") != render("斗地主") != render("たなか")
    assert render("Bob 斗地主") == render("Bob 斗地主")


def test_mixed_text_stays_inside_its_measured_width_for_every_anchor() -> None:
    text = "Ana 斗地主 김철수 たなか!"
    width = text_width(text, font(20, True))
    left, top, right, bottom = _ink_box(text, "lm")
    assert left >= 150 and right <= 150 + width + 1 and top >= 10 and bottom <= 50
    left, _, right, _ = _ink_box(text, "rm")
    assert 150 - width - 1 <= left and right <= 151
    left, _, right, _ = _ink_box(text, "mm")
    assert abs((left + right) / 2 - 150) <= 3


def test_mixed_runs_share_dejavus_baseline() -> None:
    latin = _ink_box("Hx", "ls")
    cjk = _ink_box("斗", "ls")
    assert abs(latin[3] - cjk[3]) <= 2  # both sit on y = 30 (±descent)


def test_newlines_and_runs_of_space_collapse() -> None:
    assert safe_text("a\n\n b\tc") == "a b c"


def test_long_name_shrinks_before_it_is_ellipsized() -> None:
    text, face = fit_text("Bob", 300, (24, 16), bold=True)
    assert (text, face.size) == ("Bob", 24)
    text, face = fit_text("W" * 16, 300, (24, 16), bold=True)
    assert face.size == 16 and text == "W" * 16 and text_width(text, face) <= 300


def test_too_long_name_is_ellipsized_within_the_width() -> None:
    for name in ("W" * 32, LONG_NAME, "张" * 32, CJK_NAME * 2):
        text, face = fit_text(name, 200, (20, 16), bold=True)
        assert text.endswith(ELLIPSIS)
        assert text_width(text, face) <= 200
        assert len(text) > 5


def test_cjk_name_fits_with_mixed_font_widths() -> None:
    text, face = fit_text("Bob " + CJK_NAME, 220, (20, 16), bold=True)
    assert text.startswith("Bob 斗地主") and text.endswith(ELLIPSIS)
    assert text_width(text, face) <= 220 < text_width(text[:-1] + "斗" + ELLIPSIS, face)


def test_tiny_width_yields_just_an_ellipsis() -> None:
    text, face = fit_text("Alexander", 12, (16,))
    assert text == ELLIPSIS and text_width(text, face) <= 12 + text_width(ELLIPSIS, font(16))


def test_sample_long_name_is_32_characters_with_cjk_and_emoji() -> None:
    assert len(LONG_NAME) == 32
    assert "张" in LONG_NAME and "😀" in LONG_NAME and "\u200d" in LONG_NAME


def test_cached_text_stamps_draw_what_pillow_draws_pixel_for_pixel() -> None:
    """``rendering.text.Draw`` pastes cached masks (a faster table image, issue 27): the
    same pixels as Pillow's own text, in any colour, anchor and font, drawn twice over."""
    cases = [((40, 30), "Ana · 12 cards", font(22), "la"), ((400, 60), "▶ to play", font(26, True), "mm"),
             ((780, 90), "Multiplicador ×2", font(22, True), "rm"), ((20, 120), "斗地主", fallback_font(22), "ls"),
             ((30.5, 150), "sub-pixel", font(22), "la")]
    for fill in ((245, 245, 240), (255, 196, 0)):
        plain, cached = (Image.new("RGB", (800, 200), (30, 108, 72)) for _ in range(2))
        for xy, label, face, anchor in cases * 2:
            ImageDraw.Draw(plain).text(xy, label, fill=fill, font=face, anchor=anchor)
            Draw(cached).text(xy, label, fill=fill, font=face, anchor=anchor)
        assert plain.tobytes() == cached.tobytes()


def test_outlined_text_from_stamps_is_what_pillow_draws_pixel_for_pixel() -> None:
    """An outlined text (``stroke_width``, ``stroke_fill``: the count on a seat's card back)
    pasted as two cached masks, the outline then the text: Pillow's pixels, in any anchor,
    width and colour, also when the outline's colour is the text's (one mask) and for text
    Pillow draws itself (non-ASCII, sub-pixel)."""
    cases = [((40, 40), "17", font(22, True), "mm", 2, (10, 30, 70)),
             ((120, 60), "0", font(22, True), "la", 1, (200, 30, 40)),
             ((300, 90), "20 cards", font(26, True), "rm", 3, (245, 245, 240)),
             ((420, 120), "×2", font(22, True), "mm", 2, (10, 30, 70)),
             ((520, 150), "Tomás", font(24), "ls", 2, (28, 28, 32)),
             ((640.5, 60), "9", font(22, True), "mm", 2, (10, 30, 70))]
    for fill in ((245, 245, 240), (255, 196, 0)):
        plain, cached = (Image.new("RGB", (800, 200), (30, 108, 72)) for _ in range(2))
        for xy, label, face, anchor, width, outline in cases * 2:
            ImageDraw.Draw(plain).text(xy, label, fill=fill, font=face, anchor=anchor,
                                       stroke_width=width, stroke_fill=outline)
            Draw(cached).text(xy, label, fill=fill, font=face, anchor=anchor,
                              stroke_width=width, stroke_fill=outline)
        assert plain.tobytes() == cached.tobytes()


def test_an_outlined_ascii_text_is_pasted_not_drawn_again(monkeypatch: pytest.MonkeyPatch) -> None:
    drawn: list[str] = []
    pillow_text = ImageDraw.ImageDraw.text

    def counted(self: ImageDraw.ImageDraw, xy: Any, text: Any, *args: Any, **kwargs: Any) -> None:
        drawn.append(text)
        pillow_text(self, xy, text, *args, **kwargs)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", counted)
    text_module._stamp.cache_clear()
    canvas = Image.new("RGB", (200, 100), (30, 108, 72))
    for label in ("17", "17", "3"):
        Draw(canvas).text((50, 50), label, fill=(245, 245, 240), font=font(22, True), anchor="mm",
                          stroke_width=2, stroke_fill=(10, 30, 70))
    Draw(canvas).text((50, 50), "张", fill=(245, 245, 240), font=font(22, True), anchor="mm",
                      stroke_width=2, stroke_fill=(10, 30, 70))
    # each mask drawn once (the outline's, the text's), then pasted; "张" drawn by Pillow
    assert drawn == ["17", "17", "3", "3", "张"]


def _pillow(text: str, engine: ImageFont.Layout, size: int = 24) -> bytes:
    """``text`` as Pillow draws it with the bundled DejaVu Sans Bold and ``engine``."""
    img = Image.new("L", (240, 40), 0)
    face = ImageFont.truetype(str(BOLD), size, layout_engine=engine)
    ImageDraw.Draw(img).text((4, 20), text, font=face, fill=255, anchor="lm")
    return img.tobytes()


def _ours(text: str, size: int = 24, cached: bool = False) -> bytes:
    img = Image.new("L", (240, 40), 0)
    draw = Draw(img) if cached else ImageDraw.Draw(img)
    draw_text(draw, (4, 20), text, font(size, True), 255 if not cached else (255,),
              anchor="lm")
    return img.tobytes()


RTL_NAMES = ("דניאל", "سارة", "דני 7")
NEEDS_RAQM = pytest.mark.skipif(not (features.check("raqm") and features.check("fribidi")),
                                reason="Pillow has no raqm/fribidi here (.ci/run installs it)")


@NEEDS_RAQM
@pytest.mark.parametrize("name", RTL_NAMES)
def test_right_to_left_names_are_drawn_as_raqm_lays_them_out(name: str) -> None:
    """Issue 36 §11: ``דניאל`` was drawn reversed (``לאינד``) and Arabic unjoined, laid
    out with the BASIC engine although Pillow had raqm."""
    raqm, basic = _pillow(name, ImageFont.Layout.RAQM), _pillow(name, ImageFont.Layout.BASIC)
    assert raqm != basic
    assert _ours(name) == raqm
    assert _ours(name, cached=True) == raqm  # the mask cache (Draw) too
    face = ImageFont.truetype(str(BOLD), 24, layout_engine=ImageFont.Layout.RAQM)
    assert text_width(name, font(24, True)) == math.ceil(face.getlength(name))


@NEEDS_RAQM
def test_hebrew_reads_right_to_left_and_latin_stays_basic() -> None:
    """The first letter (ד, logical order) is drawn at the right end: the ink of
    ``דניאל`` is the ink of ``לאינד`` drawn BASIC (one glyph each, no joining)."""
    assert _ours("דניאל") == _pillow("לאינד", ImageFont.Layout.BASIC)
    assert _ours("Daniel") == _pillow("Daniel", ImageFont.Layout.BASIC)  # no kerning change


def test_without_raqm_right_to_left_falls_back_to_basic_and_caches_stay_apart(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Where Pillow lacks raqm or fribidi the BASIC engine draws the name (no error), and
    a width or mask cached under one engine is never served for the other."""
    basic = _pillow("דניאל", ImageFont.Layout.BASIC)
    raqm_width = text_width("דניאל", font(24, True))
    monkeypatch.setattr(text_module, "COMPLEX_LAYOUT", False, raising=False)
    assert _ours("דניאל") == basic and _ours("דניאל", cached=True) == basic
    basic_face = ImageFont.truetype(str(BOLD), 24, layout_engine=ImageFont.Layout.BASIC)
    assert text_width("سارة", font(24, True)) == math.ceil(basic_face.getlength("سارة"))
    monkeypatch.setattr(text_module, "COMPLEX_LAYOUT", True)
    if features.check("raqm"):
        assert _ours("דניאל", cached=True) == _pillow("דניאל", ImageFont.Layout.RAQM)
        assert text_width("דניאל", font(24, True)) == raqm_width
