"""The card counter (记牌器): cards still out per rank for one seat
(``Observation.still_out``, docs/RULES.md §Card counter)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable

from bot.ai import choose_bid, choose_play
from bot.game.hand import Hand
from bot.rules import DEFAULT_RULES, RANKS, Card


def by_rank(cards: Iterable[Card]) -> tuple[int, ...]:
    counts = Counter(card.rank.index for card in cards)
    return tuple(counts.get(i, 0) for i in range(len(RANKS)))


def expected_out(hand: Hand, seat: int) -> tuple[int, ...]:
    """What the seat has not seen, from the full (secret) state: the other two seats'
    cards, less the turned-up kitty cards the landlord still holds, plus the kitty while
    it is still face down."""
    others = [c for s in range(3) if s != seat for c in hand.holdings[s]]
    if hand.landlord is None:
        others += hand.kitty
    else:
        public = set(hand.kitty)
        others = [c for c in others if c not in public]
    return by_rank(others)


def play_to_the_end(seed: int) -> list[Hand]:
    """Every state of one hand bid and played by computers to the end ([] if all passed)."""
    hand = Hand.deal(DEFAULT_RULES, seed=seed)
    rng = random.Random(seed)
    states = [hand.model_copy(deep=True)]
    while hand.phase == "bidding":
        seat = hand.turn
        assert seat is not None
        hand.bid(seat, choose_bid(hand.observation(seat), "easy", rng).action)
        states.append(hand.model_copy(deep=True))
    if hand.phase != "playing":
        return []
    while hand.phase == "playing":
        seat = hand.turn
        assert seat is not None
        action = choose_play(hand.observation(seat), "easy", rng).action
        if action is None:
            hand.pass_turn(seat)
        else:
            hand.play(seat, list(action.cards), action)
        states.append(hand.model_copy(deep=True))
    return states


def test_counts_at_the_deal_are_everything_not_in_ones_own_hand() -> None:
    hand = Hand.deal(DEFAULT_RULES, hands=["3334445566778899T", "3456789TJJQQKKAA2",
                                           "56789TTJJQQKKAA22"], kitty="2XD", first_bidder=0)
    assert hand.observation(0).still_out() == (1, 1, 2, 2, 2, 2, 2, 3, 4, 4, 4, 4, 4, 1, 1)
    hand.bid(0, 3)  # the kitty 2XD is turned up and joins seat 0's hand
    assert hand.observation(0).still_out() == (1, 1, 2, 2, 2, 2, 2, 3, 4, 4, 4, 4, 3, 0, 0)
    # seat 1 saw the kitty too: 2, X and D are no longer out for it either
    assert hand.observation(1).still_out()[12:] == (2, 0, 0)
    hand.play(0, "3")
    assert hand.observation(1).still_out()[0] == 2 and hand.observation(2).still_out()[0] == 3


def test_counts_follow_hands_played_to_the_end_and_reach_zero_outside_the_others_cards(
) -> None:
    played = 0
    for seed in range(40):
        states = play_to_the_end(seed)
        if not states:
            continue
        played += 1
        for state in states:
            for seat in range(3):
                assert state.observation(seat).still_out() == expected_out(state, seat), (
                    seed, seat, len(state.history))
        final = states[-1]
        assert final.phase == "finished"
        for seat in range(3):
            out = final.observation(seat).still_out()
            left = expected_out(final, seat)
            assert sum(out) <= sum(len(final.holdings[s]) for s in range(3) if s != seat)
            for rank in range(len(RANKS)):
                if left[rank] == 0:
                    assert out[rank] == 0, (seed, seat, RANKS[rank])
        winner = final.result.out_seat if final.result else None
        assert winner is not None
        # the two losers' remaining cards are all the winner still misses
        assert final.observation(winner).still_out() == expected_out(final, winner)
    assert played >= 10


def test_it_never_counts_a_card_the_seat_could_not_have_seen() -> None:
    """Swapping hidden cards between the two other seats changes nothing for a seat;
    and every card it calls seen is in its hand, played, or the turned-up kitty."""
    for seed in range(25):
        states = play_to_the_end(seed)
        for state in states[:: max(1, len(states) // 6)]:
            for seat in range(3):
                a, b = [s for s in range(3) if s != seat]
                if not state.holdings[a] or not state.holdings[b]:
                    continue
                swapped = state.model_copy(deep=True)
                ca, cb = swapped.holdings[a][0], swapped.holdings[b][-1]
                swapped.holdings[a][0], swapped.holdings[b][-1] = cb, ca
                if state.landlord is not None and {ca, cb} & set(state.kitty):
                    continue  # a turned-up kitty card is known to be the landlord's
                assert swapped.observation(seat).still_out() == state.observation(seat).still_out()
                known = list(state.holdings[seat]) + [c for a_ in state.history for c in a_.cards]
                if state.landlord is not None:
                    known += [c for c in state.kitty if c not in known]
                seen = [4 - n if i < 13 else 1 - n
                        for i, n in enumerate(state.observation(seat).still_out())]
                assert tuple(seen) == by_rank(known), (seed, seat)
