"""The /ddz stats chart (rendering.stats) and its alt text."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rendering.compose import DANGER, GOLD
from rendering.stats import (
    GREEN,
    HEIGHT,
    PLOT_RIGHT,
    SKY,
    SPLIT,
    WIDTH,
    ChartHand,
    StatsView,
    nice_ticks,
    percent,
    render_stats,
    signed,
    stats_alt_text,
)
from rendering.strings import text
from tests.support.pngs import colour_count, decode
from tools.samples import CJK_NAME, LONG_NAME, stats_chart


def test_chart_is_an_800_by_640_palette_png_under_150_kb() -> None:
    png = render_stats(stats_chart())
    img = decode(png)
    assert (img.mode, img.size) == ("P", (WIDTH, HEIGHT))
    assert len(png) <= 150 * 1024


def test_same_view_gives_the_same_bytes_and_spanish_differs() -> None:
    view = stats_chart()
    assert render_stats(view, locale="es") == render_stats(view, locale="es")
    assert render_stats(view, locale="es") != render_stats(view)


def test_lines_and_dots_are_drawn_in_their_colours() -> None:
    view = stats_chart()
    img = decode(render_stats(view))
    total_panel = (80, 102, PLOT_RIGHT - 10, SPLIT)
    rating_panel = (80, SPLIT, PLOT_RIGHT - 10, HEIGHT)
    assert colour_count(img, total_panel, GOLD, tol=30) > 300  # the match-total line
    assert colour_count(img, rating_panel, SKY, tol=30) > 300  # the rating line
    assert colour_count(img, rating_panel, GOLD, tol=30) < 150  # only the match separator
    assert colour_count(img, total_panel, GREEN, tol=30) > 100  # won hands
    assert colour_count(img, total_panel, DANGER, tol=30) > 50  # lost hands


def test_a_hand_line_with_no_wins_has_no_green_dots() -> None:
    hands = [ChartHand(won=False, landlord=False, match_no=1, total=-n, rating=-0.5 * n)
             for n in range(1, 8)]
    img = decode(render_stats(StatsView(name="Bo", hands=hands, peasant_hands=7)))
    assert colour_count(img, (80, 102, PLOT_RIGHT - 10, SPLIT), GREEN, tol=30) == 0


@pytest.mark.parametrize("name", [LONG_NAME, CJK_NAME, "x" * 120])
def test_long_and_foreign_names_still_render(name: str) -> None:
    img = decode(render_stats(replace(stats_chart(), name=name), locale="es"))
    assert img.size == (WIDTH, HEIGHT)


def test_an_unrated_member_without_hands_gets_a_chart_too() -> None:
    img = decode(render_stats(StatsView(name="Bo", hands=[])))
    assert img.size == (WIDTH, HEIGHT)


def test_alt_text_states_the_charts_numbers() -> None:
    view = stats_chart()
    alt = stats_alt_text(view)
    totals = [h.total for h in view.hands if h.total is not None]
    ratings = [h.rating for h in view.hands if h.rating is not None]
    assert alt.startswith("Chart of Ana, most recent hands: 50.")
    assert f"after the first of them {signed(totals[0])}, after the last {signed(totals[-1])}" in alt
    assert f"lowest {signed(min(totals))}, highest {signed(max(totals))}" in alt
    assert f"from {ratings[0]:.1f} to {ratings[-1]:.1f}" in alt
    assert f"Rating now {view.rating:.1f} (μ {view.mu:.1f} ± σ {view.sigma:.1f})" in alt
    won = sum(h.won for h in view.hands)
    assert f"Recent hands won: {won} / 50." in alt
    rate = round(100 * view.landlord_wins / view.landlord_hands)
    assert f"Wins as landlord: {rate}% ({view.landlord_wins} of {view.landlord_hands} hands)." in alt
    assert len(alt) <= 1024


def test_alt_text_in_spanish() -> None:
    view = StatsView(name="Bo", hands=[ChartHand(True, True, 1, 4, 1.25)], landlord_wins=1,
                     landlord_hands=1, rating=1.25, mu=25.9, sigma=8.2)
    assert stats_alt_text(view, locale="es") == (
        "Gráfico de Bo, manos más recientes: 1. Total de la partida tras la primera +4, tras la"
        " última +4 (mínimo +4, máximo +4). Valoración (μ − 3σ) de 1,2 a 1,2. Valoración actual"
        " 1,2 (μ 25,9 ± σ 8,2). Manos recientes ganadas: 1 / 1. Victorias como terrateniente:"
        " 100% (1 de 1 mano). Victorias como campesino: — (0 de 0 manos)."
    )


def test_ticks_are_round_and_cover_the_values() -> None:
    assert nice_ticks(-5, 15) == [-5, 0, 5, 10, 15]
    assert nice_ticks(-64, 32) == [-75, -50, -25, 0, 25, 50]
    assert nice_ticks(0, 0.3) == [0, 0.1, 0.2, 0.3]
    assert nice_ticks(0, 0, integer=True) == [-1, 0, 1]
    assert nice_ticks(-0.2, 21.4) == [-10, 0, 10, 20, 30]


def test_signed_and_percent() -> None:
    assert (signed(8), signed(-4), signed(0), signed(-0.04, 1), signed(2.25, 1)) == (
        "+8", "\u22124", "0", "0.0", "+2.2")
    assert (percent(7, 12), percent(0, 0), percent(2, 3)) == (58, None, 67)


def test_a_negative_rating_in_the_banner_has_a_true_minus(monkeypatch: pytest.MonkeyPatch) -> None:
    # The banner read "Rating -3.2" with a hyphen while the axes show "−3".
    import rendering.stats as stats

    shown: list[str] = []

    def recording(locale: str, key: str, **params: object) -> str:
        out = text(locale, key, **params)
        shown.append(out)
        return out

    monkeypatch.setattr(stats, "text", recording)
    render_stats(replace(stats_chart(), rating=-3.2), locale="es")
    assert "Valoración \u22123,2" in shown  # a Spanish decimal comma (issue 37)


def test_won_and_lost_hands_differ_in_shape_not_only_colour() -> None:
    """Issue 27 §7: through a colour-blindness filter the chart's won and lost dots were
    alike. A won hand is a filled dot, a lost one a ring (its centre shows the plot)."""
    from rendering.compose import DANGER, FELT
    from rendering.stats import GREEN, SCALE, _Canvas

    canvas = _Canvas()
    canvas.dot(50, 50, 5, GREEN)
    canvas.dot(100, 50, 5, DANGER, hollow=True)
    assert canvas.img.getpixel((50 * SCALE, 50 * SCALE)) == GREEN
    assert canvas.img.getpixel((100 * SCALE, 50 * SCALE)) == FELT
    assert canvas.img.getpixel((100 * SCALE + 5 * SCALE - 1, 50 * SCALE)) == DANGER
