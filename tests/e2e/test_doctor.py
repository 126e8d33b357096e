"""``python -m bot doctor`` against the loopback Discord (bot/doctor.py): all checks
pass; a missing permission, a refused token and an unsynced command each fail their
line and the exit code."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path
from typing import Any

from bot.doctor import STEP_TIMEOUT, expected_commands
from sandbox.loopback.bot_env import bot_env
from sandbox.loopback.emulator import Emulator
from sandbox.loopback.model import (
    PERM_ATTACH_FILES,
    PERM_CREATE_PUBLIC_THREADS,
    PERM_SEND_IN_THREADS,
)

ROOT = Path(__file__).resolve().parents[2]


def sync(emu: Emulator, *, leave_out: str | None = None) -> None:
    """Store the /ddz commands in the default guild as the bot's sync would."""
    group, names = expected_commands()
    options = [{"name": n, "type": 1, "description": n} for n in sorted(names) if n != leave_out]
    emu.commands.bulk_overwrite(emu.default_guild.id, [
        {"name": group, "type": 1, "description": "Dou Dizhu", "options": options}])


async def doctor(emu: Emulator, tmp_path: Path, *args: str, **env: str) -> tuple[int, str]:
    """Run ``python -m bot doctor args`` on ``emu``: (exit code, stdout)."""
    child_env = {k: v for k, v in os.environ.items()
                 if not k.startswith(("DISCORD_", "DDZ_"))}
    child_env.update(bot_env(emu, db_path=tmp_path / "unused.sqlite3"), **env)
    child_env["PYTHONPATH"] = str(ROOT)  # this checkout's bot, run away from its .env
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "doctor", *args, cwd=tmp_path, env=child_env,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    try:
        out, err = await asyncio.wait_for(proc.communicate(), 60)
    finally:  # a doctor still running (the test timed out or failed) never outlives it
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
    assert not err.strip() or b"Traceback" not in err, err.decode()
    return int(proc.returncode or 0), out.decode()


def lines(text: str) -> list[list[Any]]:
    return [line.split(None, 1) for line in text.splitlines()]


async def test_every_check_passes_posting_and_deleting_one_message(
    emulator: Emulator, tmp_path: Path
) -> None:
    sync(emulator)
    channel = emulator.default_channel
    code, out = await doctor(emulator, tmp_path, "--channel", str(channel.id), "--post")

    assert code == 0, out
    statuses = [status for status, _ in lines(out)[:-1]]
    assert set(statuses) == {"ok"} and len(statuses) == 13, out
    assert "permission    Attach Files in #ddz" in out
    assert "Limit 5, Remaining 4, Reset-After 1.000, Bucket loopback-users-me" in out
    assert out.splitlines()[-1] == "all checks passed"
    posted = [m for m in channel.messages if m.content.startswith("ddz-bot doctor")]
    assert len(posted) == 1 and posted[0].deleted


async def test_a_missing_permission_fails_its_line_and_posts_nothing(
    emulator: Emulator, tmp_path: Path
) -> None:
    sync(emulator)
    channel = emulator.default_channel
    channel.bot_denied = PERM_ATTACH_FILES
    code, out = await doctor(emulator, tmp_path, "--channel", str(channel.id))

    assert code == 1
    failed = [line for line in out.splitlines() if line.startswith("FAIL")]
    assert failed == ["FAIL  permission    Attach Files in #ddz: missing (the channel's or the "
                      "bot role's settings)"]
    assert "ok    permission    Send Messages in #ddz" in out
    assert channel.messages == []


async def test_a_thread_needs_send_messages_in_threads_from_its_parent(
    emulator: Emulator, tmp_path: Path
) -> None:
    sync(emulator)
    parent = emulator.default_channel
    thread = await emulator.thread(parent, "table-thread")
    parent.bot_denied = PERM_SEND_IN_THREADS
    code, out = await doctor(emulator, tmp_path, "--channel", str(thread.id))
    assert code == 1
    assert "FAIL  permission    Send Messages In Threads in #table-thread (a thread)" in out


async def test_a_channel_without_create_public_threads_fails_for_tournaments(
    emulator: Emulator, tmp_path: Path
) -> None:
    # the input that passed unnoticed: a channel where /ddz tournament create is refused
    # (bot/features/tournaments/cog.py) while every line of the doctor said ok
    sync(emulator)
    channel = emulator.default_channel
    channel.bot_denied = PERM_CREATE_PUBLIC_THREADS
    code, out = await doctor(emulator, tmp_path, "--channel", str(channel.id))
    assert code == 1
    failed = [line for line in out.splitlines() if line.startswith("FAIL")]
    assert failed == ["FAIL  permission    Create Public Threads in #ddz: missing (a tournament "
                      "cannot open its tables' threads there)"]


async def test_a_refused_token_stops_at_the_first_line(
    emulator: Emulator, tmp_path: Path
) -> None:
    code, out = await doctor(emulator, tmp_path, DISCORD_TOKEN="not-the-token")

    assert code == 1
    assert lines(out)[0] == ["FAIL", "token         Discord refused DISCORD_TOKEN (401 Unauthorized)"]
    assert [status for status, _ in lines(out)[1:-1]] == ["skip"] * 5
    assert "not-the-token" not in out


async def test_an_unsynced_command_fails_the_commands_line(
    emulator: Emulator, tmp_path: Path
) -> None:
    code, out = await doctor(emulator, tmp_path)
    assert code == 1
    assert "FAIL  commands      /ddz is not synced in server" in out
    sync(emulator, leave_out="start")
    code, out = await doctor(emulator, tmp_path)
    assert code == 1
    assert "missing /ddz start (sync again)" in out
    assert "FAIL  commands" in out and out.count("FAIL") == 1


async def test_a_discord_that_never_answers_fails_the_token_line_within_its_timeout(
    emulator: Emulator, tmp_path: Path
) -> None:
    # the input that broke it: an API address that takes the connection and never
    # answers (a loopback gone quiet, a stuck proxy); the doctor waited for ever
    # (aiohttp's 300 s a request, discord.py's retries), left running for an hour
    accepted: list[asyncio.StreamWriter] = []

    async def silent(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        accepted.append(writer)  # read nothing, answer nothing, close nothing

    server = await asyncio.start_server(silent, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    try:
        code, out = await doctor(emulator, tmp_path,
                                 DISCORD_API_BASE=f"http://127.0.0.1:{port}/api/v10")
    finally:
        server.close()
        for writer in accepted:
            writer.close()
    assert accepted  # it did connect: the answer is what never came
    assert code == 1
    assert out.splitlines() == [
        f"FAIL  token         Discord did not answer within {STEP_TIMEOUT:g} s",
        "some checks failed"]
