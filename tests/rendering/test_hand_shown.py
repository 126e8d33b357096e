"""A hand another seat shows face up (明牌, docs/RULES.md §Happy rules) on the private hand
image (rendering.hand): a strip at the top, above the counter, with its title and the
cards; the rest of the image is drawn as without it. Issue 52: the other seats' views
named the shown hand in a line of text only."""

from __future__ import annotations

import numpy as np
from PIL import Image, ImageChops

from bot.rules import parse_cards
from bot.service.renderer import hand_key
from rendering import render_hand, render_hand_cached, render_table
from rendering.cards import FACE
from rendering.compose import encode_png
from rendering.hand import MARGIN, SHOWN_STRIP_H, WIDTH, hand_height, hand_image
from rendering.models import SeatView, TableView
from rendering.table import WIDTH as WIDTH_TABLE
from rendering.table import table_height, table_image
from tests.support.pngs import decode
from tools.samples import landlord_hand

COUNTS = (1, 0, 2, 4, 4, 3, 2, 1, 0, 4, 4, 4, 4, 1, 0)
ANA = parse_cards("45TTJQQKKKAA222XD")


def same_pixels(png: bytes, canvas: Image.Image) -> bool:
    """Whether ``png`` shows exactly what ``encode_png`` makes of the RGB ``canvas``."""
    return ImageChops.difference(decode(png).convert("RGB"),
                                 decode(encode_png(canvas)).convert("RGB")).getbbox() is None


def face_pixels(img: Image.Image, box: tuple[int, int, int, int]) -> int:
    """Pixels of the card faces' colour in ``box`` (the counter's white digits are not)."""
    region = np.asarray(img.convert("RGB").crop(box)).astype(int)
    return int((np.abs(region - np.array(FACE[:3])).max(axis=2) < 4).sum())


def test_a_shown_hand_is_a_strip_of_face_up_cards_above_the_counter() -> None:
    counted = decode(render_hand(landlord_hand(), show_indices=False, counter=COUNTS))
    shown = decode(render_hand(landlord_hand(), show_indices=False, counter=COUNTS,
                               shown=[("Ana's hand, shown", ANA)], locale="en"))
    assert shown.size == (WIDTH, hand_height(False, counter=True, shown=1))
    assert shown.height == counted.height + SHOWN_STRIP_H
    # the counter and the cards are drawn exactly as without it, SHOWN_STRIP_H lower
    assert shown.crop((0, SHOWN_STRIP_H + MARGIN, WIDTH, shown.height)).tobytes() == \
        counted.crop((0, MARGIN, WIDTH, counted.height)).tobytes()
    # the strip holds card faces (its 17 small cards), the same region without it none
    strip = (MARGIN, MARGIN + 34, WIDTH - MARGIN, MARGIN + 120)  # the cards' upper part
    assert face_pixels(shown, strip) > 17 * 100
    assert face_pixels(counted, strip) == 0  # there: the counter's panel
    assert SHOWN_STRIP_H > 120 + MARGIN


def test_the_shown_hands_are_part_of_the_images_cache_key() -> None:
    cards = landlord_hand()
    plain = render_hand_cached(cards, show_indices=False)
    with_ana = render_hand_cached(cards, show_indices=False, shown=[("Ana", ANA)])
    assert plain != with_ana
    assert hand_key(cards, (), "rank", "en") != hand_key(cards, (), "rank", "en",
                                                          shown=[("Ana", ANA)])
    assert hand_key(cards, (), "rank", "en", shown=[("Ana", ANA)]) == hand_key(
        list(reversed(cards)), (), "rank", "en", shown=[("Ana", list(reversed(ANA)))])


def test_the_hand_and_table_with_shown_hands_are_the_canvases_drawn_whole() -> None:
    """The images assembled from kept bands (rendering/bands.py) show exactly what the
    canvases drawn in one piece show, with shown hands too."""
    shown = [("Ana's hand, shown", ANA), ("Mano mostrada de Bo", parse_cards("3333444555"))]
    png = render_hand(landlord_hand(), show_indices=False, counter=COUNTS, shown=shown)
    assert same_pixels(png, hand_image(landlord_hand(), show_indices=False, counter=COUNTS,
                                       shown=shown))
    view = TableView(seats=[SeatView("Ana", shown=tuple(ANA), shown_label="Shown hand",
                                     said="Call", said_yes=True),
                            SeatView("Bo", asking="to grab", is_turn=True),
                            SeatView("Cy", shown=ANA[:5], shown_label="明牌", said="Don't call")],
                     bidding=True, rules="Happy, cap ×64", multiplier=8, status="Bo may grab")
    png = render_table(view, locale="en")
    assert decode(png).size == (WIDTH_TABLE, table_height(view))
    assert same_pixels(png, table_image(view, locale="en"))
