"""``python -m bot.storage rerate``: every server re-rated from its stored hands (issue 26 §4).

docs/RATINGS.md §Re-rating: the ratings follow from the stored hands alone (a second run
changes nothing); hands rated with the old model (a landlord's teammate fixed at μ 25)
and stored without computer levels are rated again with today's model, the levels
read back from the recorded ratings.
"""

from __future__ import annotations

import asyncio
import functools
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import bot.storage.ratings as storage_ratings
from bot.game.rating import rate_hand
from bot.storage.base import SqlRepository
from bot.storage.rerate import rerate_database
from bot.storage.sqlite import SqliteStorage
from tests.support.databases import Database
from tests.support.storage_fakes import FakeTable, finished_table

ROOT = Path(__file__).resolve().parents[2]
G1, G2 = 1, 2 << 22


def hands() -> list[tuple[FakeTable, str]]:
    """Two servers: members 101-103 in strong-and-weak mixes, with easy / hard computers."""
    out = []
    for n in range(6):
        users = [(101, 102, 103), (101, None, 103), (None, 102, None)][n % 3]
        table = finished_table(table_id=f"a{n}", users=users, landlord=n % 3,
                               winner="landlord" if n % 2 else "peasants")
        for seat in table.seats:
            if seat.user_id is None:
                seat.computer = "hard" if n % 2 else "easy"
        out.append((table, f"a-{n}"))
    for n in range(3):
        out.append((finished_table(table_id=f"b{n}", guild_id=G2, users=(201, None, 202),
                                   landlord=n % 2), f"b-{n}"))
    return out


async def settle_all(store: SqlRepository) -> None:
    for table, hand_id in hands():
        await store.settle_hand(table, hand_id)


async def ratings_and_history(store: SqlRepository) -> tuple[list[Any], list[Any]]:
    async with store._read() as db:
        ratings = await db.fetch("SELECT guild_id, player, user_id, mu, sigma, hands"
                                 " FROM ratings ORDER BY guild_id, player")
        history = await db.fetch("SELECT hand_id, seat, mu, sigma, computer FROM hand_players"
                                 " ORDER BY hand_id, seat")
    return ([(*r[:3], round(r[3], 9), round(r[4], 9), r[5]) for r in ratings],
            [(*r[:2], round(r[2], 9), round(r[3], 9), r[4]) for r in history])


async def test_rerating_hands_of_the_old_model_gives_todays_ratings_and_again_nothing(
    database: Database, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    today = await SqliteStorage.open(tmp_path / "today.sqlite3")
    await settle_all(today)  # rated live with today's model
    expected = await ratings_and_history(today)
    await today.close()

    old = await database.open()
    with monkeypatch.context() as patch:  # the model before issue 26
        patch.setattr(storage_ratings, "rate_hand", functools.partial(rate_hand, edge="fixed"))
        await settle_all(old)
    async with old._write() as db:  # and no computer levels (before schema 6)
        await db.execute("UPDATE hand_players SET computer = NULL")
    before = await ratings_and_history(old)
    assert before[0] != expected[0]

    progress: list[int] = []
    done = await rerate_database(old, progress.append)
    assert progress == [1] * 9  # one step of the bar per hand
    assert (done.guilds, done.hands, done.ratings) == (2, 9, len(expected[0]))
    assert await ratings_and_history(old) == expected
    assert await rerate_database(old) == done  # idempotent
    assert await ratings_and_history(old) == expected
    board = await old.rating_board(G1)
    assert {row.computer for row in board if row.computer} == {"easy", "hard"}
    await old.close()


async def test_a_hand_with_a_forgotten_member_is_not_rated_again(database: Database) -> None:
    store = await database.open()
    await store.settle_hand(finished_table(table_id="x", users=(101, 102, 103)), "x-1")
    await store.settle_hand(finished_table(table_id="y", users=(101, 104, 103),
                                           winner="peasants"), "y-1")
    await store.forget_user(G1, 104)
    await rerate_database(store)
    board = {row.user_id: row.rating for row in await store.rating_board(G1)}
    assert set(board) == {101, 102, 103}
    assert [board[u].hands for u in (101, 102, 103)] == [1, 1, 1]  # hand y-1 left out
    history = await store.hand_history(G1, 101, 10)
    assert [round(p.mu or 0, 6) for p in history] == [round(board[101].mu, 6)] * 2
    await store.close()


@pytest.mark.processes
async def test_rerate_command_shows_progress_and_prints_one_summary_line(tmp_path: Path) -> None:
    path = tmp_path / "ddz.sqlite3"
    store = await SqliteStorage.open(path)
    await settle_all(store)
    await store.close()

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "bot.storage", "rerate", *args], cwd=ROOT,
                              env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True,
                              text=True, timeout=60)

    proc = await asyncio.to_thread(run, str(path))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == [f"re-rated 9 hands in 2 servers of {path} (8 ratings)"]
    assert proc.stderr == ""  # tqdm draws its bar only on a terminal
    missing = await asyncio.to_thread(run, str(tmp_path / "typo.sqlite3"))
    assert missing.returncode == 1 and not (tmp_path / "typo.sqlite3").exists()  # not created
    assert missing.stderr.strip() == f"ddz-bot: rerate failed: DB {tmp_path / 'typo.sqlite3'} does not exist"
    bad = await asyncio.to_thread(run, "postgresql://ddz:s3cret@127.0.0.1:9/none")
    assert bad.returncode == 1
    [line] = bad.stderr.strip().splitlines()
    assert line.startswith("ddz-bot: rerate failed: ") and "s3cret" not in line
