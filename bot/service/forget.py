"""``/ddz forget`` in the service (docs/ARCHITECTURE.md §Where state lives): who may
forget now, and the deletion of a member's stored data in one server, keeping only the
keyed marks that stop a second play of today's daily deal or of an open event, or a
second attempt at today's puzzle."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from bot.game.errors import GameError
from bot.game.table import Table
from bot.storage.repository import Repository

Marks = Callable[[int, int], Awaitable[list[tuple[str, int]]]]
"""(guild id, user id) → the keyed marks a kind of private deal keeps of the member
(``DailyService.forget_marks``, ``EventService.forget_marks``,
``PuzzleService.forget_marks``)."""


class Forgetting:
    """``tables``: the service's open tables; ``daily_marks``, ``event_marks``,
    ``puzzle_marks``: the marks kept of the daily deal, of an open event and of today's
    puzzle; ``forgotten``: told (guild id, user id)
    once the data is gone (the turn pings' choice), before ``listeners``."""

    def __init__(self, tables: Callable[[], list[Table]], storage: Repository, *,
                 daily_marks: Marks, event_marks: Marks, puzzle_marks: Marks | None = None,
                 forgotten: Callable[[int, int], None]) -> None:
        self._tables, self.storage = tables, storage
        self._daily_marks, self._event_marks = daily_marks, event_marks
        self._puzzle_marks = puzzle_marks
        self._forgotten = forgotten
        self.listeners: list[Callable[[int, int], None]] = []
        """Called with (guild id, user id) after ``forget`` deleted a member's data
        (the web page drops its cached pages of that server, docs/WEB.md)."""

    def check(self, guild_id: int, user_id: int) -> None:
        """Raise GameError("forget_while_seated") while the member sits at an open table
        of the guild, "forget_while_private" at a daily or event deal's (no leaving it:
        it is finished, by auto-play at worst); its hand would still settle for them."""
        table = next((t for t in self._tables()
                      if t.guild_id == guild_id and t.seat_of(user_id) is not None), None)
        if table is not None and table.private:
            raise GameError("forget_while_private", table=table.id)
        if table is not None:
            raise GameError("forget_while_seated", table=table.id)

    async def forget(self, guild_id: int, user_id: int) -> int:
        """Delete the member's stored data in the guild (``/ddz forget``); rows touched.
        Of today's daily play only a keyed mark stays (``DailyService.forget_marks``), and
        of an open event the member began, likewise (``EventService.forget_marks``), and of
        today's puzzle if begun (``PuzzleService.forget_marks``).
        Raises GameError("forget_while_seated") (``check``)."""
        self.check(guild_id, user_id)
        marks = await self._daily_marks(guild_id, user_id)  # once a day still holds
        entered = await self._event_marks(guild_id, user_id)  # once an event, too
        puzzled = ([] if self._puzzle_marks is None  # once a daily puzzle, too
                   else await self._puzzle_marks(guild_id, user_id))
        touched = await self.storage.forget_user(guild_id, user_id, marks, entered, puzzled)
        self._forgotten(guild_id, user_id)
        for listener in self.listeners:
            listener(guild_id, user_id)
        return touched
