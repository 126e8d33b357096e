"""Arena under the Happy rules: the computers' call, grab, show and double decisions,
measured by seeded self-play on the real engine (``bot.game.happy.HappyHand``).

    python -m benchmarks.arena --rules happy --deals 2000 --play normal --match hard:hardnever
    python -m benchmarks.arena --rules happy --deals 100 --match hard:normal   # full hard play

Duplicate deals, both seatings side by side: every deal (seed s = 1, 2, …; its first
speaker drawn by the deal) is played twice, our agent in seat 0 against two copies of
the opponent, then the opponent in seat 0 against two copies of ours, with the same
play RNG. Our points in a game are the net change of our seats (seat 0's, then seats
1 and 2's together); a deal's score is the mean of its two games, so a deal where both
sides decide alike scores exactly 0 and only the decisions' differences remain. Mean
± 95 % interval over deals. WP = share of games with our net change > 0 (a tie, 0,
counts a half). A hand nobody calls is dealt again (``HappyHand.redeal``, seeded), as
at a table.

Agents decide the Happy questions as ``bot.ai.happy.choose_happy`` at their level,
hard with its fixed budget (all its sampled deals, so a run is reproducible):
``hard``, ``normal``, ``easy``; ``hardnever`` / ``normalnever``: the same level's call,
but never a grab, a show or a double (docs/AI.md §Happy rules). Play: each agent's own
level (``hardnever`` plays hard), or ``--play POLICY`` for every seat: ``normal``,
``hard`` or ``hard@STEPS`` (hard with a fixed step budget, no clock): the two sides
then differ only in their Happy decisions. ``--out FILE`` appends one JSON line per deal
(a run cut short still has its figures; ``--summary FILE`` recomputes them).

``--deal no-shuffle`` (docs/RULES.md §No-shuffle deals): deal s is dealt as a no-shuffle
table deals its second hand, from the played order of a previous hand: the shuffled
classic deal of seed s, bid and played out by normal computers (``no_shuffle_deal``), cut
and dealt in packets of 5; both seatings play that same deal. Bombs are far more common
(``python -m benchmarks.no_shuffle``), so the stakes grow and the cap bites more often.
"""

from __future__ import annotations

import json
import math
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

from benchmarks.no_shuffle import bombs_held
from bot.ai import choose_bid, choose_play
from bot.ai.happy import choose_happy
from bot.ai.observation import Observation
from bot.ai.search import hard_play
from bot.ai.view import view_of
from bot.game.deal import deal_from_order
from bot.game.hand import Hand
from bot.game.happy import HappyHand
from bot.game.selfplay import play_out
from bot.rules import Card, Combo, RuleSet

MAX_REDEALS = 10
Player = Callable[[Observation, random.Random], Combo | None]


def decider(name: str) -> Callable[[Observation, str], int]:
    """The Happy decisions of agent ``name`` (module docstring)."""
    level, never = (name[:-5], True) if name.endswith("never") else (name, False)
    if level not in ("easy", "normal", "hard"):
        raise ValueError(f"unknown Happy agent: {name}")

    def decide(obs: Observation, kind: str) -> int:
        if never and kind != "call":
            return {"grab": 0, "show": 0, "double": 1}[kind]
        rng = random.Random(f"{obs.seat}|{kind}|{','.join(c.code for c in obs.hand)}")
        return choose_happy(obs, kind, level, rng, fixed_budget=True)

    return decide


def player(name: str) -> Player:
    """The play of ``name``: ``normal``, ``easy``, ``hard`` (the computers' search, with
    its clock cap) or ``hard@STEPS`` (a fixed step budget, no clock)."""
    if name.startswith("hard@"):
        steps = int(name.partition("@")[2])
        return lambda obs, rng: hard_play(view_of(obs), rng, steps, time_cap=math.inf).combo
    if name.endswith("never"):
        name = name[:-5]
    return lambda obs, rng: choose_play(obs, name, rng).combo


Deal = tuple[list[list[Card]], list[Card], int]
"""Three hands, the kitty and the first speaker."""


def no_shuffle_deal(seed: int) -> Deal:
    """Deal ``seed`` as a no-shuffle table deals a hand after its first (module
    docstring): the previous hand is the shuffled classic deal of ``seed``, bid and played
    out by normal computers; its played order (``Hand.next_order``) is cut and dealt by
    ``bot.game.deal.deal_from_order``; the first speaker is drawn from ``seed``."""
    rng = random.Random(f"no-shuffle|{seed}")
    previous = play_out(Hand.deal(RuleSet(), seed=seed),
                        lambda obs: choose_bid(obs, "normal", rng).bid,
                        lambda obs: choose_play(obs, "normal", rng).combo)
    hands, kitty = deal_from_order(random.Random(seed), previous.next_order())
    return hands, kitty, rng.randrange(3)


def play_game(seed: int, seats: list[str], play: str | None, rules: RuleSet,
              dealt: Deal | None = None) -> tuple[tuple[int, int, int], HappyHand]:
    """One Happy hand of deal ``seed`` with agent ``seats[s]`` in seat ``s`` (``dealt``:
    these cards and first speaker instead of the seed's shuffle); the point changes and
    the finished hand (after any redeals)."""
    deciders = [decider(name) for name in seats]
    players = [player(play or name) for name in seats]
    if dealt is None:
        hand: HappyHand = HappyHand.deal(rules, seed=seed)  # type: ignore[assignment]  # deal is the class's
    else:
        hands, kitty, opener = dealt
        hand = HappyHand.deal(rules, seed=seed, hands=hands, kitty=kitty,  # type: ignore[assignment]  # as above
                              first_bidder=opener)
    rng = random.Random(seed * 7 + 3)
    for _ in range(MAX_REDEALS + 1):
        first = hand.turn
        assert first is not None
        obs = hand.observation(first)  # the first speaker may start face up (×4)
        if deciders[first](obs, "show"):
            hand.show(first)
        while hand.phase in ("bidding", "showing"):
            seat = hand.turn
            assert seat is not None
            kind = hand.asked(seat)
            assert kind is not None
            hand.decide(kind, seat, deciders[seat](hand.observation(seat), kind))
        if hand.phase == "redeal":
            hand = hand.redeal()  # type: ignore[assignment]
            continue
        if hand.phase == "doubling":
            choices = [deciders[s](hand.observation(s), "double") for s in range(3)]
            for seat, factor in enumerate(choices):  # chosen at once, then applied
                hand.double(seat, factor)
        while hand.phase == "playing":
            seat = hand.turn
            assert seat is not None
            combo = players[seat](hand.observation(seat), rng)
            if combo is None:
                hand.pass_turn(seat)
            else:
                hand.play(seat, combo)
        assert hand.result is not None
        return hand.result.points, hand
    return (0, 0, 0), hand


def play_deal(ours: str, theirs: str, seed: int, play: str | None, rules: RuleSet
              ) -> dict[str, object]:
    """Both seatings of deal ``seed``: our net points and facts of each game."""
    out: dict[str, object] = {"seed": seed}
    start = time.perf_counter()
    dealt = no_shuffle_deal(seed) if rules.deal == "no-shuffle" else None
    if dealt is not None:
        out["bombs"] = bombs_held([*dealt[0], dealt[1]])  # in the 54 cards dealt
    games = []
    for seats, mine in (([ours, theirs, theirs], (0,)), ([theirs, ours, ours], (1, 2))):
        points, hand = play_game(seed, seats, play, rules, dealt)
        result = hand.result
        games.append({
            "net": sum(points[s] for s in mine),
            "landlord_ours": hand.landlord in mine,
            "grab": None if result is None else result.grab,
            "show": None if result is None else result.show,
            "doubles": None if result is None else list(result.doubles),
            "landlord_won": None if result is None else result.winner == "landlord",
        })
    out["games"] = games
    out["score"] = (games[0]["net"] + games[1]["net"]) / 2  # type: ignore[operator]
    out["seconds"] = round(time.perf_counter() - start, 2)
    return out


def _interval(values: list[float]) -> tuple[float, float]:
    n = len(values)
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / (n - 1) if n > 1 else 0.0
    return mean, 1.96 * math.sqrt(var / n)


def summary(rows: list[dict], ours: str, theirs: str, play: str | None) -> str:
    """One Markdown row of ``rows`` (``play_deal``'s results)."""
    scores = [float(r["score"]) for r in rows]
    wins = [sum(0.5 if g["net"] == 0 else float(g["net"] > 0) for g in r["games"]) / 2
            for r in rows]
    same = sum(r["games"][0]["net"] + r["games"][1]["net"] == 0 for r in rows)
    mean, ci = _interval(scores)
    wp, wp_ci = _interval(wins)
    secs = sum(float(r["seconds"]) for r in rows)
    line = (f"| {ours} | {theirs} | {play or 'own level'} | {len(rows)} | {mean:+.2f} ± {ci:.2f} "
            f"({mean - ci:+.2f} … {mean + ci:+.2f}) | {wp:.3f} ± {wp_ci:.3f} | {same} | "
            f"{secs:.0f} s |")
    bombs = [int(r["bombs"]) for r in rows if "bombs" in r]
    if bombs:  # no-shuffle deals: how many bombs they brought
        line += (f"\n(no-shuffle deals: {sum(bombs) / len(bombs):.2f} bombs or rockets dealt"
                 f" a deal, {100 * sum(b > 0 for b in bombs) / len(bombs):.0f} % of deals with"
                 " one or more)")
    return line


HEADER = ("| ours | vs | play | deals (×2 games) | points per hand (95 %) | WP (95 %) | "
          "deals scored 0 | CPU+wait |\n|---|---|---|---|---|---|---|---|")


def run(ours: str, theirs: str, deals: int, seed: int, play: str | None, rules: RuleSet,
        minutes: float = 0.0, out: Path | None = None) -> str:
    """Play up to ``deals`` deals in this process (or until ``minutes``), printing a
    progress line every 25 deals; one Markdown row."""
    rows: list[dict] = []
    deadline = time.perf_counter() + minutes * 60 if minutes else math.inf
    for s in range(seed, seed + deals):
        if time.perf_counter() > deadline:
            break
        row = play_deal(ours, theirs, s, play, rules)
        row["match"] = f"{ours}:{theirs}"
        row["play"] = play
        rows.append(row)
        if out is not None:
            with out.open("a") as f:
                f.write(json.dumps(row) + "\n")
        if len(rows) % 25 == 0:
            mean, ci = _interval([float(r["score"]) for r in rows])
            print(f"  {ours}:{theirs} ({play or 'own'}) {len(rows)} deals: "
                  f"{mean:+.2f} ± {ci:.2f} points per hand", file=sys.stderr, flush=True)
    return summary(rows, ours, theirs, play)


def from_file(path: Path) -> None:
    """Print the rows of a ``--out`` file, one per (match, play)."""
    groups: dict[tuple[str, str | None], list[dict]] = {}
    for line in path.read_text().splitlines():
        if line.strip():
            row = json.loads(line)
            groups.setdefault((row["match"], row["play"]), []).append(row)
    print(HEADER)
    for (match, play), rows in groups.items():
        ours, theirs = match.split(":")
        print(summary(rows, ours, theirs, play))
