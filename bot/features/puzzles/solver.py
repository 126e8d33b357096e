"""Exact distance-to-win solver for puzzle positions (docs/AI.md §Puzzles).

Every card is face up, so a position is a two-team game of perfect information
(docs/RULES.md §Play: the peasants win together) with no draws. Its value is the
winning team and the number of plies to the end when the winner wins as fast as
it can and the loser makes it last as long as it can (every turn is one ply, a
pass included; the winner's last play counts).

The core is a depth-bounded proof: ``wins(state, team, d)`` = "``team`` can force
a win within ``d`` plies". Each state's transposition-table entry keeps the largest
``d`` proved false and the smallest proved true, so iterative deepening (d = 1, 2,
…) reuses earlier work and an unbounded proof (``d = INF``) is the same search with
cut-offs. Hands are base-5 rank-count integers (suits never matter); moves come from
``bot.rules.legal_plays`` and are memoized per (hand, play to beat).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.features.puzzles.position import Move, Position, Team, apply, is_over, legal_moves, team_of
from bot.rules import DECK, DEFAULT_RULES, Card, Combo, ComboKind, RuleSet, legal_plays

INF = 64
"""More plies than any game of ≤ 54 cards can last here: an unbounded search."""
DEEPENING = 16
"""``Solver.value`` deepens both teams together up to this many plies."""

_POW5 = [5**r for r in range(15)]
_CANON: list[list[Card]] = [[card for card in DECK if card.rank_index == r] for r in range(15)]

_KIND_INDEX = {kind: i for i, kind in enumerate(ComboKind)}
LANDLORD, PEASANTS = 0, 1
_TEAM_NAMES: tuple[Team, Team] = ("landlord", "peasants")

Shape = int
"""A hand as its rank counts in base 5 (count of rank index r times 5**r)."""
State = tuple[int, ...]
"""(shape of each hand…, turn, seat of the play to beat or -1, id of the play to beat or -1)."""


def shape_of(cards: tuple[Card, ...] | list[Card]) -> Shape:
    """The base-5 rank-count integer of some cards."""
    return sum(_POW5[card.rank_index] for card in cards)


def cards_of_shape(shape: Shape) -> list[Card]:
    """Canonical cards (lowest suits first) for a rank-count integer."""
    out: list[Card] = []
    r = 0
    while shape:
        shape, count = divmod(shape, 5)
        if count:
            out.extend(_CANON[r][:count])
        r += 1
    return out


@dataclass(frozen=True)
class Outcome:
    """The value of a position: the team that wins with best play and the game's length
    in plies under best play (winner fastest, loser longest); 0 plies once over."""

    winner: Team
    plies: int


class Solver:
    """Distance-to-win solver for positions of ``seats`` hands with the landlord at
    ``landlord`` (one table per such pair: the teams depend on it).

    ``max_entries`` bounds the transposition table: it is cleared when full (a
    fresh search is still exact, only slower; 400 000 entries are about 100 MB).
    Every table entry is a proved fact, so threads sharing a solver can only race to
    store true bounds (plain dict operations; no lock in this pure package).
    """

    def __init__(
        self, seats: int, landlord: int, rules: RuleSet = DEFAULT_RULES,
        max_entries: int = 400_000,
    ) -> None:
        if seats not in (2, 3) or not 0 <= landlord < seats:
            raise ValueError("2 or 3 seats, landlord among them")
        self.seats = seats
        self.landlord = landlord
        self.rules = rules
        self.max_entries = max_entries
        self.team = [LANDLORD if s == landlord else PEASANTS for s in range(seats)]
        self._bound_reach = 2 * seats + 1
        """``_lower_bound`` never exceeds ``2 * seats``: deeper searches skip it."""
        self.tt: dict[tuple[State, int], list[int]] = {}
        self.nodes = 0
        self._moves: dict[tuple[Shape, int], list[tuple[int, int]]] = {}
        self._beats: dict[int, Combo] = {}
        self._one_shot: dict[Shape, bool] = {}

    def forget(self) -> None:
        """Empty the transposition table and the move memo (the play ids stay)."""
        self.tt.clear()
        self._moves.clear()
        self._one_shot.clear()

    # -- encoding -------------------------------------------------------------

    def state_of(self, pos: Position) -> State:
        """The solver's key for a position (its landlord and seat count must match)."""
        if len(pos.hands) != self.seats or pos.landlord != self.landlord:
            raise ValueError("position does not match this solver's seats and landlord")
        shapes = tuple(shape_of(hand) for hand in pos.hands)
        if pos.last is None:
            return (*shapes, pos.turn, -1, -1)
        return (*shapes, pos.turn, pos.last[0], self._beat_id(pos.last[1]))

    def _beat_id(self, combo: Combo) -> int:
        """A play's id as a play to beat: its kind, length, rank and card count in one
        int (the same in every solver; any play of that id stands for it)."""
        found = ((_KIND_INDEX[combo.kind] * 32 + combo.length) * 16
                 + combo.rank.index) * 64 + len(combo.ranks)
        if found not in self._beats:
            self._beats[found] = combo
        return found

    def _plays(self, shape: Shape, beat: int) -> list[tuple[int, int]]:
        """(delta shape, beat id of the play) of every legal play, most cards first."""
        key = (shape, beat)
        hit = self._moves.get(key)
        if hit is not None:
            return hit
        combos = legal_plays(cards_of_shape(shape), None if beat < 0 else self._beats[beat],
                             self.rules)
        combos.sort(key=lambda c: -len(c.ranks))
        out = [(sum(_POW5[r] for r in c.ranks), self._beat_id(c)) for c in combos]
        self._moves[key] = out
        return out

    def _goes_out_at_once(self, shape: Shape) -> bool:
        """Whether the whole hand is one combination (it could go out in one play)."""
        hit = self._one_shot.get(shape)
        if hit is None:
            plays = self._plays(shape, -1)
            hit = self._one_shot[shape] = bool(plays) and plays[0][0] == shape
        return hit

    # -- the bounded proof -------------------------------------------------------

    def _lower_bound(self, state: State, team: int) -> int:
        """Fewest plies before ``team`` could play its last card: the next turn of one
        of its seats, plus a full round if that hand is not one combination."""
        n = self.seats
        turn = state[n]
        best = INF
        for seat in range(n):
            if self.team[seat] != team:
                continue
            plies = (seat - turn) % n + 1
            if not self._goes_out_at_once(state[seat]):
                plies += n
            best = min(best, plies)
        return best

    def wins(self, state: State, team: int, d: int) -> bool:
        """Whether ``team`` (0 landlord, 1 peasants) can force a win within ``d`` plies."""
        if d <= 0:
            return False
        tt = self.tt
        key = (state, team)
        entry = tt.get(key)
        if entry is not None:
            if d >= entry[1]:
                return True
            if d <= entry[0]:
                return False
        if d < self._bound_reach and d < self._lower_bound(state, team):
            return False
        self.nodes += 1
        n = self.seats
        turn = state[n]
        last_seat = state[n + 1]
        beat = state[n + 2]
        nxt = (turn + 1) % n
        shape = state[turn]
        plays = self._plays(shape, beat)
        if self.team[turn] == team:
            result = False
            if plays and plays[0][0] == shape:
                result = True  # goes out now
            elif d > 1:
                for delta, played in plays:
                    child = list(state)
                    child[turn] = shape - delta
                    child[n] = nxt
                    child[n + 1] = turn
                    child[n + 2] = played
                    if self.wins(tuple(child), team, d - 1):
                        result = True
                        break
                else:
                    if last_seat >= 0:
                        result = self.wins(self._passed(state, nxt, last_seat), team, d - 1)
        else:
            result = d > 1 and not (plays and plays[0][0] == shape)
            if result:
                if last_seat >= 0 and not self.wins(self._passed(state, nxt, last_seat),
                                                    team, d - 1):
                    result = False
                else:
                    for delta, played in plays:
                        child = list(state)
                        child[turn] = shape - delta
                        child[n] = nxt
                        child[n + 1] = turn
                        child[n + 2] = played
                        if not self.wins(tuple(child), team, d - 1):
                            result = False
                            break
        if entry is None:
            if len(tt) >= self.max_entries:
                self.forget()
            entry = tt[key] = [0, INF + 1]
        if result:
            entry[1] = min(entry[1], d)
        else:
            entry[0] = max(entry[0], d)
        if result or d >= INF:
            # No draws: a team that wins means the other never does, and a team that
            # never wins means the other always does.
            other_key = (state, 1 - team)
            other = tt.get(other_key)
            if other is None:
                other = tt[other_key] = [0, INF + 1]
            if result:
                other[0] = INF
            else:
                other[1] = min(other[1], INF)
        return result

    def _passed(self, state: State, nxt: int, last_seat: int) -> State:
        n = self.seats
        child = list(state)
        child[n] = nxt
        if last_seat == nxt:
            child[n + 1] = -1
            child[n + 2] = -1
        return tuple(child)

    # -- values --------------------------------------------------------------

    def winner_of(self, state: State) -> int:
        """The team (0 landlord, 1 peasants) that wins ``state`` with best play."""
        return self.value(state)[0]

    def distance(self, state: State, team: int) -> int:
        """Plies of ``team``'s shortest forced win from ``state`` (``team`` must win it;
        iterative deepening from the lower bound)."""
        d = max(1, self._lower_bound(state, team))
        while not self.wins(state, team, d):
            d += 1
            if d > INF:  # pragma: no cover - the caller checked the winner
                raise ValueError("this team does not win the position")
        return d

    def value(self, state: State) -> tuple[int, int]:
        """(winning team, plies) of a state that is not over.

        Both teams deepen together (d = 1, 2, …): the first proof found is the winner's
        shortest win, since the loser has none at any depth. A short win is so found
        without exploring the long lines an unbounded proof may wander into; past
        ``DEEPENING`` plies one unbounded proof settles the winner instead."""
        for d in range(1, DEEPENING + 1):
            for team in (LANDLORD, PEASANTS):
                if self.wins(state, team, d):
                    return team, d
        team = LANDLORD if self.wins(state, LANDLORD, INF) else PEASANTS
        return team, self.distance(state, team)


_SOLVERS: dict[tuple[int, int], Solver] = {}


def solver_for(pos: Position) -> Solver:
    """The process's shared solver for the position's seat count and landlord."""
    key = (len(pos.hands), pos.landlord)
    found = _SOLVERS.get(key)
    if found is None:
        found = _SOLVERS[key] = Solver(*key)
    return found


def _team_index(team: Team) -> int:
    return LANDLORD if team == "landlord" else PEASANTS


def solve(pos: Position) -> Outcome:
    """The winner and length in plies of ``pos`` under best play (docs/AI.md §Puzzles)."""
    if is_over(pos):
        won = next(team_of(pos, s) for s, hand in enumerate(pos.hands) if not hand)
        return Outcome(won, 0)
    solver = solver_for(pos)
    team, plies = solver.value(solver.state_of(pos))
    return Outcome(_TEAM_NAMES[team], plies)


def _child_wins(solver: Solver, pos: Position, move: Move, team: int, d: int) -> bool:
    """Whether ``team`` wins within ``d`` plies after the mover plays ``move``."""
    child = apply(pos, move)
    if is_over(child):
        return team == solver.team[pos.turn]
    return solver.wins(solver.state_of(child), team, d)


def is_winning_move(pos: Position, move: Move) -> bool:
    """Whether the mover's team still has a forced win after ``move`` (against any
    defence). Raises ValueError for an illegal move or a finished game."""
    if is_over(pos):
        raise ValueError("the game is over")
    solver = solver_for(pos)
    child = apply(pos, move)
    if is_over(child):
        return True  # the mover played its last card
    return solver.winner_of(solver.state_of(child)) == solver.team[pos.turn]


def winning_moves(pos: Position) -> list[Move]:
    """Every legal move after which the mover's team still has a forced win."""
    return [move for move in legal_moves(pos) if is_winning_move(pos, move)]


def best_move(pos: Position) -> Move:
    """The solver's move for the seat to move (docs/AI.md §Puzzles).

    For the winning team: the first move (in ``legal_moves`` order) of a shortest
    forced win. For the losing team, the best defence: the first move after which
    the win takes longest. Deterministic. Raises ValueError once the game is over.
    """
    if is_over(pos):
        raise ValueError("the game is over")
    solver = solver_for(pos)
    mover = solver.team[pos.turn]
    team, plies = solver.value(solver.state_of(pos))
    moves = legal_moves(pos)
    if team == mover:
        for move in moves:
            if _child_wins(solver, pos, move, team, plies - 1):
                return move
        raise AssertionError("no move keeps the shortest win")  # pragma: no cover
    for move in moves:
        # Every move loses within plies - 1 more plies; the best defences need all of them.
        if not _child_wins(solver, pos, move, team, plies - 2):
            return move
    raise AssertionError("no move reaches the longest defence")  # pragma: no cover


best_defence = best_move
"""The opponents' move: ``best_move`` (the longest defence when they lose)."""


def principal_line(pos: Position) -> list[Move]:
    """The game from ``pos`` with ``best_move`` on every turn, to the last card."""
    line: list[Move] = []
    while not is_over(pos):
        move = best_move(pos)
        line.append(move)
        pos = apply(pos, move)
    return line


def refutation(pos: Position, move: Move) -> list[Move]:
    """After a losing ``move``: the other team's winning line with best play on both
    sides (first element = the reply to ``move``), to the last card; ``[]`` when
    ``move`` keeps the mover's win. Raises ValueError for an illegal move."""
    if is_winning_move(pos, move):
        return []
    return principal_line(apply(pos, move))
