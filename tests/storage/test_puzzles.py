"""Endgame puzzles' storage on both backends (docs/RULES.md §Puzzles): the daily puzzle
once per member and day, an action written only over the line it was computed from, a
result and both ratings recorded once, boards, streak days, solved puzzles, forget."""

from __future__ import annotations

from bot.features.puzzles.values import PuzzleAttempt, PuzzleRating
from bot.storage.base import SqlRepository
from bot.storage.migrations import MIGRATIONS
from bot.storage.pg_migrations import PG_MIGRATIONS

G = 1
ANA, BEN = 101, 102
NOW = 1_796_126_400.0
DAY = "2026-12-02"


def attempt(attempt_id: str, user: int = ANA, mode: str = "daily", day: str = DAY,
            puzzle: str = "p1", guild: int = G) -> PuzzleAttempt:
    return PuzzleAttempt(attempt_id=attempt_id, guild_id=guild, user_id=user, puzzle_id=puzzle,
                         mode=mode, day=day, started_at=NOW)  # type: ignore[arg-type]


def finished(before: PuzzleAttempt, solved: bool, line: str = '[["55", "pair", 2]]',
             moves: int = 1) -> PuzzleAttempt:
    return before.model_copy(update={"line": line, "plies": before.plies + 1, "moves": moves,
                                     "solved": solved, "finished_at": NOW + 60})


def test_the_puzzle_migration_is_on_both_backends() -> None:
    assert len(MIGRATIONS) == len(PG_MIGRATIONS)
    index = next(i for i, script in enumerate(MIGRATIONS) if "puzzle_attempts" in script)
    assert "CREATE TABLE puzzle_attempts" in PG_MIGRATIONS[index]
    assert "puzzle_daily_once" in MIGRATIONS[index] and "puzzle_daily_once" in PG_MIGRATIONS[index]


async def test_the_daily_puzzle_is_begun_once_per_member_and_day(store: SqlRepository) -> None:
    assert await store.begin_puzzle(attempt("a1"))
    assert not await store.begin_puzzle(attempt("a2"))  # the same day again
    assert await store.begin_puzzle(attempt("a3", user=BEN))
    assert await store.begin_puzzle(attempt("a4", day="2026-12-03"))
    assert await store.begin_puzzle(attempt("a5", mode="practice"))
    assert await store.begin_puzzle(attempt("a6", mode="practice"))  # practice: unlimited
    got = await store.daily_puzzle_attempt(G, DAY, ANA)
    assert got is not None and got.attempt_id == "a1" and not got.finished
    assert await store.puzzle_attempt("a2") is None
    opened = await store.open_puzzle_attempt(G, ANA, "practice")
    assert opened is not None and opened.mode == "practice"


async def test_an_action_is_written_over_its_own_line_only(store: SqlRepository) -> None:
    assert await store.begin_puzzle(attempt("a1"))
    assert await store.advance_puzzle("a1", 0, '[["3", "single", 0]]', 1, 1)
    assert not await store.advance_puzzle("a1", 0, '[["4", "single", 1]]', 1, 1)  # raced
    got = await store.puzzle_attempt("a1")
    assert got is not None and got.plies == 1 and got.moves == 1
    assert got.line == '[["3", "single", 0]]'


async def test_a_result_and_both_ratings_are_recorded_once(store: SqlRepository) -> None:
    assert await store.begin_puzzle(attempt("a1"))
    before = await store.puzzle_attempt("a1")
    assert before is not None
    member = PuzzleRating(rating=1662.3, deviation=290.3, volatility=0.06, attempts=1, solved=1)
    puzzle = PuzzleRating(rating=1490.5, deviation=99.1, volatility=0.06, attempts=1)
    assert await store.finish_puzzle(before, finished(before, True), member, puzzle)
    assert not await store.finish_puzzle(before, finished(before, False), puzzle, member)
    done = await store.puzzle_attempt("a1")
    assert done is not None and done.solved and done.finished_at == NOW + 60 and done.moves == 1
    # with the finish of her last attempt, from which the deviation ages (issue 48)
    assert await store.puzzle_member_rating(G, ANA) == member.model_copy(
        update={"rated_at": NOW + 60})
    assert await store.puzzle_member_rating(G, BEN) is None
    assert (await store.puzzle_ratings())["p1"] == puzzle
    assert await store.open_puzzle_attempt(G, ANA, "daily") is None
    assert await store.solved_puzzles(G, ANA) == {"p1"}
    assert [a.attempt_id for a in await store.daily_puzzle_finished(G, DAY)] == ["a1"]
    assert await store.puzzle_solved_days(G, [ANA, BEN]) == {ANA: [DAY], BEN: []}
    # a second rated attempt replaces the ratings
    assert await store.begin_puzzle(attempt("a2", mode="practice", puzzle="p2"))
    second = await store.puzzle_attempt("a2")
    assert second is not None
    lower = member.model_copy(update={"rating": 1600.0, "attempts": 2})
    assert await store.finish_puzzle(second, finished(second, False), lower, puzzle)
    assert await store.puzzle_member_rating(G, ANA) == lower.model_copy(
        update={"rated_at": finished(second, False).finished_at})
    assert await store.solved_puzzles(G, ANA) == {"p1"}
    assert await store.puzzle_solved_days(G, [ANA]) == {ANA: [DAY]}  # practice: no streak


async def test_forget_deletes_attempts_and_rating_and_keeps_a_mark(store: SqlRepository) -> None:
    assert await store.begin_puzzle(attempt("a1"))
    before = await store.puzzle_attempt("a1")
    assert before is not None
    assert await store.finish_puzzle(before, finished(before, True), PuzzleRating(attempts=1),
                                     PuzzleRating(attempts=1))
    assert await store.begin_puzzle(attempt("b1", user=BEN))
    await store.forget_user(G, ANA, puzzle_marks=[(DAY, -77)])
    assert await store.puzzle_attempt("a1") is None
    assert await store.puzzle_member_rating(G, ANA) is None
    assert await store.solved_puzzles(G, ANA) == set()
    assert await store.daily_puzzle_finished(G, DAY) == []  # the mark is never finished
    assert await store.daily_puzzle_attempt(G, DAY, -77) is not None
    assert not await store.begin_puzzle(attempt("a9", user=-77))  # the mark holds the day
    assert await store.puzzle_attempt("b1") is not None  # Ben's stays
    assert "p1" in await store.puzzle_ratings()  # the puzzle's own rating stays
    assert await store.drop_puzzle_marks(G, "2026-12-03") == 1
    assert await store.daily_puzzle_attempt(G, DAY, -77) is None
