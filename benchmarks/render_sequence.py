"""The images of whole hands as the bot draws them, this tree against another, side by side:
``python -m benchmarks.render_sequence OTHER_TREE [--hands 6] [--rounds 4]``.

Issue 54. ``benchmarks.render`` draws one sample over and over; the bot draws a stream:
after every move the public table image and each member's hand view (the card counter
changed, their cards did not, unless they moved), and for the member to act a hand
image per selection click. Here seeded hands are played to their end (as
``benchmarks.render_positions``: Ana bids 3, random legal plays) and, at every position,
the table image, the three hand images with the card counter, and two selection clicks
of the seat to act (one card raised, then the play's cards raised) are drawn in order,
in one process per tree with every cache empty at its start. CPU time (``process_time``)
per image and bytes per image, each round running this tree and OTHER_TREE one after the
other (order alternating); prints each round, the medians over rounds and their ratio
this / other (below 1: this tree is cheaper). OTHER_TREE: a checkout's root, e.g. the
``git worktree`` of the commit before issue 54's changes.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

_CHILD = """
import json, random, sys, time
from bot.game.table import Table
from cogs import texts
from rendering import render_hand, render_table, warm_up
hands = int(sys.argv[1])
warm_up()
jobs = []
for seed in range(hands):
    rng = random.Random(seed)
    table = Table.open(1, 2, 11, "Ana", computers=2)
    table.start(11, 0.0, seed=seed, first_bidder=0)
    table.bid(11, 3, 0.0)
    while table.hand is not None and table.hand.phase == "playing" and table.hand.turn is not None:
        hand, turn = table.hand, table.hand.turn
        jobs.append(("table", texts.table_view(table, "en")))
        for seat in range(3):
            jobs.append(("hand", (tuple(hand.hand_of(seat)), frozenset(),
                                  tuple(hand.observation(seat).still_out()))))
        plays = hand.legal_plays(turn)
        lead = hand.to_beat_for(turn) is None
        choice = rng.choice(plays) if plays and (lead or rng.random() < 0.6) else None
        counter = tuple(hand.observation(turn).still_out())
        if choice is not None:
            mine = tuple(hand.hand_of(turn))
            jobs.append(("hand", (mine, frozenset({choice.cards[0].index}), counter)))
            jobs.append(("hand", (mine, frozenset(c.index for c in choice.cards), counter)))
        if turn == 0:
            if choice is None:
                table.pass_turn(11, 0.0)
            else:
                table.play(11, choice.cards, 0.0)
        else:
            table.auto_act(choice, 0.0)
cpu = {"table": 0.0, "hand": 0.0}
size = {"table": 0, "hand": 0}
count = {"table": 0, "hand": 0}
for kind, job in jobs:
    start = time.process_time()
    if kind == "table":
        png = render_table(job)
    else:
        cards, selected, counter = job
        png = render_hand(list(cards), selected=selected, show_indices=False, counter=counter)
    cpu[kind] += time.process_time() - start
    size[kind] += len(png)
    count[kind] += 1
print(json.dumps({k: [cpu[k] * 1000 / count[k], size[k] / count[k], count[k]] for k in cpu}))
"""


def run_tree(tree: Path, hands: int) -> dict[str, list[float]]:
    """{kind: [CPU ms per image, bytes per image, images]} of one child process in ``tree``."""
    out = subprocess.run([sys.executable, "-c", _CHILD, str(hands)], cwd=tree, check=True,
                         capture_output=True, text=True, env=_env(tree)).stdout
    result: dict[str, list[float]] = json.loads(out.strip().splitlines()[-1])
    return result


def _env(tree: Path) -> dict[str, str]:
    import os

    env = dict(os.environ)
    env["PYTHONPATH"] = str(tree)  # the tree's own packages, before the editable install
    return env


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("other", type=Path)
    parser.add_argument("--hands", type=int, default=6)
    parser.add_argument("--rounds", type=int, default=4)
    args = parser.parse_args()
    here = Path(__file__).resolve().parents[1]
    rows: dict[str, list[dict[str, list[float]]]] = {"this": [], "other": []}
    for n in range(1, args.rounds + 1):
        order = ("this", "other") if n % 2 else ("other", "this")
        for name in order:
            rows[name].append(run_tree(here if name == "this" else args.other, args.hands))
        this, other = rows["this"][-1], rows["other"][-1]
        print(f"round {n}: " + "; ".join(
            f"{kind} {this[kind][0]:.2f} / {other[kind][0]:.2f} ms, "
            f"{this[kind][1] / 1024:.1f} / {other[kind][1] / 1024:.1f} KB ({int(this[kind][2])} images)"
            for kind in ("table", "hand")) + "  (this / other)")
    print("median over rounds, CPU ms per image and KB per image, this / other = ratio:")
    for kind in ("table", "hand"):
        ms = [statistics.median(r[kind][0] for r in rows[name]) for name in ("this", "other")]
        kb = [statistics.median(r[kind][1] for r in rows[name]) / 1024 for name in ("this", "other")]
        print(f"  {kind:<6} {ms[0]:6.2f} / {ms[1]:6.2f} ms = {ms[0] / ms[1]:.2f}   "
              f"{kb[0]:5.1f} / {kb[1]:5.1f} KB = {kb[0] / kb[1]:.2f}")


if __name__ == "__main__":
    main()
