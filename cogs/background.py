"""One periodic background job of the cogs (the daily channel's posts, the events'
results): a task started when the bot is ready that runs ``once`` every ``every``
seconds, or at once after ``poke``; a failure is logged and the next round tries again.

Not ``discord.ext.tasks.loop``: waking a loop early there means ``restart``, which
cancels a round in flight, and a round may be between claiming a post in the database
and sending it (docs/ARCHITECTURE.md §The state: a claimed post is never sent twice, at
worst not at all; a cancel would make that "not at all" common)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

log = logging.getLogger(__name__)


class Background:
    """Runs ``await self.once()`` every ``every`` seconds (float) once ``bot`` is ready;
    ``poke()`` makes the next round start now. ``start`` is idempotent; ``close`` cancels
    the task and waits for it. Subclasses name the job (``name``) and define ``once``."""

    name = "ddz-background"

    def __init__(self, bot: Any, every: float) -> None:
        self.bot = bot
        self.every = every
        self.task: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()

    async def once(self) -> object:
        """One round of the job (subclasses)."""
        raise NotImplementedError

    def start(self) -> None:
        if self.task is None:
            self.task = asyncio.create_task(self._run(), name=self.name)

    def poke(self) -> None:
        """Start the next round now."""
        self._wake.set()

    async def close(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
            self.task = None

    async def _run(self) -> None:
        await self.bot.wait_until_ready()
        while True:
            self._wake.clear()
            try:
                await self.once()
            except Exception:
                log.exception("%s: a round failed; the next one tries again", self.name)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self.every)
