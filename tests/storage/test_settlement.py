"""settle_hand: one transaction, exactly once, ledger / match / stats (docs/RULES.md §Match)."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.game.rating import RatedSeat, member_key, rate_hand
from bot.rules import RuleSet
from bot.storage.base import SqlRepository
from bot.values import GuildSettings
from tests.support.databases import Database
from tests.support.storage_fakes import FakeTable, finished_table

ROOT = Path(__file__).resolve().parents[2]


async def snapshot(store: SqlRepository) -> dict[str, list[tuple]]:
    """Every row of every data table (for 'nothing changed' checks)."""
    out = {}
    async with store._read() as db:
        for name in (
            "guild_match",
            "ledger",
            "match_results",
            "match_winners",
            "finished_hands",
            "hand_players",
            "player_stats",
            "display_names",
            "ratings",
            "open_tables",
        ):
            rows = await db.fetch(f"SELECT * FROM {name} ORDER BY 1, 2")
            out[name] = [tuple(r) for r in rows if name != "open_tables"] + [
                (r[0], r[3]) for r in rows if name == "open_tables"
            ]
    return out


async def test_settlement_updates_ledger_stats_and_saves_the_table(store: SqlRepository) -> None:
    table = finished_table(base=2, bombs_by=(1,))  # P = 4: landlord +8, peasants -4
    settlement = await store.settle_hand(table, "t1-1")
    assert [c.points for c in settlement.changes] == [8, -4, -4]
    assert [c.total for c in settlement.changes] == [8, -4, -4]
    assert [c.role for c in settlement.changes] == ["landlord", "peasant", "peasant"]
    assert settlement.match_no == 1 and not settlement.match_over
    standings = await store.match_standings(1)
    assert [(s.user_id, s.total, s.name) for s in standings.standings] == [
        (101, 8, "user101"),
        (102, -4, "user102"),
        (103, -4, "user103"),
    ]
    assert standings.hands_played == 1 and standings.target == 30
    landlord = await store.player_stats(1, 101)
    assert landlord is not None
    assert (landlord.hands, landlord.hands_landlord, landlord.wins_landlord) == (1, 1, 1)
    assert (landlord.net_points, landlord.best_hand, landlord.bombs) == (8, 8, 0)
    bomber = await store.player_stats(1, 102)
    assert bomber is not None and (bomber.bombs, bomber.wins, bomber.best_hand) == (1, 0, 0)
    saved = [FakeTable.model_validate_json(s) for s in await store.load_table_states()]
    assert saved == [table]
    recorded = await store.finished_hand("t1-1")
    assert recorded is not None and recorded[1] == settlement


async def test_settling_the_same_hand_twice_counts_once(store: SqlRepository) -> None:
    table = finished_table()
    first = await store.settle_hand(table, "t1-1")
    before = await snapshot(store)
    table.seq = 99  # a replay must not even save the table
    second = await store.settle_hand(table, "t1-1")
    assert second.replayed and not first.replayed
    assert second.model_copy(update={"replayed": False}) == first
    assert await snapshot(store) == before


async def test_computer_seats_have_no_ledger_or_stats(store: SqlRepository) -> None:
    table = finished_table(users=(None, 102, None), landlord=1, winner="peasants")
    settlement = await store.settle_hand(table, "h")
    assert [c.total for c in settlement.changes] == [None, -2, None]
    assert [s.user_id for s in (await store.match_standings(1)).standings] == [102]
    assert [r.user_id for r in await store.leaderboard(1)] == [102]


async def test_reaching_the_target_ends_the_match_and_starts_a_new_one_at_zero(
    store: SqlRepository,
) -> None:
    # Peasants 102 and 103 win P = 16 twice: 32 each, both reach 30 and share the win.
    for n in range(2):
        table = finished_table(base=2, bombs_by=(1, 2, 1), winner="peasants", table_id="t")
        settlement = await store.settle_hand(table, f"t-{n}")
    assert settlement.match_over and settlement.winners == [102, 103]
    assert settlement.final_totals == {101: -64, 102: 32, 103: 32}
    assert [c.total for c in settlement.changes] == [-64, 32, 32]
    standings = await store.match_standings(1)
    assert standings.match_no == 2 and standings.standings == [] and standings.hands_played == 0
    board = await store.leaderboard(1)
    assert [(r.user_id, r.matches_won, r.hands_won, r.hands_played) for r in board] == [
        (102, 1, 2, 2),
        (103, 1, 2, 2),
        (101, 0, 0, 2),
    ]
    nxt = await store.settle_hand(finished_table(), "t-2")
    assert nxt.match_no == 2 and [c.total for c in nxt.changes] == [2, -1, -1]


async def test_fixed_hand_count_match_ends_after_that_many_hands_and_ties_share(
    store: SqlRepository,
) -> None:
    await store.save_settings(1, GuildSettings(rules=RuleSet(match_hands=2)))
    first = await store.settle_hand(finished_table(landlord=0), "a")
    second = await store.settle_hand(finished_table(landlord=1), "b")
    assert not first.match_over
    assert second.match_over and second.winners == [101, 102]  # 2 - 1 = 1 each
    assert second.final_totals == {101: 1, 102: 1, 103: -2}


@pytest.mark.parametrize("point", ["ledger", "stats", "ratings", "commit"])
async def test_failure_inside_the_transaction_leaves_nothing_half_settled(
    store: SqlRepository, point: str
) -> None:
    await store.settle_hand(finished_table(), "before")
    before = await snapshot(store)

    def fail(at: str) -> None:
        if at == point:
            raise RuntimeError("crash at " + at)

    store._fault = fail
    with pytest.raises(RuntimeError):
        await store.settle_hand(finished_table(seq=50), "crashing")
    assert await snapshot(store) == before  # neither points nor ratings
    store._fault = lambda at: None
    settlement = await store.settle_hand(finished_table(seq=50), "crashing")
    assert (await store.settle_hand(finished_table(seq=50), "crashing")).replayed
    assert [c.total for c in settlement.changes] == [4, -2, -2]
    # The ratings moved exactly once more: 101 beat 102 and 103 twice (docs/RATINGS.md).
    seats = [RatedSeat(member_key(u), u == 101) for u in (101, 102, 103)]
    twice = rate_hand(seats, True, rate_hand(seats, True, {}))
    board = {r.user_id: r.rating for r in await store.rating_board(1)}
    assert board == {int(k.split(":")[1]): v for k, v in twice.items()}
    assert {r.hands for r in board.values()} == {2}


KILL_SCRIPT = """
import asyncio, os, sys
from bot.storage import open_repository
from tests.support.storage_fakes import finished_table

async def main():
    store = await open_repository(sys.argv[1])
    def die(point):
        if point == sys.argv[2]:
            os._exit(9)
    store._fault = die
    await store.settle_hand(finished_table(seq=50), "killed")

asyncio.run(main())
"""


@pytest.mark.parametrize("point", ["stats", "ratings", "commit"])
@pytest.mark.processes
async def test_killed_process_mid_settlement_leaves_no_partial_hand(
    database: Database, point: str
) -> None:
    store = await database.open()
    await store.settle_hand(finished_table(), "before")
    before = await snapshot(store)
    await store.close()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = await asyncio.to_thread(
        subprocess.run,
        [sys.executable, "-c", KILL_SCRIPT, database.location, point],
        cwd=ROOT,
        env=env,
        capture_output=True,
        timeout=60,
    )
    assert proc.returncode == 9, proc.stderr.decode()
    reopened = await database.open()
    assert await snapshot(reopened) == before
    assert await reopened.finished_hand("killed") is None
    await reopened.close()


async def test_concurrent_settlements_on_one_guild_ledger_both_count(
    store: SqlRepository,
) -> None:
    a, b = await asyncio.gather(
        store.settle_hand(finished_table(table_id="a"), "a-1"),
        store.settle_hand(finished_table(table_id="b", landlord=1), "b-1"),
    )
    totals = {s.user_id: s.total for s in (await store.match_standings(1)).standings}
    assert totals == {101: 1, 102: 1, 103: -2}
    assert (await store.match_standings(1)).hands_played == 2


async def test_two_connections_settling_on_one_database_both_count(database: Database) -> None:
    first, second = await database.open(), await database.open()
    await asyncio.gather(
        *(
            store.settle_hand(finished_table(table_id=f"x{n}"), f"x{n}")
            for n, store in enumerate([first, second] * 5)
        )
    )
    totals = {s.user_id: s.total for s in (await first.match_standings(1)).standings}
    assert totals == {101: 20, 102: -10, 103: -10}
    await first.close()
    await second.close()


async def test_unfinished_hand_cannot_be_settled(store: SqlRepository) -> None:
    table = finished_table()
    table.hand.result = None
    with pytest.raises(ValueError):
        await store.settle_hand(table, "x")
    assert await store.finished_hand("x") is None


async def test_a_tournament_hand_changes_ratings_and_stats_but_no_match_total(
        store: SqlRepository) -> None:
    """docs/RULES.md §Tournaments: a tournament's hands are real games (ratings, stats)
    but leave the server's 30-point match alone."""
    await store.settle_hand(finished_table(table_id="t0"), "t0-1")  # the match: 2, -1, -1
    before = await store.match_standings(1)
    table = finished_table(base=2, bombs_by=(1,))
    table.feature_deals = True  # a tournament's table
    settlement = await store.settle_hand(table, "t1-1")
    assert [c.points for c in settlement.changes] == [8, -4, -4]
    assert [c.total for c in settlement.changes] == [None, None, None]
    assert not settlement.match_over and settlement.hand_no == 2
    after = await store.match_standings(1)
    assert after.model_copy(update={"last_hand_no": 1}) == before  # only the hand's number
    assert after.hands_played == 1 and after.last_hand_no == 2
    assert [(s.user_id, s.total) for s in after.standings] == [(101, 2), (102, -1), (103, -1)]
    landlord = await store.player_stats(1, 101)
    assert landlord is not None and (landlord.hands, landlord.net_points) == (2, 10)
    rated = {r.user_id: r for r in await store.rating_board(1) if r.user_id is not None}
    assert rated[101].rating.hands == 2
