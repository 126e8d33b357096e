"""The Hint and the review agree (docs/AI.md §Reviews): a member who plays the Hint's
first suggestion at every decision finds none of them among the review's costliest
decisions, in English and Spanish: the review makes the Hint's own search."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.ai import choose_bid, choose_play, hint_options
from bot.ai.observation import Observation
from bot.game.selfplay import seeded_hand
from bot.service.replays import ReplayService, private_record
from cogs.replay import review_embed

MEMBER = 0


@pytest.fixture(scope="module")
def reviewed() -> dict[int, tuple[Any, Any]]:
    """(found, review) of each seed's hand, played and reviewed once for both languages
    (0.6 s of CPU a seed): the texts differ, the hand and its review do not."""
    return {}


@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.parametrize("seed", [3, 8])
async def test_a_hand_played_by_the_hint_has_no_costly_decision(
        seed: int, lang: str, reviewed: dict[int, tuple[Any, Any]]) -> None:
    if seed not in reviewed:
        reviewed[seed] = await hint_hand_reviewed(seed)
    found, review = reviewed[seed]
    text = review_embed(found, review, lang, title="Review").description or ""
    agree = {"en": "the hard computer agrees", "es": "está de acuerdo"}[lang]
    assert text.count(agree) == len(review.decisions), text
    assert "%" not in text, text  # no "yours 19 %" line


async def hint_hand_reviewed(seed: int) -> tuple[Any, Any]:
    """Seed ``seed``'s hand with the member playing the Hint's first suggestion, and its
    review, checked: every play agrees with the review's choice."""
    # the shape of the reports: Hint "play Q" (or "D"), the member played it, and the
    # review listed it as the costliest decision ("10 wins 100 %, yours 19 %")
    rng = random.Random(seed)
    followed: list[object] = []

    def bid(obs: Observation) -> int:
        if obs.seat == MEMBER:
            return hint_options(obs, fixed_budget=True)[0].action  # type: ignore[return-value]  # a bid
        return choose_bid(obs, "normal", rng).action

    def play(obs: Observation) -> object:
        if obs.seat == MEMBER:
            followed.append(hint_options(obs, fixed_budget=True)[0].action)
            return followed[-1]
        return choose_play(obs, "normal", rng).action

    hand = seeded_hand(seed, bid, play)  # type: ignore[arg-type]  # plays: Combo or None
    record = private_record(f"h{seed}", 1, "t", 0.0, hand.model_dump_json(), 11, "Ana")
    assert record is not None and len(followed) >= 4
    replays = ReplayService(storage=None)
    found = await replays.rebuilt(record)
    review = await replays.review(found, MEMBER)
    plays = [a for _, a in review.decisions if a.kind == "play"]
    assert len(plays) >= 3
    assert all(a.agrees and a.loss == 0 for a in plays), [(a.played, a.best) for a in plays]
    assert review.worst == () and review.verdict == "agreed"
    return found, review


@pytest.mark.parametrize("lang", ["en", "es"])
async def test_a_happy_hands_review_judges_its_calls_grabs_shows_and_doubles(lang: str) -> None:
    from bot.ai.happy import advise
    from bot.ai.players import HINT_SEED
    from bot.game.replay import position_before
    from rendering.replay_pages import action_text
    from tests.support.happy import played

    hand = played()  # seat 0: call, grab back, show after the kitty, double ×2
    record = private_record("happy", 1, "t", 0.0, hand.model_dump_json(), 11, "Ana")
    assert record is not None
    replays = ReplayService(storage=None)
    found = await replays.rebuilt(record)
    review = await replays.review(found, MEMBER)
    happy = [(i, a) for i, a in review.decisions if a.kind in ("call", "grab", "show", "double")]
    assert [a.kind for _, a in happy] == ["call", "grab", "show", "double"]
    text = review_embed(found, review, lang, title="Review").description or ""
    where = {"en": "Call, grab, double", "es": "Cantar, robar, doblar"}[lang]
    for index, a in happy:
        hint = advise(position_before(hand, index).observation(MEMBER), a.kind, "hard",
                      random.Random(HINT_SEED))
        assert (a.played, a.best) == (hand.history[index].amount, hint.action)
        mine = action_text(a.played, a.kind, lang)
        if a.agrees:
            line = {"en": f"{where}: {mine} ✓ the hard computer agrees",
                    "es": f"{where}: {mine} ✓ el ordenador difícil está de acuerdo"}[lang]
        else:
            best = action_text(a.best, a.kind, lang)
            line = {"en": f"{where}: you {mine} · hard computer: {best}",
                    "es": f"{where}: tu decisión: {mine} · ordenador difícil: {best}"}[lang]
        assert line in text, (line, text)
    # the words a player says: "call the landlord", "super double (points ×4)"…
    assert action_text(1, "call", lang) == {"en": "call the landlord",
                                            "es": "cantar el terrateniente"}[lang]
    assert action_text(4, "double", lang) == {"en": "super double (points ×4)",
                                              "es": "superdoble (puntos ×4)"}[lang]
    assert not {i for i, _ in happy} & set(review.worst)  # no chances: never marked costly
