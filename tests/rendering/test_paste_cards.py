"""Cards pasted by parts (rendering.compose.paste_cards): the pixels of pasting each
sprite whole in turn (docs/PERFORMANCE.md §A fan pasted by parts)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from rendering.cards import back_sprite, card_sprite
from rendering.compose import FELT, opaque_box, paste_card, paste_cards
from rendering.hand import RAISE, fan_positions
from tests.support.properties import examples


def _one_by_one(size: tuple[int, int], placed: list[tuple[Image.Image, int, int]]) -> bytes:
    canvas = Image.new("RGB", size, FELT)
    for sprite, x, y in placed:
        paste_card(canvas, sprite, x, y)
    return canvas.tobytes()


def _by_parts(size: tuple[int, int], placed: list[tuple[Image.Image, int, int]]) -> bytes:
    canvas = Image.new("RGB", size, FELT)
    paste_cards(canvas, placed)
    return canvas.tobytes()


@settings(max_examples=examples(150), deadline=None)
@given(cards=st.lists(st.integers(0, 53), min_size=1, max_size=20, unique=True),
       raised=st.sets(st.integers(0, 53)), top=st.integers(-30, 60))
def test_a_hand_fan_with_raised_cards_is_the_fan_pasted_card_by_card(
        cards: list[int], raised: set[int], top: int) -> None:
    cards.sort()
    placed = [(card_sprite(c, "large", c in raised), x, top - RAISE if c in raised else top)
              for c, x in zip(cards, fan_positions(len(cards)), strict=True)]
    assert _by_parts((800, 200), placed) == _one_by_one((800, 200), placed)


@settings(max_examples=examples(150), deadline=None)
@given(faces=st.lists(st.one_of(st.integers(0, 53), st.none()), min_size=1, max_size=12),
       step=st.integers(0, 70), ys=st.lists(st.integers(-40, 40), min_size=12, max_size=12),
       size=st.sampled_from(["small", "large"]), left=st.integers(-60, 60))
def test_cards_and_backs_at_any_step_and_height_are_pasted_card_by_card(
        faces: list[int | None], step: int, ys: list[int], size: str, left: int) -> None:
    placed = [(back_sprite(size) if face is None else card_sprite(face, size), left + i * step, y)
              for i, (face, y) in enumerate(zip(faces, ys, strict=False))]
    assert _by_parts((500, 140), placed) == _one_by_one((500, 140), placed)


def test_the_opaque_box_is_all_opaque_and_most_of_the_card() -> None:
    for sprite in (card_sprite(0), card_sprite(53, "large", True), card_sprite(7, "small"),
                   back_sprite("large"), back_sprite("small")):
        box = opaque_box(sprite)
        assert sprite.getchannel("A").crop(box).getextrema() == (255, 255)
        area = (box[2] - box[0]) * (box[3] - box[1])
        assert area > 0.6 * sprite.width * sprite.height, (box, sprite.size)
    assert opaque_box(card_sprite(0)) == (8, 8, 104, 146)  # the large body, 4 px in from its edge


def test_a_sprite_with_nothing_opaque_is_blended_whole() -> None:
    ghost = Image.new("RGBA", (40, 50), (200, 10, 10, 128))
    assert opaque_box(ghost) == (0, 0, 0, 0)
    placed = [(ghost, 10, 10), (card_sprite(3, "small"), 20, 12), (ghost, 30, 5)]
    assert _by_parts((120, 90), placed) == _one_by_one((120, 90), placed)
