"""The card counter strip above the private hand image's cards (rendering.hand)."""

from __future__ import annotations

import pytest

from rendering import render_hand, render_hand_cached
from rendering.compose import GOLD, WHITE
from rendering.hand import (
    BIG_JOKER_RED,
    COUNTER_H,
    COUNTER_TOP,
    GREYED,
    MARGIN,
    WIDTH,
    counter_cells,
    hand_height,
)
from tests.support.pngs import colour_count, decode
from tools.samples import landlord_hand

COUNTS = (1, 0, 2, 4, 4, 3, 2, 1, 0, 4, 4, 4, 4, 1, 0)


def strip_top(img_height: int) -> int:
    return COUNTER_TOP


def test_the_counter_adds_a_strip_above_the_cards() -> None:
    # Issue 48: under the cards, the first count sat in the image's bottom-left corner,
    # where Discord draws its ALT badge; above them nothing covers it.
    plain = decode(render_hand(landlord_hand(), show_indices=False))
    counted = decode(render_hand(landlord_hand(), show_indices=False, counter=COUNTS))
    assert counted.size == (WIDTH, hand_height(False, counter=True))
    assert counted.height == plain.height + COUNTER_H
    # the cards part is drawn exactly as without a counter, COUNTER_H lower
    assert counted.crop((0, COUNTER_H + MARGIN, WIDTH, counted.height)).tobytes() == \
        plain.crop((0, MARGIN, WIDTH, plain.height)).tobytes()
    first = counter_cells(COUNTER_TOP)[0]
    assert first[3] < counted.height // 2  # the first count is in the top half


def test_ranks_still_out_are_bright_and_ranks_all_seen_are_greyed() -> None:
    img = decode(render_hand(landlord_hand(), show_indices=False, counter=COUNTS))
    cells = counter_cells(strip_top(img.height))
    for cell, count in zip(cells, COUNTS, strict=True):
        bright = colour_count(img, cell, WHITE, tol=20) + colour_count(img, cell, GOLD, tol=20)
        grey = colour_count(img, cell, GREYED, tol=8)
        if count:
            assert bright > 20 and grey < bright // 4, (cell, count, bright, grey)
        else:
            assert bright == 0 and grey > 20, (cell, count, bright, grey)


def test_different_counts_draw_different_images_and_the_cache_keys_on_them() -> None:
    a = render_hand_cached(landlord_hand(), counter=COUNTS, locale="es")
    b = render_hand_cached(landlord_hand(), counter=(0,) * 15, locale="es")
    assert a != b and a == render_hand(landlord_hand(), counter=COUNTS, locale="es")
    assert render_hand_cached(landlord_hand()) != a


def test_the_label_follows_the_locale() -> None:
    en = decode(render_hand(landlord_hand(), counter=COUNTS, locale="en"))
    es = decode(render_hand(landlord_hand(), counter=COUNTS, locale="es"))
    top = strip_top(en.height)
    label = (MARGIN, top, WIDTH - MARGIN, top + counter_cells(0)[0][1])  # the title line
    assert en.crop(label).tobytes() != es.crop(label).tobytes()


def test_a_counter_that_is_not_15_counts_is_refused() -> None:
    with pytest.raises(ValueError):
        render_hand(landlord_hand(), counter=(1, 2, 3))


def test_the_jokers_are_marked_as_on_their_faces_the_big_one_red() -> None:
    # Issue 48: the counter wrote X and D, and nothing said which joker is the big one.
    img = decode(render_hand(landlord_hand(), show_indices=False, counter=COUNTS[:13] + (1, 1)))
    small, big = counter_cells(COUNTER_TOP)[13:]
    assert colour_count(img, big, BIG_JOKER_RED, tol=20) > 20
    assert colour_count(img, small, BIG_JOKER_RED, tol=20) == 0
