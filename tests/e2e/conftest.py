"""Fixtures: a fresh loopback Discord per test and a factory for bot subprocesses.

``emulator``: a started :class:`Emulator` (closed after the test).
``bot_factory(argv=None, **kw) -> BotProcess``: not started yet; every process it
made is killed at teardown (before the emulator closes), whatever the test did.
The terminal summary prints ddz-bot's response-time percentiles (``tests/e2e/timing.py``).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from tests.e2e import timing
from tests.e2e.botproc import BotProcess
from tests.e2e.emulator import Emulator


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Print ddz-bot's first-response time percentiles over the game tests."""
    text = timing.summary_line()
    for line in (text or "").splitlines():
        terminalreporter.write_line(line)


@pytest.fixture
async def emulator() -> AsyncIterator[Emulator]:
    emu = Emulator()
    await emu.start()
    try:
        yield emu
    finally:
        await emu.close()


@pytest.fixture
async def bot_factory(
    emulator: Emulator, tmp_path: Path
) -> AsyncIterator[Callable[..., BotProcess]]:
    made: list[BotProcess] = []

    def make(argv: list[str] | None = None, **kw: Any) -> BotProcess:
        n = len(made)
        kw.setdefault("db_path", tmp_path / f"bot{n}.sqlite3")
        kw.setdefault("log_path", tmp_path / f"bot{n}.log")
        bot = BotProcess(emulator, argv=argv, **kw)
        made.append(bot)
        return bot

    try:
        yield make
    finally:
        for bot in made:
            await bot.kill()
