"""No-shuffle deals (docs/RULES.md §No-shuffle deals): the next hand is dealt from the
previous hand's cards in the order they were played, cut, and dealt in packets."""

from __future__ import annotations

import random

import pytest

from bot.game import Table
from bot.game.deal import PACKET, deal_from_order, played_order
from bot.rules import DECK, RuleSet


def test_packets_of_five_then_two_from_the_cut_deck() -> None:
    order = list(DECK)
    rng = random.Random(3)
    hands, kitty = deal_from_order(random.Random(3), order)
    cuts = [rng.randrange(1, 54) for _ in range(rng.randint(1, 3))]
    deck = order
    for cut in cuts:
        deck = deck[cut:] + deck[:cut]
    assert PACKET == 5
    expected: list[list] = [[], [], []]
    at = 0
    for size in (5, 5, 5, 2):
        for seat in range(3):
            expected[seat] += deck[at:at + size]
            at += size
    assert hands == [sorted(h) for h in expected]
    assert kitty == sorted(deck[51:])


def test_a_deal_from_order_needs_the_whole_deck() -> None:
    with pytest.raises(ValueError):
        deal_from_order(random.Random(1), list(DECK)[:53])
    with pytest.raises(ValueError):
        deal_from_order(random.Random(1), list(DECK), packet=0)


def test_played_order_is_plays_then_holdings_by_seat_then_an_untaken_kitty() -> None:
    a, b, c, d, e = DECK[:5]
    assert played_order([[b, a], [c]], [[e], [], [d]], []) == [b, a, c, e, d]
    assert played_order([], [[e], [d]], [b, a]) == [e, d, a, b]


def play_hand(table: Table, rng: random.Random) -> None:
    now = 0.0
    while table.phase == "playing":
        hand = table.hand
        assert hand is not None and hand.turn is not None
        user = table.seats[hand.turn].user_id
        assert user is not None
        now += 1
        if hand.phase == "bidding":
            table.bid(user, max(hand.allowed_bids(hand.turn)), now)
        else:
            plays = hand.legal_plays(hand.turn)
            if hand.to_beat_for(hand.turn) is not None and (not plays or rng.random() < 0.3):
                table.pass_turn(user, now)
            else:
                table.play(user, rng.choice(plays), now)


@pytest.mark.parametrize("variant", ["classic", "happy"])
def test_a_no_shuffle_tables_second_hand_follows_the_first_hands_played_order(
        variant: str) -> None:
    rules = RuleSet(deal="no-shuffle", variant=variant)  # type: ignore[arg-type]
    table = Table.open(1, 2, 10, "Ana", rules=rules)
    table.join(11, "Bo")
    table.join(12, "Cy")
    table.start(10, 0.0, seed=8)
    first = table.hand
    assert first is not None
    while first.phase in ("bidding", "showing") and variant == "happy":
        user = table.seats[first.turn or 0].user_id or 0
        if first.phase == "showing":  # the landlord does not show
            table.pass_turn(user, 1.0)
        else:  # the first seat calls, nobody grabs
            table.bid(user, int(first.auction.stage == "call"), 1.0)
    if variant == "happy":  # the doubling timer runs out: ×1 each
        first.end_doubling()
    play_hand(table, random.Random(8))
    assert table.phase == "finished" and first.result is not None
    order = [card for a in first.history if a.kind == "play" for card in a.cards]
    for seat in range(3):
        order += sorted(first.holdings[seat])
    table.play_again(11, 100.0, seed=99)
    second = table.hand
    assert second is not None and second is not first
    expected, kitty = deal_from_order(random.Random(99), order)
    assert (second.dealt, second.kitty) == (expected, kitty)


def test_a_shuffled_table_and_a_fixed_deal_ignore_the_previous_hand() -> None:
    table = Table.open(1, 2, 10, "Ana", computers=2)
    table.start(10, 0.0, seed=8)
    table.stop_hand(10)
    table.play_again(10, 1.0, seed=99)
    assert table.hand is not None
    fresh = Table.open(1, 2, 10, "Ana", computers=2)
    fresh.start(10, 0.0, seed=99)
    assert fresh.hand is not None and table.hand.dealt == fresh.hand.dealt
