"""The arena under the Happy rules (benchmarks/happy_arena.py, docs/AI.md §Happy rules)."""

from __future__ import annotations

from benchmarks.happy_arena import decider, play_deal, play_game, summary
from bot.game.happy import HappyResult
from bot.rules import RuleSet

HAPPY = RuleSet(variant="happy")


def test_the_same_agent_on_both_sides_scores_zero_on_every_deal() -> None:
    rows = [play_deal("normal", "normal", seed, "normal", HAPPY) for seed in (1, 2, 3)]
    assert [row["score"] for row in rows] == [0, 0, 0]
    assert "| normal | normal | normal | 3 | +0.00 ± 0.00" in summary(rows, "normal", "normal",
                                                                     "normal")


def test_a_game_settles_by_the_happy_formula_and_never_agents_never_raise() -> None:
    for seed in (1, 2):
        points, hand = play_game(seed, ["hard", "hardnever", "hardnever"], "normal", HAPPY)
        result = hand.result
        assert isinstance(result, HappyResult) and sum(points) == 0
        assert points == result.points
        for seat in (1, 2):
            assert result.doubles[seat] == 1 and not hand.shows[seat]
        assert all(a.seat == 0 or not (a.kind == "grab" and a.amount) for a in hand.history)


def test_never_agents_call_like_their_level() -> None:
    hard, never = decider("hard"), decider("hardnever")
    _, hand = play_game(4, ["normal"] * 3, "normal", HAPPY)
    obs = hand.observation(0)
    assert never(obs, "grab") == 0 and never(obs, "double") == 1 and never(obs, "show") == 0
    assert hard(obs, "call") == never(obs, "call")


def test_no_shuffle_deals_come_from_a_played_hand_and_bring_bombs() -> None:
    from benchmarks.happy_arena import no_shuffle_deal
    from benchmarks.no_shuffle import bombs_held
    from bot.game.hand import Hand

    rules = RuleSet(variant="happy", deal="no-shuffle")
    hands, kitty, first = no_shuffle_deal(5)
    assert no_shuffle_deal(5) == (hands, kitty, first)  # seeded: both seatings get it
    assert sorted(c for cards in [*hands, kitty] for c in cards) == sorted(
        c for cards in [*Hand.deal(RuleSet(), seed=5).dealt, Hand.deal(RuleSet(), seed=5).kitty]
        for c in cards)  # the whole deck once
    assert [len(h) for h in hands] == [17, 17, 17] and len(kitty) == 3 and first in (0, 1, 2)
    row = play_deal("hard", "hardnever", 5, "normal", rules)
    assert row["bombs"] == bombs_held([*hands, kitty])
    _, hand = play_game(5, ["hard", "hardnever", "hardnever"], "normal", rules,
                        no_shuffle_deal(5))
    assert sorted(hand.dealt[0]) == sorted(hands[0]) or hand.redeals > 0
    # over a few deals, more bombs than shuffled ones (docs/RULES.md §No-shuffle deals)
    seeds = range(1, 41)
    no_shuffle = sum(bombs_held([*no_shuffle_deal(s)[0], no_shuffle_deal(s)[1]]) for s in seeds)
    shuffled = sum(bombs_held([*Hand.deal(RuleSet(), seed=s).dealt, Hand.deal(RuleSet(), seed=s).kitty])
                   for s in seeds)
    assert no_shuffle > 2 * shuffled, (no_shuffle, shuffled)
