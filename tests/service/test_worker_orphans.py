"""The AI worker process ends when the bot process that started it is killed."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]

# A stand-in for the bot: starts the AI worker, prints its pid, then waits to be killed.
PARENT = """
import asyncio, os, sys, time
from bot.service.worker import ai_pool

async def main():
    pool = ai_pool()
    await pool.wait_ready()
    pid = await pool.run(os.getpid)
    print(pid, flush=True)
    time.sleep(120)

asyncio.run(main())
"""


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # a zombie still answers kill(0); its state letter says it has ended
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(") ")[1][0] != "Z"
    except (FileNotFoundError, IndexError):
        return False


@pytest.mark.processes
def test_the_ai_worker_ends_when_the_bot_is_killed() -> None:
    # Before the fix the worker (a ProcessPoolExecutor child) slept on forever after
    # a kill -9 of the bot: e2e restart tests left one behind each.
    parent = subprocess.Popen([sys.executable, "-c", PARENT], cwd=REPO_ROOT,
                              stdout=subprocess.PIPE, text=True,
                              env={**os.environ, "PYTHONPATH": str(REPO_ROOT)})
    try:
        assert parent.stdout is not None
        worker_pid = int(parent.stdout.readline())
        assert worker_pid != parent.pid and alive(worker_pid)
    finally:
        parent.send_signal(signal.SIGKILL)
        parent.wait(10)
    deadline = time.monotonic() + 15
    while alive(worker_pid) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not alive(worker_pid)
