"""Card faces, sort orders and the bundled font (rendering.cards, rendering.text)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from bot.rules.cards import Card, format_cards, parse_cards
from rendering import bands
from rendering.cards import (
    LARGE,
    SHADOW_MARGIN,
    SMALL,
    back_sprite,
    card_sprite,
    sort_cards,
    warm_up,
)
from rendering.text import BOLD, FONT_DIR, REGULAR
from tests.support.pngs import colour_count

RED = (200, 30, 40)


def test_sort_by_rank_orders_low_to_high() -> None:
    cards = parse_cards("D 3 2 A T 5 X")
    assert format_cards(sort_cards(reversed(cards), "rank")) == "35TA2XD"
    assert [c.code for c in sort_cards(parse_cards("55"), "rank")] == ["5s", "5h"]


def test_sort_by_groups_puts_bombs_rocket_trios_pairs_singles() -> None:
    cards = parse_cards("3 4 4 5 5 5 6 6 6 6 9 K K X D")
    ordered = "".join(card.rank.symbol for card in sort_cards(cards, "groups"))
    assert ordered == "6666XD55544KK39"


def test_sort_by_groups_keeps_a_lone_joker_with_singles() -> None:
    ordered = "".join(c.rank.symbol for c in sort_cards(parse_cards("3 3 X 4"), "groups"))
    assert ordered == "334X"


def test_sort_rejects_unknown_mode() -> None:
    with pytest.raises(ValueError, match="unknown sort mode"):
        sort_cards(parse_cards("3"), "suit")  # type: ignore[arg-type]


def test_card_faces_are_cached_and_sized() -> None:
    assert card_sprite(0) is card_sprite(0)
    sprite = card_sprite(Card.from_code("Ah").index)
    assert sprite.mode == "RGBA"
    assert sprite.size == (LARGE.width + 2 * SHADOW_MARGIN, LARGE.height + 2 * SHADOW_MARGIN)
    assert card_sprite(0, "small").size == (SMALL.width + 2 * SHADOW_MARGIN, SMALL.height + 2 * SHADOW_MARGIN)
    assert back_sprite("small") is back_sprite("small")


@pytest.mark.parametrize("size", ["large", "small"])
def test_hearts_and_diamonds_are_red_spades_and_clubs_are_not(size: str) -> None:
    for code, red in (("Kh", True), ("4d", True), ("Ks", False), ("4c", False)):
        sprite = card_sprite(Card.from_code(code).index, size)
        reds = colour_count(sprite, (0, 0, sprite.width, sprite.height), RED, tol=40)
        assert (reds > 20) is red, code


@pytest.mark.parametrize("size", ["large", "small"])
def test_small_and_big_jokers_look_different(size: str) -> None:
    small, big = card_sprite(52, size), card_sprite(53, size)
    assert small.tobytes() != big.tobytes()
    box = (0, 0, small.width, small.height)
    assert colour_count(small, box, RED, tol=40) == 0
    assert colour_count(big, box, RED, tol=40) > 50


def test_selected_face_has_a_gold_border() -> None:
    plain, gold = card_sprite(10), card_sprite(10, "large", True)
    box = (0, 0, plain.width, plain.height)
    assert colour_count(gold, box, (255, 196, 0), tol=30) > 100
    assert colour_count(plain, box, (255, 196, 0), tol=30) == 0


def test_fonts_and_licence_are_bundled() -> None:
    assert REGULAR.parent == FONT_DIR == BOLD.parent
    assert REGULAR.stat().st_size > 100_000 and BOLD.stat().st_size > 100_000
    assert "Bitstream" in (FONT_DIR / "LICENSE").read_text()


@pytest.mark.processes
def test_rendering_never_imports_discord() -> None:
    code = "import sys, rendering, tools.preview; assert 'discord' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True)


def test_faces_redrawn_from_scratch_give_identical_images() -> None:
    from rendering import render_hand
    from tools.samples import landlord_hand, selected_three

    before = render_hand(landlord_hand(), selected=selected_three())
    card_sprite.cache_clear()
    back_sprite.cache_clear()
    bands.forget()  # the hand's kept bands too: its fan is drawn again from the new faces
    warm_up()
    assert card_sprite.cache_info().currsize == 3 * 54
    assert render_hand(landlord_hand(), selected=selected_three()) == before
