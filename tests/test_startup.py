"""``python -m bot`` refuses to serve a shard that another live process serves."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import pytest
from aiohttp import web

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


def _bot_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DDZ_", "DISCORD_"))}
    env.update(PYTHONPATH=str(ROOT), **extra)
    return env


async def _run_bot(tmp_path: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return await asyncio.to_thread(subprocess.run, [sys.executable, "-m", "bot"], cwd=tmp_path,
                                   env=env, capture_output=True, text=True, timeout=60)


def _own_lines(stderr: str) -> list[str]:
    """The lines the bot prints itself (the log lines are timestamped)."""
    return [line for line in stderr.splitlines() if line.startswith("ddz-bot:")]


async def test_no_network_is_one_line_exit_7_and_no_database_left_behind(tmp_path: Path) -> None:
    # Issue 48: without network `python -m bot` printed a 65-line traceback and left
    # ddz.sqlite3 in the current folder. Port 9 of this machine refuses the connection.
    env = _bot_env(tmp_path, DISCORD_TOKEN="not-used",
                   DISCORD_API_BASE="http://127.0.0.1:9/api/v10")
    proc = await _run_bot(tmp_path, env)
    assert proc.returncode == 7, proc.stderr
    assert "Traceback" not in proc.stderr, proc.stderr
    [line] = _own_lines(proc.stderr)
    assert line.startswith("ddz-bot: cannot reach Discord at 127.0.0.1:9 ("), line
    assert line.endswith("): check the network (or DISCORD_API_BASE)"), line
    assert sorted(p.name for p in tmp_path.iterdir()) == []  # no ddz.sqlite3, no lock file


async def test_a_refused_token_is_called_malformed_when_it_is_not_shaped_like_one(
        tmp_path: Path) -> None:
    async def refuse(request: web.Request) -> web.Response:
        return web.json_response({"message": "401: Unauthorized", "code": 0}, status=401)

    app = web.Application()
    app.router.add_get("/api/v10/users/@me", refuse)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]  # started
    try:
        lines = {}
        for token in ("abc", "MTIzNDU2Nzg5MDEyMzQ1Njc4.GaBcDe.abcdefghijklmnopqrstuvwxyz0123"):
            env = _bot_env(tmp_path, DISCORD_TOKEN=token,
                           DISCORD_API_BASE=f"http://127.0.0.1:{port}/api/v10")
            proc = await _run_bot(tmp_path, env)
            assert proc.returncode == 2, proc.stderr
            assert "Traceback" not in proc.stderr, proc.stderr
            [lines[token]] = _own_lines(proc.stderr)
            assert list(tmp_path.iterdir()) == []
    finally:
        await runner.cleanup()
    assert lines["abc"] == (
        "ddz-bot: DISCORD_TOKEN is malformed: a bot token is three parts separated by dots;"
        " copy it again from the developer portal (Bot → Reset Token)")
    assert lines["MTIzNDU2Nzg5MDEyMzQ1Njc4.GaBcDe.abcdefghijklmnopqrstuvwxyz0123"] == (
        "ddz-bot: Discord rejected DISCORD_TOKEN (login failed): reset it in the developer"
        " portal (Bot → Reset Token) and set the new one")
