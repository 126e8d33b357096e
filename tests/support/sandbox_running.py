"""Run ``python -m sandbox`` as a user would, for the sandbox's tests.

``SandboxRun(*args)`` starts it on a free port with ``--no-browser`` (fast computer
players, auto-play without pauses, a fixed deal seed) and :meth:`SandboxRun.wait_ready`
returns once it printed its URL; ``bot_pid`` is the pid it printed for ``python -m bot``.
"""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
FAST = {"DDZ_COMPUTER_DELAY": "0.02,0.05", "DDZ_AUTOPLAY_PACE_SCALE": "0"}
URL_RE = re.compile(r"open (http://127\.0\.0\.1:\d+/)")
PID_RE = re.compile(r"python -m bot \(pid (\d+)")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def process_group_members(pgid: int) -> list[int]:
    """Pids of live (not zombie) processes in process group ``pgid`` (from /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if fields[0] != "Z" and int(fields[2]) == pgid:
            found.append(int(entry.name))
    return found


class SandboxRun:
    """One ``python -m sandbox`` child; its output collected in ``lines``. ``seed``:
    ``DDZ_DEAL_SEED`` (4: alice, seat 0, is the first bidder of the first deal)."""

    def __init__(self, *args: str, port: int | None = None, seed: int = 4,
                 env: dict[str, str] | None = None) -> None:
        self.port = port or free_port()
        child_env = {**os.environ, **FAST, "DDZ_DEAL_SEED": str(seed), **(env or {})}
        child_env["PYTHONPATH"] = os.pathsep.join(
            p for p in (str(REPO_ROOT), os.environ.get("PYTHONPATH")) if p)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "sandbox", "--no-browser", "--port", str(self.port), *args],
            cwd=str(REPO_ROOT), env=child_env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            text=True)
        self.lines: list[str] = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.append(line.rstrip("\n"))

    @property
    def output(self) -> str:
        return "\n".join(self.lines)

    def wait_ready(self, timeout: float = 90.0) -> str:
        """The URL it printed; AssertionError with its output if it exits or takes longer."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if m := URL_RE.search(self.output):
                return m.group(1)
            if self.proc.poll() is not None:
                break
            time.sleep(0.1)
        raise AssertionError(f"the sandbox did not get ready:\n{self.output}")

    @property
    def bot_pid(self) -> int:
        m = PID_RE.search(self.output)
        assert m, self.output
        return int(m.group(1))

    def stop(self, sig: int = signal.SIGTERM, timeout: float = 30.0) -> int:
        """Send ``sig`` and wait for the exit code (SIGKILL and AssertionError if it hangs)."""
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            raise AssertionError(f"the sandbox did not stop on {sig!r}:\n{self.output}") from None
        finally:
            self._reader.join(5)
