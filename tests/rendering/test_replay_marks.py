"""Review marks on replay pages (rendering.replay): badge, hard choice and chances stay in place."""

from __future__ import annotations

from typing import Any

import pytest

from bot.rules import parse_cards
from rendering.compose import DANGER
from rendering.replay import (
    GAP,
    HEADER_H,
    MARK_H,
    PAD,
    ROW_H,
    WIDTH,
    render_replay_page,
)
from rendering.replay_models import ReplayLine, ReplayPage, ReplaySeat, ReviewMark
from tests.support.pngs import colour_count, decode

GREEN = (80, 220, 120)
LIGHT_RED = (255, 120, 110)
MARK_TOP = HEADER_H + GAP + ROW_H - 4  # the review under the first line of a page


def _marked_page(best: str, rank: int = 3) -> ReplayPage:
    """A trick whose lead is a costly decision; the hard player would have played ``best``."""
    seats = (ReplaySeat("Ana", is_landlord=True, cards=tuple(parse_cards("3456"))),
             ReplaySeat("Bot 2", is_computer=True), ReplaySeat("Bob"))
    mark = ReviewMark(rank, tuple(parse_cards(best)), 100, 0)
    lead = ReplayLine(0, "lead", tuple(parse_cards("33344455")), mark=mark)
    return ReplayPage("trick", seats, (lead, ReplayLine(1, "pass")), hand_number=12, page=5,
                      pages=14, trick=3, tricks=11, bid=3, multiplier=2)


def test_spanish_costly_decision_badge_stays_clear_of_the_hard_players_cards() -> None:
    # "Decisión costosa n.º 3" at 16 px ran under the first card of the hard choice; at
    # 22 px (issue 27 §3) it has a line of its own above the cards.
    img = decode(render_replay_page(_marked_page("KK"), locale="es"))
    cards_line = (PAD + 12, MARK_TOP + 48, WIDTH - PAD - 12, MARK_TOP + MARK_H - 10)
    assert colour_count(img, cards_line, DANGER, tol=20) == 0
    badge = (PAD + 12, MARK_TOP + 10, PAD + 120, MARK_TOP + 42)
    assert colour_count(img, badge, DANGER, tol=20) > 500  # the badge is still drawn


def test_win_chances_stay_on_the_page_beside_a_long_hard_choice() -> None:
    # Beside a 12-card straight, "su opción: 100% de ganar" ran off the right edge.
    for locale in ("en", "es"):
        img = decode(render_replay_page(_marked_page("3456789TJQKA"), locale=locale))
        edge = (WIDTH - PAD - 12, MARK_TOP, WIDTH, MARK_TOP + MARK_H)
        assert colour_count(img, edge, GREEN, tol=30) == 0, locale
        assert colour_count(img, edge, LIGHT_RED, tol=30) == 0, locale
        chances = (PAD + 12, MARK_TOP + 48, WIDTH - PAD - 12, MARK_TOP + MARK_H)
        assert colour_count(img, chances, GREEN, tol=30) > 100, locale
        assert colour_count(img, chances, LIGHT_RED, tol=30) > 100, locale


def test_a_pass_in_the_bidding_reads_passes_not_bids() -> None:
    # The row said "Peasant · bids" beside "Pass" ("Campesino · apuesta" / "Paso").
    seats = _marked_page("KK").seats
    for locale in ("en", "es"):
        bidding = ReplayPage("bidding", seats, (ReplayLine(1, "bid", amount=0),), bid=None)
        trick = ReplayPage("bidding", seats, (ReplayLine(1, "pass"),), bid=None)
        row = (0, HEADER_H + GAP, WIDTH, HEADER_H + GAP + ROW_H)
        assert (decode(render_replay_page(bidding, locale=locale)).crop(row).tobytes()
                == decode(render_replay_page(trick, locale=locale)).crop(row).tobytes()), locale
        bid = ReplayPage("bidding", seats, (ReplayLine(1, "bid", amount=2),), bid=2)
        assert (decode(render_replay_page(bid, locale=locale)).crop(row).tobytes()
                != decode(render_replay_page(trick, locale=locale)).crop(row).tobytes()), locale


def test_a_computers_lead_row_still_says_computer(monkeypatch: pytest.MonkeyPatch) -> None:
    # Issue 48: "▶ ♛ Bot 2" left no room for " (computer)" on the lead's name line, and
    # the tag was dropped; it now goes on the verb line ("leads (computer)").
    import rendering.replay as replay

    fitted: list[str] = []
    fit = replay.fit_text

    def recording(text: str, *args: Any, **kwargs: Any) -> Any:
        fitted.append(text)
        return fit(text, *args, **kwargs)

    monkeypatch.setattr(replay, "fit_text", recording)
    seats = (ReplaySeat("Ana", cards=tuple(parse_cards("5 6 7"))),
             ReplaySeat("Bot 2", is_landlord=True, is_computer=True,
                        cards=tuple(parse_cards("3 3 4"))),
             ReplaySeat("Bot 3", is_computer=True, cards=tuple(parse_cards("7 8 9"))))
    lines = (ReplayLine(1, "lead", cards=tuple(parse_cards("333444 58"))),
             ReplayLine(2, "follow", cards=tuple(parse_cards("6666"))), ReplayLine(0, "pass"))
    page = ReplayPage("trick", seats, lines, hand_number=12, page=5, pages=9, trick=3,
                      tricks=7, bid=3, multiplier=2)
    render_replay_page(page, locale="en")
    assert "leads (computer)" in fitted and "follows" in fitted  # Bot 3's tag fits its line
    fitted.clear()
    render_replay_page(page, locale="es")
    assert "sale (ordenador)" in fitted
