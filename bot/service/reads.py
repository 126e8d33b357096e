"""What the hand screens read of a table's position (``PositionReads``), each computed once
per position (table id, ``seq``, seat): the ranked choices (the legal-play menu and the
Hint's quick suggestions, ``bot.service.positions``), the seat's card counter, and the
Hint's full suggestions (``bot.service.hints``), whose search for the next member's turn
starts ahead. ``TableService`` owns one and offers its reads under its own name."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Awaitable, Callable

from bot.ai import Decision
from bot.ai.choices import Choices
from bot.game.table import Table
from bot.service.hints import HintCache
from bot.service.pool import WorkerPool
from bot.service.positions import ChoicesCache, HandPosition
from bot.values import GuildSettings


class PositionReads:
    """``settings``: a server's settings by guild id (the card counter's switch);
    ``ranking_pool``: worker processes for the legal-play ranking (``ranked``; None: on
    the event loop); ``ai_pool``: the Hint's searches (None: threads);
    ``prefetch_hints``: start the Hint's search of a member's turn when it begins
    (``ahead``; only while no other search runs)."""

    def __init__(self, settings: Callable[[int], Awaitable[GuildSettings]], *,
                 ranking_pool: WorkerPool | None = None, ai_pool: WorkerPool | None = None,
                 prefetch_hints: bool = False) -> None:
        self._settings = settings
        self.ranking_pool = ranking_pool
        self.prefetch_hints = prefetch_hints
        self.positions = ChoicesCache()
        self.hints = HintCache(choices=self.positions, pool=ai_pool)
        self.closed = False

    def choices(self, table: Table, seat: int) -> Choices:
        """``seat``'s ranked choices at ``table``'s position (the legal-play menu and the
        Hint's quick suggestions, ``bot.ai.choices``), computed once per position."""
        return self.positions.get(table, seat)

    def ranked_known(self, table: Table, seat: int) -> Choices | None:
        """``choices(table, seat)`` when computed already at this position, else None
        (never computes: see ``ranked``)."""
        return self.positions.known(table, seat)

    async def ranked(self, table: Table, seat: int, urgent: bool = False) -> Choices:
        """``choices(table, seat)``, computed in a process of ``ranking_pool`` (the
        render workers) when one is ready, off the event loop; the same value.
        ``urgent``: a member who clicked waits for it."""
        return await self.positions.ranked(table, seat, self.ranking_pool, urgent)

    async def hand_position(self, table: Table, seat: int, urgent: bool = False) -> HandPosition:
        """What the hand screen of ``seat`` needs at ``table``'s position, in one call:
        the server's counter setting, the seat's card counter (computed once per
        position) and the legal-play ranking, known or computed on demand (``ranked``,
        ``urgent`` for the render workers)."""
        settings = await self._settings(table.guild_id)
        counts = (self.positions.still_out(table, seat)
                  if settings.counter and table.hand is not None else None)
        return HandPosition(settings.counter, counts, self.positions.known(table, seat),
                            functools.partial(self.ranked, table, seat, urgent))

    async def hint_options(self, table: Table, seat: int) -> list[Decision]:
        """The Hint suggestions of ``seat`` at ``table``'s position, computed once per
        (table id, seq, seat) in the AI worker process (``bot.service.hints``)."""
        return await self.hints.options(table, seat)

    def hint_now(
        self, table: Table, seat: int
    ) -> tuple[list[Decision], asyncio.Task[list[Decision]] | None]:
        """The Hint suggestions ready now, and the task of the full ones when the hard
        search is still running (``HintCache.now``). Never waits, never raises."""
        return self.hints.now(table, seat)

    def hint_ready(self, table: Table, seat: int) -> bool:
        """Whether the Hint's search of this position is done (``HintCache.ready``)."""
        return self.hints.ready(table, seat)

    def ahead(self, table: Table) -> None:
        """``table`` changed: drop its searches and positions older than it; start the
        next member's Hint search (``prefetch_hints``)."""
        self.hints.forget_table(table.id, table.seq)
        self.positions.forget_before(table.id, table.seq)
        seat = table.turn_seat
        if (self.prefetch_hints and not self.closed and seat is not None
                and table.phase == "playing" and not table.computer_to_act):
            self.hints.prefetch(table, seat)

    async def close(self) -> None:
        """Cancel the Hint's searches; none is started ahead again."""
        self.closed = True
        await self.hints.close()
