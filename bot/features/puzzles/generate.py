"""The puzzle generator: self-play positions, proved and kept when sound (docs/AI.md §Puzzles).

``python -m bot.features.puzzles build --count N [--seed S]`` plays seeded deals between the
normal-level computers (``bot.ai.selfplay``), takes the positions with 4–14 cards
in play, and keeps a position as a puzzle when the exact solver proves that

* the side to move has a choice (at least two first moves with different cards, the
  pass counted) and a forced win,
* exactly one first move wins, up to equal cards (every legal move with other cards,
  and the pass, loses against best defence; every reading of the winning cards wins);
  that move may be the pass (a peasant letting the partner through),
* the shortest forced win takes 1–9 plies (the depth).

The selection takes the same number per depth where it can. Same seed and count,
same file: nothing depends on the clock.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Sequence

from bot.ai.decision import Decision
from bot.ai.observation import Observation
from bot.ai.players import choose_play
from bot.ai.selfplay import deal, play_hand
from bot.features.puzzles.model import GENERATOR_VERSION, Puzzle, puzzle_id
from bot.features.puzzles.position import Move, Position, apply, legal_moves
from bot.features.puzzles.solver import principal_line, solver_for
from bot.rules import Card, Combo, classify, format_cards

MIN_CARDS, MAX_CARDS = 4, 14
"""Cards in play in a puzzle (issue 39)."""
MIN_CHOICES = 2
"""Distinct first moves (by cards, the pass counted) a puzzle offers at least: never forced."""
ROOT_SLACK = 4
"""Self-play positions with up to this many cards above 14 still root variations."""
VARIATION_PLIES = 2
"""Moves explored from each self-play position (any legal ones)."""
MAX_DEPTH = 9
"""Deepest puzzle kept."""


def _normal(obs: Observation, rng: random.Random) -> Decision:
    return choose_play(obs, "easy", rng)


def selfplay_positions(seed: int) -> Iterator[Position]:
    """Positions of seeded self-play deals (normal level) and their variations, forever.

    Every position of a deal with at most ``MAX_CARDS + ROOT_SLACK`` cards in play
    and no empty hand is a root; the candidates are the roots and every position
    reachable from one within ``VARIATION_PLIES`` moves (any legal moves), that
    has 4–14 cards in play and no empty hand, each once per deal.
    """
    rng = random.Random(seed)
    while True:
        hands, kitty = deal(rng)
        landlord = rng.randrange(3)
        outcome = play_hand([_normal] * 3, hands, landlord, kitty, rng)
        cards: list[list[Card]] = [list(h) for h in hands]
        cards[landlord] = sorted(cards[landlord] + list(kitty))
        last: tuple[int, Combo] | None = None
        seen: set[str] = set()
        for seat, combo in outcome.history:
            total = sum(len(h) for h in cards)
            if total <= MAX_CARDS + ROOT_SLACK and all(cards):
                root = Position(tuple(tuple(h) for h in cards), landlord, seat, last)
                yield from _variations(root, VARIATION_PLIES, seen)
            if combo is not None:
                for card in combo.cards:
                    cards[seat].remove(card)
                last = (seat, combo)
            nxt = (seat + 1) % 3
            if last is not None and last[0] == nxt:
                last = None


def _variations(pos: Position, plies: int, seen: set[str]) -> Iterator[Position]:
    """``pos`` and the positions within ``plies`` moves of it, in range and not seen."""
    key = pos.text()
    if key in seen or not all(pos.hands) or pos.cards_in_play() < MIN_CARDS:
        return
    seen.add(key)
    if pos.cards_in_play() <= MAX_CARDS:
        yield pos
    if plies > 0:
        for move in legal_moves(pos):
            yield from _variations(_play(pos, move), plies - 1, seen)


def _play(pos: Position, move: Move) -> Position:
    """``apply`` for a move of ``legal_moves(pos)`` itself (no second legality check)."""
    nxt = (pos.turn + 1) % len(pos.hands)
    if move is None:
        assert pos.last is not None
        return Position(pos.hands, pos.landlord, nxt, None if pos.last[0] == nxt else pos.last)
    hands = list(pos.hands)
    gone = set(move.cards)
    hands[pos.turn] = tuple(card for card in hands[pos.turn] if card not in gone)
    return Position(tuple(hands), pos.landlord, nxt, (pos.turn, move))


def canonical(pos: Position) -> Position:
    """The same position with the lowest suits of each rank (what a data file holds)."""
    return Position.from_text(
        [format_cards(h) for h in pos.hands], pos.landlord, pos.turn,
        None if pos.last is None else (pos.last[0], pos.last[1].notation),
    )


def prove(pos: Position, allow_pass: bool = True) -> Puzzle | None:
    """The puzzle of ``pos`` when it is sound with depth 1–9 (module docstring), else None."""
    if pos.last is not None:
        readings = classify(pos.last[1].cards)
        if not readings or readings[0].reading != pos.last[1].reading:
            return None  # the data file names the play by its cards: keep the default reading
    pos = canonical(pos)
    solver = solver_for(pos)
    state = solver.state_of(pos)
    mover = solver.team[pos.turn]
    if not solver.wins(state, mover, MAX_DEPTH):
        return None
    moves = legal_moves(pos)
    if len({"" if m is None else m.notation for m in moves}) < MIN_CHOICES:
        return None
    winning: list[Move] = []
    losing_cards: set[str] = set()
    for move in moves:
        child = apply(pos, move)
        won = any(not h for h in child.hands) or solver.winner_of(solver.state_of(child)) == mover
        text = "" if move is None else move.notation
        if won:
            winning.append(move)
            if len({'' if m is None else m.notation for m in winning}) > 1 or (
                    move is None and not allow_pass):
                return None
        else:
            losing_cards.add(text)
    solution = winning[0]
    if solution is not None and solution.notation in losing_cards:
        return None  # one reading of the winning cards loses
    depth = solver.distance(state, mover)
    line = principal_line(pos)
    assert len(line) == depth and line[0] == solution
    hands = tuple(format_cards(h) for h in pos.hands)
    to_beat = None if pos.last is None else (pos.last[0], pos.last[1].notation)
    choices = len({m.notation for m in moves if m is not None})
    return Puzzle(
        id=puzzle_id(hands, pos.landlord, pos.turn, to_beat),
        hands=hands,
        landlord=pos.landlord,
        turn=pos.turn,
        to_beat=to_beat,
        member_seat=pos.turn,
        member_role=pos.role(pos.turn),
        depth=depth,
        solution="" if solution is None else solution.notation,
        line=tuple("" if m is None else m.notation for m in line),
        rating=initial_rating(depth, choices),
        generator=GENERATOR_VERSION,
    )


def initial_rating(depth: int, choices: int) -> int:
    """A new puzzle's rating: 1000, +100 per ply of depth beyond the first, +20 per
    distinct first play beyond the first (at most 10 counted), rounded to 10."""
    return int(round((1000 + 100 * (depth - 1) + 20 * min(choices - 1, 10)) / 10) * 10)


def build(count: int, seed: int = 39, max_positions: int = 60_000,
          progress: bool = False) -> list[Puzzle]:
    """``count`` sound puzzles from seeded self-play, the same number per depth 1–9
    where the positions allow (the rest filled from the depths with spare ones).

    Stops early when every depth has its share of puzzles solved by a play, or after
    ``max_positions`` candidates tried.
    """
    share = -(-count // MAX_DEPTH)
    by_depth: dict[int, list[Puzzle]] = {d: [] for d in range(1, MAX_DEPTH + 1)}
    seen: set[str] = set()
    for tried, pos in enumerate(selfplay_positions(seed), 1):
        if tried > max_positions:
            break
        puzzle = prove(pos)
        if puzzle is not None and puzzle.id not in seen:
            seen.add(puzzle.id)
            by_depth[puzzle.depth].append(puzzle)
            if progress and len(seen) % 200 == 0:
                counts = {d: len(v) for d, v in by_depth.items()}
                print(f"tried {tried}, found {len(seen)}: {counts}", flush=True)
        if all(sum(p.solution != "" for p in v) >= share for v in by_depth.values()):
            break
    return select(by_depth, count)


def select(by_depth: dict[int, list[Puzzle]], count: int) -> list[Puzzle]:
    """Round-robin over the depths: equal shares where possible. Within a depth, puzzles
    solved by a play come before those solved by a pass, and the landlord's and the
    peasants' puzzles alternate, each in order of discovery."""
    chosen: list[Puzzle] = []
    queues = {d: _interleaved(v) for d, v in sorted(by_depth.items())}
    while len(chosen) < count and any(queues.values()):
        for d in queues:
            if queues[d] and len(chosen) < count:
                chosen.append(queues[d].pop(0))
    return chosen


def _interleaved(puzzles: list[Puzzle]) -> list[Puzzle]:
    """Plays before passes; within each, landlord and peasant puzzles taken in turn."""
    out: list[Puzzle] = []
    for by_pass in (False, True):
        roles = [[p for p in puzzles if (p.solution == "") == by_pass and p.member_role == role]
                 for role in ("landlord", "peasant")]
        for i in range(max(len(r) for r in roles)):
            out.extend(r[i] for r in roles if i < len(r))
    return out


def depth_counts(puzzles: Sequence[Puzzle]) -> dict[int, int]:
    """The number of puzzles per depth, by depth."""
    counts = Counter(p.depth for p in puzzles)
    return {d: counts[d] for d in sorted(counts)}
