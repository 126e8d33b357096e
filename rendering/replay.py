"""Replay pages of a finished hand and the whole hand as one animation.

Layout (RGB, ``WIDTH`` = 800 px; height grows with the page's lines): a header
with the hand number, the page title (the deal, bidding, trick n of m), the bid
and the multiplier; then

* deal: each seat's 17 cards (first bidder marked) and the kitty;
* bidding: each bid in order, then the landlord with the kitty they took;
* trick: one row per action in order — who led (▶), each follow, each pass —
  with bombs and rockets marked; a row the review marks as one of the member's
  costliest decisions gets a red frame, the hard player's choice and both win
  chances; below, the cards every seat holds after the trick.

The result page is ``rendering.result.render_result``. ``render_replay_animation``
turns the pages into one GIF or animated WebP (pages padded to one height).
Pure CPU work: call through ``asyncio.to_thread``.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from functools import lru_cache
from typing import Literal

from PIL import Image, ImageDraw

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
    palette_image,
    role_badge,
)
from rendering.palette_data import SHARED_PALETTE
from rendering.replay_models import ReplayLine, ReplayPage, ReplaySeat
from rendering.strings import text, text_n
from rendering.text import draw_text, fit_text, font, text_width

WIDTH = 800
PAD = 16
HEADER_H = 64
NAME_W = 230  # name column of an action row
ROW_H = 80
MARK_H = 86  # extra height of a marked row (the hard player's choice)
HAND_ROW_H = 104
GAP = 8
LIGHT_RED = (255, 120, 110)
GREEN = (80, 220, 120)


def _header(draw: ImageDraw.ImageDraw, page: ReplayPage, locale: str) -> None:
    draw.rectangle((0, 0, WIDTH, HEADER_H), fill=FELT_DARK)
    if page.hand_number is not None:
        draw.text((PAD, 20), text(locale, "hand_number", n=page.hand_number), font=font(18),
                  fill=MUTED, anchor="lm")
    draw.text((PAD, 44), text(locale, "replay_page", n=page.page, total=page.pages),
              font=font(15), fill=MUTED, anchor="lm")
    if page.kind == "trick":
        title = text(locale, "replay_trick", n=page.trick, total=page.tricks)
    else:
        title = text(locale, f"replay_{page.kind}")
    draw.text((WIDTH // 2, HEADER_H // 2), title, font=font(30, True), fill=GOLD, anchor="mm")
    bid = text(locale, "base_bid", n=page.bid) if page.bid else text(locale, "no_bid")
    draw.text((WIDTH - PAD, 20), bid, font=font(18, True), fill=WHITE, anchor="rm")
    draw.text((WIDTH - PAD, 44), text(locale, "multiplier", n=page.multiplier), font=font(16, True),
              fill=GOLD, anchor="rm")


def _name(draw: ImageDraw.ImageDraw, seat: ReplaySeat, x: int, y: int, width: int,
          locale: str, prefix: str = "", colour: tuple[int, int, int] = WHITE) -> None:
    """The seat's name (shrunk to ``width``) centred on ``y``, a computer tag after it."""
    tag = f" ({text(locale, 'computer')})" if seat.is_computer else ""
    tag_face = font(15)
    name, face = fit_text(prefix + seat.name, width - text_width(tag, tag_face), (22, 20, 18, 16),
                          bold=True)
    draw_text(draw, (x, y), name, face, colour, anchor="lm")
    if tag:
        draw.text((x + text_width(name, face), y), tag, font=tag_face, fill=MUTED, anchor="lm")


def _outlined(draw: ImageDraw.ImageDraw, x: int, top: int, label: str,
              colour: tuple[int, int, int]) -> int:
    """A rounded outline with ``label`` (a pass, a bid); returns its width."""
    face = font(22, True)
    w = text_width(label, face) + 32
    draw.rounded_rectangle((x, top + 12, x + w, top + SMALL.height - 12), radius=18,
                           outline=colour, width=2)
    draw.text((x + w // 2, top + SMALL.height // 2), label, font=face, fill=colour, anchor="mm")
    return w


def _line_height(line: ReplayLine) -> int:
    return ROW_H + (MARK_H if line.mark is not None else 0)


def _line(img: Image.Image, draw: ImageDraw.ImageDraw, page: ReplayPage, line: ReplayLine,
          top: int, locale: str) -> None:
    seat = page.seats[line.seat]
    bottom = top + _line_height(line)
    marked = line.mark is not None
    draw.rounded_rectangle((PAD, top, WIDTH - PAD, bottom - GAP // 2), radius=12, fill=PANEL,
                           outline=DANGER if marked else None, width=3 if marked else 0)
    x = PAD + 12
    mid = top + 3 + SMALL.height // 2
    lead = line.kind == "lead"
    _name(draw, seat, x, mid - 12, NAME_W - 24, locale, "▶ " if lead else "",
          GOLD if lead else WHITE)
    role = text(locale, "landlord") if seat.is_landlord else text(locale, "peasant")
    verb = {"lead": "replay_leads", "follow": "replay_follows", "pass": "replay_passes",
            "bid": "replay_bids" if line.amount else "replay_passes"}[line.kind]
    sub = f"{role} · {text(locale, verb)}" + (f" · {text(locale, 'replay_auto')}" if line.auto else "")
    sub, face = fit_text(sub, NAME_W - 24, (15, 13), bold=False)
    draw_text(draw, (x, mid + 14), sub, face, GOLD if seat.is_landlord else MUTED, anchor="lm")
    cx, ctop = PAD + NAME_W, top + 3
    right = WIDTH - PAD - 12
    tag_w = 0
    if line.doubling is not None:
        label = text(locale, line.doubling) + " ×2"
        tag_w = draw_pill(draw, right - text_width(label, font(17, True)) - 28, mid - 14, label,
                          font(17, True), WARN, INK) + 8
    if line.kind == "bid":
        if line.amount:
            _outlined(draw, cx, ctop, text(locale, "base_bid", n=line.amount), GOLD)
        else:
            _outlined(draw, cx, ctop, text(locale, "pass"), MUTED)
    elif line.kind == "pass":
        _outlined(draw, cx, ctop, text(locale, "pass"), MUTED)
    else:
        draw_fan(img, list(line.cards), cx, ctop, "small", right - cx - tag_w)
    if line.mark is not None:
        _mark(img, draw, line, top + ROW_H - 4, locale)


def _mark(img: Image.Image, draw: ImageDraw.ImageDraw, line: ReplayLine, top: int,
          locale: str) -> None:
    """The review under a marked row: rank, the hard player's choice, both chances."""
    mark = line.mark
    assert mark is not None
    x = PAD + 12
    right = WIDTH - PAD - 12
    draw.line((x, top, right, top), fill=FELT_DARK, width=2)
    # the badge (a pill: text + its 26 px height) stays in the name column, the chances
    # on the page: the hard player's cards get the room between them
    badge, badge_face = fit_text(text(locale, "review_rank", n=mark.rank), NAME_W - 24 - 26 - 8,
                                 (16, 15, 14, 13), bold=True)
    draw_pill(draw, x, top + 10, badge, badge_face, DANGER, WHITE, 26)
    hard, hard_face = fit_text(text(locale, "review_hard"), NAME_W - 24, (16, 15, 14, 13),
                               bold=True)
    draw_text(draw, (x, top + 56), hard, hard_face, MUTED, anchor="lm")
    cx = PAD + NAME_W
    chances = [(text(locale, "review_best_win", p=mark.best_win), GREEN),
               (text(locale, "review_played_win", p=mark.played_win), LIGHT_RED)]
    face = font(18, True)
    chances_w = max(text_width(label, face) for label, _ in chances)
    if mark.best:
        width = draw_fan(img, list(mark.best), cx, top + 8, "small",
                         max(SMALL.width, min(300, right - cx - 16 - chances_w)))
    else:
        width = _outlined(draw, cx, top + 8, text(locale, "pass"), MUTED)
    tx = cx + width + 16
    widest = max((label for label, _ in chances), key=lambda label: text_width(label, face))
    face = fit_text(widest, right - tx, (18, 16, 15, 14), bold=True)[1]  # one size for both
    for (label, colour), y in zip(chances, (top + 24, top + 52), strict=True):
        label, label_face = fit_text(label, right - tx, (int(face.size),), bold=True)
        draw_text(draw, (tx, y), label, label_face, colour, anchor="lm")


def _hands(img: Image.Image, draw: ImageDraw.ImageDraw, page: ReplayPage, top: int,
           locale: str, title_key: str) -> int:
    """Every seat's cards in a panel per seat; returns the height used."""
    draw.text((PAD, top + 14), text(locale, title_key), font=font(17, True), fill=MUTED,
              anchor="lm")
    y = top + 30
    for i, seat in enumerate(page.seats):
        draw.rounded_rectangle((PAD, y, WIDTH - PAD, y + HAND_ROW_H - GAP), radius=12,
                               fill=FELT_DARK)
        x = PAD + 12
        first = page.kind == "deal" and i == page.first_bidder
        badge_w = 0 if page.kind == "deal" else role_badge(
            draw, WIDTH - PAD - 12, y + 6, seat.is_landlord, locale, right=True)
        info = text_n(locale, "cards_left", len(seat.cards), n=len(seat.cards))
        if first:
            info += " · " + text(locale, "replay_first_bidder")
        face = font(15)
        draw.text((WIDTH - PAD - 24 - badge_w, y + 20), info, font=face, fill=MUTED, anchor="rm")
        _name(draw, seat, x, y + 20, WIDTH - 2 * PAD - 60 - badge_w - text_width(info, face),
              locale)
        if seat.cards:
            draw_fan(img, list(seat.cards), x, y + 34, "small", WIDTH - 2 * PAD - 24)
        else:
            draw.text((x, y + 34 + SMALL.height // 2), text(locale, "none_left"),
                      font=font(22, True), fill=GOLD, anchor="lm")
        y += HAND_ROW_H
    return y - top


def _kitty(img: Image.Image, draw: ImageDraw.ImageDraw, page: ReplayPage, top: int,
           locale: str, line: str) -> int:
    """The kitty with a line of text beside it; returns the height used."""
    draw.rounded_rectangle((PAD, top, WIDTH - PAD, top + SMALL.height + 16), radius=12, fill=PANEL)
    x = PAD + 12
    draw.text((x, top + 8 + SMALL.height // 2), text(locale, "kitty"), font=font(20, True),
              fill=MUTED, anchor="lm")
    kx = x + text_width(text(locale, "kitty"), font(20, True)) + 16
    width = draw_fan(img, list(page.kitty), kx, top + 8, "small", 3 * (SMALL.width + 6))
    if line:
        room = WIDTH - PAD - 12 - (kx + width + 20)
        label, face = fit_text(line, room, (20, 18, 16), bold=True)
        draw_text(draw, (kx + width + 20, top + 8 + SMALL.height // 2), label, face, GOLD,
                  anchor="lm")
    return SMALL.height + 16 + GAP


def page_image(page: ReplayPage, *, locale: str = "en") -> Image.Image:
    """The page as an RGB image (``render_replay_page`` encodes it)."""
    if len(page.seats) != 3:
        raise ValueError(f"a replay page has 3 seats, got {len(page.seats)}")
    lines_h = sum(_line_height(line) for line in page.lines)
    hands_h = 30 + 3 * HAND_ROW_H
    kitty_h = SMALL.height + 16 + GAP if page.kind in ("deal", "bidding") and page.kitty else 0
    height = HEADER_H + GAP + lines_h + kitty_h + hands_h + GAP
    img = Image.new("RGB", (WIDTH, height), FELT)
    draw = ImageDraw.Draw(img)
    _header(draw, page, locale)
    y = HEADER_H + GAP
    for line in page.lines:
        _line(img, draw, page, line, y, locale)
        y += _line_height(line)
    if kitty_h:
        landlord = next((s for s in page.seats if s.is_landlord), None)
        note = (text(locale, "replay_takes_kitty", name=landlord.name)
                if page.kind == "bidding" and landlord is not None else "")
        y += _kitty(img, draw, page, y, locale, note)
    title = {"deal": "replay_dealt", "bidding": "replay_after_bidding"}.get(page.kind,
                                                                            "replay_after_trick")
    _hands(img, draw, page, y, locale, title)
    return img


def render_replay_page(page: ReplayPage, *, locale: str = "en") -> bytes:
    """PNG bytes of one replay page (800 px wide, RGB). Raises ValueError unless
    ``page.seats`` has 3 seats. Pure CPU work: call through ``asyncio.to_thread``."""
    return encode_png(page_image(page, locale=locale))


PAGE_CACHE_SIZE = 48
"""Replay pages kept by ``render_replay_page_cached`` (≈ 100 KB each, ≈ 5 MB at most)."""


@lru_cache(maxsize=PAGE_CACHE_SIZE)
def render_replay_page_cached(page: ReplayPage, locale: str = "en") -> bytes:
    """``render_replay_page`` memoized on a hashable page (tuples, not lists): paging
    back and forth through a replay draws each page once. Thread-safe."""
    return render_replay_page(page, locale=locale)


AnimationFormat = Literal["gif", "webp"]


def render_replay_animation(frames: Sequence[Image.Image | bytes], *, fmt: AnimationFormat = "gif",
                            seconds: float = 2.5, width: int = 640) -> bytes:
    """One animated image of ``frames`` (page images or PNG bytes), ``seconds`` per frame.

    Frames are scaled to ``width`` px and padded (felt colour) to the tallest one.
    GIF: the images' own shared palette (``rendering.compose``'s 256 colours, no
    dithering), so the design colours — the green and red of points won and lost,
    the gold marks — stay what the PNG pages show; WebP: lossy, quality 70. Raises
    ValueError without frames.
    """
    if not frames:
        raise ValueError("an animation needs at least one frame")
    images = [Image.open(io.BytesIO(f)).convert("RGB") if isinstance(f, bytes) else f
              for f in frames]
    scaled = [im.resize((width, round(im.height * width / im.width)), Image.Resampling.LANCZOS)
              for im in images]
    height = max(im.height for im in scaled)
    padded = []
    for im in scaled:
        canvas = Image.new("RGB", (width, height), FELT)
        canvas.paste(im, (0, 0))
        padded.append(canvas)
    out = io.BytesIO()
    duration = int(seconds * 1000)
    if fmt == "gif":
        palette = palette_image(SHARED_PALETTE)
        quantized = [im.quantize(palette=palette, dither=Image.Dither.NONE) for im in padded]
        quantized[0].save(out, format="GIF", save_all=True, append_images=quantized[1:],
                          duration=duration, loop=0, optimize=False, disposal=1)
    else:
        padded[0].save(out, format="WEBP", save_all=True, append_images=padded[1:],
                       duration=duration, loop=0, quality=70, method=4)
    return out.getvalue()
