"""The result image of a settled hand (docs/RULES.md §A hand at the table, step 7).

Layout (palette PNG, ``WIDTH`` = 800 px; height grows with the doubling rows): the
winning side, the bid and every doubling as labels, the formula
P = B × 2^N (docs/RULES.md §Scoring) — under the Happy rules each peasant's stake as its
line of factors instead of the bid and the formula (docs/RULES.md §Happy rules) —, then one panel per seat with name, role,
change (green/red), match total and the cards left in that hand; a gold line
names match winners if any.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw, ImageFont

from bot.i18n import superscript, t
from rendering.cards import SMALL
from rendering.compose import (
    DANGER,
    FELT,
    FELT_DARK,
    GOLD,
    INK,
    MUTED,
    PANEL,
    WARN,
    WHITE,
    draw_fan,
    draw_pill,
    encode_png,
    role_badge,
)
from rendering.models import ResultView, SeatResult
from rendering.strings import text
from rendering.text import Draw, draw_text, fit_text, font, text_width

WIDTH = 800
PAD = 16
BANNER_H = 64
PILL_H = 32
PILL_GAP = 8
ROW_H = 128
ROW_GAP = 8
GREEN = (80, 220, 120)


def formula(view: ResultView, locale: str) -> str:
    """The classic formula the image draws, "P = 3 × 2¹ = 6": the exponent in superscript
    digits, as the result message writes it (docs/RULES.md §Scoring)."""
    return text(locale, "points", bid=view.bid, n=superscript(len(view.doublings)), p=view.points)


def signed(points: int) -> str:
    """``+8`` / ``−4`` (U+2212 minus) / ``0``."""
    return f"+{points}" if points > 0 else (f"\u2212{-points}" if points < 0 else "0")


def _pill_specs(view: ResultView, locale: str) -> list[tuple[str, tuple[int, int, int], tuple[int, int, int]]]:
    specs = [] if view.stakes else [(text(locale, "base_bid", n=view.bid), WHITE, INK)]
    for kind, who in view.doublings:
        label = text(locale, kind)
        if who:
            label += " · " + who
        specs.append((label, WARN if kind in ("bomb", "rocket") else GOLD, INK))
    if not view.doublings and not view.stakes:
        specs.append((text(locale, "no_doublings"), FELT_DARK, MUTED))
    return specs


def _layout_pills(
    specs: list[tuple[str, tuple[int, int, int], tuple[int, int, int]]],
    face: ImageFont.FreeTypeFont,
) -> list[list[tuple[str, tuple[int, int, int], tuple[int, int, int]]]]:
    """Wrap labels (each fitted to the line) into rows no wider than the image."""
    rows: list[list[tuple[str, tuple[int, int, int], tuple[int, int, int]]]] = [[]]
    used, limit = 0, WIDTH - 2 * PAD
    for label, fill, ink in specs:
        label, _ = fit_text(label, limit - PILL_H, (int(face.size),), bold=True)
        width = text_width(label, face) + PILL_H
        if rows[-1] and used + width > limit:
            rows.append([])
            used = 0
        rows[-1].append((label, fill, ink))
        used += width + PILL_GAP
    return rows


STAKE_FACE = 22
STAKE_LINE_H = 30


def _stake_rows(stakes: Sequence[str]) -> list[str]:
    """Each Happy stake line on as many image lines as it needs, broken after a factor's
    " · " (the name and the "= 64" stay whole), each line ≤ the image's width."""
    face = font(STAKE_FACE, True)
    limit = WIDTH - 2 * PAD
    rows: list[str] = []
    for line in stakes:
        parts = line.split(" · ")
        current = parts[0]
        for k, part in enumerate(parts[1:], start=2):
            last = k == len(parts)
            if text_width(current + " · " + part + ("" if last else " ·"), face) <= limit:
                current += " · " + part
            else:
                rows.append(current + " ·")
                current = part
        rows.append(current)
    return [fit_text(row, limit, (STAKE_FACE, 20, 18), bold=True)[0] for row in rows]


def _seat(img: Image.Image, draw: ImageDraw.ImageDraw, seat: SeatResult, top: int, locale: str) -> None:
    draw.rounded_rectangle((PAD, top, WIDTH - PAD, top + ROW_H), radius=14, fill=PANEL)
    x = PAD + 12
    right = WIDTH - PAD - 14
    change_face = font(34, True)
    change = signed(seat.change)
    color = GREEN if seat.change > 0 else (DANGER if seat.change < 0 else MUTED)
    draw.text((right, top + 34), change, font=change_face, fill=color, anchor="rm",
              stroke_width=1, stroke_fill=FELT_DARK)
    total = "" if seat.total is None else f"{text(locale, 'total')}: {seat.total}".replace(
        "-", "\u2212")
    if total:
        draw.text((right, top + 76), total, font=font(22, True), fill=WHITE, anchor="rm")
    column = max(text_width(change, change_face), text_width(total, font(22, True))) + 24
    badge_w = role_badge(draw, x, top + 12, seat.is_landlord, locale) + 12
    name, face = fit_text(seat.name, right - column - x - badge_w, (24, 22), bold=True)
    draw_text(draw, (x + badge_w, top + 26), name, face, WHITE, anchor="lm")
    cards_top = top + 48
    if seat.remaining:
        draw_fan(img, list(seat.remaining), x, cards_top, "small", right - column - x)
    else:
        draw.text((x, cards_top + SMALL.height // 2), text(locale, "none_left"), font=font(24, True),
                  fill=GOLD, anchor="lm")


def render_result(view: ResultView, *, locale: str = "en") -> bytes:
    """PNG bytes of a settled hand's result (800 px wide, palette PNG).

    Raises ValueError unless ``view.seats`` has exactly 3 seats. Long names
    are shrunk, then ellipsized; glyphs no bundled font has become ``□``.
    Pure CPU work: call through ``asyncio.to_thread``.
    """
    if len(view.seats) != 3:
        raise ValueError(f"a result has 3 seats, got {len(view.seats)}")
    pill_face = font(22, True)
    specs = _pill_specs(view, locale)
    rows = _layout_pills(specs, pill_face) if specs else []
    stake_rows = _stake_rows(view.stakes)
    pills_top = BANNER_H + 8
    formula_top = pills_top + len(rows) * (PILL_H + PILL_GAP) + 2
    seats_top = formula_top + (len(stake_rows) * STAKE_LINE_H + 10 if stake_rows else 40)
    height = seats_top + 3 * (ROW_H + ROW_GAP) + (44 if view.match_winners else 4)
    img = Image.new("RGB", (WIDTH, height), FELT)
    draw = Draw(img)
    draw.rectangle((0, 0, WIDTH, BANNER_H), fill=FELT_DARK)
    if view.hand_number is not None:
        draw.text((PAD, BANNER_H // 2), text(locale, "hand_number", n=view.hand_number), font=font(22),
                  fill=MUTED, anchor="lm")
    winner = text(locale, "winner_landlord" if view.winner == "landlord" else "winner_peasants")
    draw.text((WIDTH // 2, BANNER_H // 2), winner, font=font(34, True), fill=GOLD, anchor="mm")
    for r, row in enumerate(rows):
        x = PAD
        for label, fill, ink in row:
            x += draw_pill(draw, x, pills_top + r * (PILL_H + PILL_GAP), label, pill_face, fill, ink, PILL_H)
            x += PILL_GAP
    if stake_rows:  # the Happy rules: each peasant's factors and stake
        for k, stake_row in enumerate(stake_rows):
            fitted, face = fit_text(stake_row, WIDTH - 2 * PAD, (STAKE_FACE, 20, 18), bold=True)
            draw_text(draw, (PAD, formula_top + 16 + k * STAKE_LINE_H), fitted, face, WHITE,
                      anchor="lm")
    else:
        draw.text((PAD, formula_top + 16), formula(view, locale), font=font(24, True), fill=WHITE, anchor="lm")
    for i, seat in enumerate(view.seats):
        _seat(img, draw, seat, seats_top + i * (ROW_H + ROW_GAP), locale)
    if view.match_winners:
        names = t("sep.list", locale).join(view.match_winners)
        line, face = fit_text(text(locale, "match_won", names=names), WIDTH - 2 * PAD, (24, 22), bold=True)
        draw_text(draw, (WIDTH // 2, height - 24), line, face, GOLD, anchor="mm")
    return encode_png(img)
