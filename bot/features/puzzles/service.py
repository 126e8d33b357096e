"""PuzzleService: endgame puzzles (残局) for the members of a server (docs/RULES.md §Puzzles).

An attempt is no table: a puzzle is played against the exact solver
(``bot.features.puzzles.solver``), one member action at a time, and everything it needs is in its stored line. ``daily``
opens the server's puzzle of the day (the same for every member, chosen by the server's
secret seed like the daily deal; one attempt a day), ``practice`` a puzzle near the
member's puzzle rating that they have not solved yet; ``play`` checks the member's move
with the solver: a move that throws the forced win away ends the attempt at once (the
move that wins and the refutation are then shown), a right one is answered by the
computers' best defence (and the partner's winning play), until the member's side plays
its last card. Each finished attempt rates the member and the puzzle (Glicko-2, one game
between them). The solution of the daily puzzle shows only after one's own attempt; the
board of a day likewise (``visible_board``).

The solver runs in a thread (``asyncio.to_thread``): every answer of a shipped puzzle is
fast (``benchmarks/puzzles.py``), and the event loop never waits on it.
"""

from __future__ import annotations

import asyncio
import json
import random
import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from bot.features.puzzles.glicko2 import MIN_RD, PUZZLE_RD, Glicko2Rating, age, idle_periods, update
from bot.features.puzzles.model import Puzzle, load_puzzles
from bot.features.puzzles.picker import pick_near
from bot.features.puzzles.position import (
    Move,
    Position,
    apply,
    is_over,
    legal_moves,
    team_of,
    winner,
)
from bot.features.puzzles.solver import best_move, is_winning_move, refutation
from bot.features.puzzles.store import PuzzleStore
from bot.features.puzzles.values import (
    PuzzleAttempt,
    PuzzleBoard,
    PuzzleRating,
    PuzzleRow,
    PuzzleSummary,
)
from bot.game.errors import GameError
from bot.game.private import day_before, day_of, forgotten_mark, keyed_seed, streaks
from bot.rules import Card, Combo, classify, format_cards, show_cards
from bot.service.host import PrivateHost
from bot.storage.repository import ForgetStep
from bot.values import GuildSettings

Action = tuple[int, Move]
"""One action of an attempt: (seat, move); a move is a Combo or None for a pass."""


@dataclass(frozen=True)
class PuzzleState:
    """An attempt as the member sees it: the puzzle, every ``action`` so far in order, the
    ``position`` now. Once failed, ``wrong`` is the member's losing move, ``winning`` the
    move that would have kept the forced win there (the puzzle's solution on the first
    move) and ``line`` the refutation (the other side's winning line after ``wrong``, as
    actions, each seat's moves under best play on both sides).
    ``before`` / ``after``: the member's puzzle rating around this attempt (``before``
    known only in the answer to the move that ended it), ``puzzle_before`` /
    ``puzzle_after`` the puzzle's likewise; ``fresh``: just begun."""

    attempt: PuzzleAttempt
    puzzle: Puzzle
    actions: tuple[Action, ...]
    position: Position
    wrong: Move = None
    winning: Move = None
    line: tuple[Action, ...] = ()
    before: PuzzleRating | None = None
    after: PuzzleRating | None = None
    fresh: bool = False
    puzzle_before: PuzzleRating | None = None
    puzzle_after: PuzzleRating | None = None
    rating: float = 0.0
    """The puzzle's rating when it was served or shown (its stored one once attempted,
    else its shipped one)."""

    @property
    def finished(self) -> bool:
        return self.attempt.finished

    @property
    def solved(self) -> bool:
        return self.attempt.solved

    @property
    def failed(self) -> bool:
        return self.attempt.finished and not self.attempt.solved


@dataclass
class _Locks:
    """One lock per attempt (a member's two quick clicks act one after the other)."""

    locks: dict[str, asyncio.Lock] = field(default_factory=dict)

    def of(self, attempt_id: str) -> asyncio.Lock:
        return self.locks.setdefault(attempt_id, asyncio.Lock())


def encode_line(actions: Sequence[Action]) -> str:
    """The stored line of an attempt: JSON ``[[seat, cards, kind, rank], …]`` (``""`` cards
    for a pass), so that a reading comes back exactly (``decode_line``)."""
    rows = [[seat, "", "", -1] if move is None
            else [seat, format_cards(move.cards), str(move.kind), move.rank.index]
            for seat, move in actions]
    return json.dumps(rows, separators=(",", ":"))


def decode_line(puzzle: Puzzle, line: str) -> tuple[tuple[Action, ...], Position]:
    """The actions of a stored line replayed from the puzzle's position, and the position
    after them. Raises GameError("puzzle_stale") for a line that is not legal there (a puzzle
    changed under a stored attempt)."""
    pos = puzzle.position()
    actions: list[Action] = []
    for seat, cards, kind, rank in json.loads(line):
        move: Move = None
        if cards:
            move = next((m for m in legal_moves(pos) if m is not None
                         and format_cards(m.cards) == cards and str(m.kind) == kind
                         and m.rank.index == rank), None)
            if move is None:
                raise GameError("puzzle_stale")
        if seat != pos.turn:
            raise GameError("puzzle_stale")
        actions.append((seat, move))
        pos = apply(pos, move)
    return tuple(actions), pos


def _glicko(rating: PuzzleRating) -> Glicko2Rating:
    return Glicko2Rating(rating=rating.rating, rd=rating.deviation, volatility=rating.volatility)


def _stored(rating: Glicko2Rating, old: PuzzleRating, solved: bool) -> PuzzleRating:
    return PuzzleRating(rating=rating.rating, deviation=rating.rd, volatility=rating.volatility,
                        attempts=old.attempts + 1, solved=old.solved + int(solved))


def rate(member: PuzzleRating, puzzle: PuzzleRating, solved: bool
         ) -> tuple[PuzzleRating, PuzzleRating]:
    """The member's and the puzzle's ratings after one attempt (docs/RULES.md §Puzzles):
    one Glicko-2 game between them, the member scoring 1 when solved (the puzzle 0) and 0
    when failed; each is updated with the other's rating from before the attempt.
    ``solved`` counts the member's solves, and the attempts the puzzle withstood; both
    deviations are floored at ``MIN_RD``."""
    score = 1.0 if solved else 0.0
    mine = update(_glicko(member), [(_glicko(puzzle), score)], min_rd=MIN_RD)
    its = update(_glicko(puzzle), [(_glicko(member), 1.0 - score)], min_rd=MIN_RD)
    return _stored(mine, member, solved), _stored(its, puzzle, not solved)


def aged(member: PuzzleRating, now: float) -> PuzzleRating:
    """The member's rating at ``now``: the deviation grown by Glicko-2's step for each
    rating period (a UTC day) without an attempt since ``rated_at`` (docs/RATINGS.md
    §Puzzle ratings); unchanged before the first attempt."""
    if member.rated_at is None:
        return member
    grown = age(_glicko(member), idle_periods(member.rated_at, now), min_rd=MIN_RD)
    return member.model_copy(update={"deviation": grown.rd})


def readings(cards: Sequence[Card], pos: Position) -> list[Combo]:
    """The legal plays of ``pos``'s mover made of exactly ``cards`` (several readings
    may be legal, e.g. a bomb or four with two), highest reading first."""
    legal = [m for m in legal_moves(pos) if m is not None]
    ranks = sorted(c.rank.index for c in cards)
    return [combo for combo in classify(list(cards))
            if combo in legal and sorted(combo.ranks) == ranks]


def _answer(pos: Position, member_seat: int) -> list[Action]:
    """The computers' actions after a member's right move, up to the member's next turn
    or the end: the opponents' best defence, the partner's winning play (``best_move``)."""
    actions: list[Action] = []
    while not is_over(pos) and pos.turn != member_seat:
        move = best_move(pos)
        actions.append((pos.turn, move))
        pos = apply(pos, move)
    return actions


def _winning_move(puzzle: Puzzle, pos: Position, first: bool) -> Move:
    """The move that keeps the forced win at ``pos`` for the side to move: the puzzle's
    solution on its first move, else the solver's shortest win."""
    return puzzle.solution_move() if first else best_move(pos)


def refuted(pos: Position, wrong: Move) -> tuple[Action, ...]:
    """The refutation of ``wrong`` at ``pos`` as actions: the line under best play on both
    sides after it (``bot.features.puzzles.solver.refutation``), each move with its seat."""
    after = apply(pos, wrong)
    line: list[Action] = []
    for move in refutation(pos, wrong):
        line.append((after.turn, move))
        after = apply(after, move)
    return tuple(line)


def failure(puzzle: Puzzle, actions: Sequence[Action]) -> tuple[Move, Move, tuple[Action, ...]]:
    """(the member's losing move, the move that wins there, the refutation) of a failed
    attempt's actions, the losing move last (pure, CPU: call it in a thread)."""
    before = decode_prefix(puzzle, actions[:-1])
    wrong = actions[-1][1]
    first = not any(seat == puzzle.member_seat for seat, _ in actions[:-1])
    return wrong, _winning_move(puzzle, before, first), refuted(before, wrong)


def decode_prefix(puzzle: Puzzle, actions: Sequence[Action]) -> Position:
    """The position after ``actions`` from the puzzle's own."""
    pos = puzzle.position()
    for _, move in actions:
        pos = apply(pos, move)
    return pos


def _day(now: float, settings: GuildSettings) -> str:
    """The server's calendar day of ``now`` (UTC when its stored zone is unknown here)."""
    try:
        return day_of(now, settings.timezone)
    except ValueError:
        return day_of(now)


class PuzzleService:
    """The puzzles of every server over a ``PrivateHost`` (its storage, clock and settings).
    ``puzzles``: the puzzles to serve (default: the shipped set, ``load_puzzles``)."""

    def __init__(self, host: PrivateHost, puzzles: Sequence[Puzzle] | None = None,
                 rng: random.Random | None = None) -> None:
        self.host = host
        self.storage = host.storage
        self.store = PuzzleStore(host.storage)
        """The puzzles' rows (``bot.features.puzzles.store``)."""
        self._puzzles = list(puzzles) if puzzles is not None else None
        self._by_id: dict[str, Puzzle] | None = None
        self._locks = _Locks()
        self.rng = rng or random.Random()

    @property
    def puzzles(self) -> list[Puzzle]:
        """Every puzzle served, in a fixed order (by id)."""
        if self._puzzles is None:
            self._puzzles = list(load_puzzles())
        return self._puzzles

    def serve(self, puzzles: Sequence[Puzzle]) -> None:
        """Serve these puzzles instead of the shipped set (tests; attempts already stored
        of other puzzles answer as stale)."""
        self._puzzles = list(puzzles)
        self._by_id = None

    def puzzle(self, puzzle_id: str) -> Puzzle:
        """The puzzle with this id; GameError("puzzle_stale") when there is none (any more)."""
        if self._by_id is None:
            self._by_id = {p.id: p for p in self.puzzles}
        found = self._by_id.get(puzzle_id)
        if found is None:
            raise GameError("puzzle_stale")
        return found

    async def today(self, guild_id: int) -> str:
        """The server's calendar day now (``"YYYY-MM-DD"``, its ``/ddz config timezone``)."""
        return _day(self.host.clock.now(), await self.host.settings(guild_id))

    async def yesterday(self, guild_id: int) -> str:
        """The server's previous calendar day."""
        return day_before(await self.today(guild_id))

    async def _key(self, guild_id: int) -> bytes:
        return bytes.fromhex(await self.storage.server_key(guild_id, secrets.token_hex(32)))

    async def daily_puzzle(self, guild_id: int, day: str) -> Puzzle:
        """The server's puzzle of ``day``: the same for every member, chosen by the server's
        secret seed (``bot.game.private.keyed_seed`` of ``"puzzle:<day>"``), so that nobody
        can tell it before the day, nor another server's from it."""
        seed = keyed_seed(await self._key(guild_id), guild_id, f"puzzle:{day}")
        return self.puzzles[seed % len(self.puzzles)]

    def _mark(self, key: bytes, guild_id: int, day: str, user_id: int) -> int:
        return forgotten_mark(key, guild_id, f"puzzle:{day}", user_id)

    async def forget_step(self, guild_id: int, user_id: int) -> ForgetStep:
        """Its part of ``/ddz forget`` (``Forgetting.add_step``): ``forget_marks`` kept."""
        return self.store.forget_step(guild_id, user_id, await self.forget_marks(guild_id, user_id))

    async def forget_marks(self, guild_id: int, user_id: int) -> list[tuple[str, int]]:
        """What ``/ddz forget`` keeps of the member's puzzles: for today's daily puzzle,
        if begun, (today, a keyed mark with no id, name or result), so that forgetting
        buys no second attempt (as the daily deal's, ``DailyService.forget_marks``)."""
        today = await self.today(guild_id)
        if await self.store.daily_puzzle_attempt(guild_id, today, user_id) is None:
            return []
        return [(today, self._mark(await self._key(guild_id), guild_id, today, user_id))]

    async def state(self, attempt: PuzzleAttempt, *, fresh: bool = False) -> PuzzleState:
        """The attempt as the member sees it (``PuzzleState``), with the failure's winning
        move and refutation when it failed, and the member's rating once finished."""
        puzzle = self.puzzle(attempt.puzzle_id)
        actions, pos = await asyncio.to_thread(decode_line, puzzle, attempt.line)
        wrong: Move = None
        winning: Move = None
        line: tuple[Action, ...] = ()
        if attempt.finished and not attempt.solved and actions:
            wrong, winning, line = await asyncio.to_thread(failure, puzzle, actions)
        after = None
        if attempt.finished:
            after = await self.store.puzzle_member_rating(attempt.guild_id, attempt.user_id)
        stored = (await self.store.puzzle_ratings()).get(puzzle.id)
        return PuzzleState(attempt, puzzle, actions, pos, wrong, winning, line, after=after,
                           fresh=fresh,
                           rating=stored.rating if stored is not None else puzzle.rating)

    async def daily(self, guild_id: int, user_id: int, name: str) -> PuzzleState:
        """``/ddz puzzle``: the member's attempt at today's puzzle: begun now the first
        time, the same while it is played, else its result (a second attempt the same day
        is not given: the answer is the finished one). Raises GameError("puzzle_forgotten")
        when the member began today's puzzle before ``/ddz forget``."""
        day = await self.today(guild_id)
        found = await self.store.daily_puzzle_attempt(guild_id, day, user_id)
        if found is not None:
            return await self.state(found)
        key = await self._key(guild_id)
        await self.store.drop_puzzle_marks(guild_id, day)  # the days that are over
        if await self.store.daily_puzzle_attempt(
                guild_id, day, self._mark(key, guild_id, day, user_id)) is not None:
            raise GameError("puzzle_forgotten")
        puzzle = await self.daily_puzzle(guild_id, day)
        attempt = self._new(guild_id, user_id, name, puzzle, "daily", day)
        await self.storage.remember_name(guild_id, user_id, name)
        if not await self.store.begin_puzzle(attempt):  # a racing /ddz puzzle began it
            found = await self.store.daily_puzzle_attempt(guild_id, day, user_id)
            if found is None:
                raise GameError("puzzle_stale")
            return await self.state(found)
        return await self.state(attempt, fresh=True)

    async def practice(self, guild_id: int, user_id: int, name: str) -> PuzzleState:
        """``/ddz puzzle practice``: the member's practice attempt still being played, else
        a new one: a puzzle rated near the member's puzzle rating (``pick_near`` over the
        puzzles' stored ratings) that they have never solved. Raises
        GameError("puzzle_none_left") when they have solved every puzzle."""
        found = await self.store.open_puzzle_attempt(guild_id, user_id, "practice")
        if found is not None:
            return await self.state(found)
        mine = await self.store.puzzle_member_rating(guild_id, user_id) or PuzzleRating()
        solved = await self.store.solved_puzzles(guild_id, user_id)
        stored = await self.store.puzzle_ratings()
        ratings = {pid: r.rating for pid, r in stored.items()}
        puzzle = pick_near(self.puzzles, mine.rating, exclude=solved, rng=self.rng,
                           ratings=ratings)
        if puzzle is None:
            raise GameError("puzzle_none_left")
        attempt = self._new(guild_id, user_id, name, puzzle, "practice",
                            await self.today(guild_id))
        await self.storage.remember_name(guild_id, user_id, name)
        if not await self.store.begin_puzzle(attempt):  # pragma: no cover - a fresh id
            raise GameError("puzzle_stale")
        return await self.state(attempt, fresh=True)

    def _new(self, guild_id: int, user_id: int, name: str, puzzle: Puzzle,
             mode: Literal["daily", "practice"], day: str) -> PuzzleAttempt:
        return PuzzleAttempt(attempt_id=secrets.token_hex(6), guild_id=guild_id,
                             user_id=user_id, name=name, puzzle_id=puzzle.id,
                             mode=mode, day=day,
                             started_at=self.host.clock.now())

    async def attempt_of(self, guild_id: int, user_id: int, attempt_id: str) -> PuzzleAttempt:
        """The member's attempt with this id in this server; GameError("puzzle_stale") for one
        that is not theirs or not of this server (a forged or foreign button)."""
        found = await self.store.puzzle_attempt(attempt_id)
        if found is None or found.guild_id != guild_id or found.user_id != user_id:
            raise GameError("puzzle_stale")
        return found

    async def play(self, guild_id: int, user_id: int, attempt_id: str, plies: int,
                   cards: Sequence[Card] | None) -> PuzzleState:
        """The member's move in their attempt (``cards``; None or empty: a pass), made on
        the view of ``plies`` actions. A move that keeps the forced win is applied and
        answered (the computers' best defence, the partner's win) up to the member's next
        turn or the end: solved when the member's side has played its last card; a move
        that loses against best defence ends the attempt at once, failed. Both end the
        attempt with the member's and the puzzle's ratings updated (``rate``).

        Raises GameError: "puzzle_stale" (not their attempt, or a view of an earlier
        move), "puzzle_over" (finished already), "cannot_pass_lead" (a pass on a free
        lead), "not_a_combination" / "does_not_beat" (cards that are no legal play here)."""
        async with self._locks.of(attempt_id):
            attempt = await self.attempt_of(guild_id, user_id, attempt_id)
            if attempt.finished:
                raise GameError("puzzle_over")
            if attempt.plies != plies:
                raise GameError("puzzle_stale")
            puzzle = self.puzzle(attempt.puzzle_id)
            judged = await asyncio.to_thread(_judge, puzzle, attempt.line, cards)
            return await self._commit(attempt, puzzle, judged)

    async def _commit(self, attempt: PuzzleAttempt, puzzle: Puzzle, judged: _Judged
                      ) -> PuzzleState:
        actions = judged.actions
        line = encode_line(actions)
        moves = attempt.moves + 1
        plies = len(actions)
        if judged.over is None:
            if not await self.store.advance_puzzle(attempt.attempt_id, attempt.plies, line,
                                                     plies, moves):
                raise GameError("puzzle_stale")
            done = attempt.model_copy(update={"line": line, "plies": plies, "moves": moves})
            stored = (await self.store.puzzle_ratings()).get(puzzle.id)
            return PuzzleState(done, puzzle, actions, judged.position,
                               rating=stored.rating if stored is not None else puzzle.rating)
        solved = judged.over == "solved"
        after = attempt.model_copy(update={"line": line, "plies": plies, "moves": moves,
                                           "solved": solved,
                                           "finished_at": self.host.clock.now()})
        before = aged(await self.store.puzzle_member_rating(attempt.guild_id,
                                                              attempt.user_id)
                      or PuzzleRating(), after.finished_at or self.host.clock.now())
        stored = (await self.store.puzzle_ratings()).get(puzzle.id)
        its = stored or PuzzleRating(rating=float(puzzle.rating), deviation=PUZZLE_RD)
        mine, theirs = rate(before, its, solved)
        if not await self.store.finish_puzzle(attempt, after, mine, theirs):
            raise GameError("puzzle_stale")
        self._locks.locks.pop(attempt.attempt_id, None)
        return PuzzleState(after, puzzle, actions, judged.position, judged.wrong, judged.winning,
                           judged.line, before=before, after=mine, puzzle_before=its,
                           puzzle_after=theirs, rating=its.rating)

    async def board(self, guild_id: int, day: str) -> PuzzleBoard:
        """The board of ``day``'s daily puzzle: solved first, then fewer moves, then the
        earlier finish; each row with the member's streaks of daily puzzles solved."""
        attempts = sorted(await self.store.daily_puzzle_finished(guild_id, day),
                          key=lambda a: (not a.solved, a.moves if a.solved else 0,
                                         a.finished_at or 0.0))
        solved = await self.store.puzzle_solved_days(guild_id, [a.user_id for a in attempts])
        rows = []
        for place, attempt in enumerate(attempts, start=1):
            current, best = streaks(solved.get(attempt.user_id, []), day, played_today=True)
            rows.append(PuzzleRow(place=place, attempt=attempt, streak=current,
                                  best_streak=best))
        return PuzzleBoard(day=day, puzzle_id=attempts[0].puzzle_id if attempts else None,
                           rows=rows)

    async def may_see(self, guild_id: int, day: str, user_id: int) -> bool:
        """Whether the member may see the board of ``day``'s puzzle: once they finished
        their own attempt at it, or once the day is over (nothing of it before)."""
        found = await self.store.daily_puzzle_attempt(guild_id, day, user_id)
        if found is not None:
            return found.finished
        return day < await self.today(guild_id)

    async def visible_board(self, guild_id: int, day: str, user_id: int) -> PuzzleBoard | None:
        """``board(day)`` when the member may see it (``may_see``), else None."""
        if not await self.may_see(guild_id, day, user_id):
            return None
        return await self.board(guild_id, day)

    async def finished_count(self, guild_id: int, day: str) -> int:
        """How many members finished ``day``'s puzzle (shown to those who have not)."""
        return len(await self.store.daily_puzzle_finished(guild_id, day))

    async def summary(self, guild_id: int, user_id: int) -> PuzzleSummary:
        """The member's puzzles (``/ddz stats``): rating, daily puzzles solved, streaks."""
        rating = await self.store.puzzle_member_rating(guild_id, user_id)
        if rating is not None:
            rating = aged(rating, self.host.clock.now())
        days = (await self.store.puzzle_solved_days(guild_id, [user_id])).get(user_id, [])
        if rating is None and not days:
            return PuzzleSummary()
        today = await self.today(guild_id)
        mine = await self.store.daily_puzzle_attempt(guild_id, today, user_id)
        current, best = streaks(days, today, played_today=mine is not None and mine.finished)
        return PuzzleSummary(rating=rating, daily_solved=len(days), streak=current,
                             best_streak=best)


@dataclass(frozen=True)
class _Judged:
    """A member's move judged (``_judge``): every action now, the position after them,
    ``over`` (``"solved"``, ``"failed"`` or None) and, when failed, the losing move, the
    move that wins and the refutation."""

    actions: tuple[Action, ...]
    position: Position
    over: str | None = None
    wrong: Move = None
    winning: Move = None
    line: tuple[Action, ...] = ()


def _judge(puzzle: Puzzle, stored: str, cards: Sequence[Card] | None) -> _Judged:
    """Judge the member's move (``cards``; None or empty: a pass) at the end of the
    ``stored`` line with the solver (pure, CPU: in a thread). Raises GameError for a move
    that is not legal there (``PuzzleService.play``)."""
    actions, pos = decode_line(puzzle, stored)
    if is_over(pos) or pos.turn != puzzle.member_seat:
        raise GameError("puzzle_stale")
    move: Move
    if not cards:
        if pos.to_beat() is None:
            raise GameError("cannot_pass_lead")
        move = None
    else:
        options = readings(cards, pos)
        if not options:
            to_beat = pos.to_beat()
            if to_beat is None or not classify(list(cards)):
                raise GameError("not_a_combination", cards=show_cards(cards))
            raise GameError("does_not_beat", cards=show_cards(cards),
                            to_beat=show_cards(to_beat.cards))
        # several legal readings of the same cards: the one that keeps the win, if any
        move = next((m for m in options if is_winning_move(pos, m)), options[0])
    first = not any(seat == puzzle.member_seat for seat, _ in actions)
    now = (*actions, (pos.turn, move))
    if not is_winning_move(pos, move):
        return _Judged(now, apply(pos, move), "failed", move, _winning_move(puzzle, pos, first),
                       refuted(pos, move))
    after = apply(pos, move)
    answer = _answer(after, puzzle.member_seat)
    for _, reply in answer:
        after = apply(after, reply)
    done = (*now, *answer)
    if is_over(after):
        won = winner(after) == team_of(after, puzzle.member_seat)
        return _Judged(done, after, "solved" if won else "failed")
    return _Judged(done, after)
