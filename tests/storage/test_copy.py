"""``python -m bot.storage copy``: every kind of row, SQLite → PostgreSQL → SQLite."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

from bot.storage.copy import copy_database, schema_tables
from bot.storage.sqlite import SqliteStorage
from tests.support.databases import Database
from tests.support.every_row import dump, fill
from tests.support.storage_fakes import finished_table

ROOT = Path(__file__).resolve().parents[2]


async def test_every_kind_of_row_copies_both_ways_and_copying_again_changes_nothing(
    postgres_database: Database, tmp_path: Path
) -> None:
    source = await SqliteStorage.open(tmp_path / "source.sqlite3")
    await fill(source)
    original = await dump(source)
    assert all(original[t.name] for t in schema_tables()), "fill() left a table empty"

    middle = await postgres_database.open()
    copied = await copy_database(source, middle.repository)
    assert copied == {name: len(rows) for name, rows in original.items()}
    assert await dump(middle) == original
    assert await copy_database(source, middle.repository) == copied  # again: same rows, no duplicates
    assert await dump(middle) == original

    back = await SqliteStorage.open(tmp_path / "back.sqlite3")
    await copy_database(middle.repository, back)
    assert await dump(back) == original
    assert (await back.match_standings(1)) == (await source.match_standings(1))
    assert (await back.player_stats(1, 101)) == (await source.player_stats(1, 101))
    assert (await back.rating_board(2 << 22)) == (await source.rating_board(2 << 22))
    for store in (source, middle, back):
        await store.close()


async def copy_command(*args: str) -> subprocess.CompletedProcess[str]:
    """``python -m bot.storage copy ARGS`` in a subprocess."""
    return await asyncio.to_thread(
        subprocess.run,
        [sys.executable, "-m", "bot.storage", "copy", *args],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=60,
    )


async def test_copy_command_prints_one_summary_line_and_hides_the_password(
    tmp_path: Path,
) -> None:
    source = await SqliteStorage.open(tmp_path / "a.sqlite3")
    await source.settle_hand(finished_table(), "h")
    await source.close()
    proc = await copy_command(str(tmp_path / "a.sqlite3"), str(tmp_path / "b.sqlite3"))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == [
        f"copied 18 rows from {tmp_path / 'a.sqlite3'} to {tmp_path / 'b.sqlite3'}"
        " (open_tables 1, guild_match 1, ledger 3, finished_hands 1, hand_players 3,"
        " player_stats 3, display_names 3, ratings 3)"
    ]
    bad = await copy_command(
        str(tmp_path / "a.sqlite3"), "postgresql://ddz:s3cret@127.0.0.1:9/none"
    )
    assert bad.returncode == 1
    [line] = bad.stderr.strip().splitlines()
    assert line.startswith("ddz-bot: copy failed: ") and "s3cret" not in line


async def test_copy_from_a_source_file_that_does_not_exist_fails_and_creates_nothing(
    tmp_path: Path,
) -> None:
    # issue 25 item 5: a typo in SOURCE created an empty database, printed "nothing to
    # copy" and exited 0.
    missing, dest = tmp_path / "typo.sqlite3", tmp_path / "b.sqlite3"
    proc = await copy_command(str(missing), str(dest))
    assert proc.returncode == 1
    assert proc.stdout == ""
    assert proc.stderr.strip().splitlines() == [
        f"ddz-bot: copy failed: SOURCE {missing} does not exist"
    ]
    assert sorted(p.name for p in tmp_path.iterdir()) == []
