"""Where an arena match's games are lost: by role, by the deal's strength, by phase.

    python -m benchmarks.arena_phases /tmp/ai53/rlcard.jsonl [--match hardfixed:rlcard]
    python -m benchmarks.arena_phases /tmp/ai53/tailed-rlcard.jsonl --versus /tmp/ai53/rlcard.jsonl

Reads the rows ``benchmarks.arena --out`` writes (each with both games' plays) and
replays every game of the deal's seed, no search (seconds for hundreds of deals):

* **Deal strength** (the arena has no bidding: seat 0 is always the landlord, base 1):
  hard bidding's whole-deal evaluator, ``bidding.landlord_win_rate`` (P(landlord wins)
  from the landlord's 20 cards and both peasants' hands, docs/AI.md §Levels), in three
  bands. Per band, our side's results in both seats of the *same* deal: the deal is
  won twice, split, or lost twice (duplicate scoring: a deal lost twice is one the
  opponent won with the cards we lost with).
* **Phase**: every lost game is classed by how it reached the end. *Over early*: it
  ended before the cards left in all hands came down to ``search.ENDGAME_CARDS`` (the
  exact solver never took over). Otherwise the first position at or below that count is
  solved exactly **with every hand known** (``endgame.Solver``, a large node budget):
  *endgame entered lost* (no play of ours could win it, even seeing all cards) or
  *endgame entered won* (our side could have won from there, and did not: the exact
  solver's own loss, made on sampled deals of the hidden cards).
* **Value by stage**: the learned evaluation (``search.leaf_values``: P(landlord wins)
  with normal playing on, every hand known) before and after every play; each play's
  change of our side's value is charged to its player (ours or theirs) and to the stage
  of the position it was played in (early: > 40 cards left in all hands, middle 21–40,
  late 15–20, endgame ≤ 14). The sums per game say where our side's chances went,
  by normal's yardstick.
* ``--versus OTHER``: the paired difference with another ``--out`` file on the deals both
  played (e.g. two of our agents against the same opponent on the same seeds): per deal,
  our WP (both seatings averaged) minus the other's, with its 95 % interval.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
from collections import Counter, defaultdict
from pathlib import Path

from bot.ai.bidding import landlord_win_rate
from bot.ai.bidding_features import hand_features
from bot.ai.endgame import Solver, ranks_of
from bot.ai.evaluate import counts_of
from bot.ai.search import ENDGAME_CARDS, leaf_values
from bot.ai.selfplay import deal
from bot.rules import Card, Combo, legal_plays

BANDS = ((0.0, 0.4, "weak (< 0.40)"), (0.4, 0.6, "even (0.40–0.60)"),
         (0.6, 1.01, "strong (≥ 0.60)"))
"""Bands of the deal's P(landlord wins) by hard bidding's evaluator."""
STAGES = ("early", "middle", "late", "endgame")
SOLVER_NODES = 200_000
"""The analysis's exact solver budget a position: far above the search's ``ENDGAME_NODES``."""
LATE_CARDS = 20
"""Positions with this many cards or fewer left in all hands are solved exactly (every
hand known) to find the play that threw a won game away."""


def stage(total: int) -> str:
    """The stage of a position with ``total`` cards left in all hands."""
    if total > 40:
        return "early"
    if total > 20:
        return "middle"
    if total > ENDGAME_CARDS:
        return "late"
    return "endgame"


def deal_strength(seed: int) -> float:
    """P(landlord wins) of the arena's deal ``seed`` (seat 0 the landlord), by hard
    bidding's whole-deal evaluator."""
    hands, kitty = deal(random.Random(seed))
    full = hand_features(counts_of(list(hands[0]) + list(kitty)))
    return landlord_win_rate(full, hand_features(counts_of(hands[1])),
                             hand_features(counts_of(hands[2])))


def replay(seed: int, plays: list[list]) -> list[tuple[list[list[Card]], int,
                                                       tuple[int, Combo] | None]]:
    """Every position of a recorded game (all hands, seat to move, (seat, play to beat)
    or None), the position after its last play included."""
    hands, kitty = deal(random.Random(seed))
    cards = [list(h) for h in hands]
    cards[0] = sorted(cards[0] + list(kitty))
    last: tuple[int, Combo] | None = None
    out = []
    for seat, indices in plays:
        out.append(([list(h) for h in cards], seat, last))
        if indices is not None:
            played = sorted(indices)
            combo = next(c for c in legal_plays(cards[seat], None if last is None else last[1])
                         if sorted(card.index for card in c.cards) == played)
            for card in combo.cards:
                cards[seat].remove(card)
            last = (seat, combo)
        nxt = (seat + 1) % 3
        if last is not None and last[0] == nxt:
            last = None
    out.append(([list(h) for h in cards], (plays[-1][0] + 1) % 3, last))
    return out


def game_phases(seed: int, plays: list[list], ours: tuple[int, ...]) -> dict:
    """One game's analysis for the side ``ours`` (seats): won, endgame class, value
    changes per (mover, stage)."""
    positions = replay(seed, plays)
    landlord_won = plays[-1][0] == 0
    won = landlord_won == (0 in ours)
    sign = 1.0 if 0 in ours else -1.0
    values = leaf_values(positions[:-1], 0).tolist() + [1.0 if landlord_won else 0.0]
    changes: dict[tuple[str, str], float] = defaultdict(float)
    entry: bool | None = None
    reached = False
    solver = Solver(0, budget=SOLVER_NODES)
    exact: list[bool | None] = []  # per position: our side wins with best play (all known)
    for hands, turn, last in positions[:-1]:
        if sum(len(h) for h in hands) > LATE_CARDS:
            exact.append(None)
            continue
        solver.nodes = 0
        landlord_wins = solver.solve(
            (ranks_of(hands[0]), ranks_of(hands[1]), ranks_of(hands[2])), turn,
            last)
        exact.append(None if landlord_wins is None else landlord_wins == (0 in ours))
    exact.append(won)
    thrown: int | None = None  # cards left where our play threw away a won position
    for k, (hands, turn, _) in enumerate(positions[:-1]):
        total = sum(len(h) for h in hands)
        if total <= ENDGAME_CARDS and not reached:
            reached = True
            entry = exact[k]
        if thrown is None and turn in ours and exact[k] is True and exact[k + 1] is False:
            thrown = total
        mover = "ours" if turn in ours else "theirs"
        changes[(mover, stage(total))] += sign * (values[k + 1] - values[k])
    return {"won": won, "reached": reached, "entry": entry, "changes": dict(changes),
            "start": values[0] if 0 in ours else 1.0 - values[0], "thrown": thrown}


def _wins(path: Path) -> dict[int, float]:
    rows = (json.loads(line) for line in path.read_text().splitlines() if line.strip())
    return {r["seed"]: (r["landlord"] + r["peasants"]) / 2 for r in rows}


def paired(ours: Path, other: Path) -> str:
    """One Markdown row: both files' WP on the deals both played, and the difference per
    deal with its 95 % interval; which deals differ."""
    a, b = _wins(ours), _wins(other)
    seeds = sorted(set(a) & set(b))
    d = [a[s] - b[s] for s in seeds]
    mean = statistics.fmean(d)
    half = 1.96 * statistics.stdev(d) / len(d) ** 0.5 if len(d) > 1 else 0.0
    return (f"| {ours.name} | {other.name} | {len(seeds)} | "
            f"{statistics.fmean(a[s] for s in seeds):.3f} | "
            f"{statistics.fmean(b[s] for s in seeds):.3f} | {mean:+.3f} ± {half:.3f} | "
            f"{sum(x > 0 for x in d)} / {sum(x < 0 for x in d)} |")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out", type=Path, help="a benchmarks.arena --out file")
    parser.add_argument("--match", help="only this match (ours:theirs); default every row's")
    parser.add_argument("--versus", type=Path, help="another --out file: the paired difference")
    args = parser.parse_args(argv)
    if args.versus is not None:
        print("| ours | other | deals both played | WP | other's WP | difference per deal "
              "(95 %) | deals better / worse |")
        print("|---|---|---|---|---|---|---|")
        print(paired(args.out, args.versus) + "\n")
    rows = [json.loads(line) for line in args.out.read_text().splitlines() if line.strip()]
    rows = [r for r in rows if "games" in r and (args.match is None or r["match"] == args.match)]
    rows.sort(key=lambda r: r["seed"])
    print(f"{args.out}: {len(rows)} deals ({', '.join(sorted({r['match'] for r in rows}))})")

    # Deal strength × duplicate result.
    by_band: dict[str, Counter] = defaultdict(Counter)
    games: dict[str, list[dict]] = {"landlord": [], "peasants": []}
    for row in rows:
        strength = deal_strength(row["seed"])
        band = next(name for lo, hi, name in BANDS if lo <= strength < hi)
        won = int(row["landlord"]) + int(row["peasants"])
        by_band[band][won] += 1
        by_band[band]["landlord"] += int(row["landlord"])
        by_band[band]["peasants"] += int(row["peasants"])
        games["landlord"].append(game_phases(row["seed"], row["games"][0], (0,)))
        games["peasants"].append(game_phases(row["seed"], row["games"][1], (1, 2)))
    print("\n| deal (P(landlord wins), hard bidding's evaluator) | deals | won twice | split | "
          "lost twice | WP as landlord | WP as peasants | WP |")
    print("|---|---|---|---|---|---|---|---|")
    for _, _, name in BANDS:
        c = by_band[name]
        n = c[0] + c[1] + c[2]
        if n:
            print(f"| {name} | {n} | {c[2]} | {c[1]} | {c[0]} | {c['landlord'] / n:.3f} | "
                  f"{c['peasants'] / n:.3f} | {(c[1] + 2 * c[2]) / (2 * n):.3f} |")

    print("\n| role | games | lost | over early (no endgame) | endgame entered lost | "
          "endgame entered won, then lost | unsolved | won an endgame entered lost |")
    print("|---|---|---|---|---|---|---|---|")
    for role, items in games.items():
        lost = [g for g in items if not g["won"]]
        early = sum(not g["reached"] for g in lost)
        entered_lost = sum(g["reached"] and g["entry"] is False for g in lost)
        entered_won = sum(g["reached"] and g["entry"] is True for g in lost)
        unsolved = sum(g["reached"] and g["entry"] is None for g in lost)
        saved = sum(g["won"] and g["reached"] and g["entry"] is False for g in items)
        print(f"| {role} | {len(items)} | {len(lost)} | {early} | {entered_lost} | "
              f"{entered_won} | {unsolved} | {saved} |")

    print(f"\n| role | lost games | of them, a won position (≤ {LATE_CARDS} cards, every hand "
          "known) thrown away by our play | at 15–20 cards left | at ≤ 14 (the search's "
          "exact endgame) |")
    print("|---|---|---|---|---|")
    for role, items in games.items():
        lost = [g for g in items if not g["won"]]
        thrown = [g["thrown"] for g in lost if g["thrown"] is not None]
        print(f"| {role} | {len(lost)} | {len(thrown)} | "
              f"{sum(t > ENDGAME_CARDS for t in thrown)} | {sum(t <= ENDGAME_CARDS for t in thrown)} |")

    print("\n| role | games | our side's value at the start (mean) | change by our plays: "
          "early / middle / late / endgame | by theirs: early / middle / late / endgame |")
    print("|---|---|---|---|---|")
    for role, items in games.items():
        for label, subset in (("all", items), ("lost", [g for g in items if not g["won"]])):
            if not subset:
                continue
            ours = " / ".join(f"{statistics.fmean(g['changes'].get(('ours', s), 0.0) for g in subset):+.3f}"
                              for s in STAGES)
            theirs = " / ".join(
                f"{statistics.fmean(g['changes'].get(('theirs', s), 0.0) for g in subset):+.3f}"
                for s in STAGES)
            start = statistics.fmean(g["start"] for g in subset)
            print(f"| {role}, {label} | {len(subset)} | {start:.3f} | {ours} | {theirs} |")


if __name__ == "__main__":
    main()
