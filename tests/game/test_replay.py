"""A replay rebuilt from the stored history equals the hand as it was played."""

from __future__ import annotations

import random

import pytest

from bot.ai import choose_bid, choose_play
from bot.game import Hand
from bot.game.models import Action
from bot.game.replay import position_before, replay, step_of
from bot.game.selfplay import play_out
from bot.rules import RuleSet

VARIANTS = (RuleSet(kickers="default"), RuleSet(kickers="distinct", bidding="until_two_passes"))


def _played(seed: int, rules: RuleSet) -> tuple[Hand, list[dict]]:
    """A seeded self-play hand and, before every action, the live position."""
    rng = random.Random(seed)
    live: list[dict] = []

    def record(hand: Hand) -> None:
        live.append({"holdings": [tuple(sorted(h)) for h in hand.holdings],
                     "free_lead": hand.phase == "playing" and hand.last_play is None,
                     "multiplier": hand.multiplier, "json": hand.model_dump_json()})

    hand = play_out(Hand.deal(rules, seed=seed),
                    lambda obs: choose_bid(obs, "normal", rng).action,
                    lambda obs: choose_play(obs, "normal", rng).action,
                    before_action=record)
    live = live[-len(hand.history):]  # positions of a redealt hand's own history
    return hand, live


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: r.kickers)
@pytest.mark.parametrize("seed", range(12))
def test_replay_of_stored_hand_equals_hand_as_played(seed: int, rules: RuleSet) -> None:
    played, live = _played(seed, rules)
    stored = Hand.model_validate_json(played.model_dump_json())  # what settlement keeps
    steps = replay(stored)

    assert [s.kind for s in steps[:2]] == ["deal", "bidding"] and steps[-1].kind == "result"
    assert steps[0].before == tuple(tuple(sorted(h)) for h in played.dealt)
    shown: list[Action] = [a for s in steps for a in s.actions]
    assert shown == played.history
    for step in steps:
        if step.kind != "trick":
            continue
        first, last = step.first, step.first + len(step.actions) - 1
        assert live[first]["free_lead"] and step.actions[0].kind == "play"
        assert step.leader == step.actions[0].seat
        assert list(step.before) == live[first]["holdings"]
        after = live[last + 1]["holdings"] if last + 1 < len(live) else [
            tuple(sorted(h)) for h in played.holdings]
        assert list(step.after) == after
        inner = range(first + 1, last + 1)
        assert not any(live[i]["free_lead"] for i in inner)  # a trick never spans a clear table
    assert [s.trick for s in steps if s.kind == "trick"] == list(
        range(1, sum(s.kind == "trick" for s in steps) + 1))
    assert steps[-1].multiplier == played.result.multiplier
    assert steps[-1].after == tuple(tuple(sorted(h)) for h in played.holdings)
    for index in range(len(played.history)):
        assert position_before(stored, index).model_dump_json() == live[index]["json"]
        assert index in steps[step_of(steps, index)].history_indices()


def test_replay_refuses_a_tampered_history() -> None:
    played, _ = _played(3, VARIANTS[0])
    plays = [i for i, a in enumerate(played.history) if a.kind == "play"]
    forged = played.model_copy(deep=True)
    forged.history[plays[1]] = forged.history[plays[0]]  # the lead's cards played twice
    with pytest.raises(ValueError):
        replay(forged)


def test_replay_refuses_an_unfinished_hand() -> None:
    with pytest.raises(ValueError):
        replay(Hand.deal(seed=1))
