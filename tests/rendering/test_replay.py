"""Replay pages and the whole-hand animation (rendering/replay.py)."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.rules import parse_cards
from rendering.compose import DANGER, WARN
from rendering.replay import (
    HEADER_H,
    MARK_H,
    ROW_H,
    render_replay_animation,
    render_replay_page,
    render_replay_page_cached,
)
from rendering.replay_models import ReplayLine, ReplayPage, ReviewMark
from tests.support.pngs import colour_count, decode
from tests.support.replay_samples import SEATS, TRICK, sample_page


def test_a_trick_page_grows_with_its_rows_and_marks_the_bomb() -> None:
    short = decode(render_replay_page(sample_page(TRICK[:1])))
    full = decode(render_replay_page(sample_page()))
    assert short.width == full.width == 800
    assert full.height - short.height == 2 * ROW_H
    row = HEADER_H + 8 + ROW_H  # the follow with the bomb tag
    assert colour_count(full, (560, row, 800, row + ROW_H), WARN) > 200


def test_a_review_mark_adds_the_hard_choice_in_a_red_frame() -> None:
    mark = ReviewMark(1, tuple(parse_cards("55")), 62, 31)
    plain = decode(render_replay_page(sample_page()))
    marked_lines = (TRICK[0], TRICK[1], ReplayLine(2, "pass", mark=mark))
    marked = decode(render_replay_page(sample_page(marked_lines)))
    assert marked.height - plain.height == MARK_H
    top = HEADER_H + 8 + 2 * ROW_H
    assert colour_count(marked, (0, top, 800, top + ROW_H + MARK_H), DANGER) > 500
    assert colour_count(plain, (0, top, 800, top + ROW_H), DANGER) == 0


def test_pages_are_deterministic_memoized_and_need_three_seats() -> None:
    page = sample_page()
    assert render_replay_page(page) == render_replay_page(page)
    assert render_replay_page_cached(page, "es") is render_replay_page_cached(page, "es")
    deal = ReplayPage("deal", SEATS, kitty=tuple(parse_cards("XD2")), first_bidder=1)
    assert decode(render_replay_page(deal)).height > HEADER_H
    with pytest.raises(ValueError):
        render_replay_page(ReplayPage("trick", SEATS[:2]))


@pytest.mark.parametrize("fmt", ["gif", "webp"])
def test_the_animation_has_one_frame_per_page_padded_to_one_size(fmt: str) -> None:
    pages = [render_replay_page(sample_page(TRICK[:n])) for n in (1, 2, 3)]
    data = render_replay_animation(pages, fmt=fmt, width=400)  # type: ignore[arg-type]
    image = Image.open(io.BytesIO(data))
    assert image.format == fmt.upper() and image.n_frames == 3
    assert image.size == (400, round(decode(pages[-1]).height * 400 / 800))
    with pytest.raises(ValueError):
        render_replay_animation([])


def test_only_moves_made_for_a_member_are_marked_auto_played() -> None:
    # the input that showed it: a hand at a table with two computers; every move of
    # theirs (made through Table.auto_act, so ``auto`` in the history) was marked
    # "auto-played" on the replay pages, the web page too
    import random

    from bot.ai import choose_bid, choose_play
    from bot.game.replay import apply_action, position_before, replay
    from bot.game.selfplay import seeded_hand
    from rendering import replay_pages as rp

    rng = random.Random(5)
    hand = seeded_hand(5, lambda o: choose_bid(o, "normal", rng).action,
                       lambda o: choose_play(o, "normal", rng).action)
    mine = next(i for i, a in enumerate(hand.history) if a.seat == 0 and a.kind != "bid")
    history = [a.model_copy(update={"auto": a.seat != 0 or i == mine})  # Ana timed out once
               for i, a in enumerate(hand.history)]
    hand = position_before(hand, 0)  # dealt, then every action as the table applies it
    for action in history:
        apply_action(hand, action)
    players = rp.Players(names=("Ana", "Bot 2", "Bot 3"), user_ids=(11, None, None))
    lines = [line for page in rp.pages(hand, replay(hand), players, 1) for line in page.lines]
    assert len(lines) == len(history)
    assert [line.seat for line in lines if line.auto] == [0]  # Ana's timeout, nothing else
