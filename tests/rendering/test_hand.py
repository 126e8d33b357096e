"""The private hand image (rendering.hand)."""

from __future__ import annotations

from bot.rules.cards import parse_cards
from rendering import render_hand, sort_cards
from rendering.cards import LARGE
from rendering.compose import FELT
from rendering.hand import MARGIN, RAISE, TOP, WIDTH, fan_positions, hand_height
from tests.support.pngs import colour_count, decode
from tools.samples import landlord_hand, selected_three


def raised_band(img, left: int) -> int:
    """Non-felt pixels in the strip above unraised cards, over one card's corner."""
    box = (left + 4, MARGIN + 4, left + LARGE.strip - 4, TOP - 6)
    area = (box[2] - box[0]) * (box[3] - box[1])
    return area - colour_count(img, box, FELT, tol=6)


def test_hand_is_an_800px_palette_png_with_fixed_height() -> None:
    img = decode(render_hand(landlord_hand()))
    assert img.mode == "P"
    assert img.size == (WIDTH, hand_height(True))
    assert decode(render_hand(landlord_hand(), show_indices=False)).size == (WIDTH, hand_height(False))
    assert hand_height(False) < hand_height(True)


def test_same_input_gives_the_same_bytes() -> None:
    a = render_hand(landlord_hand(), selected=selected_three(), sort="groups")
    b = render_hand(list(reversed(landlord_hand())), selected=sorted(selected_three()), sort="groups")
    assert a == b


def test_hand_png_stays_under_150_kb() -> None:
    assert len(render_hand(landlord_hand(), selected=selected_three())) <= 150 * 1024


def test_selected_cards_are_raised_and_others_are_not() -> None:
    cards = landlord_hand()
    chosen = selected_three()
    img = decode(render_hand(cards, selected=chosen))
    placed = list(zip(fan_positions(len(cards)), sort_cards(cards, "rank"), strict=True))
    raised_spans = [(x, x + LARGE.width + 8) for x, card in placed if card.index in chosen]
    checked_flat = 0
    for x, card in placed:
        band = raised_band(img, x)
        if card.index in chosen:
            assert band > 0.9 * (LARGE.strip - 8) * (TOP - 6 - MARGIN - 4), card
        elif not any(lo <= x <= hi for lo, hi in raised_spans):  # not under a raised card
            assert band == 0, card
            checked_flat += 1
    assert checked_flat >= 10


def test_nothing_selected_means_nothing_raised() -> None:
    cards = landlord_hand()
    img = decode(render_hand(cards))
    assert all(raised_band(img, x) == 0 for x in fan_positions(len(cards)))
    assert RAISE >= 20


def test_twenty_cards_fit_and_every_corner_stays_visible() -> None:
    xs = fan_positions(20)
    assert xs[0] >= MARGIN and xs[-1] + LARGE.width <= WIDTH - MARGIN
    assert min(b - a for a, b in zip(xs, xs[1:], strict=False)) >= LARGE.strip


def test_few_cards_are_centred_without_overlap() -> None:
    xs = fan_positions(3)
    assert xs[1] - xs[0] > LARGE.width
    assert abs(xs[0] - (WIDTH - (xs[-1] + LARGE.width))) <= 1


def test_sort_mode_changes_the_picture() -> None:
    cards = parse_cards("3 4 4 5 5 5 X D")
    assert render_hand(cards, sort="rank") != render_hand(cards, sort="groups")


def test_index_labels_are_drawn_only_when_asked() -> None:
    cards = parse_cards("3 4 5")
    img = decode(render_hand(cards, show_indices=True))
    bare = decode(render_hand(cards, show_indices=False))
    label_box = (0, TOP + LARGE.height + 6, WIDTH, img.height - MARGIN)
    assert colour_count(img, label_box, FELT, tol=6) < (label_box[2]) * (label_box[3] - label_box[1])
    assert bare.height < img.height


def test_empty_hand_renders_a_localized_message() -> None:
    en, es = render_hand([]), render_hand([], locale="es")
    assert decode(en).size == (WIDTH, hand_height(True))
    assert en != es
    assert render_hand([], locale="es-ES") == es
    assert render_hand([], locale="fr") == en
