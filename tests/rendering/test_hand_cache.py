"""render_hand_cached: the same bytes as render_hand, drawn once per distinct input."""

from __future__ import annotations

from bot.rules import parse_cards
from rendering import render_hand, render_hand_cached
from rendering.hand import HAND_CACHE_SIZE, _render_hand_memo


def test_cached_hand_is_byte_identical_and_drawn_once() -> None:
    _render_hand_memo.cache_clear()
    cards = parse_cards("3334445566778899T2XD")
    selected = [c.index for c in cards[:3]]
    first = render_hand_cached(cards, selected=selected, sort="groups", locale="es")
    assert first == render_hand(cards, selected=selected, sort="groups", locale="es")
    again = render_hand_cached(list(cards), selected=set(selected), sort="groups", locale="es")
    info = _render_hand_memo.cache_info()
    assert again is first and (info.hits, info.misses) == (1, 1)


def test_a_different_selection_or_sort_is_a_different_image() -> None:
    _render_hand_memo.cache_clear()
    cards = parse_cards("33344")
    plain = render_hand_cached(cards)
    assert render_hand_cached(cards, selected=[cards[0].index]) != plain
    assert render_hand_cached(cards, sort="groups", show_indices=False) != plain
    assert _render_hand_memo.cache_info().misses == 3 and HAND_CACHE_SIZE <= 128
