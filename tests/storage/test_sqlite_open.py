"""Opening a SQLite file while others open or write it (issue 25 items 3 and 4)."""

from __future__ import annotations

import asyncio
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from bot.storage.migrations import MIGRATIONS
from bot.storage.sqlite import SqliteStorage

OPEN_ONCE = """
import asyncio, sys, time
from bot.storage.sqlite import SqliteStorage
start = float(sys.argv[2])
time.sleep(max(0.0, start - time.time()))
async def main():
    store = await SqliteStorage.open(sys.argv[1])
    print(await store.schema_version())
    await store.close()
asyncio.run(main())
"""


@pytest.mark.processes
def test_two_processes_creating_one_new_file_at_once_both_open_it(tmp_path: Path) -> None:
    # Before: the schema version was read outside the write transaction, so both
    # processes ran migration 1 and one failed ("table guild_settings already exists"),
    # 6 of 6 runs.
    for run in range(4):
        path = tmp_path / f"new{run}.sqlite3"
        start = time.time() + 1.5  # both interpreters up and importing before then
        procs = [
            subprocess.Popen([sys.executable, "-c", OPEN_ONCE, str(path), str(start)],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            for _ in range(2)
        ]
        outs = [p.communicate(timeout=60) for p in procs]
        assert [p.returncode for p in procs] == [0, 0], [err for _, err in outs]
        assert [out.strip() for out, _ in outs] == [str(len(MIGRATIONS))] * 2


async def test_two_connections_creating_one_new_file_at_once_both_open_it(
    tmp_path: Path,
) -> None:
    # Before: 9 of 10 runs failed with "table ... already exists" / "duplicate column".
    for run in range(10):
        path = tmp_path / f"new{run}.sqlite3"
        stores = await asyncio.gather(SqliteStorage.open(path), SqliteStorage.open(path))
        assert [await s.schema_version() for s in stores] == [len(MIGRATIONS)] * 2
        for store in stores:
            await store.close()


def _write_for(path: Path, seconds: float, started: threading.Event) -> None:
    """Hold SQLite's write lock on ``path`` (a rollback-journal file) for ``seconds``."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("BEGIN IMMEDIATE")
    conn.execute("CREATE TABLE IF NOT EXISTS other (x)")
    conn.execute("INSERT INTO other VALUES (1)")
    started.set()
    time.sleep(seconds)
    conn.execute("COMMIT")
    conn.close()


async def test_switching_to_wal_waits_for_a_writer_within_the_busy_timeout(
    tmp_path: Path,
) -> None:
    # Before: PRAGMA journal_mode = WAL failed at once with "database is locked"
    # although the busy timeout was 10 s.
    path = tmp_path / "busy.sqlite3"
    started = threading.Event()
    writer = threading.Thread(target=_write_for, args=(path, 0.8, started))
    writer.start()
    assert started.wait(10)
    begun = time.monotonic()
    store = await SqliteStorage.open(path, busy_ms=5_000)
    waited = time.monotonic() - begun
    writer.join()
    try:
        assert await store.schema_version() == len(MIGRATIONS)
        async with store._read() as db:
            assert await db.fetch("PRAGMA journal_mode") == [("wal",)]
            assert await db.fetch("SELECT x FROM other") == [(1,)]
    finally:
        await store.close()
    assert 0.5 < waited < 5.0


async def test_a_writer_holding_the_file_past_the_busy_timeout_fails_the_open_in_bounded_time(
    tmp_path: Path,
) -> None:
    path = tmp_path / "stuck.sqlite3"
    started = threading.Event()
    writer = threading.Thread(target=_write_for, args=(path, 3.0, started))
    writer.start()
    assert started.wait(10)
    begun = time.monotonic()
    with pytest.raises(sqlite3.OperationalError, match="database is locked"):
        await SqliteStorage.open(path, busy_ms=500)
    assert 0.4 < time.monotonic() - begun < 2.5
    writer.join()
