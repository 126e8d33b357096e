"""PuzzleService (docs/RULES.md §Puzzles): the same daily puzzle for every member, once a
day; a right move answered by the solver's best defence, a wrong one ending the attempt at
once with the winning move and the refutation; both ratings moved per attempt; practice
near the rating, never a solved puzzle again; boards, streaks, forget, stale moves. Two
hand-made puzzles (tests/support/puzzles.py); a fake clock; both storage backends."""

from __future__ import annotations

import asyncio
import math
import random

import pytest

from bot.features.puzzles.glicko2 import SCALE
from bot.features.puzzles.model import Puzzle
from bot.features.puzzles.service import (
    PuzzleService,
    PuzzleState,
    decode_line,
    encode_line,
    rate,
)
from bot.features.puzzles.solver import solve, winning_moves
from bot.features.puzzles.values import PuzzleRating
from bot.game.errors import GameError
from bot.rules import format_cards, parse_cards
from bot.service import TableService
from bot.storage.base import SqlRepository
from tests.support.puzzles import LANDLORD, PEASANT, PUZZLES
from tests.support.service_clock import FakeClock, Recorder, featured_service

G = 1
ANA, BEN = 101, 102
NOON = 1_796_126_400.0  # 2026-12-01 12:00 UTC
DAY = 24 * 3600.0


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(NOON)


@pytest.fixture
async def puzzles(store: SqlRepository, clock: FakeClock) -> PuzzleService:
    host = featured_service(store, clock=clock, listener=Recorder(), ai_delay=0)
    return PuzzleService(host, puzzles=PUZZLES, rng=random.Random(3))


def test_the_test_puzzles_are_sound() -> None:
    for puzzle in PUZZLES:
        pos = puzzle.position()
        outcome = solve(pos)
        assert outcome.plies == puzzle.depth
        assert [format_cards(m.cards) for m in winning_moves(pos) if m] == [puzzle.solution]


def test_a_line_comes_back_as_it_was_stored() -> None:
    actions = ((2, PEASANT.solution_move()), (0, None), (1, None))
    decoded, pos = decode_line(PEASANT, encode_line(actions))
    assert decoded == actions
    assert pos.turn == 2 and pos.last is None
    assert [format_cards(h) for h in pos.hands] == ["K2", "55789", "Q"]


async def test_the_daily_puzzle_is_the_same_for_everyone_and_solved_in_two_moves(
        puzzles: PuzzleService) -> None:
    ana = await puzzles.daily(G, ANA, "Ana")
    ben = await puzzles.daily(G, BEN, "Ben")
    assert ana.fresh and ben.fresh
    assert ana.puzzle.id == ben.puzzle.id == (await puzzles.daily_puzzle(G, "2026-12-01")).id
    again = await puzzles.daily(G, ANA, "Ana")
    assert not again.fresh and again.attempt.attempt_id == ana.attempt.attempt_id
    tomorrow = await puzzles.daily_puzzle(G, "2026-12-02")
    other_server = await puzzles.daily_puzzle(G + 1, "2026-12-01")
    assert {tomorrow.id, other_server.id} <= {p.id for p in PUZZLES}


async def test_a_right_move_is_answered_and_the_last_card_solves(puzzles: PuzzleService) -> None:
    puzzles, state = await start(puzzles, PEASANT)
    first = await puzzles.play(G, ANA, state.attempt.attempt_id, 0, parse_cards("TT"))
    # the landlord and the partner pass (the best defence: nothing beats TT)
    assert [(seat, move) for seat, move in first.actions[1:]] == [(0, None), (1, None)]
    assert not first.finished and first.position.turn == 2 and first.position.last is None
    done = await puzzles.play(G, ANA, state.attempt.attempt_id, 3, parse_cards("Q"))
    assert done.solved and done.finished and done.attempt.moves == 2
    assert done.before is not None and done.after is not None
    assert done.after.rating > done.before.rating == 1500.0
    assert done.after.attempts == 1 and done.after.solved == 1
    rated = (await puzzles.storage.puzzle_ratings())[PEASANT.id]
    assert rated.rating < PEASANT.rating and rated.attempts == 1 and rated.solved == 0
    assert done.puzzle_before is not None and done.puzzle_before.rating == PEASANT.rating
    assert done.puzzle_after == rated
    with pytest.raises(GameError) as over:
        await puzzles.play(G, ANA, state.attempt.attempt_id, 4, parse_cards("Q"))
    assert over.value.code == "puzzle_over"


async def test_a_wrong_first_move_ends_the_attempt_with_the_winning_move(
        puzzles: PuzzleService) -> None:
    puzzles, state = await start(puzzles, PEASANT)
    failed = await puzzles.play(G, ANA, state.attempt.attempt_id, 0, parse_cards("Q"))
    assert failed.failed and failed.attempt.moves == 1
    assert failed.wrong is not None and failed.wrong.notation == "Q"
    assert failed.winning is not None and failed.winning.notation == "TT"
    # the refutation: the landlord's side wins from there (its first answer beats the Q)
    seat, answer = failed.line[0]
    assert seat == 0 and answer is not None and answer.notation in ("K", "2")
    assert failed.after is not None and failed.after.rating < 1500.0
    rated = (await puzzles.storage.puzzle_ratings())[PEASANT.id]
    assert rated.rating > PEASANT.rating and rated.solved == 1
    # shown again later: the same failure, worked out from the stored line
    again = await puzzles.state(failed.attempt)
    assert (again.wrong, again.winning, again.line) == (failed.wrong, failed.winning, failed.line)


async def test_a_later_wrong_move_ends_the_attempt_with_the_solvers_win(
        puzzles: PuzzleService) -> None:
    puzzles, state = await start(puzzles, LANDLORD)
    first = await puzzles.play(G, ANA, state.attempt.attempt_id, 0, parse_cards("TT"))
    assert not first.finished and first.position.turn == 0
    # after TT and the peasant's pass, the landlord must lead the 3 (the A loses to the D)
    failed = await puzzles.play(G, ANA, state.attempt.attempt_id, first.attempt.plies,
                                parse_cards("A"))
    assert failed.failed and failed.attempt.moves == 2
    assert failed.winning is not None and failed.winning.notation == "3"


async def test_bad_and_stale_moves_change_nothing(puzzles: PuzzleService) -> None:
    puzzles, state = await start(puzzles, PEASANT)
    attempt_id = state.attempt.attempt_id
    for cards, code in ((None, "cannot_pass_lead"), (parse_cards("TQ"), "not_a_combination")):
        with pytest.raises(GameError) as refused:
            await puzzles.play(G, ANA, attempt_id, 0, cards)
        assert refused.value.code == code
    with pytest.raises(GameError) as stale:
        await puzzles.play(G, ANA, attempt_id, 3, parse_cards("TT"))  # an older view's plies
    assert stale.value.code == "puzzle_stale"
    for guild, user in ((G, BEN), (G + 1, ANA)):  # not theirs, not this server's
        with pytest.raises(GameError) as foreign:
            await puzzles.play(guild, user, attempt_id, 0, parse_cards("TT"))
        assert foreign.value.code == "puzzle_stale"
    unchanged = await puzzles.storage.puzzle_attempt(attempt_id)
    assert unchanged is not None and unchanged.plies == 0 and not unchanged.finished
    after = await puzzles.play(G, ANA, attempt_id, 0, parse_cards("TT"))
    with pytest.raises(GameError) as pass_free:
        await puzzles.play(G, ANA, attempt_id, after.attempt.plies, None)
    assert pass_free.value.code == "cannot_pass_lead"


async def test_practice_serves_near_the_rating_and_never_a_solved_puzzle(
        puzzles: PuzzleService) -> None:
    first = await puzzles.practice(G, ANA, "Ana")
    # 1500 to begin: the 1450 and the 1550 puzzle are both within the window
    assert first.puzzle.id in {LANDLORD.id, PEASANT.id}
    same = await puzzles.practice(G, ANA, "Ana")  # still being played: the same attempt
    assert same.attempt.attempt_id == first.attempt.attempt_id
    solved = await solve_it(puzzles, ANA, first.attempt.attempt_id)
    assert solved.solved
    nxt = await puzzles.practice(G, ANA, "Ana")
    assert nxt.puzzle.id != first.puzzle.id
    await solve_it(puzzles, ANA, nxt.attempt.attempt_id)
    with pytest.raises(GameError) as none_left:
        await puzzles.practice(G, ANA, "Ana")
    assert none_left.value.code == "puzzle_none_left"
    assert await puzzles.storage.solved_puzzles(G, ANA) == {LANDLORD.id, PEASANT.id}


async def test_board_streaks_and_summary(puzzles: PuzzleService, clock: FakeClock) -> None:
    ana = await puzzles.daily(G, ANA, "Ana")
    ben = await puzzles.daily(G, BEN, "Ben")
    assert await puzzles.visible_board(G, "2026-12-01", ANA) is None  # not finished yet
    await solve_it(puzzles, ANA, ana.attempt.attempt_id)
    wrong = next(c for c in ("A", "Q", "3") if c in format_cards(ben.position.hands[ben.puzzle.member_seat]))
    await puzzles.play(G, BEN, ben.attempt.attempt_id, 0, parse_cards(wrong))
    board = await puzzles.visible_board(G, "2026-12-01", ANA)
    assert board is not None
    assert [(r.place, r.attempt.user_id, r.attempt.solved, r.streak) for r in board.rows] == [
        (1, ANA, True, 1), (2, BEN, False, 0)]
    assert [r.attempt.name for r in board.rows] == ["Ana", "Ben"]
    clock.t += DAY
    ana2 = await puzzles.daily(G, ANA, "Ana")
    await solve_it(puzzles, ANA, ana2.attempt.attempt_id)
    summary = await puzzles.summary(G, ANA)
    assert (summary.daily_solved, summary.streak, summary.best_streak) == (2, 2, 2)
    assert summary.rating is not None and summary.rating.attempts == 2
    assert (await puzzles.summary(G, BEN)).streak == 0


async def test_a_year_away_ages_the_deviation_before_the_next_attempt(
        puzzles: PuzzleService, clock: FakeClock) -> None:
    # Issue 48: the deviation grows by Glicko-2's step for each day without an attempt
    # (docs/RATINGS.md §Puzzle ratings), so the solve after a year moves the rating more.
    first, state = await start(puzzles, LANDLORD)
    done = await solve_it(first, ANA, state.attempt.attempt_id)
    assert done.after is not None
    stored = await puzzles.storage.puzzle_member_rating(G, ANA)
    assert stored is not None and stored.rated_at == NOON
    assert (await puzzles.summary(G, ANA)).rating == stored  # the same day: no period passed
    clock.t += 365 * DAY
    grown = math.hypot(done.after.deviation, 364 ** 0.5 * done.after.volatility * SCALE)
    summary = await puzzles.summary(G, ANA)
    assert summary.rating is not None
    assert summary.rating.deviation == pytest.approx(grown)
    second, state = await start(puzzles, PEASANT)
    back = await solve_it(second, ANA, state.attempt.attempt_id)
    assert back.before is not None and back.after is not None
    assert back.before.deviation == pytest.approx(grown)
    assert back.before.rating == done.after.rating
    unaged, _ = rate(done.after, back.puzzle_before or PuzzleRating(), True)
    # her first solve left RD 253.7 (322.3 a year on): +76.6 now, +54.4 had it not aged
    assert done.after.deviation == pytest.approx(253.65, abs=0.01)
    assert back.after.rating - back.before.rating == pytest.approx(76.56, abs=0.01)
    assert unaged.rating - done.after.rating == pytest.approx(54.38, abs=0.01)


async def test_forget_removes_the_puzzles_and_buys_no_second_daily_attempt(
        puzzles: PuzzleService) -> None:
    ana = await puzzles.daily(G, ANA, "Ana")
    await solve_it(puzzles, ANA, ana.attempt.attempt_id)
    marks = await puzzles.forget_marks(G, ANA)
    assert [day for day, _ in marks] == ["2026-12-01"] and marks[0][1] < 0
    await puzzles.storage.forget_user(G, ANA, puzzle_marks=marks)
    assert (await puzzles.summary(G, ANA)).rating is None
    with pytest.raises(GameError) as forgotten:
        await puzzles.daily(G, ANA, "Ana")
    assert forgotten.value.code == "puzzle_forgotten"
    assert await puzzles.forget_marks(G, BEN) == []


async def start(puzzles: PuzzleService, puzzle: Puzzle) -> tuple[PuzzleService, PuzzleState]:
    """Ana's practice attempt at ``puzzle``, through a service over the same storage that
    serves only it."""
    only = PuzzleService(puzzles.host, puzzles=[puzzle], rng=random.Random(1))
    return only, await only.practice(G, ANA, "Ana")


async def solve_it(puzzles: PuzzleService, user: int, attempt_id: str) -> PuzzleState:
    """Play the winning line (the first winning move each turn) to the end."""
    for _ in range(20):
        attempt = await puzzles.storage.puzzle_attempt(attempt_id)
        assert attempt is not None
        state = await puzzles.state(attempt)
        if state.finished:
            return state
        move = winning_moves(state.position)[0]
        state = await puzzles.play(G, user, attempt_id, attempt.plies,
                                   None if move is None else list(move.cards))
        if state.finished:
            return state
    raise AssertionError("never finished")


async def test_forget_user_of_the_table_service_keeps_the_daily_puzzle_mark(
        puzzles: PuzzleService) -> None:
    """``/ddz forget`` goes through ``TableService.forget_user``: its puzzle marks too."""
    ana = await puzzles.daily(G, ANA, "Ana")
    await puzzles.play(G, ANA, ana.attempt.attempt_id, 0, None if ana.position.last
                       else list(ana.position.hands[ana.puzzle.member_seat][:1]))
    host = puzzles.host
    assert isinstance(host, TableService)
    await host.forget_user(G, ANA)
    assert await puzzles.storage.solved_puzzles(G, ANA) == set()
    assert (await puzzles.summary(G, ANA)).rating is None
    with pytest.raises(GameError) as forgotten:
        await puzzles.daily(G, ANA, "Ana")
    assert forgotten.value.code == "puzzle_forgotten"


def test_every_shipped_puzzles_line_is_stored_and_read_back_exactly() -> None:
    """Each shipped puzzle's line (bot/features/puzzles/data) as an attempt's stored actions: the
    same moves and readings come back, and the position after them is the line's end."""
    from bot.features.puzzles.model import load_puzzles
    from bot.features.puzzles.position import apply, is_over, legal_moves

    puzzles = load_puzzles()
    assert len(puzzles) >= 500
    for puzzle in puzzles:
        pos = puzzle.position()
        actions = []
        for cards in puzzle.line:
            move = None if cards == "" else next(
                m for m in legal_moves(pos) if m is not None and m.notation == cards)
            actions.append((pos.turn, move))
            pos = apply(pos, move)
        decoded, end = decode_line(puzzle, encode_line(actions))
        assert decoded == tuple(actions) and end == pos and is_over(end), puzzle.id


async def test_a_double_click_plays_once_and_the_other_is_stale(puzzles: PuzzleService) -> None:
    puzzles, state = await start(puzzles, PEASANT)
    attempt_id = state.attempt.attempt_id
    results = await asyncio.gather(
        puzzles.play(G, ANA, attempt_id, 0, parse_cards("TT")),
        puzzles.play(G, ANA, attempt_id, 0, parse_cards("TT")), return_exceptions=True)
    played = [r for r in results if isinstance(r, PuzzleState)]
    refused = [r for r in results if isinstance(r, GameError)]
    assert len(played) == 1 and [e.code for e in refused] == ["puzzle_stale"]
    stored = await puzzles.storage.puzzle_attempt(attempt_id)
    assert stored is not None and stored.plies == 3 and stored.moves == 1


async def test_an_attempt_goes_on_in_a_new_service_as_after_a_restart(
        puzzles: PuzzleService) -> None:
    puzzles, state = await start(puzzles, PEASANT)
    first = await puzzles.play(G, ANA, state.attempt.attempt_id, 0, parse_cards("TT"))
    restarted = PuzzleService(puzzles.host, puzzles=[PEASANT])
    again = await restarted.practice(G, ANA, "Ana")  # the attempt still being played
    assert again.attempt.attempt_id == state.attempt.attempt_id and not again.fresh
    assert again.actions == first.actions and again.position == first.position
    done = await restarted.play(G, ANA, state.attempt.attempt_id, first.attempt.plies,
                                parse_cards("Q"))
    assert done.solved and done.attempt.moves == 2
