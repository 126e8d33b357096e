"""The late-choice yardstick (benchmarks/tail_check.py, docs/AI.md §Fourth pass): late
positions of seeded games with their real hands, and whether a play keeps a won game."""

from __future__ import annotations

from benchmarks.tail_check import keeps, late_positions
from bot.ai import search
from bot.ai.policy import normal_ranked


def test_late_positions_carry_the_real_hands_and_a_play_is_judged_on_them() -> None:
    found = list(late_positions(6, 24))
    assert len(found) == 20
    for view, hands in found:
        assert search.ENDGAME_CARDS < sum(view.cards_left) <= 24
        assert sorted(view.hand) == sorted(hands[view.seat])
        assert tuple(len(h) for h in hands) == view.cards_left
        assert sorted(view.pool) == sorted(hands[(view.seat + 1) % 3] + hands[(view.seat + 2) % 3])
    # a position where the choice matters on the real deal: the landlord (6 cards left)
    # answering a single; normal's first, the pass, throws the win away, a queen or a
    # king keeps it, the ace does not
    view, hands = found[13]
    assert view.cards_left == (6, 7, 10) and view.seat == view.landlord == 0
    ranked = [d.combo for _, d in normal_ranked(view)]
    assert ranked[0] is None
    assert [c.cards[0].rank.symbol for c in ranked[1:4] if c is not None] == ["Q", "K", "A"]
    assert [keeps(view, hands, a, 200_000) for a in ranked[:4]] == [False, True, True, False]
