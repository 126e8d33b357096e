"""Every text on every image the bot sends is readable on a phone (issue 27 §3): Discord
shows an image at most about 400 px wide, so each text is drawn at least 11 px at that
width, e.g. 22 px on the 800 px table, hand, result, stats chart and replay pages (the
chart is drawn at 2× on a 1600 px canvas: 44 px there). The inputs that showed it: the
card counter's digits, 15 px (about 7 px on a phone), gold on green; the stats chart's
11–15 px axis labels, legend and titles; the replay pages' 13–18 px page number, verb
lines, review chances and hand titles.

The font size alone let two things through (issue 37 §5): the card counter's ranks and
counts at 24 px type drew digits 18 px tall (9 px on a phone, ~7 px in Discord's
narrower mobile preview), and the stats chart's points were 9 px across (4.5 px on a
phone). So the counter's ranks and counts are measured on the image itself: each line of
a cell is at least ``READABLE_PX`` (11 px) tall at the phone's 400 px, ink not em; and
every marker of the chart is at least ``MARKER_PX`` (6 px) across there."""

from __future__ import annotations

import inspect
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

import pytest
from PIL import ImageDraw

from rendering import bands, render_hand, render_result, render_table, warm_up
from rendering.cards import LARGE, SMALL
from rendering.hand import COUNTER_TOP, counter_cells
from rendering.hand import WIDTH as HAND_WIDTH
from rendering.replay import (
    ANIMATION_WIDTH,
    render_replay_animation,
    render_replay_page,
)
from rendering.stats import WIDTH as CHART_WIDTH
from rendering.stats import StatsView, _Canvas, render_stats
from rendering.table import WIDTH as TABLE_WIDTH
from rendering.text import Draw
from tests.support.pngs import decode
from tools.samples import (
    CJK_NAME,
    LONG_NAME,
    bidding_table,
    landlord_hand,
    mid_game_table,
    replay_bidding_page,
    replay_deal_page,
    replay_trick_page,
    returning_turn_table,
    selected_three,
    spring_result,
    stats_chart,
)

PHONE_PX = 400
READABLE_PX = 11
MARKER_PX = 6
"""Smallest width in phone px of a stats chart point (a dot, diamond or ring)."""
SPRITE_PX = 200
"""Canvases narrower than this are card sprites (their corners: the last test)."""


@contextmanager
def text_sizes() -> Iterator[list[tuple[str, float, int]]]:
    """Every (text, font size, width of the canvas it is drawn on) drawn meanwhile."""
    seen: list[tuple[str, float, int]] = []
    originals = {cls: cls.text for cls in (ImageDraw.ImageDraw, Draw)}

    def recorder(cls: type[ImageDraw.ImageDraw]) -> Any:
        def recording(self: Any, xy: Any, text: Any, fill: Any = None, font: Any = None,
                      *args: Any, **kwargs: Any) -> Any:
            if self.im.mode != "L":  # not a cached text stamp (rendering.text.Draw)
                seen.append((str(text), float(font.size), self.im.size[0]))
            return originals[cls](self, xy, text, fill, font, *args, **kwargs)
        return recording

    warm_up()  # card faces drawn now, not while recording
    bands.forget()  # the hand's and table's kept bands: drawn again, so recorded
    for cls in originals:
        cls.text = recorder(cls)  # type: ignore[method-assign]  # recorded for the test
    try:
        yield seen
    finally:
        for cls, text in originals.items():
            cls.text = text  # type: ignore[method-assign]  # put back


def _assert_readable(seen: list[tuple[str, float, int]], widths: set[int]) -> None:
    drawn = [(text, size, width) for text, size, width in seen if width >= SPRITE_PX]
    assert {width for _, _, width in drawn} == widths
    for text, size, width in drawn:
        assert size * PHONE_PX / width >= READABLE_PX, (text, size, width)


@pytest.mark.parametrize("locale", ["en", "es"])
def test_every_text_of_the_table_and_hand_is_at_least_11_px_on_a_phone(locale: str) -> None:
    counter = [1, 2, 0, 3, 4, 1, 2, 0, 1, 2, 3, 4, 2, 1, 0]
    with text_sizes() as seen:
        for view in (mid_game_table(), returning_turn_table(), bidding_table()):
            render_table(view, locale=locale)
        width_table = len(seen)
        render_hand(landlord_hand(), selected=selected_three(), counter=counter, locale=locale)
        render_hand([], counter=counter, locale=locale)
        render_result(spring_result(), locale=locale)
    assert width_table > 20 and len(seen) > width_table + 30
    _assert_readable(seen, {TABLE_WIDTH, HAND_WIDTH})


@pytest.mark.parametrize("locale", ["en", "es"])
def test_every_text_of_the_stats_chart_is_at_least_11_px_on_a_phone(locale: str) -> None:
    with text_sizes() as seen:
        render_stats(stats_chart(), locale=locale)
        render_stats(StatsView(name=CJK_NAME, hands=[]), locale=locale)  # unrated, no hands
    assert len(seen) > 40  # titles, legend, ticks, match label, blocks
    _assert_readable(seen, {1600})  # drawn at 2× and halved


@pytest.mark.parametrize("locale", ["en", "es"])
def test_every_text_of_the_replay_pages_and_the_gif_is_at_least_11_px_on_a_phone(
        locale: str) -> None:
    pages = (replay_deal_page(), replay_bidding_page(), replay_trick_page())
    with text_sizes() as seen:
        pngs = [render_replay_page(page, locale=locale) for page in pages]
    assert len(seen) > 60
    assert any(LONG_NAME[:2] in text for text, _, _ in seen)
    _assert_readable(seen, {800})
    # the GIF scales the 800 px pages to ANIMATION_WIDTH; a phone shows it 400 px wide
    # at most, so a page's text keeps its 11 px there only if the frames are no narrower
    width = inspect.signature(render_replay_animation).parameters["width"].default
    assert width == ANIMATION_WIDTH >= PHONE_PX
    assert render_replay_animation(pngs[:1])[:6] == b"GIF89a"


def test_the_card_corners_are_readable_on_a_phone_too() -> None:
    assert SMALL.rank_px * PHONE_PX / TABLE_WIDTH >= READABLE_PX
    assert LARGE.rank_px * PHONE_PX / HAND_WIDTH >= READABLE_PX


def _ink_lines(img: Any, box: tuple[int, int, int, int]) -> list[int]:
    """Heights in px of the runs of rows holding ink (pixels far from the panel colour)
    inside ``box``: one per line of text, top to bottom."""
    crop = img.convert("RGB").crop(box)
    panel = crop.getpixel((1, 1))
    heights, run = [], 0
    for y in range(crop.height):
        inked = any(sum(abs(a - b) for a, b in zip(crop.getpixel((x, y)), panel, strict=True)) > 90
                    for x in range(crop.width))
        if inked:
            run += 1
        elif run:
            heights.append(run)
            run = 0
    return heights + ([run] if run else [])


@pytest.mark.parametrize("counts", [(1, 0, 2, 4, 4, 3, 2, 1, 0, 4, 4, 4, 4, 1, 0), (0,) * 15])
def test_the_card_counters_ranks_and_counts_are_at_least_11_px_tall_on_a_phone(
        counts: tuple[int, ...]) -> None:
    img = decode(render_hand(landlord_hand(), show_indices=False, counter=counts))
    for cell in counter_cells(COUNTER_TOP):
        lines = _ink_lines(img, cell)
        assert len(lines) == 2, (cell, lines)  # the rank over its count
        for height in lines:
            assert height * PHONE_PX / HAND_WIDTH >= READABLE_PX, (cell, lines)


def test_every_point_of_the_stats_chart_is_at_least_6_px_across_on_a_phone(
        monkeypatch: pytest.MonkeyPatch) -> None:
    radii: list[float] = []
    dot = _Canvas.dot

    def recording(self: _Canvas, x: float, y: float, r: float, *args: Any, **kwargs: Any) -> None:
        radii.append(r)
        dot(self, x, y, r, *args, **kwargs)

    monkeypatch.setattr(_Canvas, "dot", recording)
    view = stats_chart()
    render_stats(view)
    long = replace(view, hands=list(view.hands) * (40 // len(view.hands) + 1))
    render_stats(long)  # more than 30 hands: the points shrank there
    assert len(radii) > len(view.hands)
    assert min(radii) * 2 * PHONE_PX / CHART_WIDTH >= MARKER_PX, min(radii)
