"""Where arena games are lost (benchmarks/arena_phases.py, docs/AI.md §Fourth pass): the
games an ``--out`` row records replay to their result, and each game gets its phase."""

from __future__ import annotations

from benchmarks.arena import play_deal, play_deal_games
from benchmarks.arena_phases import deal_strength, game_phases, replay, stage


def test_a_recorded_game_replays_to_its_winner() -> None:
    (landlord, peasants, points, _), games = play_deal_games("normal", "greedy", 4)
    assert (landlord, peasants, points) == play_deal("normal", "greedy", 4)[:3]
    assert (landlord, peasants, points) == (1.0, 1.0, 2.0)
    for plays in games:
        positions = replay(4, plays)
        assert len(positions) == len(plays) + 1
        assert sum(len(h) for h in positions[0][0]) == 54
        hands, _, _ = positions[-1]
        assert hands[plays[-1][0]] == []  # the last player went out


def test_each_game_is_classed_by_how_it_reached_its_end() -> None:
    _, games = play_deal_games("normal", "greedy", 4)
    won = game_phases(4, games[0], (0,))  # normal as the landlord, a won endgame
    assert (won["won"], won["reached"], won["entry"], won["thrown"]) == (True, True, True, None)
    early = game_phases(4, games[1], (1, 2))  # as the peasants: over before 14 cards
    assert (early["won"], early["reached"], early["entry"]) == (True, False, None)
    assert won["start"] + early["start"] == 1.0  # one deal, seen from both sides
    _, games = play_deal_games("normal", "greedy", 5)
    lost = game_phases(5, games[0], (0,))
    # a deal the evaluator gives the landlord (0.95), lost before the last 20 cards
    assert lost["start"] > 0.9 and deal_strength(5) > 0.85
    assert (lost["won"], lost["reached"], lost["entry"], lost["thrown"]) == (
        False, True, False, None)


def test_stages() -> None:
    assert [stage(n) for n in (54, 41, 40, 21, 20, 15, 14, 2)] == [
        "early", "early", "middle", "middle", "late", "late", "endgame", "endgame"]


def test_two_agents_are_compared_deal_by_deal_on_the_deals_both_played(tmp_path) -> None:
    from benchmarks.arena_phases import paired

    ours, other = tmp_path / "ours.jsonl", tmp_path / "other.jsonl"
    ours.write_text("".join(
        f'{{"match": "a:x", "seed": {s}, "landlord": {ll}, "peasants": {p}}}\n'
        for s, ll, p in ((1, 1.0, 1.0), (2, 1.0, 0.0), (3, 0.0, 0.0), (4, 1.0, 1.0))))
    other.write_text("".join(
        f'{{"match": "b:x", "seed": {s}, "landlord": {ll}, "peasants": {p}}}\n'
        for s, ll, p in ((1, 1.0, 1.0), (2, 0.0, 0.0), (3, 0.0, 1.0))))
    # deals 1-3 in both: 1 equal, 2 better by 0.5, 3 worse by 0.5
    assert paired(ours, other) == (
        "| ours.jsonl | other.jsonl | 3 | 0.500 | 0.500 | +0.000 ± 0.566 | 1 / 1 |")
