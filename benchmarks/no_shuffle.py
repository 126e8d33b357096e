"""Bombs held, shuffled against no-shuffle deals: ``python -m benchmarks.no_shuffle``.

docs/RULES.md §No-shuffle deals: a no-shuffle table deals each hand after its first
from the previous hand's cards in the order they were played. This plays ``--deals``
hands (default 10,000) one after another at a no-shuffle table (the computers of
``--level`` bid and play; a hand nobody bids on is redealt shuffled, as at the table)
and as many seeded shuffled deals (bid only: the deal is all that is counted), and
prints for each the bombs and rockets held per hand (counted once the landlord has
taken the kitty, so in 20 + 17 + 17 cards) and the share of hands holding at least
one. ``--packet N`` deals packets of N cards instead of ``bot.game.deal.PACKET`` (5).
Acceptance (issue 52): no-shuffle holds at least twice the shuffled bombs per hand.
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter
from collections.abc import Sequence

from bot.ai import choose_bid, choose_play
from bot.game.deal import PACKET, deal_from_order
from bot.game.hand import Hand
from bot.game.selfplay import play_out
from bot.rules import Card, RuleSet


def bombs_held(holdings: Sequence[Sequence[Card]]) -> int:
    """Bombs (four of a rank) and rockets (both jokers) in the three hands."""
    total = 0
    for cards in holdings:
        counts = Counter(card.rank_index for card in cards)
        total += sum(1 for rank, n in counts.items() if n == 4 and rank < 13)
        total += int(counts[13] == 1 and counts[14] == 1)
    return total


def run(deals: int, level: str, seed: int, no_shuffle: bool,
        packet: int = PACKET) -> tuple[float, float, int]:
    """(bombs per hand, share of hands with one or more, redeals) over ``deals`` hands."""
    rng = random.Random(seed)
    rules = RuleSet(deal="no-shuffle" if no_shuffle else "shuffled")
    total = with_bomb = redeals = 0
    previous: Hand | None = None
    for index in range(deals):
        deal_seed = seed * 1_000_003 + index
        if no_shuffle and previous is not None:  # what Table._deal does, at any packet size
            dealt, kitty = deal_from_order(random.Random(deal_seed), previous.next_order(), packet)
            hand = Hand.deal(rules, seed=deal_seed, hands=dealt, kitty=kitty,
                             first_bidder=rng.randrange(3))
        else:
            hand = Hand.deal(rules, seed=deal_seed)
        bid = lambda obs: choose_bid(obs, level, rng).bid  # noqa: E731
        if no_shuffle:
            hand = play_out(hand, bid, lambda obs: choose_play(obs, level, rng).combo)
        else:
            while hand.phase in ("bidding", "redeal"):
                if hand.phase == "redeal":
                    hand = hand.redeal()
                else:
                    assert hand.turn is not None
                    hand.bid(hand.turn, bid(hand.observation(hand.turn)))
        redeals += hand.redeals
        held = [list(h) for h in hand.dealt]
        assert hand.landlord is not None
        held[hand.landlord] += hand.kitty
        bombs = bombs_held(held)
        total += bombs
        with_bomb += bombs > 0
        previous = hand
    return total / deals, with_bomb / deals, redeals


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=10_000)
    parser.add_argument("--level", default="normal", choices=("easy", "normal"))
    parser.add_argument("--seed", type=int, default=52)
    parser.add_argument("--packet", type=int, default=PACKET)
    args = parser.parse_args()
    print(f"{args.deals} deals, computers {args.level}, seed {args.seed}, "
          f"no-shuffle packets of {args.packet}")
    results = {}
    for name, no_shuffle in (("shuffled", False), ("no-shuffle", True)):
        started = time.perf_counter()
        per_hand, share, redeals = run(args.deals, args.level, args.seed, no_shuffle, args.packet)
        results[name] = per_hand
        print(f"{name:>10}: {per_hand:.3f} bombs or rockets held a hand, "
              f"{100 * share:.1f} % of hands with one or more "
              f"({redeals} redeals, {time.perf_counter() - started:.0f} s)")
    ratio = results["no-shuffle"] / results["shuffled"]
    print(f"no-shuffle / shuffled: {ratio:.2f}x (acceptance: at least 2x)")


if __name__ == "__main__":
    main()
