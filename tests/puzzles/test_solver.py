"""The puzzle solver (bot.features.puzzles.solver) against hand-made positions and against a
plain full minimax (tests/support/puzzle_reference.py) on random small positions."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.features.puzzles.position import Position, apply, is_over, legal_moves, team_of
from bot.features.puzzles.solver import (
    Solver,
    best_defence,
    best_move,
    is_winning_move,
    principal_line,
    refutation,
    solve,
    winning_moves,
)
from bot.rules import DECK, classify, legal_plays, parse_cards
from tests.support.properties import examples
from tests.support.puzzle_reference import Reference


def play(text: str):
    return classify(parse_cards(text))[0]


def notes(moves) -> list[str | None]:
    return [None if m is None else m.notation for m in moves]


def test_a_hand_that_is_one_combination_goes_out_in_one_ply() -> None:
    pos = Position.from_text(["33", "4", "5"], landlord=0, turn=0)
    assert (solve(pos).winner, solve(pos).plies) == ("landlord", 1)
    assert notes(winning_moves(pos)) == ["33"]
    assert best_move(pos) == play("33")


def test_landlord_leads_the_top_card_then_the_last_one() -> None:
    # D is unbeatable: D, two passes, then 3 -> 4 plies. Leading 3 first loses:
    # seat 1 beats it with K and goes out.
    pos = Position.from_text(["3D", "K", "A"], landlord=0, turn=0)
    outcome = solve(pos)
    assert (outcome.winner, outcome.plies) == ("landlord", 4)
    assert notes(winning_moves(pos)) == ["D"]
    assert not is_winning_move(pos, play("3"))
    assert notes(refutation(pos, play("3"))) == ["K"]
    assert notes(principal_line(pos)) == ["D", None, None, "3"]


def test_a_peasant_passes_to_let_the_partner_out() -> None:
    # Seat 1 played A and holds 3. Seat 2 passing: the landlord cannot beat A (QQ), seat 1
    # leads 3 and goes out (3 plies). Beating A with 2 hands the lead to the landlord
    # later: the landlord then wins (reference: 7 more plies).
    pos = Position.from_text(["QQ", "3", "246"], landlord=0, turn=2, last=(1, "A"))
    outcome = solve(pos)
    assert (outcome.winner, outcome.plies) == ("peasants", 3)
    assert winning_moves(pos) == [None]
    assert notes(principal_line(pos)) == [None, None, "3"]
    assert not is_winning_move(pos, play("2"))
    assert len(refutation(pos, play("2"))) == 7


def test_best_defence_makes_the_loss_last_longest() -> None:
    # Landlord (seat 0) to move, holds 3 and 5; the peasants win whatever happens.
    # Leading 5: seat 1 beats with 7 and goes out (2 plies). Leading 3: seat 1 beats with 4?
    # Seat 1 holds 7 only, seat 2 holds 6. Leading 3 or 5: seat 1 plays 7 and wins at ply 2
    # either way, so the defence is the first in legal order.
    pos = Position.from_text(["35", "7", "6"], landlord=0, turn=0)
    assert solve(pos).winner == "peasants"
    assert solve(pos).plies == 2
    assert best_defence(pos) == play("3")


def test_best_defence_prefers_the_move_that_delays_the_win() -> None:
    # Landlord seat 0 must beat seat 2's 5 holding 6 and 2 and 3? Peasants: seat 1 "X",
    # seat 2 "4". Landlord passing: seat 1 passes or plays X... (solver decides).
    pos = Position.from_text(["63", "X", "4"], landlord=0, turn=0, last=(2, "5"))
    ref = Reference()
    values = dict((m, v) for m, v in ref.move_values(pos))
    assert ref.value(pos)[0] == "peasants"
    longest = max(v[1] for v in values.values())
    assert values[best_defence(pos)][1] == longest
    assert solve(pos).plies == longest + 1


def test_two_hand_positions_alternate_turns() -> None:
    # Heads-up: landlord 0 with "3 D", peasant 1 with "K". Landlord leads D, peasant
    # passes (1 pass clears with two hands), landlord leads 3: 3 plies.
    pos = Position.from_text(["3D", "K"], landlord=0, turn=0)
    assert (solve(pos).winner, solve(pos).plies) == ("landlord", 3)
    assert notes(principal_line(pos)) == ["D", None, "3"]


def test_refutation_is_empty_for_a_winning_move_and_reaches_the_end_otherwise() -> None:
    pos = Position.from_text(["3D", "K", "A"], landlord=0, turn=0)
    assert refutation(pos, play("D")) == []
    line = refutation(pos, play("3"))
    after = apply(pos, play("3"))
    for move in line:
        after = apply(after, move)
    assert is_over(after) and team_of(pos, 1) == "peasants"


def test_a_small_transposition_table_still_gives_exact_answers() -> None:
    pos = Position.from_text(["33445", "6789", "TJQ"], landlord=0, turn=0)
    small = Solver(3, 0, max_entries=10)
    big = Solver(3, 0)
    state = small.state_of(pos)
    assert small.value(state) == big.value(big.state_of(pos))


def _random_position(seed: int) -> Position:
    rng = random.Random(seed)
    n = rng.choice([2, 3, 3])
    total = rng.randint(n + 1, 9)
    deck = list(DECK)
    rng.shuffle(deck)
    cuts = sorted(rng.sample(range(1, total), n - 1))
    bounds = list(zip([0, *cuts], [*cuts, total], strict=True))
    hands = tuple(tuple(sorted(deck[a:b])) for a, b in bounds)
    turn = rng.randrange(n)
    last = None
    if rng.random() < 0.5:
        plays = legal_plays(deck[total : total + 5])
        last = ((turn + rng.randrange(1, n)) % n, rng.choice(plays))
    return Position(hands, rng.randrange(n), turn, last)


@settings(max_examples=examples(150), deadline=None)
@given(st.integers(min_value=0, max_value=10**9))
def test_solver_agrees_with_full_minimax(seed: int) -> None:
    pos = _random_position(seed)
    ref = Reference()
    won, plies = ref.value(pos)
    outcome = solve(pos)
    assert (outcome.winner, outcome.plies) == (won, plies)
    mover = team_of(pos, pos.turn)
    values = ref.move_values(pos)
    assert notes(winning_moves(pos)) == notes([m for m, v in values if v[0] == mover])
    chosen = dict(values)[best_move(pos)]
    assert chosen == (won, plies - 1)  # shortest win, or longest defence
    assert set(legal_moves(pos)) >= set(winning_moves(pos))
