"""An Observation holds only what its seat may know (docs/AI.md)."""

from __future__ import annotations

import dataclasses
import pickle
import random

import pytest

from bot.ai.observation import Observation
from bot.ai.selfplay import deal, observation_for
from bot.ai.view import view_of
from bot.rules import legal_plays, parse_cards
from tests.support.reachable import _cards_reachable


def test_observation_reaches_only_own_hand_kitty_and_played_cards() -> None:
    rng = random.Random(7)
    hands, kitty = deal(rng)
    hands[0] = sorted(hands[0] + kitty)
    first = min(legal_plays(hands[0]), key=lambda c: (len(c.cards), c.rank))
    hands[0] = [c for c in hands[0] if c not in first.cards]
    for seat in range(3):
        obs = observation_for(seat, hands, 0, kitty, [(0, first)], (0, first))
        allowed = set(hands[seat]) | set(kitty) | set(first.cards)
        reachable = _cards_reachable(obs)
        assert reachable <= allowed
        others = {c for s in range(3) if s != seat for c in hands[s]} - set(kitty)
        assert not reachable & others


def test_unseen_cards_are_exactly_the_other_seats_cards() -> None:
    hands, kitty = deal(random.Random(3))
    hands[1] = sorted(hands[1] + kitty)
    obs = observation_for(2, hands, 1, kitty, [], None)
    assert set(obs.unseen_cards()) == set(hands[0]) | set(hands[1])
    assert len(obs.unseen_cards()) == 37


def test_view_pool_is_undivided_and_knows_the_unplayed_kitty() -> None:
    hands, kitty = deal(random.Random(5))
    hands[0] = sorted(hands[0] + kitty)
    view = view_of(observation_for(1, hands, 0, kitty, [], None))
    assert set(view.pool) == set(hands[0]) | set(hands[2])
    assert set(view.landlord_known) == set(kitty)
    assert not hasattr(view, "hands")


def test_observation_rejects_hand_that_disagrees_with_cards_left() -> None:
    with pytest.raises(ValueError):
        Observation(seat=0, hand=tuple(parse_cards("345")), cards_left=(4, 17, 17))


def test_partner_and_opponents_follow_the_landlord() -> None:
    obs = Observation(seat=2, hand=tuple(parse_cards("3")), cards_left=(20, 17, 1), landlord=0)
    assert obs.partner == 1
    assert obs.opponents() == (0,)
    assert obs.is_friend(1) and not obs.is_friend(0)


def test_an_observation_crosses_a_pipe_as_card_ids_and_comes_back_equal() -> None:
    hands, kitty = deal(random.Random(11))
    hands[0] = sorted(hands[0] + kitty)
    first = min(legal_plays(hands[0]), key=lambda c: (len(c.cards), c.rank))
    hands[0] = [c for c in hands[0] if c not in first.cards]
    for obs in (observation_for(1, hands, 0, kitty, [(0, first), (1, None)], (0, first)),
                Observation(seat=2, hand=tuple(hands[2]), phase="bidding", bids=((0, 1), (1, 0)),
                            highest_bid=1, cards_left=(20 - len(first.cards), 17, 17))):
        data = pickle.dumps(obs, protocol=pickle.HIGHEST_PROTOCOL)
        back = pickle.loads(data)
        assert back == obs
        assert back.hand == obs.hand and back.kitty == obs.kitty
        assert back.history == obs.history and back.last_play == obs.last_play
        assert back.unseen_cards() == obs.unseen_cards()
        assert b"Card" not in data  # no Card object pickled one by one
        fields = [f.name for f in dataclasses.fields(Observation) if f.init]
        assert len(obs.__reduce__()[1]) == len(fields)  # a new field must be pickled too
        assert [getattr(back, name) for name in fields] == [getattr(obs, name) for name in fields]
