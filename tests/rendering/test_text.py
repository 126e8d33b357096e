"""Glyph fallback and fitting text to a width (rendering.text)."""

from __future__ import annotations

from rendering.samples import LONG_NAME
from rendering.text import ELLIPSIS, REPLACEMENT, fit_text, font, has_glyph, safe_text, text_width


def test_latin_accents_and_suits_are_in_the_font() -> None:
    assert all(has_glyph(c) for c in "Ñandú ¡¿ ♠♥♦♣ ★☆ ♛ ▶ −")
    assert safe_text("Ñandú ♠") == "Ñandú ♠"


def test_glyphs_missing_from_the_font_become_boxes() -> None:
    assert not has_glyph("张")
    assert safe_text("张伟") == REPLACEMENT * 2
    assert all(has_glyph(c) for c in safe_text(LONG_NAME))
    assert safe_text(LONG_NAME).startswith(REPLACEMENT * 2)


def test_newlines_and_runs_of_space_collapse() -> None:
    assert safe_text("a\n\n b\tc") == "a b c"


def test_long_name_shrinks_before_it_is_ellipsized() -> None:
    text, face = fit_text("Bob", 300, (24, 16), bold=True)
    assert (text, face.size) == ("Bob", 24)
    text, face = fit_text("W" * 16, 300, (24, 16), bold=True)
    assert face.size == 16 and text == "W" * 16 and text_width(text, face) <= 300


def test_too_long_name_is_ellipsized_within_the_width() -> None:
    for name in ("W" * 32, LONG_NAME, "张" * 32):
        text, face = fit_text(name, 200, (20, 16), bold=True)
        assert text.endswith(ELLIPSIS)
        assert text_width(text, face) <= 200
        assert len(text) > 5


def test_tiny_width_yields_just_an_ellipsis() -> None:
    text, face = fit_text("Alexander", 12, (16,))
    assert text == ELLIPSIS and text_width(text, face) <= 12 + text_width(ELLIPSIS, font(16))


def test_sample_long_name_is_32_characters_with_cjk_and_emoji() -> None:
    assert len(LONG_NAME) == 32
    assert "张" in LONG_NAME and "😀" in LONG_NAME and "\u200d" in LONG_NAME
