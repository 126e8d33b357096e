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
