"""Property (issue 52): over random deals and random decision sequences under the Happy
rules, the three changes sum to zero, each stake is the product of its factors capped at
the cap (recomputed here from the history alone), and a seat that said Don't call never
grabs. The hand also survives JSON and replays to itself."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.game.happy import HappyHand, HappyResult
from bot.game.replay import replay
from bot.game.variants import load_hand
from bot.rules import ComboKind, RuleSet
from bot.rules.happy import DOUBLES
from tests.support.properties import examples

CAP_CHOICES = (32, 64, 128, None)


def play_randomly(seed: int, rules: RuleSet) -> HappyHand:
    rng = random.Random(seed)
    hand = HappyHand.deal(rules, seed=seed)
    for _ in range(300):
        if hand.phase == "redeal":
            again = hand.redeal()
            assert isinstance(again, HappyHand)
            hand = again
        elif hand.phase == "bidding":
            showers = [s for s in range(3) if hand.may_show(s)]
            if showers and rng.random() < 0.15:
                hand.show(rng.choice(showers))
            else:
                assert hand.turn is not None
                speak = hand.call if hand.auction.stage == "call" else hand.grab
                speak(hand.turn, rng.random() < 0.5)
        elif hand.phase == "showing":
            assert hand.turn is not None
            (hand.show if rng.random() < 0.3 else hand.keep_hidden)(hand.turn)
        elif hand.phase == "doubling":
            undecided = [s for s, f in enumerate(hand.doubles) if f is None]
            if rng.random() < 0.2:
                hand.end_doubling()
            else:
                hand.double(rng.choice(undecided), rng.choice(DOUBLES))
        elif hand.phase == "playing":
            seat = hand.turn
            assert seat is not None
            plays = hand.legal_plays(seat)
            if hand.to_beat_for(seat) is not None and (not plays or rng.random() < 0.3):
                hand.pass_turn(seat)
            else:
                hand.play(seat, rng.choice(plays))
        else:
            return hand
    raise AssertionError("the hand did not end")


@settings(max_examples=examples(200), deadline=None)
@given(seed=st.integers(0, 2**32), cap=st.sampled_from(CAP_CHOICES))
def test_happy_changes_sum_to_zero_stakes_are_capped_products_and_decliners_never_grab(
        seed: int, cap: int | None) -> None:
    hand = play_randomly(seed, RuleSet(variant="happy", cap=cap))
    result = hand.result
    assert isinstance(result, HappyResult)
    assert sum(result.points) == 0
    history = hand.history
    declined = {a.seat for a in history if a.kind == "call" and a.amount == 0}
    assert not any(a.kind == "grab" and a.seat in declined for a in history)
    grabs = sum(1 for a in history if a.kind == "grab" and a.amount == 1)
    show = max((a.amount or 0 for a in history if a.kind == "show"), default=0) or 1
    plays = [a for a in history if a.kind == "play"]
    bombs = sum(1 for a in plays if a.combo is not None
                and a.combo.kind in (ComboKind.BOMB, ComboKind.ROCKET))
    landlord = result.landlord
    landlord_won = result.winner == "landlord"
    spring = landlord_won and not any(a.seat != landlord for a in plays)
    anti_spring = not landlord_won and sum(1 for a in plays if a.seat == landlord) == 1
    n = bombs + spring + anti_spring
    doubles = {a.seat: a.amount for a in history if a.kind == "double"}
    assert sorted(doubles) == [0, 1, 2]
    sign = 1 if landlord_won else -1
    total = 0
    for seat in range(3):
        if seat == landlord:
            continue
        product = 2**grabs * show * 2**n * doubles[landlord] * doubles[seat]
        expected = product if cap is None else min(product, cap)
        assert result.stakes[seat] == expected
        assert result.points[seat] == -sign * expected
        total += expected
    assert result.points[landlord] == sign * total
    assert load_hand(hand.model_dump_json()) == hand
    assert replay(hand)[-1].kind == "result"
