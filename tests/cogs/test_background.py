"""cogs/background.py: the periodic job under the daily posts and the events' results."""

from __future__ import annotations

import asyncio
import logging
from types import SimpleNamespace

import pytest

from cogs.background import Background
from tests.support.fake_discord import FakeDiscord


class Job(Background):
    name = "test-job"

    def __init__(self, every: float, fail_first: int = 0) -> None:
        ready = asyncio.Event()
        ready.set()
        super().__init__(SimpleNamespace(wait_until_ready=ready.wait), every)
        self.rounds = 0
        self.fail_first = fail_first

    async def once(self) -> int:
        self.rounds += 1
        if self.rounds <= self.fail_first:
            raise RuntimeError("Discord said no")
        return self.rounds


async def test_a_round_every_period_and_at_once_when_poked() -> None:
    job = Job(every=60.0)
    job.start()
    job.start()  # idempotent: one task
    await asyncio.sleep(0.05)
    assert job.rounds == 1  # at start, then not before 60 s
    job.poke()
    await asyncio.sleep(0.05)
    assert job.rounds == 2
    await job.close()
    assert job.task is None
    job.poke()
    await asyncio.sleep(0.05)
    assert job.rounds == 2  # closed: no more rounds


async def test_a_failing_round_is_logged_and_the_next_one_runs(
        caplog: pytest.LogCaptureFixture) -> None:
    job = Job(every=0.02, fail_first=2)
    with caplog.at_level(logging.ERROR, logger="cogs.background"):
        job.start()
        for _ in range(1000):  # up to 10 s: a loaded machine ran only 2 rounds in 0.2 s
            if job.rounds >= 3:
                break
            await asyncio.sleep(0.01)
        await job.close()
    assert job.rounds >= 3  # two failures did not stop the job
    failures = [r for r in caplog.records if "test-job: a round failed" in r.getMessage()]
    assert len(failures) == 2


async def test_the_bot_stops_its_background_rounds_before_it_closes_the_storage(
        fake: FakeDiscord, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    """A tournaments' round started while the bot stopped read a closed PostgreSQL pool
    ("pool is closed", a traceback in CI): the cogs' rounds end before the storage closes."""
    bot = fake.bot
    tasks = [task for wing in bot.get_cog("ddz").wings.values() for task in wing.tasks]
    assert {task.name for task in tasks} >= {"ddz-tournaments", "ddz-daily-poster"}
    assert all(task.task is not None for task in tasks)
    running_at_storage_close: list[str] = []
    storage_close = bot.storage.close

    async def close() -> None:
        running_at_storage_close.extend(t.name for t in tasks if t.task is not None)
        await storage_close()

    monkeypatch.setattr(bot.storage, "close", close)
    with caplog.at_level(logging.ERROR):
        await bot.close()
    assert running_at_storage_close == []
    assert bot.get_cog("ddz") is None and "Traceback" not in caplog.text
