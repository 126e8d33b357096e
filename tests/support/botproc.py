"""Run a bot as a subprocess against the :class:`~sandbox.loopback.emulator.Emulator`.

The child gets ``DISCORD_TOKEN`` (the emulator's fake token), ``DISCORD_API_BASE``,
``DISCORD_GATEWAY_URL``, ``DDZ_DATABASE_PATH``, ``DDZ_DEV_GUILD_ID`` and
``DDZ_LOG_LEVEL=INFO`` and ``DDZ_DEAL_SEED`` (from the test's id: each test sees the
same deals on every run, so no assertion rests on the luck of a deal; ``extra_env``
may override it); stdout+stderr go to ``log_path``. :meth:`BotProcess.start`
returns once the bot identified, received READY + GUILD_CREATE, and (by default)
bulk-synced its commands after this start.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import sys
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from sandbox.loopback.bot_env import bot_env

if TYPE_CHECKING:
    from sandbox.loopback.emulator import Emulator

REPO_ROOT = Path(__file__).resolve().parents[2]
START_TIMEOUT_FLOOR = 60.0
"""Seconds ``BotProcess.start`` waits at least for a bot to be ready."""


def deal_seed_of_current_test() -> int:
    """A seed from the running test's id (``PYTEST_CURRENT_TEST`` without its phase and
    without the ``@group`` that pytest-xdist's ``loadgroup`` appends), the same on every
    run, in a worker or not; 0 outside a test."""
    current = os.environ.get("PYTEST_CURRENT_TEST", "").rsplit(" (", 1)[0]
    if current.rfind("@") > current.rfind("]"):  # xdist's group suffix (tests/support/workers.py)
        current = current.rsplit("@", 1)[0]
    return zlib.crc32(current.encode())


class BotProcess:
    """One bot subprocess; ``argv`` defaults to ``python -m bot`` run from the repo root.

    ``ready_log``: optional regex that must also appear in this start's log output
    before :meth:`start` returns (e.g. the bot's on_ready line, ~2 s after GUILD_CREATE).
    ``shards``: the shard ids this process runs (``DDZ_SHARD_IDS``) when several bot
    processes share the emulator: :meth:`start` then waits for those shards only.

    ``start()``/``kill()``/``stop()``/``restart()``; ``log_text()``/``log_tail()`` read
    the captured output (all starts append to the same file).
    """

    def __init__(
        self,
        emu: Emulator,
        *,
        db_path: Path,
        log_path: Path,
        argv: list[str] | None = None,
        guild_id: int | None = None,
        extra_env: dict[str, str] | None = None,
        wait_for_sync: bool = True,
        ready_log: str | None = None,
        shards: tuple[int, ...] | None = None,
    ) -> None:
        self.emu = emu
        self.db_path = db_path
        self.log_path = log_path
        self.argv = argv or [sys.executable, "-m", "bot"]
        self.guild_id = guild_id if guild_id is not None else emu.default_guild.id
        self.extra_env = dict(extra_env or {})
        self.wait_for_sync = wait_for_sync
        self.ready_log = re.compile(ready_log) if ready_log else None
        self.shards = shards
        self.deal_seed = deal_seed_of_current_test()
        self.proc: asyncio.subprocess.Process | None = None
        self.starts = 0
        emu.diagnostics.append(lambda: f"--- bot log tail ({self.log_path}, DDZ_DEAL_SEED"
                                f" {self.deal_seed}) ---\n{self.log_tail()}")

    @property
    def env(self) -> dict[str, str]:
        env = dict(os.environ)
        env.update(bot_env(self.emu, db_path=self.db_path, guild_id=self.guild_id))
        env.update(
            DDZ_LOG_LEVEL="INFO",
            DDZ_DEAL_SEED=str(self.deal_seed),
            PYTHONUNBUFFERED="1",
            PYTHONPATH=os.pathsep.join(
                p for p in (str(REPO_ROOT), os.environ.get("PYTHONPATH")) if p
            ),
        )
        env.update(self.extra_env)
        return env

    @property
    def pid(self) -> int | None:
        return self.proc.pid if self.proc else None

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.returncode is None

    async def start(self, timeout: float = 20.0) -> BotProcess:
        """Spawn the bot and wait until it is connected (and synced, if ``wait_for_sync``).

        AssertionError with the log tail if it exits or is not ready within ``timeout``
        seconds, at least ``START_TIMEOUT_FLOOR``: a guard against a bot that hangs, not a
        measure of its start (a start takes ~3 s alone, but far longer while the suite's
        parallel workers and everything else on the machine share two cores).
        """
        timeout = max(timeout, START_TIMEOUT_FLOOR)
        if self.running:
            raise RuntimeError("bot already running")
        emu = self.emu
        ready_before, sync_before = emu.gateway.ready_count, emu.commands.sync_count
        self.starts += 1
        with self.log_path.open("ab") as log:
            log.write(f"\n===== start #{self.starts}: {' '.join(self.argv)} =====\n".encode())
            log.flush()
            log_start = log.tell()
            self.proc = await asyncio.create_subprocess_exec(
                *self.argv,
                cwd=str(REPO_ROOT),
                env=self.env,
                stdout=log,
                stderr=asyncio.subprocess.STDOUT,
            )
        proc = self.proc

        def ready() -> bool:
            if proc.returncode is not None:
                return True
            synced = not self.wait_for_sync or emu.commands.sync_count > sync_before
            if not (emu.gateway.ready_count > ready_before and self._connected() and synced):
                return False
            return self.ready_log is None or bool(self.ready_log.search(self._log_since(log_start)))

        try:
            await emu.wait_until(
                ready, timeout=timeout, what=f"bot start #{self.starts} (ready + command sync)"
            )
        except AssertionError:
            await self.kill()
            raise
        if proc.returncode is not None:
            raise AssertionError(
                f"bot exited with code {proc.returncode} during start\n{self.log_tail()}"
            )
        return self

    def _connected(self) -> bool:
        """This process's shards (every shard when ``shards`` is None) are connected."""
        gateway = self.emu.gateway
        if self.shards is None:
            return gateway.connected
        return all((c := gateway.shards.get(i)) is not None and c.live for i in self.shards)

    async def kill(self) -> None:
        """``kill -9`` the bot (no clean shutdown) and reap it."""
        if self.proc is None or self.proc.returncode is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.proc.pid, signal.SIGKILL)
        await self.proc.wait()
        await self.emu.wait_until(
            lambda: not self._connected(), timeout=5.0, what="gateway to drop"
        )

    async def stop(self, timeout: float = 5.0) -> None:
        """SIGTERM, then SIGKILL after ``timeout`` seconds."""
        if self.proc is None or self.proc.returncode is not None:
            return
        self.proc.terminate()
        try:
            await asyncio.wait_for(self.proc.wait(), timeout)
        except TimeoutError:
            await self.kill()

    async def restart(self, timeout: float = 20.0) -> BotProcess:
        """``kill -9`` then start again on the same database and log file."""
        await self.kill()
        return await self.start(timeout)

    def _log_since(self, offset: int) -> str:
        with self.log_path.open("rb") as f:
            f.seek(offset)
            return f.read().decode(errors="replace")

    def log_text(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")
        except FileNotFoundError:
            return ""

    def log_tail(self, lines: int = 40) -> str:
        return "\n".join(self.log_text().splitlines()[-lines:])


BotFactory = Callable[..., BotProcess]
"""The ``bot_factory`` fixture's type (tests/support/fixtures.py): ``(argv=None, **kw)``
→ a BotProcess, not started yet."""
