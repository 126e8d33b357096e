"""PNG encoding (rendering.compose.encode_png): palette images that look like the drawing."""

from __future__ import annotations

from typing import Any

import pytest
from PIL import Image, ImageChops, ImageStat

import rendering.hand
import rendering.result
import rendering.stats
import rendering.table
from rendering import render_hand, render_result, render_table
from rendering.compose import PNG_COLOURS, encode_png
from rendering.samples import (
    landlord_hand,
    mid_game_table,
    selected_three,
    spring_result,
    stats_chart,
)
from tests.rendering.pngs import decode


def drawn_and_encoded(monkeypatch: pytest.MonkeyPatch, module: Any, draw: Any) -> tuple[Image.Image, Image.Image]:
    """(the RGB composition a renderer encoded, the decoded PNG it returned)."""
    seen: list[Image.Image] = []

    def keep(img: Image.Image) -> bytes:
        seen.append(img.copy())
        return encode_png(img)

    monkeypatch.setattr(module, "encode_png", keep)
    png = draw()
    return seen[0], decode(png)


@pytest.mark.parametrize(("module", "draw"), [
    (rendering.hand, lambda: render_hand(landlord_hand(), selected=selected_three(), show_indices=False)),
    (rendering.table, lambda: render_table(mid_game_table())),
    (rendering.result, lambda: render_result(spring_result())),
    (rendering.stats, lambda: rendering.stats.render_stats(stats_chart())),
], ids=["hand", "table", "result", "stats"])
def test_palette_png_looks_like_the_rgb_drawing(monkeypatch: pytest.MonkeyPatch, module: Any,
                                                 draw: Any) -> None:
    rgb, png = drawn_and_encoded(monkeypatch, module, draw)
    assert rgb.mode == "RGB" and png.mode == "P" and png.size == rgb.size
    assert len(png.getcolors(PNG_COLOURS) or []) <= PNG_COLOURS
    diff = ImageChops.difference(rgb, png.convert("RGB")).convert("L")
    assert max(ImageStat.Stat(diff).mean) < 2.0  # about 1 of 255 on average
    far = sum(count for count, level in diff.getcolors(256) or [] if level > 16)
    assert far <= rgb.width * rgb.height // 1000  # ≤ 0.1 % of pixels visibly off


def test_a_picture_with_few_colours_keeps_them_exactly() -> None:
    img = Image.new("RGB", (40, 20), (24, 92, 60))
    img.paste((255, 196, 0), (10, 5, 30, 15))
    png = decode(encode_png(img))
    assert png.mode == "P"
    assert ImageChops.difference(img, png.convert("RGB")).getbbox() is None
