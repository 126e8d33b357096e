"""Images assembled from kept bands (rendering/bands.py, issue 54): the same pixels as the
canvas drawn in one piece and encoded by ``encode_png``, no more bytes, and a redraw that
changes one part draws only that part."""

from __future__ import annotations

import itertools
import random
import zlib
from dataclasses import replace

import pytest
from isal import isal_zlib
from PIL import Image, ImageChops

from bot.rules import DECK, parse_cards
from rendering import bands, render_hand, render_table
from rendering.bands import _adler_join, assemble, band
from rendering.compose import FELT, GOLD, PANEL, encode_png
from rendering.hand import _counter_band, _fan_band, hand_image
from rendering.models import SeatView, TableView
from rendering.table import _seat_band, _status_band, table_image
from tests.support.pngs import decode
from tools.samples import (
    CJK_NAME,
    LONG_NAME,
    bidding_table,
    landlord_hand,
    mid_game_table,
    returning_turn_table,
    selected_three,
)

COUNTER = (4, 4, 4, 3, 4, 4, 2, 4, 4, 4, 1, 4, 0, 1, 1)


def same_pixels(png: bytes, canvas: Image.Image) -> bool:
    """Whether ``png`` shows exactly what ``encode_png`` makes of the RGB ``canvas``."""
    return ImageChops.difference(decode(png).convert("RGB"),
                                 decode(encode_png(canvas)).convert("RGB")).getbbox() is None


def test_adler32_of_two_parts_joins_into_the_adler32_of_the_whole() -> None:
    first, second = b"the landlord " * 300, b"and two peasants" * 7000
    assert _adler_join(zlib.adler32(first), zlib.adler32(second), len(second)) == \
        zlib.adler32(first + second)


@pytest.mark.parametrize("cuts", [(), (1,), (40, 41), (13, 90, 170)])
def test_bands_cut_anywhere_assemble_into_the_palette_png_of_the_whole(cuts: tuple[int, ...]) -> None:
    img = Image.new("RGB", (120, 200), FELT)
    for y in range(0, 200, 7):
        img.paste(GOLD if y % 2 else PANEL, (y % 50, y, y % 50 + 60, y + 5))
    edges = (0, *cuts, 200)
    png = assemble([band(img.crop((0, top, 120, bottom))) for top, bottom in itertools.pairwise(edges)])
    assert decode(png).size == (120, 200) and same_pixels(png, img)


def test_bands_of_different_widths_do_not_assemble() -> None:
    with pytest.raises(ValueError):
        assemble([band(Image.new("RGB", (10, 2))), band(Image.new("RGB", (11, 2)))])
    with pytest.raises(ValueError):
        assemble([])


def random_hands(count: int) -> list[dict[str, object]]:
    rng = random.Random(54)
    cases: list[dict[str, object]] = []
    for _ in range(count):
        cards = rng.sample(list(DECK), rng.randint(1, 20))
        cases.append({
            "cards": cards,
            "selected": {c.index for c in cards if rng.random() < 0.25},
            "sort": rng.choice(["rank", "groups"]),
            "locale": rng.choice(["en", "es", "zh_CN"]),
            "show_indices": rng.random() < 0.3,
            # every count 0..4 (the jokers 0..1) somewhere, some ranks all seen (greyed)
            "counter": (None if rng.random() < 0.2 else
                        tuple(rng.randint(0, 4 if i < 13 else 1) for i in range(15))),
        })
    return cases


@pytest.mark.parametrize("case", random_hands(40))
def test_a_hand_from_bands_is_the_hand_drawn_in_one_piece(case: dict[str, object]) -> None:
    cards = case.pop("cards")
    png = render_hand(cards, **case)  # type: ignore[arg-type]
    assert same_pixels(png, hand_image(cards, **case))  # type: ignore[arg-type]


def test_the_empty_hand_and_a_full_one_with_the_counter() -> None:
    assert same_pixels(render_hand([], counter=COUNTER, locale="es"),
                       hand_image([], counter=COUNTER, locale="es"))
    cards = parse_cards("3334445566778899T2XD")
    png = render_hand(cards, selected={c.index for c in cards[-2:]}, counter=(0,) * 15,
                      show_indices=False)
    assert same_pixels(png, hand_image(cards, selected={c.index for c in cards[-2:]},
                                       counter=(0,) * 15, show_indices=False))


def test_the_hand_images_are_no_larger_than_encoded_whole() -> None:
    """The fan's band is deflated by ISA-L (``FACES_LEVEL``): a hand's PNG may come out
    up to 2 % larger than zlib's whole one, 0.5 % for the sample landlord hand with no
    counter (14,102 against 14,033 bytes), and 60 seeded hands of 1–20 cards, with and
    without the counter, are smaller in all (docs/PERFORMANCE.md §Card faces deflated
    by ISA-L)."""
    rng = random.Random(54)
    cases = [(landlord_hand(), selected_three(), counter) for counter in (None, COUNTER)]
    for _ in range(60):
        cards = sorted(rng.sample(list(DECK), rng.randint(1, 20)), key=lambda c: c.index)
        chosen = {c.index for c in rng.sample(cards, rng.randint(0, min(3, len(cards))))}
        cases.append((cards, chosen, rng.choice([None, tuple(rng.randint(0, 4) for _ in range(15))])))
    ours = theirs = 0
    for cards, chosen, counter in cases:
        png = render_hand(cards, selected=chosen, show_indices=False, counter=counter)
        whole = encode_png(hand_image(cards, selected=chosen, show_indices=False, counter=counter))
        assert len(png) <= 1.02 * len(whole), (cards, counter)
        ours, theirs = ours + len(png), theirs + len(whole)
    assert ours < 0.98 * theirs


def test_a_band_deflated_by_isal_joins_bands_deflated_by_zlib() -> None:
    top = Image.new("RGB", (30, 8), GOLD)
    bottom = Image.new("RGB", (30, 12), PANEL)
    bottom.paste(Image.new("RGB", (10, 4), FELT), (5, 3))
    fast = band(top, 2, codec="isal")
    raw = bands.filtered_rows(top)
    deflate = isal_zlib.compressobj(2, isal_zlib.DEFLATED, -15, 9)
    assert fast.data == deflate.compress(raw) + deflate.flush(isal_zlib.Z_SYNC_FLUSH)
    assert fast.data != band(top).data  # zlib's differs
    whole = Image.new("RGB", (30, 20))
    whole.paste(top, (0, 0))
    whole.paste(bottom, (0, 8))
    for pieces in ([fast, band(bottom, final=True)], [band(top), band(bottom, 2, codec="isal")]):
        assert same_pixels(assemble(pieces), whole)


def test_another_players_move_redraws_only_the_counts_of_the_hand() -> None:
    bands.forget()
    cards, chosen = landlord_hand(), selected_three()
    render_hand(cards, selected=chosen, show_indices=False, counter=COUNTER)
    fans, parts = _fan_band.cache_info().misses, _counter_band.cache_info().misses
    after = (*COUNTER[:3], 1, *COUNTER[4:])  # three 6s seen: 3 → 1 of rank index 3
    png = render_hand(cards, selected=chosen, show_indices=False, counter=after)
    assert _fan_band.cache_info().misses == fans
    assert _counter_band.cache_info().misses == parts + 1  # the counts' rows, nothing else
    assert same_pixels(png, hand_image(cards, selected=chosen, show_indices=False, counter=after))


def test_a_waiting_members_fan_is_kept_while_1500_other_fans_are_drawn() -> None:
    """At 400 tables a worker draws about 1,500 other fans between two refreshes of a
    waiting member's card counter; with 1,024 fans kept their fan was gone by then and
    drawn again (docs/PERFORMANCE.md §Card faces deflated by ISA-L)."""
    bands.forget()
    cards = landlord_hand()
    render_hand(cards, show_indices=False, counter=COUNTER)
    rng = random.Random(1500)
    for _ in range(1500):
        others = rng.sample(list(DECK), 17)
        _fan_band(tuple(sorted(c.index for c in others)), frozenset(), "rank", False, True)
    fans = _fan_band.cache_info().misses
    after = (*COUNTER[:3], 1, *COUNTER[4:])
    png = render_hand(cards, show_indices=False, counter=after)
    assert _fan_band.cache_info().misses == fans  # the counts drawn, the fan kept
    assert same_pixels(png, hand_image(cards, show_indices=False, counter=after))


def random_tables(count: int) -> list[TableView]:
    rng = random.Random(540)
    names = ["Ana", CJK_NAME, LONG_NAME, "Zoë Ω 🎲", "مرحبا بكم"]
    views = []
    for _ in range(count):
        seats = []
        for k in range(3):
            played = sorted(rng.sample(list(DECK), rng.randint(1, 8)), key=lambda c: c.index)
            seats.append(SeatView(
                rng.choice(names), is_landlord=k == 0 and rng.random() < 0.6,
                cards_left=rng.randint(0, 20),
                last_action=rng.choice([None, "pass", played]),  # a list: unhashable
                is_turn=rng.random() < 0.3, is_computer=rng.random() < 0.2,
                bid=rng.choice([None, 0, 1, 2, 3]), to_beat=rng.random() < 0.3,
                last_tag=rng.choice([None, "bomb", "rocket"]),
                # the Happy rules' marks (docs/RULES.md §Happy rules): a shown hand, a call
                **({} if rng.random() < 0.7 else {
                    "shown": sorted(rng.sample(list(DECK), rng.randint(1, 17)), key=lambda c: c.index),
                    "shown_label": rng.choice(["", "Shown ×2"]),
                    "said": rng.choice([None, "Call", "Grab", "No call"]),
                    "said_yes": rng.random() < 0.5,
                    "asking": rng.choice([None, "to call", "to grab"])})))
        views.append(TableView(
            seats=seats, bid=rng.choice([None, 1, 2, 3]), multiplier=rng.choice([1, 2, 4, 64]),
            kitty=rng.choice([None, tuple(rng.sample(list(DECK), 3))]),
            status=rng.choice(["", "Ana to play: beat 333444 58 or pass", f"{CJK_NAME} to play",
                               "x" * 200]),
            hand_number=rng.choice([None, 1, 907]), bidding=rng.random() < 0.3,
            rules=rng.choice([None, "Happy, cap ×64", "欢乐，封顶 ×64"])))
    return views


@pytest.mark.parametrize("view", [mid_game_table(), returning_turn_table(), bidding_table(),
                                  *random_tables(30)])
@pytest.mark.parametrize("locale", ["en", "zh_CN"])
def test_a_table_from_bands_is_the_table_drawn_in_one_piece(view: TableView, locale: str) -> None:
    assert same_pixels(render_table(view, locale=locale), table_image(view, locale=locale))


def test_the_table_image_is_no_larger_than_one_encoded_whole() -> None:
    for view in (mid_game_table(), returning_turn_table(), bidding_table()):
        assert len(render_table(view)) <= len(encode_png(table_image(view)))


def test_a_move_redraws_only_the_seats_it_changed_and_the_status() -> None:
    bands.forget()
    view = mid_game_table()
    render_table(view)
    seats, statuses = _seat_band.cache_info().misses, _status_band.cache_info().misses
    first = view.seats[0]
    moved = replace(view, status="next", seats=(replace(first, cards_left=first.cards_left - 1),
                                                *view.seats[1:]))
    assert same_pixels(render_table(moved), table_image(moved))
    assert _seat_band.cache_info().misses == seats + 1
    assert _status_band.cache_info().misses == statuses + 1


def test_forget_draws_every_band_again() -> None:
    render_table(mid_game_table())
    bands.forget()
    assert _seat_band.cache_info().currsize == 0 and _fan_band.cache_info().currsize == 0


def test_a_final_band_ends_the_image_and_only_at_the_bottom() -> None:
    img = Image.new("RGB", (30, 20), PANEL)
    top, bottom = band(img.crop((0, 0, 30, 8))), band(img.crop((0, 8, 30, 20)), final=True)
    png = assemble([top, bottom])
    assert same_pixels(png, img) and len(png) < len(assemble([top, band(img.crop((0, 8, 30, 20)))]))
    with pytest.raises(ValueError):
        assemble([bottom, top])


def test_seat_bodies_are_shared_by_tables_of_other_players() -> None:
    # while bidding every table's bodies read alike ("17 cards", "Bid 1", "▶ to bid")
    bands.forget()
    view = bidding_table()
    render_table(view)
    misses = _seat_band.cache_info().misses
    renamed = replace(view, seats=tuple(replace(s, name=f"{s.name} 2") for s in view.seats))
    assert same_pixels(render_table(renamed), table_image(renamed))
    assert _seat_band.cache_info().misses == misses + 3  # the three name rows only
