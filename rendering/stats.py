"""The ``/ddz stats`` chart: match total and rating over the last hands, win rates by role.

Layout (RGB, ``WIDTH`` × ``HEIGHT`` = 800 × 640 px, drawn at 2× and downsampled
for smooth lines): a banner with the member's name and rating (μ − 3σ, with
μ ± σ); on the left two plots sharing the hand axis (oldest hand left): the
match total after each hand (filled green dots for a won hand, hollow red rings
for a lost one — shape and colour both tell them apart —, diamonds for hands as
landlord; dashed lines where a new match began) and the
rating after each hand; on the right the win rates as landlord and as peasant
(all hands at this server) and the recent hands won. Every text is at least ``MIN_PX``
(22 px: 11 px at the ~400 px a phone shows). ``stats_alt_text`` states the same numbers.
Spec: docs/RATINGS.md.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image

from bot.i18n import decimal
from bot.i18n.numbers import MINUS
from rendering.compose import DANGER, FELT, FELT_DARK, GOLD, MUTED, PANEL, WHITE, encode_png
from rendering.strings import text, text_n
from rendering.text import Draw, draw_text, fit_text, font, safe_text, text_width, two_lines

WIDTH, HEIGHT = 800, 640
SCALE = 2
PAD = 16
BANNER_H = 96
PLOT_LEFT, PLOT_RIGHT = PAD, 502
SIDE_LEFT = PLOT_RIGHT + 12
MIN_PX = 22
"""Smallest text size in final px (11 px at a phone's ~400 px width)."""
BLOCK_GAP = 8
SPLIT = BANNER_H + 12 + round(0.56 * (HEIGHT - PAD - BANNER_H - 12))
"""Where the match-total plot ends and the rating plot begins (y, px)."""
GREEN = (80, 220, 120)
SKY = (130, 200, 255)
GRID = (52, 128, 92)


@dataclass(frozen=True)
class ChartHand:
    """One hand on the chart: the match ``total`` (points) and ``rating`` (μ − 3σ) after it.

    ``match_no`` marks where a new match began; None values are not plotted.
    """

    won: bool
    landlord: bool
    match_no: int
    total: int | None
    rating: float | None


@dataclass(frozen=True)
class StatsView:
    """What the chart shows. ``hands``: oldest first (the caller keeps the last 50).

    ``rating`` / ``mu`` / ``sigma``: the current rating (None before a rated hand);
    ``*_wins`` / ``*_hands``: all hands at this server, by role.
    """

    name: str
    hands: Sequence[ChartHand]
    landlord_wins: int = 0
    landlord_hands: int = 0
    peasant_wins: int = 0
    peasant_hands: int = 0
    rating: float | None = None
    mu: float | None = None
    sigma: float | None = None


def signed(value: float, digits: int = 0) -> str:
    """``+8`` / ``−4`` (U+2212) / ``0``, with ``digits`` decimals."""
    body = f"{abs(value):.{digits}f}"
    if round(value, digits) == 0:
        return body
    return ("+" if value > 0 else "\u2212") + body


def percent(wins: int, hands: int) -> int | None:
    """Rounded win rate in percent, None without hands."""
    return round(100 * wins / hands) if hands else None


def nice_ticks(low: float, high: float, count: int = 4, integer: bool = False) -> list[float]:
    """Round tick values from ≤ ``low`` to ≥ ``high`` in at most ``count + 1`` equal steps.

    Steps are 1, 2, 2.5 (from 25 up) or 5 × 10^k; ``integer`` keeps them ≥ 1.
    """
    if high - low < 1e-9:
        low, high = low - 1, high + 1
    k = math.floor(math.log10((high - low) / (count + 1)))
    for power in range(k, k + 3):
        for mantissa in (1, 2, 2.5, 5):
            step = mantissa * 10.0**power
            if (integer and step < 1) or (mantissa == 2.5 and power < 1):
                continue
            start, end = math.floor(low / step) * step, math.ceil(high / step) * step
            if (end - start) / step <= count + 1 + 1e-9:
                return [round(start + i * step, 6) for i in range(round((end - start) / step) + 1)]
    return [low, high]


class _Canvas:
    """A 2× supersampled drawing surface addressed in final pixels."""

    def __init__(self) -> None:
        self.img = Image.new("RGB", (WIDTH * SCALE, HEIGHT * SCALE), FELT)
        self.draw = Draw(self.img)

    def box(self, x0: float, y0: float, x1: float, y1: float, fill: tuple[int, int, int],
            radius: int = 0) -> None:
        xy = (x0 * SCALE, y0 * SCALE, x1 * SCALE, y1 * SCALE)
        if radius:
            self.draw.rounded_rectangle(xy, radius=radius * SCALE, fill=fill)
        else:
            self.draw.rectangle(xy, fill=fill)

    def line(self, points: Sequence[tuple[float, float]], fill: tuple[int, int, int],
             width: float = 1) -> None:
        scaled = [(x * SCALE, y * SCALE) for x, y in points]
        self.draw.line(scaled, fill=fill, width=max(1, round(width * SCALE)), joint="curve")

    def dashed(self, x: float, y0: float, y1: float, fill: tuple[int, int, int]) -> None:
        y = y0
        while y < y1:
            self.line([(x, y), (x, min(y + 4, y1))], fill, 1)
            y += 8

    def dot(self, x: float, y: float, r: float, fill: tuple[int, int, int],
            diamond: bool = False, hollow: bool = False) -> None:
        """A marker: a dot or a diamond (landlord), filled or ``hollow`` (a ring in
        ``fill``: a lost hand, told from a won one by its shape, not only its colour)."""
        cx, cy, rr = x * SCALE, y * SCALE, r * SCALE
        inside, edge, width = (None, fill, int(1.6 * SCALE)) if hollow else (fill, FELT_DARK, SCALE)
        if diamond:
            rr *= 1.35
            self.draw.polygon([(cx, cy - rr), (cx + rr, cy), (cx, cy + rr), (cx - rr, cy)],
                              fill=inside, outline=edge, width=width)
        else:
            self.draw.ellipse((cx - rr, cy - rr, cx + rr, cy + rr), fill=inside,
                              outline=edge, width=width)

    def text(self, xy: tuple[float, float], label: str, size: int, fill: tuple[int, int, int],
             bold: bool = False, anchor: str = "la", max_width: float | None = None) -> float:
        """Draw ``label`` (fitted to ``max_width`` px if given: shrunk down to ``MIN_PX``,
        then ellipsized); returns its width in px."""
        sizes = tuple(s * SCALE for s in range(size, MIN_PX - 1, -2)) or (size * SCALE,)
        if max_width is not None:
            label, face = fit_text(label, int(max_width * SCALE), sizes, bold=bold)
        else:
            face = font(size * SCALE, bold)
        draw_text(self.draw, (xy[0] * SCALE, xy[1] * SCALE), label, face, fill, anchor=anchor)
        return text_width(label, face) / SCALE

    def title(self, x: float, y: float, label: str, width: float) -> float:
        """A panel title at (x, y) (top left) in ``MIN_PX`` white: bold if it fits in
        ``width``, else regular, else bold on two lines; returns the height used."""
        clean = safe_text(label)
        for bold in (True, False):
            if text_width(clean, font(MIN_PX * SCALE, bold)) <= width * SCALE:
                self.text((x, y), clean, MIN_PX, WHITE, bold=bold)
                return MIN_PX + 6
        lines = two_lines(clean, int(width * SCALE), font(MIN_PX * SCALE, True))
        for k, line in enumerate(lines):
            self.text((x, y + k * (MIN_PX + 4)), line, MIN_PX, WHITE, bold=True)
        return len(lines) * (MIN_PX + 4) + 2

    def png(self) -> bytes:
        return encode_png(self.img.reduce(SCALE))


def _plot(
    c: _Canvas, top: float, bottom: float, title: str, hands: Sequence[ChartHand],
    values: Sequence[float | None], colour: tuple[int, int, int], digits: int, dots: bool,
    locale: str,
) -> None:
    """One panel: title, grid with labelled ticks, match separators, the line and dots.

    ``dots``: the match-total panel (signed ticks, a dot per hand, the line broken and
    the new match named at each separator); else the rating panel (plain ticks, one
    dot on the latest value)."""
    c.box(PLOT_LEFT, top, PLOT_RIGHT, bottom, PANEL, radius=10)
    c.text((PLOT_LEFT + 12, top + 10), title, MIN_PX, WHITE, bold=True,
           max_width=PLOT_RIGHT - PLOT_LEFT - 24)
    if dots:  # the legend gets a line of its own under the title
        _legend(c, PLOT_LEFT + 12, top + 54, locale)
    known = [v for v in values if v is not None]
    if not known:
        c.text(((PLOT_LEFT + PLOT_RIGHT) / 2, (top + bottom) / 2 + 8),
               text(locale, "stats_no_hands"), MIN_PX, MUTED, anchor="mm")
        return
    ticks = nice_ticks(min(known + [0.0]), max(known + [0.0]), integer=digits == 0)
    low, high = ticks[0], ticks[-1]
    area_top, area_bottom = top + (84 if dots else 54), bottom - (40 if dots else 18)
    left, right = PLOT_LEFT + 70, PLOT_RIGHT - 16

    def y_of(v: float) -> float:
        return area_bottom - (v - low) / (high - low) * (area_bottom - area_top)

    def x_of(i: int) -> float:
        n = len(values)
        return (left + right) / 2 if n == 1 else left + i * (right - left) / (n - 1)

    for tick in ticks:
        y = y_of(tick)
        c.line([(left - 4, y), (right + 4, y)], GRID if tick else MUTED, 1)
        places = digits if tick != int(tick) else 0
        label = decimal(tick, locale, places, sign=dots, minus=MINUS)
        c.text((left - 10, y), label, MIN_PX, MUTED, anchor="rm")
    for i in range(1, len(hands)):
        if hands[i].match_no != hands[i - 1].match_no:
            x = (x_of(i - 1) + x_of(i)) / 2
            c.dashed(x, area_top - 4, area_bottom + (18 if dots else 4), GOLD)
            if dots:
                c.text((x + 5, bottom - 18), text(locale, "stats_match_no", n=hands[i].match_no),
                       MIN_PX, GOLD, anchor="lm")
    segment: list[tuple[float, float]] = []
    for i, v in enumerate(values):
        starts_match = i > 0 and hands[i].match_no != hands[i - 1].match_no and dots
        if v is None or starts_match:
            if len(segment) > 1:
                c.line(segment, colour, 2.5)
            segment = []
        if v is not None:
            segment.append((x_of(i), y_of(v)))
    if len(segment) > 1:
        c.line(segment, colour, 2.5)
    radius = 7 if len(values) <= 30 else 6  # ≥ 6 px across on a phone's 400 px
    for i, v in enumerate(values):
        if v is None:
            continue
        if dots:
            won = hands[i].won
            c.dot(x_of(i), y_of(v), radius + (0 if won else 0.8), GREEN if won else DANGER,
                  hands[i].landlord, hollow=not won)
        elif i == len(values) - 1:
            c.dot(x_of(i), y_of(v), radius, colour)


def _block_top(k: int) -> float:
    """Top of the side column's block ``k`` (0..2: landlord, peasant, recent hands)."""
    return BANNER_H + 12 + k * (_block_h() + BLOCK_GAP)


def _block_h() -> float:
    return (HEIGHT - PAD - BANNER_H - 12 - 2 * BLOCK_GAP) / 3


def _rate_block(c: _Canvas, top: float, label: str, wins: int, hands: int, locale: str) -> None:
    """A role's win rate: the role, the percentage beside "wins / hands", a bar, "hands won"."""
    right = WIDTH - PAD
    c.box(SIDE_LEFT, top, right, top + _block_h(), PANEL, radius=10)
    y = top + 10 + c.title(SIDE_LEFT + 12, top + 10, label, right - SIDE_LEFT - 24)
    rate = percent(wins, hands)
    c.text((SIDE_LEFT + 12, y + 20), "—" if rate is None else f"{rate}%", 36, GOLD, bold=True,
           anchor="lm")
    c.text((right - 12, y + 20), f"{wins} / {hands}", 24, WHITE, bold=True, anchor="rm")
    bar_top, bar_left, bar_right = y + 46, SIDE_LEFT + 12, right - 12
    c.box(bar_left, bar_top, bar_right, bar_top + 14, FELT_DARK, radius=7)
    if rate:
        c.box(bar_left, bar_top, bar_left + max(14, (bar_right - bar_left) * rate / 100),
              bar_top + 14, GREEN, radius=7)
    c.text((bar_left, bar_top + 34), text(locale, "stats_hands_won"), MIN_PX, MUTED,
           anchor="lm", max_width=bar_right - bar_left)


def _legend(c: _Canvas, left: float, y: float, locale: str) -> float:
    """Won / lost / landlord markers from ``left`` on the line ``y``; its width."""
    items = (("stats_won", GREEN, False, False), ("stats_lost", DANGER, False, True),
             ("stats_as_landlord", WHITE, True, False))
    face = font(MIN_PX * SCALE)
    widths = [text_width(text(locale, key), face) / SCALE for key, _, _, _ in items]
    x = left
    for (key, fill, diamond, hollow), width in zip(items, widths, strict=True):
        c.dot(x + 7, y, 7, fill, diamond, hollow)
        c.text((x + 20, y), text(locale, key), MIN_PX, MUTED, anchor="lm")
        x += 20 + width + 18
    return x - 18 - left


def render_stats(view: StatsView, *, locale: str = "en") -> bytes:
    """PNG bytes of the member's chart (800 × 640 px, palette PNG). Pure CPU work (≈ 30 ms):
    call through ``asyncio.to_thread``. Long names are shrunk, then ellipsized."""
    c = _Canvas()
    c.box(0, 0, WIDTH, BANNER_H, FELT_DARK)
    if view.rating is not None and view.mu is not None and view.sigma is not None:
        # a true minus, as on the axes ("Rating −1.0", not "-1.0")
        rating = text(locale, "stats_rating", value=decimal(view.rating, locale, minus=MINUS))
        detail = text(locale, "stats_mu_sigma", mu=decimal(view.mu, locale),
                      sigma=decimal(view.sigma, locale))
    else:
        rating, detail = text(locale, "stats_unrated"), ""
    width = c.text((WIDTH - PAD, 30), rating, 28, GOLD, bold=True, anchor="rm")
    detail_w = c.text((WIDTH - PAD, 70), detail, MIN_PX, MUTED, anchor="rm") if detail else 0
    c.text((PAD, 30), view.name, 30, WHITE, bold=True, anchor="lm",
           max_width=WIDTH - 3 * PAD - width)
    c.text((PAD, 70), text(locale, "stats_last_hands", n=len(view.hands)), MIN_PX, MUTED,
           anchor="lm", max_width=WIDTH - 3 * PAD - detail_w)
    hands = list(view.hands)
    _plot(c, BANNER_H + 12, SPLIT - 4, text(locale, "stats_match_total"), hands,
          [h.total for h in hands], GOLD, 0, dots=True, locale=locale)
    _plot(c, SPLIT + 4, HEIGHT - PAD, text(locale, "stats_rating_axis"), hands,
          [h.rating for h in hands], SKY, 1, dots=False, locale=locale)
    _rate_block(c, _block_top(0), text(locale, "stats_landlord"), view.landlord_wins,
                view.landlord_hands, locale)
    _rate_block(c, _block_top(1), text(locale, "stats_peasant"), view.peasant_wins,
                view.peasant_hands, locale)
    top, right = _block_top(2), WIDTH - PAD
    c.box(SIDE_LEFT, top, right, top + _block_h(), PANEL, radius=10)
    won = sum(h.won for h in hands)
    y = top + 10 + c.title(SIDE_LEFT + 12, top + 10, text(locale, "stats_recent_won"),
                           right - SIDE_LEFT - 24)
    c.text((SIDE_LEFT + 12, y + 22), f"{won} / {len(hands)}", 36, GOLD, bold=True, anchor="lm")
    rate = percent(won, len(hands))
    if rate is not None:
        c.text((right - 12, y + 22), f"{rate}%", 24, MUTED, bold=True, anchor="rm")
    return c.png()


def stats_alt_text(view: StatsView, *, locale: str = "en") -> str:
    """The chart's numbers in one paragraph (Discord alt text, ≤ 1024 characters)."""
    hands = list(view.hands)
    parts = [text(locale, "stats_alt_title", name=view.name, n=len(hands))]
    totals = [h.total for h in hands if h.total is not None]
    if totals:
        parts.append(text(locale, "stats_alt_totals", first=signed(totals[0]),
                          last=signed(totals[-1]), low=signed(min(totals)),
                          high=signed(max(totals))))
    ratings = [h.rating for h in hands if h.rating is not None]
    if ratings:
        parts.append(text(locale, "stats_alt_ratings", first=decimal(ratings[0], locale),
                          last=decimal(ratings[-1], locale)))
    if view.rating is not None and view.mu is not None and view.sigma is not None:
        parts.append(text(locale, "stats_alt_rating_now", value=decimal(view.rating, locale),
                          mu=decimal(view.mu, locale), sigma=decimal(view.sigma, locale)))
    if hands:
        parts.append(text(locale, "stats_recent", won=sum(h.won for h in hands), n=len(hands)) + ".")
    for key, wins, played in (("stats_alt_landlord", view.landlord_wins, view.landlord_hands),
                              ("stats_alt_peasant", view.peasant_wins, view.peasant_hands)):
        rate = percent(wins, played)
        parts.append(text_n(locale, key, played, rate="—" if rate is None else f"{rate}%",
                            wins=wins, hands=played))
    return " ".join(parts)[:1024]


__all__ = ["ChartHand", "StatsView", "render_stats", "stats_alt_text"]
