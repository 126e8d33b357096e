"""A Happy hand's replay (docs/RULES.md §Happy rules, §Replays): its pages draw, the
bidding page's alt text names each call, grab, show and double, the animation's too."""

from __future__ import annotations

from bot.game.replay import replay
from rendering.replay import render_replay_page
from rendering.replay_pages import Players, page_alt, pages, plays_alt, result_view
from tests.support.happy import played


def test_a_happy_hands_replay_draws_and_names_its_decisions() -> None:
    hand = played()
    steps = replay(hand)
    players = Players(names=("Ana", "Bo", "Cy"), user_ids=(1, 2, 3))
    drawn = pages(hand, steps, players, 7)
    assert [p.kind for p in drawn] == ["deal", "bidding", "trick", "trick", "trick"]
    assert drawn[1].multiplier == 8 and drawn[1].happy  # G 4 × S 2
    # each decision is a line of the page image, with the multiplier it leaves (issue 52:
    # the page drew none of them, only its alt text named them)
    assert [(line.seat, line.kind, line.amount, line.multiplier) for line in drawn[1].lines] == [
        (0, "call", 1, 1), (1, "grab", 1, 2), (2, "grab", 0, 2), (0, "grab", 1, 4),
        (0, "show", 2, 8), (1, "double", 1, 0), (0, "double", 2, 0), (2, "double", 1, 0)]
    assert drawn[0].first_bidder == 0 and drawn[2].lines[0].kind == "lead"
    assert all(render_replay_page(page).startswith(b"\x89PNG") for page in drawn[:2])
    alt = page_alt(hand, steps, 1, players, "en", 7)
    assert ("Ana: Call; Bo: Grab ×2; Cy: Don't grab; Ana: Grab ×2; Ana: Show hand ×2; "
            "Bo: No double; Ana: Double ×2; Cy: No double") in alt, alt
    assert "Bo: Grab ×2" in plays_alt(hand, steps, players, "en", 7)
    assert "Bo: Robar ×2" in page_alt(hand, steps, 1, players, "es", 7)
    assert result_view(hand, players, 7).seats[0].change == -128  # 64 + 64, Cy timed out x1
