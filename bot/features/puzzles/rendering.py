"""The endgame puzzle image (``/ddz puzzle``, docs/RULES.md §Puzzles): every hand face up.

Layout (RGB, ``WIDTH`` = 800 px; the height grows with the banner and the seats): a
header with the title and the task; a banner once the attempt is over (gold: solved;
red: the wrong move, the move that wins, the refutation), the shared palette's colours; the play to beat (or a free
lead) with who made it; then one panel per seat (2 or 3) with its name, role and every
card it holds, the member's panel framed in gold, their selected cards raised.

The caller (bot/features/puzzles/cog.py) gives every text already in the member's language; the
roles' badges come from the shared catalogs. Pure CPU work: call through a thread or the
render workers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from PIL import Image

from bot.rules.cards import Card
from rendering.cards import SMALL, card_sprite
from rendering.compose import (
    DANGER,
    FELT,
    FELT_DARK,
    GOLD,
    INK,
    MUTED,
    PANEL,
    WHITE,
    encode_png,
    fan_step,
    paste_card,
    role_badge,
)
from rendering.strings import text
from rendering.text import Draw, draw_text, fit_text, font, safe_text, two_lines

WIDTH = 800
PAD = 16
SEAT_H = 132
BEAT_H = SMALL.height + 24
BANNER_LINE_H = 34
GAP = 8
LIFT = 12
"""Pixels a selected card of the member is raised by."""

Status = Literal["play", "solved", "failed"]


@dataclass(frozen=True)
class PuzzleSeat:
    """One hand of the puzzle: ``name`` (already localized), whether it is the landlord's
    and the member's own, and every card it holds (low→high)."""

    name: str
    is_landlord: bool
    is_member: bool
    cards: tuple[Card, ...]


@dataclass(frozen=True)
class PuzzleImage:
    """What the puzzle image shows. ``title`` / ``task``: the header's two lines;
    ``beat_label``: "To beat: Bot 2" or "Free lead" with ``to_beat`` (the cards; empty on
    a free lead); ``status`` and ``banner`` (1-3 lines) once over; ``selected``: the
    member's selected cards (``Card.index``)."""

    title: str
    task: str
    seats: tuple[PuzzleSeat, ...]
    beat_label: str
    to_beat: tuple[Card, ...] = ()
    status: Status = "play"
    banner: tuple[str, ...] = ()
    selected: frozenset[int] = frozenset()


def _banner_lines(view: PuzzleImage) -> list[tuple[str, bool]]:
    """The banner's lines, each long one on two (text, bold): the first line is bold."""
    if view.status == "play":
        return []
    out: list[tuple[str, bool]] = []
    for k, line in enumerate(view.banner):
        face = font(24 if k == 0 else 22, k == 0)
        out.extend((part, k == 0) for part in two_lines(safe_text(line), WIDTH - 2 * PAD - 32,
                                                        face))
    return out


def _task_lines(view: PuzzleImage) -> list[str]:
    return two_lines(safe_text(view.task), WIDTH - 2 * PAD, font(22))[:2]


def puzzle_image(view: PuzzleImage, *, locale: str = "en") -> Image.Image:
    """The puzzle as an RGB image (``render_puzzle`` encodes it). Raises ValueError
    unless it has 2 or 3 seats."""
    if len(view.seats) not in (2, 3):
        raise ValueError(f"a puzzle has 2 or 3 hands, got {len(view.seats)}")
    banner = _banner_lines(view)
    banner_h = len(banner) * BANNER_LINE_H + 20 + GAP if banner else 0
    task = _task_lines(view)
    header_h = 56 + 28 * len(task)
    height = header_h + banner_h + BEAT_H + GAP + len(view.seats) * SEAT_H + GAP
    img = Image.new("RGB", (WIDTH, height), FELT)
    draw = Draw(img)
    title, face = fit_text(safe_text(view.title), WIDTH - 2 * PAD, (30, 26, 22), bold=True)
    draw_text(draw, (PAD, 30), title, face, GOLD, anchor="lm")
    for k, part in enumerate(task):
        draw_text(draw, (PAD, 66 + 28 * k), part, font(22), WHITE, anchor="lm")
    y = header_h
    if banner_h:
        fill, ink = (GOLD, INK) if view.status == "solved" else (DANGER, WHITE)
        draw.rounded_rectangle((PAD, y, WIDTH - PAD, y + banner_h - GAP), radius=12, fill=fill)
        for k, (line, bold) in enumerate(banner):
            draw_text(draw, (PAD + 16, y + 10 + BANNER_LINE_H * k + BANNER_LINE_H // 2), line,
                      font(24 if bold else 22, bold), ink, anchor="lm")
        y += banner_h
    draw.rounded_rectangle((PAD, y, WIDTH - PAD, y + BEAT_H), radius=12, fill=PANEL)
    label, face = fit_text(safe_text(view.beat_label), 300, (22,), bold=True)
    draw_text(draw, (PAD + 12, y + BEAT_H // 2), label, face, MUTED, anchor="lm")
    x = PAD + 24 + 300
    step = fan_step(len(view.to_beat), "small", WIDTH - PAD - 12 - x)
    for i, card in enumerate(view.to_beat):
        paste_card(img, card_sprite(card.index, "small"), x + i * step, y + 12)
    y += BEAT_H + GAP
    for seat in view.seats:
        _seat(img, draw, seat, y, view.selected if seat.is_member else frozenset(), locale)
        y += SEAT_H
    return img


def _seat(img: Image.Image, draw: Draw, seat: PuzzleSeat, top: int, selected: frozenset[int],
          locale: str) -> None:
    """One seat's panel: name, role badge, every card (the selected ones raised)."""
    box = (PAD, top, WIDTH - PAD, top + SEAT_H - GAP)
    draw.rounded_rectangle(box, radius=12, fill=FELT_DARK,
                           outline=GOLD if seat.is_member else None, width=3)
    badge_w = role_badge(draw, WIDTH - PAD - 12, top + 8, seat.is_landlord, locale, right=True)
    name, face = fit_text(safe_text(seat.name), WIDTH - 2 * PAD - badge_w - 48, (24, 22),
                          bold=True)
    draw_text(draw, (PAD + 12, top + 24), name, face, GOLD if seat.is_member else WHITE,
              anchor="lm")
    cards: Sequence[Card] = seat.cards
    x = PAD + 12
    if not cards:
        draw_text(draw, (x, top + 44 + LIFT + SMALL.height // 2), text(locale, "none_left"),
                  font(22, True), GOLD, anchor="lm")
    step = fan_step(len(cards), "small", WIDTH - 2 * PAD - 24)
    for i, card in enumerate(cards):
        lifted = card.index in selected
        paste_card(img, card_sprite(card.index, "small", highlight=lifted), x + i * step,
                   top + 44 + LIFT - (LIFT if lifted else 0))


def render_puzzle(view: PuzzleImage, *, locale: str = "en") -> bytes:
    """PNG bytes of the puzzle image (800 px wide). Raises ValueError unless it has 2 or
    3 seats. Pure CPU work: call through a thread or the render workers."""
    return encode_png(puzzle_image(view, locale=locale))
