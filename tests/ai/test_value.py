"""The learned evaluation (``bot.ai.value``, docs/AI.md §Learned evaluation): its features,
the shipped weights, and the hard search valuing candidates with it."""

from __future__ import annotations

import math
import random
import time

import numpy as np
import pytest

from bot.ai import search
from bot.ai.evaluate import counts_of, evaluate
from bot.ai.search import hard_search, model_values
from bot.ai.selfplay import deal
from bot.ai.value import (
    CONTEXT_FEATURES,
    HAND_FEATURES,
    KIND_INDEX,
    N_FEATURES,
    WEIGHTS,
    context_of,
    features,
    read,
    shipped,
)
from bot.ai.view import View
from bot.rules import DEFAULT_RULES, ComboKind, classify, parse_cards
from fitting.value_data import play_game


def _position(hands: list[str], turn: int, last: tuple[int, str] | None = None) -> np.ndarray:
    """Feature row of a position given landlord-relative hands in docs/RULES.md notation."""
    cards = [parse_cards(h) for h in hands]
    counts = np.array([[counts_of(c) for c in cards]], dtype=np.uint8)
    decomp = np.array([[evaluate(counts_of(c))[:2] for c in cards]], dtype=np.float32)
    combo = None if last is None else (last[0], classify(parse_cards(last[1]))[0])
    ctx = np.array([context_of(turn, combo)], dtype=np.int16)
    return features(counts, decomp, ctx)


def test_features_encode_ranks_counts_and_the_play_to_beat() -> None:
    x = _position(["3 3 3 3 X D", "4 5", "K"], turn=1, last=(0, "3 3 3 3"))
    assert x.shape == (1, N_FEATURES) == (1, 3 * HAND_FEATURES + CONTEXT_FEATURES)
    landlord = x[0, :HAND_FEATURES]
    # "holds ≥ k" of the 3s for k = 1..4; one of each joker
    assert [landlord[15 * k] for k in range(4)] == [1, 1, 1, 1]
    assert [landlord[15 * k + 13] for k in range(4)] == [1, 0, 0, 0]
    assert landlord[60] == pytest.approx(6 / 20)
    ctx = x[0, 3 * HAND_FEATURES:]
    assert list(ctx[:3]) == [0, 1, 0]  # the peasant after the landlord moves
    assert list(ctx[3:6]) == [1, 0, 0]  # the landlord's play to beat
    assert ctx[6] == 0  # not a free lead
    assert ctx[7 + KIND_INDEX[ComboKind.BOMB]] == 1


def test_the_shipped_weights_are_small_load_fast_and_say_how_they_were_made() -> None:
    assert WEIGHTS.stat().st_size <= 5 * 1024 * 1024
    start = time.perf_counter()
    model = read(WEIGHTS)
    assert time.perf_counter() - start < 1.0
    assert model.layers[0][0].shape[0] == N_FEATURES
    assert "fitting.fit_value" in model.meta["command"]
    assert {"model_seed", "data", "held_out"} <= set(model.meta)


def test_the_model_sees_who_is_winning() -> None:
    model = shipped()
    # The landlord leads with a rocket and a single 3 left; the peasants hold 17 cards.
    strong = _position(["3 X D", "4 5 6 8 9 T J Q K A 2 4 5 6 8 9 T",
                        "4 5 6 8 9 T J Q K A 2 7 7 7 J Q K"], turn=0)
    # The peasant after the landlord has one card and the free lead; the landlord 15.
    weak = _position(["3 4 5 6 8 9 T J Q K A 2 7 7 7", "D", "4 5 6 8 9 T J Q"], turn=1)
    p = model.predict(np.concatenate([strong, weak]))
    assert p[0] > 0.8
    # A certain loss; the weights fitted to compare candidates (fitting/fit_value_pairs.py)
    # say 0.29 here (those fitted to game outcomes alone said under 0.2), while their
    # held-out log-loss is lower at every stage (docs/AI.md §Learned evaluation).
    assert p[1] < 0.35
    assert p[0] - p[1] > 0.6


def _view(seed: int) -> View:
    """The landlord's (seat 0) first lead of a seeded deal."""
    hands, kitty = deal(random.Random(seed))
    hand = tuple(sorted(hands[0] + kitty))
    return View(seat=0, hand=hand, landlord=0, cards_left=(20, 17, 17), to_beat=None,
                last_seat=None, pool=tuple(hands[1] + hands[2]), rules=DEFAULT_RULES,
                landlord_known=tuple(kitty))


def test_model_values_going_out_is_a_certain_win() -> None:
    hands = [parse_cards("3 3"), parse_cards("4 5 6"), parse_cards("7 8 9")]
    view = View(seat=0, hand=tuple(hands[0]), landlord=0, cards_left=(2, 3, 3), to_beat=None,
                last_seat=None, pool=tuple(hands[1] + hands[2]), rules=DEFAULT_RULES)
    pair = classify(hands[0])[0]
    single = classify(hands[0][:1])[0]
    values = model_values([hands], view, [pair, single])
    assert values[0, 0] == 1.0
    assert 0.0 < values[1, 0] < 1.0


def test_the_learned_search_is_a_function_of_the_position(monkeypatch: pytest.MonkeyPatch) -> None:
    # The Hint's 1,000 steps: MODEL_WORLDS scaled down (228 deals); at the hard level's
    # STEP_BUDGET the same search samples 800 and took 2.3 s of CPU, for the same checks.
    views = [_view(seed) for seed in range(4)]
    budget = 1_000
    first = [hard_search(v, random.Random(3), budget, time_cap=math.inf, evaluation="model")
             for v in views]
    monkeypatch.setattr(search, "TIME_CAP", 0.0)
    again = [hard_search(v, random.Random(3), budget, time_cap=math.inf, evaluation="model")
             for v in views]
    assert [s.decision.action for s in again] == [s.decision.action for s in first]
    worlds = budget * search.MODEL_WORLDS // search.STEP_BUDGET
    assert worlds == 228
    for view, sampled in zip(views, first, strict=True):
        assert all(n == worlds for _, n in sampled.rates.values())
        assert sampled.decision.action in sampled.rates
        assert sampled.decision.combo is None or set(sampled.decision.combo.cards) <= set(view.hand)


def test_a_capped_learned_search_still_samples_a_few_deals(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(search, "TIME_CAP", 0.0)
    sampled = hard_search(_view(1), random.Random(3), evaluation="model")
    assert {n for _, n in sampled.rates.values()} == {search.MIN_WORLDS}


def test_value_data_is_reproducible_and_labelled() -> None:
    a = play_game(30_000_123, explore=0.1)
    b = play_game(30_000_123, explore=0.1)
    for key in a:
        assert np.array_equal(a[key], b[key])
    n = len(a["won"])
    assert a["counts"].shape == (n, 3, 15)
    assert a["counts"][0].sum() == 54  # every card is in a hand before the first lead
    assert a["counts"][0, 0].sum() == 20  # the landlord (relative seat 0) holds the kitty
    assert a["context"][0, 0] == 0 and a["context"][0, 1] == -1  # the landlord leads
    assert len(set(a["won"].tolist())) == 1


def test_the_batched_evaluation_equals_playing_each_action_on_each_deal() -> None:
    """``model_values`` without lookahead builds the rows by repetition: the same values
    as applying every action to a copy of every deal."""
    from benchmarks.arena import make_agent
    from bot.ai.inference import follow_events, weighted_world
    from bot.ai.policy import normal_ranked
    from bot.ai.search import _model_values_played, sample_world
    from bot.ai.selfplay import play_hand
    from bot.ai.view import view_of

    normal = make_agent("normal")
    assert normal is not None
    views: list[View] = []

    def watch(obs, rng):  # type: ignore[no-untyped-def]
        views.append(view_of(obs))
        return normal(obs, rng)

    hands, kitty = deal(random.Random(7))
    play_hand([watch] * 3, hands, 1, kitty, random.Random(7))
    rng = random.Random(2)
    for view in views[:24]:
        events = follow_events(view.history, view.landlord, view.seat)
        worlds = [weighted_world(view, rng, sample_world, events) for _ in range(5)]
        actions = list(dict.fromkeys(d.combo for _, d in normal_ranked(view)))[:6]
        fast = model_values(worlds, view, actions)
        slow = _model_values_played(worlds, view, actions, 0)
        assert np.allclose(fast, slow, atol=1e-6)


def test_answers_read_who_can_beat_the_play_to_beat() -> None:
    from bot.ai.value import answers

    def row(hands: list[str], last: str | None) -> list[float]:
        counts = np.array([[counts_of(parse_cards(h)) for h in hands]], dtype=np.uint8)
        combo = None if last is None else (0, classify(parse_cards(last))[0])
        return answers(counts, np.array([context_of(1, combo)])).tolist()[0]

    # a single K: the 2 and the A beat it, the Q does not; the bomb and the rocket count
    assert row(["3", "2 4", "Q Q Q Q"], "K") == [0, 1, 0, 0, 0, 1]
    assert row(["3", "A", "X D"], "K") == [0, 1, 1, 0, 0, 1]
    # a straight 3-7 is beaten by 4-8 or higher, not by a longer-but-lower run or by 9-K
    # when the play is 9-K... and never with a top above the ace
    assert row(["3", "4 5 6 7 8", "J Q K A 2"], "3 4 5 6 7") == [0, 1, 0, 0, 0, 0]
    assert row(["3", "4 4 5 5 6 6", "9 9 T T J J"], "5 5 6 6 7 7") == [0, 0, 1, 0, 0, 0]
    assert row(["3", "4", "5"], None) == [0, 0, 0, 0, 0, 0]


def test_with_the_learned_evaluation_the_review_the_hint_and_the_move_agree(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``search.EVALUATION = "model"`` switches every user of the search together: the
    review's choice is the Hint's first suggestion, and sampling the member's action on
    the same deals leaves the computer's choice unchanged (docs/AI.md §Reviews).

    Checked on every third choice of a seeded hand (12 of its 36, from the first lead to
    the exact endgame's edge), the review on the first four: each choice is a position
    of its own, and all 36 took 20 s of CPU, the fast loop's slowest test. The computer's
    searches take the Hint's 1,000 steps (228 deals each) rather than the hard level's
    3,500 (800 deals): ``also`` is outside the budget at any budget, and the 12 pairs of
    searches took 6 s of CPU at 3,500."""
    from bot.ai import choose_bid, choose_play, hint_options
    from bot.ai.review import assess, is_choice
    from bot.ai.search import hard_play
    from bot.ai.view import view_of
    from bot.game.replay import position_before
    from bot.game.selfplay import seeded_hand

    monkeypatch.setattr(search, "EVALUATION", "model")
    rng = random.Random(5)
    hand = seeded_hand(5, lambda o: choose_bid(o, "easy", rng).action,
                       lambda o: choose_play(o, "normal", rng).action)
    checked = choices = 0
    for index, action in enumerate(hand.history):
        if action.kind == "bid":
            continue
        obs = position_before(hand, index).observation(action.seat)
        if not is_choice(obs) or sum(obs.cards_left) <= search.ENDGAME_CARDS:
            continue
        choices += 1
        if choices % 3 != 1:  # every third choice: the 1st, 4th, 7th…
            continue
        view = view_of(obs)
        alone = hard_play(view, random.Random(index), 1_000, time_cap=math.inf)
        sampled = hard_search(view, random.Random(index), 1_000, also=action.combo,
                              time_cap=math.inf)
        assert sampled.decision == alone
        if checked < 4:
            review = assess(obs, action.combo)
            assert review.best == hint_options(obs, fixed_budget=True)[0].action
        checked += 1
    assert checked >= 5


def test_value_pairs_compare_every_candidate_on_the_same_deals() -> None:
    """``fitting/value_pairs.py``: each row's label is the playout outcome of its candidate
    on its deal, and a group (one position, one deal) holds several candidates."""
    from fitting.value_pairs import play_game as pairs_game

    a = pairs_game(31_000_007, rate=0.5, worlds=2, wide=4)
    b = pairs_game(31_000_007, rate=0.5, worlds=2, wide=4)
    for key in a:
        assert np.array_equal(a[key], b[key])
    n = len(a["won"])
    assert n > 0 and a["x"].shape == (n, N_FEATURES)
    groups, sizes = np.unique(a["group"], return_counts=True)
    assert sizes.min() >= 2  # every group compares at least two candidates
    assert set(np.unique(a["rank"]).tolist()) >= {0, 1}
    assert set(a["won"].tolist()) <= {0, 1}
    # rows are stored as float16; the features are multiples the format keeps
    assert np.allclose(a["x"][:, :60], np.round(a["x"][:, :60]))


def test_the_pruned_search_keeps_normals_first_and_is_a_function_of_the_position(
        monkeypatch: pytest.MonkeyPatch) -> None:
    views = [_view(seed) for seed in range(4)]
    # 1,000 steps (the Hint's budget), not STEP_BUDGET: the pruning is the same, and the
    # playouts after it cost 3.5 times less CPU
    first = [hard_search(v, random.Random(3), 1_000, time_cap=math.inf, evaluation="pruned")
             for v in views]
    monkeypatch.setattr(search, "TIME_CAP", 0.0)
    again = [hard_search(v, random.Random(3), 1_000, time_cap=math.inf, evaluation="pruned")
             for v in views]
    assert [s.decision.action for s in again] == [s.decision.action for s in first]
    from bot.ai.policy import normal_ranked

    for view, sampled in zip(views, first, strict=True):
        assert len(sampled.rates) <= search.PRUNE_KEEP
        assert normal_ranked(view)[0][1].action in sampled.rates
        assert sampled.decision.action in sampled.rates


def test_the_truncated_search_is_a_function_of_the_position(
        monkeypatch: pytest.MonkeyPatch) -> None:
    views = [_view(seed) for seed in range(3)]
    first = [hard_search(v, random.Random(3), 1_000, time_cap=math.inf,
                         evaluation="truncated")
             for v in views]
    monkeypatch.setattr(search, "TIME_CAP", 0.0)
    again = [hard_search(v, random.Random(3), 1_000, time_cap=math.inf,
                         evaluation="truncated")
             for v in views]
    assert [s.decision.action for s in again] == [s.decision.action for s in first]
    for view, sampled in zip(views, first, strict=True):
        assert sampled.decision.action in sampled.rates
        assert sampled.decision.combo is None or set(sampled.decision.combo.cards) <= set(view.hand)
        # cheaper than whole playouts: more deals for the same budget
        whole = hard_search(view, random.Random(3), 1_000, time_cap=math.inf,
                            evaluation="playout")
        assert max(n for _, n in sampled.rates.values()) > max(n for _, n in whole.rates.values())


def test_a_truncated_playout_is_valued_as_the_model_values_its_leaf() -> None:
    view = _view(2)
    rng = random.Random(5)
    worlds = [search.sample_world(view, rng) for _ in range(6)]
    actions = [d.combo for _, d in search.normal_ranked(view)[:3]]
    expected = model_values(worlds, view, actions, plies=search.TRUNCATE)
    for j, world in enumerate(worlds):
        for i, action in enumerate(actions):
            hands = [list(h) for h in world]
            after = search.advance(hands, view, action, search.TRUNCATE)
            if isinstance(after, bool):
                assert expected[i, j] == float(after)
            else:
                got = search.leaf_values([(hands, *after)], view.landlord)[0]
                assert got == pytest.approx(expected[i, j], abs=1e-6)
