"""Rules core speed, side by side with the reference engines (issue 2).

Run: ``python -m benchmarks.rules_vs_peers [--rounds 5] [--seed 7]``

Peers (optional ``bench`` extra): ``pip install rlcard`` and
``pip install --no-deps douzero`` (DouZero's move generator needs only the
standard library; ``--no-deps`` skips its torch requirement). A missing peer is
reported and skipped.

Every engine gets the same seeded inputs in its own native card format
(converted before timing) and does the same task:

* ``classify``: the readings of 10,000 plays drawn from random hands;
* ``lead 17`` / ``lead 20``: every legal lead of 1,000 random 17- / 20-card hands;
* ``follow 17`` / ``follow 20``: every legal answer of those hands to a play
  drawn from another random hand;
* ``worst case``: every legal lead of ``333444555666789TJQKA``, timed over
  ``WORST_REPEAT`` calls in a row, as the other tasks are timed over many items.

Each task runs ``--rounds`` times with the engines interleaved; the figure is
the median round, in microseconds of CPU time (``time.process_time``, so time
the shared machine gives to other processes is not counted) per item. Ratios are peer time / our time
(above 1 means we are faster). Plays a peer cannot express (readings it lacks)
are left out of that peer's input and counted.

A last line gives the worst case as one call alone, right after the classify
task (median of the rounds): cold caches cost every engine, ours more (its plays
are objects that point to shared, precomputed records), so it is shown apart.
"""

from __future__ import annotations

import argparse
import functools
import random
import statistics
import time
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

from bot.rules import DECK, Card, classify, legal_plays, parse_cards

WORST = "333444555666789TJQKA"
DZ_VALUE = {**{i: i + 3 for i in range(12)}, 12: 17, 13: 20, 14: 30}
RL_SYMBOL = "3456789TJQKA2BR"
WORST_REPEAT = 50


def make_inputs(seed: int) -> dict:
    rng = random.Random(seed)
    hands: dict[int, list] = {17: [], 20: []}
    for size in (17, 20):
        for _ in range(1000):
            hands[size].append(sorted(rng.sample(DECK, size)))
    plays: list[tuple[Card, ...]] = []
    while len(plays) < 10_000:
        hand = sorted(rng.sample(DECK, 20))
        plays.append(rng.choice(legal_plays(hand)).cards)
    follows = {
        size: [rng.choice(legal_plays(sorted(rng.sample(DECK, size)))) for _ in range(1000)]
        for size in (17, 20)
    }
    return {"hands": hands, "plays": plays, "follows": follows}


def dz_cards(cards) -> list[int]:
    return sorted(DZ_VALUE[c.rank.index] for c in cards)


def rl_str(cards) -> str:
    return "".join(RL_SYMBOL[c.rank.index] for c in sorted(cards))


Task = tuple[Callable[[], int], int]
"""A timed task: (the work, returning a count to keep it from being optimized away; how
many inputs it covers)."""


def ours(inputs: dict[str, Any]) -> dict[str, Task]:
    hands, plays, follows = inputs["hands"], inputs["plays"], inputs["follows"]
    worst = parse_cards(WORST)
    tasks: dict[str, Task] = {
        "classify": (lambda: sum(len(classify(p)) for p in plays), len(plays)),
        "worst case": (lambda: sum(len(legal_plays(worst)) for _ in range(WORST_REPEAT)),
                       WORST_REPEAT),
        "_worst cold": (lambda: len(legal_plays(worst)), 1),
    }
    for size in (17, 20):
        tasks[f"lead {size}"] = (functools.partial(_leads, hands[size]), len(hands[size]))
        pairs = list(zip(hands[size], follows[size], strict=True))
        tasks[f"follow {size}"] = (functools.partial(_follows, pairs), len(pairs))
    return tasks


def _leads(hands: list[list[Card]]) -> int:
    return sum(len(legal_plays(x)) for x in hands)


def _follows(pairs: list[tuple[list[Card], Any]]) -> int:
    return sum(len(legal_plays(h, t)) for h, t in pairs)


def douzero(inputs: dict[str, Any]) -> dict[str, Any] | None:
    try:
        from douzero.env import move_detector as md
        from douzero.env import move_selector as ms
        from douzero.env.move_generator import MovesGener
    except ImportError:
        return None
    gen = {
        md.TYPE_1_SINGLE: ("gen_type_1_single", ms.filter_type_1_single, False),
        md.TYPE_2_PAIR: ("gen_type_2_pair", ms.filter_type_2_pair, False),
        md.TYPE_3_TRIPLE: ("gen_type_3_triple", ms.filter_type_3_triple, False),
        md.TYPE_6_3_1: ("gen_type_6_3_1", ms.filter_type_6_3_1, False),
        md.TYPE_7_3_2: ("gen_type_7_3_2", ms.filter_type_7_3_2, False),
        md.TYPE_8_SERIAL_SINGLE: ("gen_type_8_serial_single", ms.filter_type_8_serial_single, True),
        md.TYPE_9_SERIAL_PAIR: ("gen_type_9_serial_pair", ms.filter_type_9_serial_pair, True),
        md.TYPE_10_SERIAL_TRIPLE: ("gen_type_10_serial_triple", ms.filter_type_10_serial_triple, True),
        md.TYPE_11_SERIAL_3_1: ("gen_type_11_serial_3_1", ms.filter_type_11_serial_3_1, True),
        md.TYPE_12_SERIAL_3_2: ("gen_type_12_serial_3_2", ms.filter_type_12_serial_3_2, True),
        md.TYPE_13_4_2: ("gen_type_13_4_2", ms.filter_type_13_4_2, False),
        md.TYPE_14_4_22: ("gen_type_14_4_22", ms.filter_type_14_4_22, False),
    }

    def follow(hand: list[int], rival: list[int]) -> int:
        """DouZero's own GameEnv.get_legal_card_play_actions, minus the env."""
        mg = MovesGener(hand)
        rival_type = md.get_move_type(rival)
        kind = rival_type["type"]
        if kind == md.TYPE_5_KING_BOMB:
            return 0
        if kind == md.TYPE_4_BOMB:
            moves = ms.filter_type_4_bomb(mg.gen_type_4_bomb() + mg.gen_type_5_king_bomb(), rival)
        else:
            name, keep, serial = gen[kind]
            method = getattr(mg, name)
            candidates = method(repeat_num=rival_type.get("len", 1)) if serial else method()
            moves = keep(candidates, rival) + mg.gen_type_4_bomb() + mg.gen_type_5_king_bomb()
        for move in moves:
            move.sort()
        return len(moves)

    plays = [dz_cards(p) for p in inputs["plays"]]
    known = [p for p in plays if md.get_move_type(p)["type"] != md.TYPE_15_WRONG]
    worst = dz_cards(parse_cards(WORST))
    tasks: dict = {
        "classify": (lambda: sum(1 for p in known if md.get_move_type(p)), len(known)),
        "worst case": (lambda: sum(len(MovesGener(worst).gen_moves()) for _ in range(WORST_REPEAT)),
                       WORST_REPEAT),
        "_worst cold": (lambda: len(MovesGener(worst).gen_moves()), 1),
    }
    skipped = {"classify": len(plays) - len(known)}
    for size in (17, 20):
        hands = [dz_cards(h) for h in inputs["hands"][size]]
        tasks[f"lead {size}"] = (
            lambda h=hands: sum(len(MovesGener(x).gen_moves()) for x in h), len(hands))
        pairs = [(h, dz_cards(t.cards)) for h, t in zip(hands, inputs["follows"][size], strict=True)]
        pairs_ok = [(h, t) for h, t in pairs if md.get_move_type(t)["type"] != md.TYPE_15_WRONG]
        skipped[f"follow {size}"] = len(pairs) - len(pairs_ok)
        tasks[f"follow {size}"] = (
            lambda p=pairs_ok: sum(follow(h, t) for h, t in p), len(pairs_ok))
    tasks["_skipped"] = skipped
    return tasks


def rlcard(inputs: dict[str, Any]) -> dict[str, Any] | None:
    try:
        from rlcard.games.doudizhu.judger import DoudizhuJudger
        from rlcard.games.doudizhu.utils import CARD_TYPE, get_gt_cards
    except ImportError:
        return None

    def rl_player(cards) -> SimpleNamespace:
        return SimpleNamespace(current_hand=[
            SimpleNamespace(rank="", suit="BJ") if c.rank.index == 13 else
            SimpleNamespace(rank="", suit="RJ") if c.rank.index == 14 else
            SimpleNamespace(rank=RL_SYMBOL[c.rank.index], suit="S") for c in cards])

    types = CARD_TYPE[0]
    worst = rl_str(parse_cards(WORST))
    plays = [rl_str(p) for p in inputs["plays"]]
    known = [p for p in plays if p in types]
    tasks: dict = {
        "classify": (lambda: sum(len(types[p]) for p in known), len(known)),
        "worst case": (
            lambda: sum(len(DoudizhuJudger.playable_cards_from_hand(worst))
                        for _ in range(WORST_REPEAT)), WORST_REPEAT),
        "_worst cold": (lambda: len(DoudizhuJudger.playable_cards_from_hand(worst)), 1),
    }
    skipped = {"classify": len(plays) - len(known)}
    for size in (17, 20):
        hands = [rl_str(h) for h in inputs["hands"][size]]
        tasks[f"lead {size}"] = (
            lambda h=hands: sum(len(DoudizhuJudger.playable_cards_from_hand(x)) for x in h),
            len(hands))
        pairs = [(rl_player(h), SimpleNamespace(played_cards=rl_str(t.cards)))
                 for h, t in zip(inputs["hands"][size], inputs["follows"][size], strict=True)]
        pairs_ok = [(h, t) for h, t in pairs if t.played_cards in types]
        skipped[f"follow {size}"] = len(pairs) - len(pairs_ok)
        tasks[f"follow {size}"] = (
            lambda p=pairs_ok: sum(len(get_gt_cards(h, t)) for h, t in p), len(pairs_ok))
    tasks["_skipped"] = skipped
    return tasks


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    inputs = make_inputs(args.seed)
    found: dict[str, dict[str, Any] | None] = {
        "ddz-bot": ours(inputs), "douzero": douzero(inputs), "rlcard": rlcard(inputs)}
    for name, tasks in found.items():
        if tasks is None:
            print(f"{name}: not installed, skipped")
    engines = {k: v for k, v in found.items() if v is not None}
    task_names = [t for t in engines["ddz-bot"] if not t.startswith("_")]
    times: dict[tuple[str, str], list[float]] = {}
    for _ in range(args.rounds):
        for task in ["classify", "_worst cold", *task_names[1:]]:
            for name, tasks in engines.items():
                run, count = tasks[task]
                start = time.process_time()
                run()
                elapsed = time.process_time() - start
                times.setdefault((name, task), []).append(elapsed / max(count, 1) * 1e6)
    peers = [n for n in engines if n != "ddz-bot"]
    header = f"{'task':<12}{'ddz-bot µs':>12}" + "".join(f"{p + ' µs':>14}{'ratio':>8}" for p in peers)
    print(header)
    for task in task_names:
        our = statistics.median(times[("ddz-bot", task)])
        row = f"{task:<12}{our:>12.1f}"
        for peer in peers:
            theirs = statistics.median(times[(peer, task)])
            row += f"{theirs:>14.1f}{theirs / our:>7.2f}x"
        print(row)
    for peer in peers:
        skipped = {k: v for k, v in engines[peer]["_skipped"].items() if v}
        if skipped:
            print(f"{peer}: inputs it cannot express (left out of its figures): {skipped}")
    cold = ", ".join(f"{name} {statistics.median(times[(name, '_worst cold')]):.1f}"
                     for name in engines)
    print(f"worst case, one call alone after classify (µs): {cold}")
    worst = legal_plays(parse_cards(WORST))
    print(f"worst case: ddz-bot lists {len(worst)} leads (every reading counted once)")


if __name__ == "__main__":
    main()
