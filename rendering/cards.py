"""Card faces and backs drawn by code, cached once per (card, size, highlight).

A face is an RGBA sprite: the rounded card plus a soft shadow, with a margin of
``SHADOW_MARGIN`` px on every side, so the card's top-left corner sits at
(``SHADOW_MARGIN``, ``SHADOW_MARGIN``) inside the sprite. Faces are drawn at
2× and downsampled once for smooth edges; renders only paste cached sprites.

Corners show the rank (``10`` for T, squeezed to fit) and the suit (♠ ♥ ♦ ♣,
red for hearts and diamonds). Jokers (docs/RULES.md ``X`` small, ``D`` big) show
"JOKER" down the corner: black with a hollow ☆ for the small joker, red with a
filled ★ for the big joker.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from PIL import Image, ImageDraw, ImageFilter

from bot.rules.cards import Card, Rank, rank_counts, show_cards
from rendering.text import font

SortMode = Literal["rank", "groups"]
SHADOW_MARGIN = 4
SS = 2  # supersampling factor for sprites

INK = (28, 28, 32, 255)
RED = (200, 30, 40, 255)
FACE = (252, 251, 246, 255)
EDGE = (150, 150, 150, 255)
GOLD = (255, 196, 0, 255)
BACK = (36, 84, 160, 255)
BACK_DARK = (22, 56, 112, 255)


@dataclass(frozen=True)
class CardSize:
    """Geometry of one card size in output pixels.

    ``strip`` is the width of the left column holding the corner index; a fan
    must advance at least ``strip`` px per card to keep every index visible.
    """

    width: int
    height: int
    radius: int
    strip: int
    rank_px: int
    suit_px: int
    joker_px: int
    pip_px: int


LARGE = CardSize(width=104, height=146, radius=9, strip=32, rank_px=30, suit_px=26, joker_px=19, pip_px=58)
SMALL = CardSize(width=50, height=70, radius=5, strip=22, rank_px=22, suit_px=16, joker_px=12, pip_px=0)
SIZES = {"large": LARGE, "small": SMALL}


def rank_label(rank: Rank) -> str:
    """Text printed on a card: ``10`` for ten, else the docs/RULES.md symbol
    (``bot.rules.cards.show_cards``, as in every text)."""
    return show_cards((rank,))


def _squeezed_text(text: str, px: int, bold: bool, color: tuple[int, ...], max_w: int) -> Image.Image:
    """``text`` as an RGBA image, squeezed horizontally to at most ``max_w`` px wide."""
    face = font(px, bold)
    left, top, right, bottom = face.getbbox(text)
    img = Image.new("RGBA", (int(right - left + 2), int(bottom - top + 2)), (0, 0, 0, 0))
    ImageDraw.Draw(img).text((1 - left, 1 - top), text, font=face, fill=color)
    if img.width > max_w:
        img = img.resize((max_w, img.height), Image.Resampling.LANCZOS)
    return img


def _paste_centered(dst: Image.Image, src: Image.Image, cx: int, top: int) -> None:
    dst.alpha_composite(src, (cx - src.width // 2, top))


def _draw_corner(img: Image.Image, card: Card, size: CardSize, x0: int, y0: int) -> None:
    """Draw the corner index (2× units) with its column's left edge at x0."""
    s = SS
    cx = x0 + size.strip * s // 2
    if card.rank.is_joker:
        big = card.rank is Rank.RED_JOKER
        color = RED if big else INK
        y = y0 + 4 * s
        for letter in "JOKER":
            glyph = _squeezed_text(letter, size.joker_px * s, True, color, (size.strip - 4) * s)
            _paste_centered(img, glyph, cx, y)
            y += int(size.joker_px * 1.06 * s)
        if size.pip_px:  # small cards show the star in the body instead
            star = _squeezed_text("★" if big else "☆", size.joker_px * s + 4 * s, True, color, size.strip * s)
            _paste_centered(img, star, cx, y + s * 2)
        return
    color = RED if card.suit is not None and card.suit.is_red else INK
    rank = _squeezed_text(rank_label(card.rank), size.rank_px * s, True, color, (size.strip - 4) * s)
    _paste_centered(img, rank, cx, y0 + 5 * s)
    suit = _squeezed_text(card.suit.symbol, size.suit_px * s, False, color, size.strip * s)  # type: ignore[union-attr]  # a suited card: jokers drawn above
    _paste_centered(img, suit, cx, y0 + 5 * s + rank.height + 3 * s)


def _draw_center(img: Image.Image, card: Card, size: CardSize, x0: int, y0: int) -> None:
    """Draw the large centre pip (2× units); small cards get one only for jokers."""
    if not size.pip_px and not card.rank.is_joker:
        return
    s = SS
    cx = x0 + (size.width * s + size.strip * s) // 2
    cy = y0 + size.height * s // 2
    if card.rank.is_joker:
        big = card.rank is Rank.RED_JOKER
        px = size.pip_px or size.width - size.strip - 2
        glyph = _squeezed_text("★" if big else "☆", px * s, False, RED if big else INK, size.width * s)
    else:
        color = RED if card.suit is not None and card.suit.is_red else INK
        glyph = _squeezed_text(card.suit.symbol, size.pip_px * s, False, color, size.width * s)  # type: ignore[union-attr]  # a suited card: jokers drawn above
    img.alpha_composite(glyph, (cx - glyph.width // 2, cy - glyph.height // 2))


@lru_cache(maxsize=len(SIZES))
def _shadow(size: CardSize) -> Image.Image:
    """A 2× RGBA canvas holding only the card's blurred shadow: the same for every card of
    ``size``, so blurred once (the blur was half of ``warm_up``'s CPU). Do not mutate."""
    s, m = SS, SHADOW_MARGIN * SS
    w, h = size.width * s + 2 * m, size.height * s + 2 * m
    shadow = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    ImageDraw.Draw(shadow).rounded_rectangle(
        (m + s, m + 2 * s, m + size.width * s + s, m + size.height * s + 2 * s),
        radius=size.radius * s, fill=(0, 0, 0, 110),
    )
    return shadow.filter(ImageFilter.GaussianBlur(2 * s))


def _blank(size: CardSize, fill: tuple[int, ...], edge: tuple[int, ...], edge_w: int) -> tuple[Image.Image, int, int]:
    """A 2× RGBA canvas with shadow and an empty rounded card; returns (img, x0, y0)."""
    s, m = SS, SHADOW_MARGIN * SS
    img = _shadow(size).copy()
    ImageDraw.Draw(img).rounded_rectangle(
        (m, m, m + size.width * s - 1, m + size.height * s - 1),
        radius=size.radius * s, fill=fill, outline=edge, width=edge_w * s,
    )
    return img, m, m


def _finish(img: Image.Image) -> Image.Image:
    return img.resize((img.width // SS, img.height // SS), Image.Resampling.LANCZOS)


@lru_cache(maxsize=256)
def card_sprite(index: int, size: str = "large", highlight: bool = False) -> Image.Image:
    """RGBA sprite of card ``index`` (0..53) at ``size`` ("large"/"small").

    ``highlight`` draws a gold border (selected cards). Cached; do not mutate
    the returned image.
    """
    geo = SIZES[size]
    card = Card.from_index(index)
    img, x0, y0 = _blank(geo, FACE, GOLD if highlight else EDGE, 3 if highlight else 1)
    _draw_corner(img, card, geo, x0, y0)
    _draw_center(img, card, geo, x0, y0)
    return _finish(img)


@lru_cache(maxsize=4)
def back_sprite(size: str = "large") -> Image.Image:
    """RGBA sprite of a face-down card at ``size``. Cached; do not mutate."""
    geo = SIZES[size]
    img, x0, y0 = _blank(geo, BACK, (245, 245, 245, 255), 2)
    draw = ImageDraw.Draw(img)
    s, inset = SS, 5 * SS if size == "large" else 3 * SS
    left, top = x0 + inset, y0 + inset
    right, bottom = x0 + geo.width * s - inset, y0 + geo.height * s - inset
    draw.rounded_rectangle((left, top, right, bottom), radius=geo.radius * s // 2, outline=(200, 215, 240, 255), width=s)
    step = 8 * s if size == "large" else 6 * s
    for k in range(-(bottom - top), right - left, step):
        draw.line((left + k, top, left + k + (bottom - top), bottom), fill=BACK_DARK, width=s)
    # Clean the pattern outside the inner frame.
    inner = Image.new("L", img.size, 0)
    ImageDraw.Draw(inner).rounded_rectangle((left + s, top + s, right - s, bottom - s), radius=geo.radius * s // 2, fill=255)
    base, _, _ = _blank(geo, BACK, (245, 245, 245, 255), 2)
    ImageDraw.Draw(base).rounded_rectangle((left, top, right, bottom), radius=geo.radius * s // 2, outline=(200, 215, 240, 255), width=s)
    base.paste(img, (0, 0), inner)
    return _finish(base)


def sort_cards(cards: Iterable[Card], sort: SortMode = "rank") -> list[Card]:
    """Cards in display order.

    ``"rank"``: low→high by rank (docs/RULES.md rank order), suits ♠ ♥ ♦ ♣ within a rank.
    ``"groups"``: bombs (4 of a rank), then the rocket (X D together), trios,
    pairs, singles; within a group low→high. Raises ValueError on another mode.
    """
    ordered = sorted(cards, key=lambda card: card.index)
    if sort == "rank":
        return ordered
    if sort != "groups":
        raise ValueError(f"unknown sort mode: {sort!r}")
    counts = rank_counts(ordered)
    rocket = counts[13] == 1 and counts[14] == 1

    def group(card: Card) -> int:
        if card.rank.is_joker and rocket:
            return 1
        count = counts[card.rank.index]
        return {4: 0, 3: 2, 2: 3}.get(count, 4)

    return sorted(ordered, key=lambda card: (group(card), card.index))


def warm_up() -> None:
    """Draw every face (plain and selected, both sizes) and back now (~0.5 s, CPU).

    Optional: call once at start-up (through ``asyncio.to_thread``, or in each worker
    process) so that the first renders do not pay for drawing faces.
    """
    for index in range(54):
        card_sprite(index, "large")
        card_sprite(index, "large", True)
        card_sprite(index, "small")
    back_sprite("large")
    back_sprite("small")
