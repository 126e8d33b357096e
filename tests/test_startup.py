"""``python -m bot`` refuses to serve a shard that another live process serves."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.values import ShardSet
from tests.support.databases import Database

ROOT = Path(__file__).resolve().parent.parent


async def test_a_second_process_for_a_served_shard_exits_3_with_one_line(
    database: Database, tmp_path: Path
) -> None:
    owner = await database.open()
    await owner.claim_shards(ShardSet(count=2, ids=(1,)))
    location_key = "DDZ_DATABASE_URL" if database.backend == "postgres" else "DDZ_DATABASE_PATH"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DDZ_", "DISCORD_"))}
    env.update(
        PYTHONPATH=str(ROOT),
        DISCORD_TOKEN="not-used",
        DISCORD_API_BASE="http://127.0.0.1:9/api/v10",  # never reached: refused before login
        DDZ_SHARD_COUNT="2",
        DDZ_SHARD_IDS="0,1",
        **{location_key: database.location},
    )
    proc = await asyncio.to_thread(
        subprocess.run,
        [sys.executable, "-m", "bot"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    await owner.close()
    assert proc.returncode == 3, proc.stderr
    assert proc.stderr.strip().splitlines() == [
        "ddz-bot: refusing to start: shard 1 of 2 is already served by another process on"
        " this database (check DDZ_SHARD_IDS: each shard id runs in exactly one process)"
    ]


@pytest.mark.parametrize(
    ("key", "value", "error"),
    [
        ("DDZ_DATABASE_URL", "postgresql://ddz:s3cret@127.0.0.1:9/ddz", "ConnectionRefusedError"),
        ("DDZ_DATABASE_PATH", "{tmp}/not-a-database", "DatabaseError"),
    ],
)
async def test_an_unusable_database_exits_5_with_one_line(
    tmp_path: Path, key: str, value: str, error: str
) -> None:
    (tmp_path / "not-a-database").write_bytes(b"this is not SQLite " * 100)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DDZ_", "DISCORD_"))}
    env.update(
        PYTHONPATH=str(ROOT),
        DISCORD_TOKEN="not-used",
        DISCORD_API_BASE="http://127.0.0.1:9/api/v10",  # never reached
        **{key: value.format(tmp=tmp_path)},
    )
    proc = await asyncio.to_thread(
        subprocess.run,
        [sys.executable, "-m", "bot"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 5, proc.stderr
    [line] = proc.stderr.strip().splitlines()
    assert line.startswith(f"ddz-bot: cannot open the database: {error}: "), line
    assert "s3cret" not in line
