"""``python -m bot.storage copy``: every kind of row, SQLite → PostgreSQL → SQLite; a
feature's own tables and ``feature_schema`` with it (``python -m bot storage copy``: the
installed features'), SQLite → SQLite and SQLite → PostgreSQL."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.storage.copy import copy_database, feature_versions, schema_tables
from bot.storage.sqlite import SqliteStorage
from tests.support.databases import Database
from tests.support.every_row import dump, fill
from tests.support.ping_wing.store import MIGRATIONS, PingStore
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


async def test_a_features_own_tables_and_its_schema_version_are_copied_with_it(
    database: Database, tmp_path: Path
) -> None:
    source = await SqliteStorage.open(tmp_path / "source.sqlite3")
    await source.settle_hand(finished_table(), "h")
    assert await source.migrate_feature("ping", MIGRATIONS) == 1  # the demo wing's table
    pings = PingStore(source)
    assert await pings.begin("T1", 1, 11) and await pings.begin("T2", 1, 12)
    await pings.finish("T1", 6)
    dest = await database.open()
    with pytest.raises(ValueError, match="features not given: ping"):
        await copy_database(source, dest.repository)  # it would leave ping_tables behind
    features = [("ping", MIGRATIONS), ("daily", {})]
    copied = await copy_database(source, dest.repository, features=features)
    assert (copied["feature_schema"], copied["ping_tables"], copied["ledger"]) == (1, 2, 3)
    assert [t.name for t in schema_tables(features)][-2:] == ["feature_schema", "ping_tables"]
    assert await feature_versions(dest.repository) == {"ping": 1}
    assert await PingStore(dest.repository).rows(1) == [("T1", 11, 6), ("T2", 12, None)]
    assert await copy_database(source, dest.repository, features=features) == copied  # again
    assert await PingStore(dest.repository).rows(1) == [("T1", 11, 6), ("T2", 12, None)]
    for store in (source, dest):
        await store.close()


@pytest.mark.processes
async def test_the_bots_copy_command_copies_with_the_installed_features(
    tmp_path: Path,
) -> None:
    source = await SqliteStorage.open(tmp_path / "a.sqlite3")
    await source.settle_hand(finished_table(), "h")
    await source.close()
    proc = await copy_command(str(tmp_path / "a.sqlite3"), str(tmp_path / "b.sqlite3"),
                              module=("bot", "storage"))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith(f"copied 18 rows from {tmp_path / 'a.sqlite3'} to ")
    source = await SqliteStorage.open(tmp_path / "a.sqlite3")
    await source.migrate_feature("ping", MIGRATIONS)  # a feature the bot has not installed
    await source.close()
    refused = await copy_command(str(tmp_path / "a.sqlite3"), str(tmp_path / "c.sqlite3"),
                                 module=("bot", "storage"))
    assert refused.returncode == 1 and "features not given: ping" in refused.stderr


async def copy_command(*args: str, module: tuple[str, ...] = ("bot.storage",)
                       ) -> subprocess.CompletedProcess[str]:
    """``python -m bot.storage copy ARGS`` (``module``: ``bot storage``, the bot's) in a
    subprocess."""
    return await asyncio.to_thread(
        subprocess.run,
        [sys.executable, "-m", *module, "copy", *args],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.processes
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


@pytest.mark.processes
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
