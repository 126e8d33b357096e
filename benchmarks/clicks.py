"""Interactions a member needs to make each legal play from the hand view (issue 27).

``python -m benchmarks.clicks [--deals 150] [--seed 0]``: for each seeded deal, the
landlord's opening lead (20 cards) and every fifth turn after it in a game the normal
computers play out; for each legal play of the seat to act, the fewest interactions
the hand view drawn for that position offers (``cogs.hand_view.build_screen`` with the
service's ranking, ``bot.ai.choices``), read from the components it sends:

* the legal-play menu (``pick``, an option per play): 1, when the play is listed;
* a multi-select of the cards held (``cards``, ``max_values`` > 1): 1;
* the rank buttons (``r<k>``, each adds one card of its rank): one per card;

then Play (1), and the reading question (1) when the cards have several readings that
can be played (``Hand.readings_for``). Prints, per play kind, the mean and the worst
case over every play counted, and the same by rank buttons alone. Counts are exact
(no timing); it reads the view a tree draws, so it runs on older trees too.
"""

from __future__ import annotations

import argparse
import random
from collections import defaultdict
from collections.abc import Sequence

from bot.ai import choose_bid, choose_play
from bot.ai.choices import choices
from bot.game.hand import Hand
from bot.game.selfplay import play_out
from bot.game.table import Table
from bot.rules import Combo, rank_counts
from cogs.hand_view import build_screen
from cogs.items import ViewState, cards_to_mask, to_base36


def positions(deals: int, seed: int) -> list[Hand]:
    """The landlord's opening lead and every fifth turn after it, over ``deals`` deals."""
    rng = random.Random(seed)
    out: list[Hand] = []
    for _ in range(deals):
        seen: list[Hand] = []

        def record(hand: Hand, seen: list[Hand] = seen) -> None:
            seen.append(hand.model_copy(deep=True))

        play_out(Hand.deal(seed=rng.randrange(2**31)), lambda o: choose_bid(o, "normal").bid,
                 lambda o: choose_play(o, "normal").combo, before_action=record)
        turns = [h for h in seen if h.phase == "playing" and h.turn is not None]
        out.extend(turns[::5])
    return out


def view_paths(components: Sequence[dict]) -> tuple[set[str], set[str], set[int]]:
    """(legal-play menu values, multi-select card values, rank indices with a button)."""
    menu: set[str] = set()
    cards: set[str] = set()
    ranks: set[int] = set()
    for row in components:
        for item in row["components"]:
            verb = item["custom_id"].split(":h", 1)[-1].split(".", 1)[0]
            if item["type"] == 3 and item.get("disabled"):
                continue
            if item["type"] == 3 and item.get("max_values", 1) > 1:
                cards.update(o["value"] for o in item["options"])
            elif item["type"] == 3:
                menu.update(o["value"] for o in item["options"])
            elif verb.startswith("r") and verb[1:].isdigit() and not item.get("disabled"):
                ranks.add(int(verb[1:]))
    return menu, cards, ranks


def card_value_forms(combo: Combo) -> list[set[str]]:
    """The ways a multi-select's values may name ``combo``'s cards (index, base-36)."""
    return [{str(c.index) for c in combo.cards}, {to_base36(c.index) for c in combo.cards}]


def interactions(hand: Hand, seat: int, combo: Combo, paths: tuple[set[str], set[str], set[int]]
                 ) -> tuple[int | None, int | None]:
    """(fewest interactions by any path, by rank buttons alone) for ``combo``; None: no way."""
    menu, cards, ranks = paths
    readings = hand.readings_for(seat, combo.cards)
    ask = 1 if len(readings) > 1 and len({r.reading for r in readings}) > 1 else 0
    counts = rank_counts(combo.cards)
    by_ranks = (sum(counts) + 1 + ask) if all(r in ranks for r, n in enumerate(counts) if n) else None
    best = [by_ranks] if by_ranks is not None else []
    if to_base36(cards_to_mask(combo.cards)) in menu:
        best.append(2 + ask)
    if any(form <= cards for form in card_value_forms(combo)):
        best.append(2 + ask)
    return (min(best) if best else None), by_ranks


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=150)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    best: dict[str, list[int]] = defaultdict(list)
    ranks_only: dict[str, list[int]] = defaultdict(list)
    unreachable: dict[str, int] = defaultdict(int)
    found = positions(args.deals, args.seed)
    for hand in found:
        seat = hand.turn
        assert seat is not None
        table = Table(guild_id=1, channel_id=2, starter_id=3).model_copy(
            update={"hand": hand, "phase": "playing", "seq": 40})
        ranked = choices(hand.observation(seat))
        screen = build_screen(table, seat, ViewState(), "en", plays=ranked.plays, legal=ranked.legal)
        assert screen.view is not None
        paths = view_paths(screen.view.to_components())
        for combo in hand.legal_plays(seat):
            kind = combo.kind.value
            fewest, by_ranks = interactions(hand, seat, combo, paths)
            if fewest is None:
                unreachable[kind] += 1
            else:
                best[kind].append(fewest)
            if by_ranks is not None:
                ranks_only[kind].append(by_ranks)
    print(f"{len(found)} positions from {args.deals} deals (seed {args.seed}); "
          "interactions per legal play, Play and the reading question included")
    print(f"{'kind':<18}{'plays':>7}{'mean':>7}{'max':>5}{'by ranks':>10}{'max':>5}{'none':>6}")
    for kind in sorted(set(best) | set(unreachable), key=lambda k: -len(best.get(k, ()))):
        values, alone = best.get(kind, []), ranks_only.get(kind, [])
        mean = sum(values) / len(values) if values else float("nan")
        alone_mean = sum(alone) / len(alone) if alone else float("nan")
        print(f"{kind:<18}{len(values):>7}{mean:>7.2f}{max(values, default=0):>5}"
              f"{alone_mean:>10.2f}{max(alone, default=0):>5}{unreachable.get(kind, 0):>6}")
    every = [v for values in best.values() for v in values]
    print(f"{'all':<18}{len(every):>7}{sum(every) / len(every):>7.2f}{max(every):>5}")


if __name__ == "__main__":
    main()
