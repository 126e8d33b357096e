"""PNG encoding (rendering.compose.encode_png): palette images that look like the drawing."""

from __future__ import annotations

from typing import Any

import pytest
from PIL import Image, ImageChops, ImageStat

import rendering.hand
import rendering.result
import rendering.stats
import rendering.table
from bot.rules import parse_cards
from rendering import render_hand, render_result, render_table
from rendering.compose import (
    DANGER,
    FELT,
    FELT_DARK,
    GOLD,
    INK,
    MUTED,
    PANEL,
    PNG_COLOURS,
    WARN,
    WHITE,
    encode_png,
)
from rendering.hand import hand_image
from rendering.models import SeatView, TableView
from rendering.palette_data import SHARED_PALETTE
from rendering.table import table_image
from tests.support.pngs import decode
from tools.palette import sample_palette
from tools.samples import (
    landlord_hand,
    mid_game_table,
    selected_three,
    spring_result,
    stats_chart,
)

DESIGN = (FELT, FELT_DARK, PANEL, WHITE, MUTED, GOLD, WARN, DANGER, INK)


def drawn_and_encoded(monkeypatch: pytest.MonkeyPatch, module: Any, draw: Any) -> tuple[Image.Image, Image.Image]:
    """(the RGB composition a renderer encoded, the decoded PNG it returned). The hand and
    the table are assembled from bands (``rendering.bands``): their composition is the
    canvas drawn in one piece, ``hand_image`` / ``table_image``, which
    ``tests/rendering/test_bands.py`` holds pixel for pixel equal to them."""
    if isinstance(draw, tuple):
        whole, banded = draw
        return whole(), decode(banded())
    seen: list[Image.Image] = []

    def keep(img: Image.Image) -> bytes:
        seen.append(img.copy())
        return encode_png(img)

    monkeypatch.setattr(module, "encode_png", keep)
    png = draw()
    return seen[0], decode(png)


@pytest.mark.parametrize(("module", "draw"), [
    (rendering.hand, (lambda: hand_image(landlord_hand(), selected=selected_three(), show_indices=False),
                      lambda: render_hand(landlord_hand(), selected=selected_three(), show_indices=False))),
    (rendering.table, (lambda: table_image(mid_game_table()), lambda: render_table(mid_game_table()))),
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


def unseen_table() -> TableView:
    """A table unlike the samples the palette is chosen from: other names, cards, counts."""
    return TableView(
        seats=(SeatView("Zoë Ω", cards_left=14, last_action=parse_cards("TTJJQQ")),
               SeatView("李小龍 the Dragon", is_landlord=True, cards_left=2, is_turn=True),
               SeatView("Mr. 99", cards_left=1, last_action="pass", is_computer=True)),
        bid=2, multiplier=16, kitty=parse_cards("XD2"), status="李小龍 to play", hand_number=907)


def test_a_drawing_unlike_the_samples_looks_the_same_too(monkeypatch: pytest.MonkeyPatch) -> None:
    rgb, png = drawn_and_encoded(monkeypatch, rendering.table,
                                 (lambda: table_image(unseen_table(), locale="es"),
                                  lambda: render_table(unseen_table(), locale="es")))
    diff = ImageChops.difference(rgb, png.convert("RGB")).convert("L")
    assert max(ImageStat.Stat(diff).mean) < 2.0
    assert sum(count for count, level in diff.getcolors(256) or [] if level > 16) <= rgb.width * rgb.height // 1000


def test_the_design_colours_stay_exact() -> None:
    img = Image.new("RGB", (len(DESIGN), 1))
    for x, colour in enumerate(DESIGN):
        img.putpixel((x, 0), colour)
    png = decode(encode_png(img))
    assert png.mode == "P"
    assert ImageChops.difference(img, png.convert("RGB")).getbbox() is None


def test_the_shared_palette_is_still_the_one_of_the_samples() -> None:
    # After a colour of the drawings changes: python -m tools.palette
    assert sample_palette() == SHARED_PALETTE and len(SHARED_PALETTE) == 3 * PNG_COLOURS
