"""Arena: strength of the computer players, measured by seeded self-play.

    python -m benchmarks.arena                       # default table (long: hard is slow)
    python -m benchmarks.arena --deals 1000 --match normal:greedy --match hard:random
    python -m benchmarks.arena --minutes 15 --jobs 2 # stop each match-up after 15 minutes
    python -m benchmarks.arena --timing 20           # decision times per level
    python -m benchmarks.arena --bidding --deals 1000  # bidding policies (benchmarks.bidding_arena)
    python -m benchmarks.arena --rules happy --deals 2000 --play normal --match hard:hardnever
                                                     # Happy rules (benchmarks.happy_arena)
    python -m benchmarks.arena --rules happy --deal no-shuffle --play normal --match hard:hardnever

Every deal (seeded) is played twice with the roles swapped: our agent as the
landlord (seat 0) against two copies of the opponent, then our agent as both
peasants. No bidding: the landlord is fixed, base score 1. Prints, per
match-up, WP (our side's win rate over all games) and ADP (our side's average
point difference: the landlord's ±2P, or both peasants' ±P together, docs/RULES.md
§Scoring), each with a 95% interval computed over deals (the two games of one
deal are averaged first, so the pairing is respected), then WP in each role.

A side may be a team, ``first+second`` (e.g. ``--match hard+normal:rlcard``): the
first plays the landlord and the peasant seated right after the landlord, the
second the other peasant; the "WP as peasants" column is then the partnership's
win rate (docs/AI.md §Partnership).

Opponents: ``random`` (uniform over legal actions, a pass included),
``greedy`` (smallest legal play, never passes), ``easy``/``normal``/``hard``,
``hardfixed`` (hard bounded by its step budget alone, no wall-clock cap: the daily
deal's computers, docs/AI.md §Fixed budget; ``hardfixed@8000``: the same with a step
budget of 8,000 instead of ``STEP_BUDGET``, and likewise ``hardprunedfixed@N``,
``hardtruncatedfixed@N``...), ``hardlearned``/``hardlearnedfixed`` (the
same two with the learned evaluation, ``evaluation="model"``, docs/AI.md §Learned
evaluation), ``hardpruned``/``hardprunedfixed`` (the playouts on the candidates the
learned evaluation keeps, ``evaluation="pruned"``),
``hardtruncated``/``hardtruncatedfixed`` (playouts cut after ``TRUNCATE`` plies and the
position reached valued by the learned evaluation, ``evaluation="truncated"``),
``hardtailed``/``hardtailedfixed`` (playouts finished by the exact solver once
``TAIL_CARDS`` cards are left, ``evaluation="tailed"``), ``hardwidefixed`` (``WIDE``
candidates instead of ``CANDIDATES``), ``hardoppfixed`` (the opponents err at ``ERROR``
in the playouts, ``bot.ai.search.Errors``), ``hardwideoppfixed`` (both), ``hardopp30fixed`` (the
opponents err at 2 × ``ERROR`` = 0.30) and ``hardplayout``/``hardplayoutfixed`` (with the playouts, whatever
``bot.ai.search.EVALUATION`` is), ``normal_v1``/``hard_v1``/``hardfixed_v1`` (the
normal level and the same two as they were at the start of issue 40: a frozen copy in
``benchmarks/hard_v1``),
and ``rlcard`` = RLCard's ``DouDizhuRuleAgentV1`` (optional ``bench`` extra;
skipped with a note if ``rlcard`` is not importable).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from pathlib import Path

from benchmarks import happy_arena
from benchmarks.hard_v1 import hard_play as hard_v1_play
from benchmarks.hard_v1.policy import normal_play as normal_v1_play
from bot.ai.decision import Decision, play
from bot.ai.observation import Observation
from bot.ai.policy import easy_play, greedy_play, normal_play, random_play
from bot.ai.search import TIME_CAP, Evaluation, hard_play
from bot.ai.selfplay import deal, play_hand
from bot.ai.view import view_of
from bot.rules import Combo, RuleSet, legal_plays

Agent = Callable[[Observation, random.Random], Decision]
DEFAULT_MATCHUPS = [
    "hard:random",
    "hard:greedy",
    "hard:rlcard",
    "hard:normal",
    "normal:random",
    "normal:greedy",
    "normal:rlcard",
    "normal:easy",
    "easy:random",
    "easy:greedy",
    "greedy:random",
]
RL_SYMBOLS = {"X": "B", "D": "R"}


def _level(policy: Callable) -> Agent:
    return lambda obs, rng: policy(view_of(obs), rng)


def rlcard_agent() -> Agent | None:
    """RLCard's DouDizhuRuleAgentV1 on our observation (None if rlcard is missing).

    The state is adapted: its own hand, the public trace, the legal actions in
    RLCard's notation (plays RLCard's tables lack are left out), roles. It
    never sees another seat's cards. An answer it cannot express in our rules
    falls back to the greedy smallest play.
    """
    try:
        import numpy as np
        from rlcard.games.doudizhu.utils import CARD_TYPE
        from rlcard.models.doudizhu_rule_models import DouDizhuRuleAgentV1
    except ImportError:
        return None
    agent = DouDizhuRuleAgentV1()
    types = CARD_TYPE[0]

    def text(cards) -> str:
        return "".join(RL_SYMBOLS.get(c, c) for c in "".join(card.rank.symbol for card in cards))

    def act(obs: Observation, rng: random.Random) -> Decision:
        np.random.seed(rng.randrange(2**31))
        legal = legal_plays(obs.hand, obs.to_beat, obs.rules)
        by_text: dict[str, Combo] = {}
        for combo in legal:
            key = text(combo.cards)
            if key in types:
                by_text.setdefault(key, combo)
        actions = list(by_text)
        if obs.to_beat is not None:
            actions.append("pass")
        # On a free lead our history is empty or ends with two passes, as RLCard expects.
        trace = [(s, "pass" if c is None else text(c.cards)) for s, c in obs.history]
        state = {
            "raw_obs": {
                "trace": trace,
                "current_hand": text(obs.hand),
                "actions": actions or ["pass"],
                "landlord": obs.landlord,
                "self": obs.seat,
            }
        }
        try:
            answer = agent.step(state)
        except (KeyError, IndexError, ValueError):
            answer = None
        if answer == "pass" and obs.to_beat is not None:
            return play(None, "pass_random")
        if answer in by_text:
            return play(by_text[answer], "play_random")
        return greedy_play(view_of(obs), rng)

    return act


FIXED_EVALUATIONS: dict[str, Evaluation | None] = {
    "hardfixed": None, "hardlearnedfixed": "model", "hardprunedfixed": "pruned",
    "hardtruncatedfixed": "truncated", "hardplayoutfixed": "playout",
    "hardtailedfixed": "tailed", "hardwidefixed": None, "hardoppfixed": None,
    "hardwideoppfixed": None, "hardopp30fixed": None}
"""The fixed-budget agents that take another step budget (``NAME@STEPS``), and their
evaluation (None: ``bot.ai.search.EVALUATION``)."""
WIDE = 8
"""Candidates of ``hardwide*`` (docs/AI.md §Fifth pass)."""
ERROR = 0.15
"""Opponents' error rate in the playouts of ``hardopp*`` (docs/AI.md §Fifth pass)."""
FIXED_OPTIONS: dict[str, dict[str, float]] = {
    "hardwidefixed": {"width": WIDE}, "hardoppfixed": {"opponent_error": ERROR},
    "hardwideoppfixed": {"width": WIDE, "opponent_error": ERROR},
    "hardopp30fixed": {"opponent_error": 2 * ERROR}}
"""Other search options of a fixed-budget agent (``hard_search``'s keywords)."""


def _fixed(name: str, budget: int | None) -> Callable:
    """The fixed-budget search called ``name`` (a key of ``FIXED_EVALUATIONS``)."""
    evaluation = FIXED_EVALUATIONS[name]
    options = FIXED_OPTIONS.get(name, {})
    width = int(options["width"]) if "width" in options else None
    error = options.get("opponent_error")
    return lambda view, rng: hard_play(view, rng, budget, time_cap=math.inf,
                                       evaluation=evaluation, width=width,
                                       opponent_error=error)


def make_agent(name: str) -> Agent | None:
    """The agent called ``name`` (see module docstring); None if unavailable."""
    if name == "rlcard":
        return rlcard_agent()
    if "@" in name:  # a fixed-budget agent with another step budget, e.g. hardfixed@8000
        base, _, steps = name.partition("@")
        return _level(_fixed(base, int(steps)))
    if name in FIXED_OPTIONS:
        return _level(_fixed(name, None))
    policies = {
        "random": random_play,
        "greedy": greedy_play,
        "easy": easy_play,
        "normal": normal_play,
        "hard": hard_play,
        "hardfixed": lambda view, rng: hard_play(view, rng, time_cap=math.inf),
        "hardlearned": lambda view, rng: hard_play(view, rng, evaluation="model"),
        "hardlearnedfixed": lambda view, rng: hard_play(view, rng, time_cap=math.inf,
                                                        evaluation="model"),
        "hardpruned": lambda view, rng: hard_play(view, rng, evaluation="pruned"),
        "hardprunedfixed": lambda view, rng: hard_play(view, rng, time_cap=math.inf,
                                                       evaluation="pruned"),
        "hardtruncated": lambda view, rng: hard_play(view, rng, evaluation="truncated"),
        "hardtruncatedfixed": lambda view, rng: hard_play(view, rng, time_cap=math.inf,
                                                          evaluation="truncated"),
        "hardplayout": lambda view, rng: hard_play(view, rng, evaluation="playout"),
        "hardtailed": lambda view, rng: hard_play(view, rng, evaluation="tailed"),
        "hardtailedfixed": lambda view, rng: hard_play(view, rng, time_cap=math.inf,
                                                       evaluation="tailed"),
        "hardplayoutfixed": lambda view, rng: hard_play(view, rng, time_cap=math.inf,
                                                        evaluation="playout"),
        "normal_v1": normal_v1_play,
        "hard_v1": hard_v1_play,
        "hardfixed_v1": lambda view, rng: hard_v1_play(view, rng, time_cap=math.inf),
    }
    return _level(policies[name])


def team(name: str) -> tuple[Agent, Agent]:
    """The agents of ``name``: ``"hard"`` plays every seat of its side; ``"hard+normal"``
    is a team whose first member plays the landlord and the first peasant (the seat
    after the landlord), the second member the other peasant (docs/AI.md §Partnership)."""
    first, _, second = name.partition("+")
    a, b = make_agent(first), make_agent(second or first)
    assert a is not None and b is not None
    return a, b


def play_deal(ours: str, theirs: str, seed: int) -> tuple[float, float, float, float]:
    """Both seatings of one seeded deal: (landlord win, peasants win, mean side points,
    seconds); ``ours``/``theirs`` as ``team`` reads them."""
    return play_deal_games(ours, theirs, seed)[0]


def play_deal_games(
    ours: str, theirs: str, seed: int
) -> tuple[tuple[float, float, float, float], list[list[list]]]:
    """``play_deal``'s result and both games' plays, ours as the landlord first: per game
    a list of ``[seat, card indices]`` (``None`` for a pass), which with the deal's seed
    replays the game (``benchmarks.arena_phases``)."""
    a1, a2 = team(ours)
    b1, b2 = team(theirs)
    hands, kitty = deal(random.Random(seed))
    start = time.perf_counter()
    as_landlord = play_hand([a1, b1, b2], hands, 0, kitty, random.Random(seed * 2 + 1))
    as_peasants = play_hand([b1, a1, a2], hands, 0, kitty, random.Random(seed * 2 + 2))
    points = as_landlord.points[0] - as_peasants.points[0]
    games = [[[s, None if c is None else [card.index for card in c.cards]] for s, c in o.history]
             for o in (as_landlord, as_peasants)]
    return ((float(as_landlord.landlord_won), float(not as_peasants.landlord_won), points / 2,
             time.perf_counter() - start), games)


def _interval(values: list[float]) -> tuple[float, float]:
    n = len(values)
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / (n - 1) if n > 1 else 0.0
    return mean, 1.96 * math.sqrt(var / n)


def _recorded(out: Path | None, ours: str, theirs: str) -> dict[int, dict]:
    """The deals of ``ours:theirs`` already in an ``--out`` file, by seed."""
    if out is None or not out.exists():
        return {}
    rows = (json.loads(line) for line in out.read_text().splitlines() if line.strip())
    return {row["seed"]: row for row in rows if row["match"] == f"{ours}:{theirs}"}


def run_matchup(ours: str, theirs: str, deals: int, seed: int, minutes: float, jobs: int,
                out: Path | None = None) -> str:
    """Play up to ``deals`` deals (or until ``minutes`` pass); one Markdown row.

    ``out``: a file that gets one JSON line per deal (match, seed, landlord and peasants
    wins, points, seconds, both games' plays: ``play_deal_games``); deals of this match already in it are counted, not replayed,
    so a run cut short resumes (the fixed-budget agents give the same result again)."""
    names = {n for side in (ours, theirs) for n in side.split("+")}
    if any(make_agent(n) is None for n in names):
        return f"| {ours} | {theirs} | – | skipped: rlcard not importable | | | | |"
    wins: list[float] = []
    roles: list[tuple[float, float]] = []
    points: list[float] = []
    start = time.perf_counter()
    deadline = start + minutes * 60 if minutes else math.inf
    done = _recorded(out, ours, theirs)
    for s in range(seed, seed + deals):
        if s in done:
            row = done[s]
            wins.append((row["landlord"] + row["peasants"]) / 2)
            roles.append((row["landlord"], row["peasants"]))
            points.append(row["points"])
    seeds = iter(s for s in range(seed, seed + deals) if s not in done)
    seeds_of: dict[Future, int] = {}
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        running: set[Future] = set()
        for s in seeds:
            future = pool.submit(play_deal_games, ours, theirs, s)
            seeds_of[future] = s
            running.add(future)
            if len(running) >= jobs * 2:
                break
        while running:
            finished, running = wait(running, return_when=FIRST_COMPLETED)
            for future in finished:
                (landlord_win, peasants_win, point, secs), games = future.result()
                if out is not None:
                    with out.open("a") as f:
                        f.write(json.dumps({
                            "match": f"{ours}:{theirs}", "seed": seeds_of[future],
                            "landlord": landlord_win, "peasants": peasants_win,
                            "points": point, "seconds": round(secs, 1),
                            "games": games}) + "\n")
                wins.append((landlord_win + peasants_win) / 2)
                roles.append((landlord_win, peasants_win))
                points.append(point)
                if len(wins) % 25 == 0:  # progress on stderr: a long run cut short still tells
                    wp, wp_ci = _interval(wins)
                    print(f"  {ours}:{theirs} {len(wins)} deals: WP {wp:.3f} ± {wp_ci:.3f}",
                          file=sys.stderr, flush=True)
                nxt = next(seeds, None) if time.perf_counter() < deadline else None
                if nxt is not None:
                    future = pool.submit(play_deal_games, ours, theirs, nxt)
                    seeds_of[future] = nxt
                    running.add(future)
    wp, wp_ci = _interval(wins)
    adp, adp_ci = _interval(points)
    landlord, landlord_ci = _interval([r[0] for r in roles])
    peasants, peasants_ci = _interval([r[1] for r in roles])
    secs = time.perf_counter() - start
    return (
        f"| {ours} | {theirs} | {len(wins)} | {wp:.3f} ± {wp_ci:.3f} | "
        f"{adp:+.2f} ± {adp_ci:.2f} | {landlord:.3f} ± {landlord_ci:.3f} | "
        f"{peasants:.3f} ± {peasants_ci:.3f} | {secs:.0f} s |"
    )


def timing(deals: int, seed: int, levels: tuple[str, ...] = ("easy", "normal", "hard")) -> None:
    """Print decision times per level (median, 90th and 99th percentiles, max) over seeded
    games: wall clock, and the CPU time of this process (what a busy machine does not
    inflate); "at the cap" = the share of decisions whose wall clock reached the hard
    search's cap (``bot.ai.search.TIME_CAP``, 0.6 s); "RSS growth" = how much this
    process's resident memory grew over the level's games (Linux; the first level's
    includes its imports, e.g. the learned evaluation's weights)."""
    print("| level | decisions | median | p90 | p99 | max | CPU median | CPU p90 | CPU p99 | "
          "CPU max | at the cap | RSS growth |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for level in levels:
        rss = _rss()
        agent = make_agent(level)
        normal = make_agent("normal")
        assert agent is not None and normal is not None
        times: list[float] = []
        cpu: list[float] = []

        def timed(
            obs: Observation, rng: random.Random, agent: Agent = agent, times: list = times,
            cpu: list = cpu,
        ) -> Decision:
            start, start_cpu = time.perf_counter(), time.process_time()
            decision = agent(obs, rng)
            times.append(time.perf_counter() - start)
            cpu.append(time.process_time() - start_cpu)
            return decision

        for s in range(seed, seed + deals):
            hands, kitty = deal(random.Random(s))
            play_hand([timed, normal, normal], hands, 0, kitty, random.Random(s))
            play_hand([normal, timed, normal], hands, 0, kitty, random.Random(s))
        times.sort()
        cpu.sort()
        capped = sum(t >= TIME_CAP for t in times) / len(times)
        print(
            f"| {level} | {len(times)} | {1000 * times[len(times) // 2]:.2f} ms | "
            f"{1000 * times[int(0.9 * len(times))]:.2f} ms | "
            f"{1000 * times[int(0.99 * len(times))]:.1f} ms | {1000 * times[-1]:.1f} ms | "
            f"{1000 * cpu[len(cpu) // 2]:.2f} ms | {1000 * cpu[int(0.9 * len(cpu))]:.2f} ms | "
            f"{1000 * cpu[int(0.99 * len(cpu))]:.1f} ms | {1000 * cpu[-1]:.1f} ms | "
            f"{100 * capped:.1f} % | {(_rss() - rss) / 1e6:.1f} MB |", flush=True,
        )


def _rss() -> int:
    """This process's resident set size in bytes (0 where /proc is missing)."""
    try:
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[1]) * 4096
    except OSError:
        return 0


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    if "--bidding" in argv:
        from benchmarks import bidding_arena

        bidding_arena.main([a for a in argv if a != "--bidding"])
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=1000, help="deals per match-up (×2 games)")
    parser.add_argument("--seed", type=int, default=1, help="first deal seed")
    parser.add_argument("--minutes", type=float, default=0.0, help="time cap per match-up")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--match", action="append", help="ours:theirs, repeatable")
    parser.add_argument("--timing", type=int, metavar="DEALS", help="only time decisions")
    parser.add_argument("--levels", default="easy,normal,hard",
                        help="levels --timing measures, comma-separated (e.g. hard,hardfixed)")
    parser.add_argument("--rules", choices=("classic", "happy"), default="classic",
                        help="happy: the Happy rules' decisions and stakes (benchmarks.happy_arena)")
    parser.add_argument("--cap", type=int, default=64, help="Happy rules: the cap (0 = none)")
    parser.add_argument("--deal", choices=("shuffled", "no-shuffle"), default="shuffled",
                        help="Happy rules: no-shuffle deals each hand from a previous hand's "
                        "played order (benchmarks.happy_arena.no_shuffle_deal)")
    parser.add_argument("--play", help="Happy rules: every seat's play policy (normal, hard, "
                        "hard@STEPS); default each agent's own level")
    parser.add_argument("--out", type=Path, help="append one JSON line per deal (classic: "
                        "deals of the match already in the file are counted, not replayed)")
    parser.add_argument("--summary", type=Path, help="Happy rules: the rows of an --out file")
    args = parser.parse_args(argv)
    if args.summary:
        happy_arena.from_file(args.summary)
        return
    if args.rules == "happy":
        rules = RuleSet(variant="happy", cap=args.cap or None, deal=args.deal)
        print(f"arena, Happy rules (cap {args.cap or 'none'}, {args.deal} deals): up to "
              f"{args.deals} deals × 2 "
              f"seatings, seed {args.seed}, cap {args.minutes or '∞'} min, one process")
        print(happy_arena.HEADER, flush=True)
        for spec in args.match or ["hard:hardnever", "hard:normal"]:
            ours, theirs = spec.split(":")
            print(happy_arena.run(ours, theirs, args.deals, args.seed, args.play, rules,
                                  args.minutes, args.out), flush=True)
        return
    if args.timing:
        timing(args.timing, args.seed, tuple(args.levels.split(",")))
        return
    matchups = args.match or DEFAULT_MATCHUPS
    print(
        f"arena: up to {args.deals} deals × 2 seatings, seed {args.seed}, "
        f"cap {args.minutes or '∞'} min, {args.jobs} job(s)"
    )
    print("| ours | vs | deals | WP (95%) | ADP (95%) | WP as landlord | WP as peasants | time |")
    print("|---|---|---|---|---|---|---|---|")
    for spec in matchups:
        ours, theirs = spec.split(":")
        print(run_matchup(ours, theirs, args.deals, args.seed, args.minutes, args.jobs,
                          args.out), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
