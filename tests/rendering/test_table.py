"""The public table image (rendering.table)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from PIL import Image

import rendering.bands
import rendering.text
from bot.rules.cards import parse_cards
from rendering import SeatView, TableView, render_table
from rendering.cards import SMALL
from rendering.compose import DANGER, GOLD, MUTED, PANEL, WARN
from rendering.strings import text
from rendering.table import HEADER_H, HEIGHT, PAD, PLAY_X, ROW_GAP, ROW_H, WIDTH
from rendering.text import font, safe_text, text_width
from tests.support.pngs import colour_count, decode
from tools.samples import CJK_NAME, LONG_NAME, mid_game_table


def panel_box(seat: int) -> tuple[int, int, int, int]:
    top = HEADER_H + 4 + seat * (ROW_H + ROW_GAP)
    return (PAD, top, WIDTH - PAD, top + ROW_H)


def test_table_is_a_fixed_size_palette_png_under_150_kb() -> None:
    png = render_table(mid_game_table())
    img = decode(png)
    assert img.mode == "P" and img.size == (WIDTH, HEIGHT)
    assert len(png) <= 150 * 1024


def test_same_view_gives_the_same_bytes() -> None:
    assert render_table(mid_game_table()) == render_table(mid_game_table())


def test_spanish_labels_differ_from_english() -> None:
    assert render_table(mid_game_table(), locale="es") != render_table(mid_game_table())
    assert text("es", "warn_one") == "¡Última!"


def test_table_needs_exactly_three_seats() -> None:
    with pytest.raises(ValueError, match="3 seats"):
        render_table(TableView(seats=(SeatView("a"), SeatView("b"))))


def test_warnings_show_at_two_and_one_cards_only() -> None:
    img = decode(render_table(mid_game_table()))  # seats hold 2, 1 and 9 cards
    warn = [colour_count(img, panel_box(i), WARN, tol=10) for i in range(3)]
    danger = [colour_count(img, panel_box(i), DANGER, tol=10) for i in range(3)]
    assert warn[0] > 500 and warn[1] == 0 and warn[2] == 0
    assert danger[1] > 500 and danger[0] == 0 and danger[2] == 0


def test_seat_to_play_is_outlined_in_gold() -> None:
    img = decode(render_table(mid_game_table()))
    edges = [colour_count(img, (PAD, b[1], PAD + 3, b[3]), GOLD, tol=20) for b in map(panel_box, range(3))]
    assert edges[2] > 50 and edges[0] == 0 and edges[1] == 0


def test_landlord_badge_appears_only_once_a_landlord_exists() -> None:
    view = mid_game_table()
    bidding = replace(view, seats=tuple(replace(s, is_landlord=False, to_beat=False) for s in view.seats),
                      kitty=None)
    badge_area = (WIDTH // 2, panel_box(0)[1] + 8, WIDTH - PAD - 8, panel_box(0)[1] + 40)
    assert colour_count(decode(render_table(view)), badge_area, GOLD, tol=20) > 300
    assert colour_count(decode(render_table(bidding)), badge_area, GOLD, tol=20) == 0


def test_hidden_kitty_differs_from_revealed_kitty() -> None:
    view = mid_game_table()
    assert render_table(view) != render_table(replace(view, kitty=None))


def test_last_actions_of_every_kind_render() -> None:
    seats = (
        SeatView("A", is_landlord=True, cards_left=20, last_action=parse_cards("333444555666777888 9T")),
        SeatView("B", cards_left=17, last_action="pass"),
        SeatView("C", cards_left=0, last_action=parse_cards("XD"), is_turn=True),
    )
    img = decode(render_table(TableView(seats=seats, bid=1, multiplier=2)))
    assert img.size == (WIDTH, HEIGHT)


@pytest.mark.parametrize("name", [LONG_NAME, "W" * 32, "张" * 32, CJK_NAME, "👨‍👩‍👧" * 10 + "xx"])
def test_longest_names_never_reach_the_badge_or_spill_out(name: str) -> None:
    seats = tuple(
        SeatView(name, is_landlord=i == 0, cards_left=17, is_computer=True, is_turn=i == 1) for i in range(3)
    )
    img = decode(render_table(TableView(seats=seats, bid=2, status=name * 3)))
    for i in range(3):
        label = "♛ " + text("en", "landlord") if i == 0 else text("en", "peasant")
        badge_left = WIDTH - PAD - 12 - (text_width(label, font(22, True)) + 32)
        top = panel_box(i)[1]
        gap = (badge_left - 8, top + 12, badge_left - 1, top + 38)
        area = (gap[2] - gap[0]) * (gap[3] - gap[1])
        assert colour_count(img, gap, PANEL, tol=4) == area, i
    right_margin = (WIDTH - PAD + 1, 0, WIDTH, HEIGHT)
    assert colour_count(img, right_margin, (255, 255, 255), tol=60) == 0



def slot_box(seat: int) -> tuple[int, int, int, int]:
    """The last-action slot of a seat panel (right of the cards-left block)."""
    body = panel_box(seat)[1] + 46
    return (PLAY_X, body, WIDTH - PAD - 12, body + SMALL.height)


def gold_right_edge(img: Image.Image, box: tuple[int, int, int, int]) -> int:
    """Rightmost gold column inside ``box``, relative to its left edge (shades within
    24 per channel: the palette PNG moves anti-aliased edges by a few levels)."""
    crop = img.crop(box).convert("RGB")
    px = crop.load()
    return max(x for x in range(crop.width) for y in range(crop.height)
               if max(abs(a - b) for a, b in zip(px[x, y], GOLD, strict=True)) <= 24)


def bidding_view() -> TableView:
    """Seat 0 passed, seat 1 bid 2, seat 2 is to bid."""
    seats = (SeatView("Ana", bid=0), SeatView("Bo", bid=2), SeatView("Cy", is_turn=True))
    return TableView(seats=seats, bid=2, bidding=True, hand_number=1, status="Dou Dizhu · hand #1")


def test_bids_show_in_each_seats_slot_while_bidding() -> None:
    img = decode(render_table(bidding_view()))
    assert colour_count(img, slot_box(0), MUTED, tol=10) > 150  # the "Pass" outline
    assert colour_count(img, slot_box(0), GOLD, tol=20) == 0
    assert colour_count(img, slot_box(1), GOLD, tol=20) > 150  # the "Bid 2" outline
    label_w = text_width(text("en", "base_bid", n=2), font(24, True)) + 36
    assert abs(gold_right_edge(img, slot_box(1)) - label_w) <= 2


def test_the_seat_to_act_reads_to_bid_while_bidding_and_to_play_after() -> None:
    assert text("en", "turn_bid") == "to bid" and text("es", "turn_bid") == "le toca apostar"
    bidding = decode(render_table(bidding_view()))
    playing = decode(render_table(replace(bidding_view(), bidding=False)))
    face = font(22, True)
    to_bid = text_width("▶ " + text("en", "turn_bid"), face)
    to_play = text_width("▶ " + text("en", "turn"), face)
    assert to_bid != to_play
    assert abs(gold_right_edge(bidding, slot_box(2)) - to_bid) <= 3
    assert abs(gold_right_edge(playing, slot_box(2)) - to_play) <= 3
    assert colour_count(playing, slot_box(1), GOLD, tol=20) == 0  # bids are not drawn after bidding


def test_cjk_names_render_with_the_fallback_font_not_boxes(monkeypatch: pytest.MonkeyPatch) -> None:
    view = mid_game_table()
    cjk = replace(view, seats=tuple(replace(s, name=CJK_NAME) for s in view.seats), status=CJK_NAME)
    with_fallback = render_table(cjk)
    assert with_fallback == render_table(cjk)  # deterministic
    monkeypatch.setattr(rendering.text, "face_of",
                        lambda char: 0 if char.isascii() or rendering.text.has_glyph(char) else -1)
    rendering.bands.forget()  # the seats' and status's bands drawn again without the fallback
    boxed = replace(view, seats=tuple(replace(s, name=safe_text(CJK_NAME)) for s in view.seats),
                    status=safe_text(CJK_NAME))
    assert "斗" not in safe_text(CJK_NAME)
    assert render_table(cjk) == render_table(boxed) != with_fallback
