"""The result image of a settled hand (rendering.result)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rendering import ResultView, SeatResult, render_result
from rendering.compose import GOLD, WHITE
from rendering.result import WIDTH, signed
from tests.support.pngs import colour_count, decode
from tools.samples import CJK_NAME, LONG_NAME, spring_result

GREEN = (80, 220, 120)


def test_result_is_an_800px_palette_png_under_150_kb() -> None:
    png = render_result(spring_result())
    img = decode(png)
    assert img.mode == "P" and img.width == WIDTH and 500 < img.height < 800
    assert len(png) <= 150 * 1024


def test_same_result_gives_the_same_bytes() -> None:
    assert render_result(spring_result(), locale="es") == render_result(spring_result(), locale="es")


def test_spanish_result_differs_from_english() -> None:
    assert render_result(spring_result(), locale="es") != render_result(spring_result())


def test_changes_are_signed_with_a_true_minus() -> None:
    assert (signed(8), signed(-4), signed(0)) == ("+8", "\u22124", "0")


def test_winner_change_is_green_and_match_winner_line_is_gold() -> None:
    view = spring_result()
    img = decode(render_result(view))
    assert colour_count(img, (WIDTH - 200, 0, WIDTH, img.height), GREEN, tol=20) > 100
    bottom = (0, img.height - 44, WIDTH, img.height)
    assert colour_count(img, bottom, GOLD, tol=30) > 200
    plain = decode(render_result(replace(view, match_winners=())))
    assert plain.height == img.height - 40


def test_many_doublings_wrap_onto_more_rows() -> None:
    view = spring_result()
    many = replace(view, doublings=tuple(("bomb", LONG_NAME) for _ in range(6)) + (("spring", None),), points=256)
    assert decode(render_result(many)).height > decode(render_result(view)).height


def test_no_doublings_and_anti_spring_render() -> None:
    view = replace(spring_result(), winner="peasants", doublings=(("anti_spring", None),), points=4)
    assert decode(render_result(view)).width == WIDTH
    assert decode(render_result(replace(view, doublings=(), points=2))).width == WIDTH


def test_result_needs_exactly_three_seats() -> None:
    view = spring_result()
    with pytest.raises(ValueError, match="3 seats"):
        render_result(ResultView(winner="landlord", bid=1, points=1, seats=view.seats[:2]))


@pytest.mark.parametrize("name", [LONG_NAME, "W" * 32, "张" * 32, CJK_NAME])
def test_long_names_with_big_numbers_render(name: str) -> None:
    seats = tuple(SeatResult(name, i == 0, change=-3072 if i else 6144, total=-99999) for i in range(3))
    view = ResultView(winner="landlord", bid=3, points=3072, seats=seats, match_winners=(name, name))
    img = decode(render_result(view))
    assert img.width == WIDTH


def test_a_seat_outside_the_ledger_shows_no_match_total() -> None:
    # A computer's seat read "Total: 0" although computers have no match total.
    view = spring_result()
    seats = list(view.seats)
    bot = replace(seats[1], remaining=())
    zero = replace(view, seats=[seats[0], replace(bot, total=0), seats[2]])
    none = replace(view, seats=[seats[0], replace(bot, total=None), seats[2]])
    right = (WIDTH - 200, 0, WIDTH, decode(render_result(zero)).height)
    with_total = colour_count(decode(render_result(zero)), right, WHITE, tol=40)
    without = colour_count(decode(render_result(none)), right, WHITE, tol=40)
    assert 0 < without < with_total - 100
