"""Replay pages of a finished hand and the whole hand as one animation.

Layout (RGB, ``WIDTH`` = 800 px; height grows with the page's lines): a header
with the hand number, the page title (the deal, bidding, trick n of m), the bid
and the multiplier; then

* deal: each seat's 17 cards (first bidder marked) and the kitty;
* bidding: each bid in order, then the landlord with the kitty they took; under the
  Happy rules (docs/RULES.md §Happy rules) each call, grab, show and double in order,
  in words ("Grab ×2", gold for a yes) with the multiplier G × S it leaves under the
  seat's name, and the header says "Happy rules" where a classic page gives the bid;
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
from rendering.strings import decision_words, text, text_n
from rendering.text import (
    ELLIPSIS,
    Draw,
    draw_text,
    fit_text,
    font,
    safe_text,
    text_width,
    two_lines,
)

WIDTH = 800
PAD = 16
HEADER_H = 84
NAME_W = 270  # name column of an action row
ROW_H = 88
MARK_H = 128  # extra height of a marked row (the hard player's choice)
HAND_ROW_H = 124
HANDS_TITLE_H = 36
GAP = 8
MIN_PX = 22
"""Smallest text size in px on a page (11 px at a phone's ~400 px width; the GIF keeps
the proportion: 17.6 px at its 640 px, 11 px at 400)."""
NAME_SIZES = (26, 24, 22)
PILL_H = 32
DECISIONS = ("call", "grab", "show", "double")
"""The Happy rules' line kinds (``ReplayLine``)."""
LIGHT_RED = (255, 120, 110)
GREEN = (80, 220, 120)


def _header(draw: ImageDraw.ImageDraw, page: ReplayPage, locale: str) -> None:
    draw.rectangle((0, 0, WIDTH, HEADER_H), fill=FELT_DARK)
    if page.hand_number is not None:
        draw.text((PAD, 24), text(locale, "hand_number", n=page.hand_number), font=font(MIN_PX),
                  fill=MUTED, anchor="lm")
    draw.text((PAD, 58), text(locale, "replay_page", n=page.page, total=page.pages),
              font=font(MIN_PX), fill=MUTED, anchor="lm")
    if page.kind == "trick":
        title = text(locale, "replay_trick", n=page.trick, total=page.tricks)
    elif page.kind == "bidding" and page.happy:
        title = text(locale, "replay_calling")
    else:
        title = text(locale, f"replay_{page.kind}")
    if page.happy:  # no bids: the rules' name where a classic page gives the bid
        bid = text(locale, "replay_happy")
    else:
        bid = text(locale, "base_bid", n=page.bid) if page.bid else text(locale, "no_bid")
    side = max(text_width(bid, font(MIN_PX, True)),
               text_width(text(locale, "multiplier", n=page.multiplier), font(MIN_PX, True)),
               text_width(text(locale, "replay_page", n=page.page, total=page.pages),
                          font(MIN_PX)))
    room = WIDTH - 2 * (PAD + side + 12)  # centred between the corners' texts
    if text_width(title, font(30, True)) <= room:
        draw.text((WIDTH // 2, HEADER_H // 2), title, font=font(30, True), fill=GOLD, anchor="mm")
    else:  # smaller ("Cantar, robar, doblar" reached the multiplier)
        title, face = fit_text(title, room, (28, 26, 24), bold=True)
        draw_text(draw, (WIDTH // 2, HEADER_H // 2), title, face, GOLD, anchor="mm")
    draw.text((WIDTH - PAD, 24), bid, font=font(MIN_PX, True), fill=WHITE, anchor="rm")
    draw.text((WIDTH - PAD, 58), text(locale, "multiplier", n=page.multiplier),
              font=font(MIN_PX, True), fill=GOLD, anchor="rm")


def _name(draw: ImageDraw.ImageDraw, seat: ReplaySeat, x: int, y: int, width: int,
          locale: str, prefix: str = "", colour: tuple[int, int, int] = WHITE) -> bool:
    """The seat's name (shrunk to ``width``, then ellipsized) centred on ``y``, a computer
    tag after it; the tag gives way when the name would otherwise be cut. Returns whether
    a computer's tag was drawn (the caller finds it another place when not)."""
    tag = f" ({text(locale, 'computer')})" if seat.is_computer else ""
    tag_face = font(MIN_PX)
    name, face = fit_text(prefix + seat.name, width - text_width(tag, tag_face), NAME_SIZES,
                          bold=True)
    if tag and name.endswith(ELLIPSIS):
        tag = ""
        name, face = fit_text(prefix + seat.name, width, NAME_SIZES, bold=True)
    draw_text(draw, (x, y), name, face, colour, anchor="lm")
    if tag:
        draw.text((x + text_width(name, face), y), tag, font=tag_face, fill=MUTED, anchor="lm")
    return bool(tag)


def _outlined(draw: ImageDraw.ImageDraw, x: int, top: int, label: str,
              colour: tuple[int, int, int]) -> int:
    """A rounded outline with ``label`` (a pass, a bid); returns its width."""
    face = font(MIN_PX, True)
    w = text_width(label, face) + 32
    draw.rounded_rectangle((x, top + 12, x + w, top + SMALL.height - 12), radius=18,
                           outline=colour, width=2)
    draw.text((x + w // 2, top + SMALL.height // 2), label, font=face, fill=colour, anchor="mm")
    return w


def _line_height(line: ReplayLine) -> int:
    return ROW_H + (MARK_H if line.mark is not None else 0)


def _line(img: Image.Image, draw: ImageDraw.ImageDraw, page: ReplayPage, line: ReplayLine,
          top: int, locale: str) -> None:
    """One action: "▶" for the lead and "♛" for the landlord before the name, the verb
    under it; the cards (or an outlined pass/bid); a bomb/rocket tag and "played by the
    computer" as pills on the right."""
    seat = page.seats[line.seat]
    bottom = top + _line_height(line)
    marked = line.mark is not None
    draw.rounded_rectangle((PAD, top, WIDTH - PAD, bottom - GAP // 2), radius=12, fill=PANEL,
                           outline=DANGER if marked else None, width=3 if marked else 0)
    x = PAD + 12
    lead = line.kind == "lead"
    prefix = ("▶ " if lead else "") + ("♛ " if seat.is_landlord else "")
    tagged = _name(draw, seat, x, top + 26, NAME_W - 24, locale, prefix, GOLD if lead else WHITE)
    decision = line.kind in DECISIONS
    if decision:  # the multiplier the call, grab or show leaves (none after a double)
        words = text(locale, "multiplier", n=line.multiplier) if line.multiplier else ""
    else:
        verb = {"lead": "replay_leads", "follow": "replay_follows", "pass": "replay_passes",
                "bid": "replay_bids" if line.amount else "replay_passes"}[line.kind]
        words = text(locale, verb)
    if seat.is_computer and not tagged:  # issue 48: the lead's ▶ ♛ left no room for it
        words += f" ({text(locale, 'computer')})"
    if words:
        sub, face = fit_text(words, NAME_W - 24, (MIN_PX,))
        draw_text(draw, (x, top + 60), sub, face, GOLD if seat.is_landlord or decision
                  else MUTED, anchor="lm")
    cx, ctop = PAD + NAME_W, top + 8
    right = WIDTH - PAD - 12
    pills = []
    if line.doubling is not None:
        pills.append((text(locale, line.doubling) + " ×2", WARN, INK))
    if line.auto:
        pills.append((text(locale, "replay_auto"), FELT_DARK, MUTED))
    pill_face = font(MIN_PX, True)
    tag_w = 0
    for i, (label, fill, ink) in enumerate(pills):
        width = text_width(label, pill_face) + PILL_H
        y = top + (ROW_H - GAP // 2 - PILL_H) // 2 if len(pills) == 1 else top + 8 + i * 40
        draw_pill(draw, right - width, y, label, pill_face, fill, ink, PILL_H)
        tag_w = max(tag_w, width + 12)
    if decision:
        yes = bool(line.amount) and not (line.kind == "double" and line.amount == 1)
        label, label_face = fit_text(decision_words(locale, line.kind, line.amount),
                                     right - cx - tag_w - 40, (MIN_PX,), bold=True)
        del label_face  # _outlined draws at MIN_PX bold
        _outlined(draw, cx, ctop, label, GOLD if yes else MUTED)
    elif line.kind == "bid":
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
    """The review under a marked row: the rank badge and "Hard computer:" on one line,
    then the hard player's choice with both win chances beside it."""
    mark = line.mark
    assert mark is not None
    x = PAD + 12
    right = WIDTH - PAD - 12
    draw.line((x, top, right, top), fill=FELT_DARK, width=2)
    badge_face = font(MIN_PX, True)
    badge = text(locale, "review_rank", n=mark.rank)
    badge_w = draw_pill(draw, x, top + 10, badge, badge_face, DANGER, WHITE, PILL_H)
    hard, hard_face = fit_text(text(locale, "review_hard"), right - x - badge_w - 16, (MIN_PX,),
                               bold=True)
    draw_text(draw, (x + badge_w + 16, top + 10 + PILL_H // 2), hard, hard_face, MUTED,
              anchor="lm")
    chances = [(text(locale, "review_best_win", p=mark.best_win), GREEN),
               (text(locale, "review_played_win", p=mark.played_win), LIGHT_RED)]
    face = font(MIN_PX, True)
    chances_w = max(text_width(label, face) for label, _ in chances)
    ctop = top + 50
    if mark.best:
        width = draw_fan(img, list(mark.best), x, ctop, "small",
                         max(SMALL.width, min(380, right - x - 16 - chances_w)))
    else:
        width = _outlined(draw, x, ctop, text(locale, "pass"), MUTED)
    tx = x + width + 16
    for (label, colour), y in zip(chances, (ctop + 18, ctop + 52), strict=True):
        label, label_face = fit_text(label, right - tx, (MIN_PX,), bold=True)
        draw_text(draw, (tx, y), label, label_face, colour, anchor="lm")


def _hands(img: Image.Image, draw: ImageDraw.ImageDraw, page: ReplayPage, top: int,
           locale: str, title_key: str) -> int:
    """Every seat's cards in a panel per seat; returns the height used."""
    draw.text((PAD, top + HANDS_TITLE_H // 2), text(locale, title_key), font=font(MIN_PX, True),
              fill=MUTED, anchor="lm")
    y = top + HANDS_TITLE_H
    for i, seat in enumerate(page.seats):
        draw.rounded_rectangle((PAD, y, WIDTH - PAD, y + HAND_ROW_H - GAP), radius=12,
                               fill=FELT_DARK)
        x = PAD + 12
        first = page.kind == "deal" and i == page.first_bidder
        badge_w = 0 if page.kind == "deal" else role_badge(
            draw, WIDTH - PAD - 12, y + 6, seat.is_landlord, locale, right=True) + 12
        info = text_n(locale, "cards_left", len(seat.cards), n=len(seat.cards))
        if first:
            info += " · " + text(locale, "replay_first_caller" if page.happy
                                 else "replay_first_bidder")
        face = font(MIN_PX)
        draw.text((WIDTH - PAD - 12 - badge_w, y + 22), info, font=face, fill=MUTED, anchor="rm")
        _name(draw, seat, x, y + 22, WIDTH - 2 * PAD - 48 - badge_w - text_width(info, face),
              locale)
        if seat.cards:
            draw_fan(img, list(seat.cards), x, y + 44, "small", WIDTH - 2 * PAD - 24)
        else:
            draw.text((x, y + 44 + SMALL.height // 2), text(locale, "none_left"),
                      font=font(MIN_PX, True), fill=GOLD, anchor="lm")
        y += HAND_ROW_H
    return y - top


def _kitty(img: Image.Image, draw: ImageDraw.ImageDraw, page: ReplayPage, top: int,
           locale: str, line: str) -> int:
    """The kitty with a line of text beside it (on two lines if need be); returns the
    height used."""
    draw.rounded_rectangle((PAD, top, WIDTH - PAD, top + SMALL.height + 16), radius=12, fill=PANEL)
    x = PAD + 12
    mid = top + 8 + SMALL.height // 2
    face = font(MIN_PX, True)
    draw.text((x, mid), text(locale, "kitty"), font=face, fill=MUTED, anchor="lm")
    kx = x + text_width(text(locale, "kitty"), face) + 16
    width = draw_fan(img, list(page.kitty), kx, top + 8, "small", 3 * (SMALL.width + 6))
    if line:
        lx = kx + width + 20
        lines = two_lines(safe_text(line), WIDTH - PAD - 12 - lx, face)
        for k, part in enumerate(lines):
            y = mid if len(lines) == 1 else mid - 14 + 28 * k
            draw_text(draw, (lx, y), part, face, GOLD, anchor="lm")
    return SMALL.height + 16 + GAP


def page_image(page: ReplayPage, *, locale: str = "en") -> Image.Image:
    """The page as an RGB image (``render_replay_page`` encodes it)."""
    if len(page.seats) != 3:
        raise ValueError(f"a replay page has 3 seats, got {len(page.seats)}")
    lines_h = sum(_line_height(line) for line in page.lines)
    hands_h = HANDS_TITLE_H + 3 * HAND_ROW_H
    kitty_h = SMALL.height + 16 + GAP if page.kind in ("deal", "bidding") and page.kitty else 0
    height = HEADER_H + GAP + lines_h + kitty_h + hands_h + GAP
    img = Image.new("RGB", (WIDTH, height), FELT)
    draw = Draw(img)
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
    title = {"deal": "replay_dealt",
             "bidding": "replay_before_play" if page.happy else "replay_after_bidding",
             }.get(page.kind, "replay_after_trick")
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
ANIMATION_WIDTH = 640
"""Frame width of the animation in px: 0.8 of a page, so a page's 22 px text is 17.6 px,
and still 11 px when a phone shows the animation 400 px wide."""


def render_replay_animation(frames: Sequence[Image.Image | bytes], *, fmt: AnimationFormat = "gif",
                            seconds: float = 2.5, width: int = ANIMATION_WIDTH) -> bytes:
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
