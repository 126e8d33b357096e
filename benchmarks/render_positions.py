"""Table images of real successive positions, text stamps on and off:
``python -m benchmarks.render_positions [--hands 6] [--rounds 4]``.

``benchmarks.render`` draws one table over and over, so every text is a cache hit of
``rendering.text.Draw``'s stamps. Here seeded hands are played to their end (Ana bids 3,
then random legal plays, 60 % of follows played) and the table image of every position is
drawn in order, as the bot draws them (the deals are seeded: the same positions every run), once with the stamps and once with Pillow's own
text (``ImageDraw.ImageDraw.text``), alternately in one process, the stamp cache emptied
before each stamped pass. Prints ms per image for both, their ratio and the cache's hits
and misses. Pure CPU; the text layout is the one of the English table.
"""

from __future__ import annotations

import argparse
import random
import time

from PIL import ImageDraw

from bot.game.table import Table
from cogs import texts
from rendering import TableView, render_table, warm_up
from rendering import text as rendering_text


def positions(seed: int) -> list[TableView]:
    """The table views of one seeded hand, from the deal to the last play."""
    rng = random.Random(seed)
    table = Table.open(1, 2, 11, "Ana", computers=2)
    table.start(11, 0.0, seed=seed, first_bidder=0)
    out = [texts.table_view(table, "en")]
    table.bid(11, 3, 0.0)
    out.append(texts.table_view(table, "en"))
    while table.hand is not None and table.hand.phase == "playing" and table.hand.turn is not None:
        hand, turn = table.hand, table.hand.turn
        plays = hand.legal_plays(turn)
        lead = hand.to_beat_for(turn) is None
        choice = rng.choice(plays) if plays and (lead or rng.random() < 0.6) else None
        if hand.turn == 0:
            if choice is None:
                table.pass_turn(11, 0.0)
            else:
                table.play(11, choice.cards, 0.0)
        else:
            table.auto_act(choice, 0.0)
        out.append(texts.table_view(table, "en"))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=6)
    parser.add_argument("--rounds", type=int, default=4)
    args = parser.parse_args()
    warm_up()
    views = [view for seed in range(args.hands) for view in positions(seed)]
    print(f"{len(views)} positions of {args.hands} hands")
    stamped = rendering_text.Draw.text
    for n in range(1, args.rounds + 1):
        ms: dict[str, float] = {}
        for mode in ("stamps", "pillow") if n % 2 else ("pillow", "stamps"):
            rendering_text.Draw.text = (  # type: ignore[method-assign]  # the A/B switch
                stamped if mode == "stamps" else ImageDraw.ImageDraw.text)
            if mode == "stamps":
                rendering_text._stamp.cache_clear()
            start = time.perf_counter()
            for view in views:
                render_table(view)
            ms[mode] = (time.perf_counter() - start) * 1000 / len(views)
            if mode == "stamps":
                info = rendering_text._stamp.cache_info()
        rendering_text.Draw.text = stamped  # type: ignore[method-assign]  # put back
        print(f"round {n}: stamps {ms['stamps']:.2f} ms, Pillow's text {ms['pillow']:.2f} ms per"
              f" image, ratio {ms['stamps'] / ms['pillow']:.2f}; stamps {info.hits} hits,"
              f" {info.misses} misses")


if __name__ == "__main__":
    main()
