"""Every text on the table, hand and result images is readable on a phone (issue 27 §3): Discord
shows an 800 px image about 400 px wide, so each text is drawn at least 22 px (11 px
there). The input that showed it: the card counter's digits, 15 px (about 7 px on a
phone), gold on green."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from PIL import ImageDraw

from rendering import render_hand, render_result, render_table
from rendering.cards import LARGE, SMALL
from rendering.hand import WIDTH as HAND_WIDTH
from rendering.samples import (
    bidding_table,
    landlord_hand,
    mid_game_table,
    returning_turn_table,
    selected_three,
    spring_result,
)
from rendering.table import WIDTH as TABLE_WIDTH

PHONE_PX = 400
READABLE_PX = 11


@contextmanager
def text_sizes() -> Iterator[list[tuple[str, float]]]:
    """Every (text, font size) drawn meanwhile."""
    seen: list[tuple[str, float]] = []
    original = ImageDraw.ImageDraw.text

    def recording(self: Any, xy: Any, text: Any, fill: Any = None, font: Any = None,
                  *args: Any, **kwargs: Any) -> Any:
        seen.append((str(text), float(font.size)))
        return original(self, xy, text, fill, font, *args, **kwargs)

    ImageDraw.ImageDraw.text = recording  # type: ignore[method-assign]  # recorded for the test
    try:
        yield seen
    finally:
        ImageDraw.ImageDraw.text = original  # type: ignore[method-assign]  # put back


@pytest.mark.parametrize("locale", ["en", "es"])
def test_every_text_of_the_table_and_hand_is_at_least_11_px_on_a_phone(locale: str) -> None:
    counter = [1, 2, 0, 3, 4, 1, 2, 0, 1, 2, 3, 4, 2, 1, 0]
    with text_sizes() as seen:
        for view in (mid_game_table(), returning_turn_table(), bidding_table()):
            render_table(view, locale=locale)
        width_table = len(seen)
        render_hand(landlord_hand(), selected=selected_three(), counter=counter, locale=locale)
        render_hand([], counter=counter, locale=locale)
        render_result(spring_result(), locale=locale)  # 800 px too
    assert width_table > 20 and len(seen) > width_table + 30
    for i, (text, size) in enumerate(seen):
        width = TABLE_WIDTH if i < width_table else HAND_WIDTH
        assert size * PHONE_PX / width >= READABLE_PX, (text, size)


def test_the_card_corners_are_readable_on_a_phone_too() -> None:
    assert SMALL.rank_px * PHONE_PX / TABLE_WIDTH >= READABLE_PX
    assert LARGE.rank_px * PHONE_PX / HAND_WIDTH >= READABLE_PX
