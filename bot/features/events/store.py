"""The events wing's store: the duplicate events' rows (docs/RULES.md §Events): the events, entrants, plays, stand-ins, over the repository's transactions
(``Repository.transaction``, ``reading``, ``writing``; bot/features/contract.py). Its SQL
steps are ``queries.py``'s (beside it); its tables are still created by the core's migrations.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from bot.features.events import queries as events
from bot.features.events.values import EventInfo, EventPlay
from bot.game.table import Table
from bot.storage.repository import ForgetStep, Repository
from bot.storage.sql import Sql


class EventStore:
    """The duplicate events' rows (docs/RULES.md §Events): the events, entrants, plays, stand-ins. Each method commits on return (the writes) or reads."""

    def __init__(self, storage: Repository) -> None:
        self.storage = storage

    async def create_event(self, event: EventInfo) -> bool:
        """Store a new event; False (nothing written) while the server has one whose
        results are not announced yet."""
        return await self.storage.transaction(lambda db: events.create(db, event))

    async def event(self, event_id: str) -> EventInfo | None:
        """The event with this id, or None."""
        async with self.storage.reading() as db:
            return await events.get(db, event_id)

    async def current_event(self, guild_id: int) -> EventInfo | None:
        """The server's event not yet announced, else its latest, else None."""
        async with self.storage.reading() as db:
            return await events.current(db, guild_id)

    async def join_event(self, event: EventInfo, user_id: int, name: str) -> bool:
        """Enter the member; False when entered already."""
        now = time.time()
        return await self.storage.transaction(lambda db: events.join(db, event, user_id, name, now))

    async def event_marked(self, event_id: str, mark: int) -> bool:
        """Whether ``forget_user`` kept ``mark`` as an entry of the event."""
        async with self.storage.reading() as db:
            return await events.is_marked(db, event_id, mark)

    async def event_began(self, event_id: str, user_id: int) -> bool:
        """Whether the member began any deal of the event."""
        async with self.storage.reading() as db:
            return await events.began(db, event_id, user_id)

    async def event_entrants(self, event_id: str) -> list[tuple[int, str | None]]:
        """(user id, display name) of the entrants, in the order they joined."""
        async with self.storage.reading() as db:
            return await events.entrants(db, event_id)

    async def begin_event_play(self, table: Table, event: EventInfo, deal: int, user_id: int,
                               name: str, now: float) -> bool:
        """Claim the member's play of ``deal`` (entering them) and save the table, in one
        commit; False when played or being played already, or the event closed at ``now``."""
        return await self.storage.transaction(
            lambda db: events.begin(db, table, event, deal, user_id, name, now))

    async def finish_event_play(self, table: Table, event_id: str, deal: int, user_id: int,
                                points: int, moves: int) -> bool:
        """Record the deal's result and forget the open table, in one commit, once."""
        now = time.time()
        return await self.storage.transaction(
            lambda db: events.finish(db, table, event_id, deal, user_id, points, moves, now))

    async def event_plays(self, event_id: str) -> list[EventPlay]:
        """Every play of the event, finished or not."""
        async with self.storage.reading() as db:
            return await events.plays(db, event_id)

    async def event_in_progress(self, event_id: str) -> int:
        """How many of the event's deals are being played (unfinished, table open)."""
        async with self.storage.reading() as db:
            return await events.in_progress(db, event_id)

    async def close_event(self, event_id: str, now: float) -> bool:
        """Close the event early at ``now``; False when closed already."""
        return await self.storage.transaction(lambda db: events.close(db, event_id, now))

    async def events_due(self, now: float) -> list[EventInfo]:
        """Closed events (every server) whose results are not announced yet."""
        async with self.storage.reading() as db:
            return await events.due(db, now)

    async def claim_event_announcement(self, event_id: str, now: float) -> bool:
        """Mark the event's results announced (True once)."""
        return await self.storage.transaction(lambda db: events.claim_announcement(db, event_id, now))

    async def save_event_standin(self, event_id: str, deal: int, points: int, hand: str) -> None:
        """Keep the stand-in result of ``deal`` (the first one stored stays)."""
        await self.storage.transaction(lambda db: events.save_standin(db, event_id, deal, points, hand))

    async def event_standins(self, event_id: str) -> dict[int, int]:
        """The stored stand-in points of the event's deals, by deal."""
        async with self.storage.reading() as db:
            return await events.standins(db, event_id)

    async def event_hand(self, event_id: str, deal: int, user_id: int) -> str | None:
        """The Hand JSON of the member's finished play of ``deal``, or None."""
        async with self.storage.reading() as db:
            return await events.hand_json(db, event_id, deal, user_id)

    async def events_of_user(self, guild_id: int, user_id: int) -> list[EventInfo]:
        """The server's announced events the member entered, oldest first."""
        async with self.storage.reading() as db:
            return await events.of_user(db, guild_id, user_id)

    def forget_step(self, guild_id: int | None, user_id: int,
                    marks: Sequence[tuple[str, int]] = ()) -> ForgetStep:
        """Its part of ``/ddz forget`` (``Repository.forget_user``): the member's entries and
        plays deleted (``events.forget_rows``), the events the member organised keep
        ``NO_ORGANISER``; each (event id, mark)
        (``bot.features.events.rules.event_forgotten_mark``) is kept as an entry below 0
        of an open event the member began (``guild_id`` only): no second entry."""
        async def step(db: Sql, now: float) -> int:
            touched = await events.forget_rows(db, guild_id, user_id)
            touched += await events.forget_organiser(db, guild_id, user_id)
            if guild_id is not None:
                for event_id, mark in marks:
                    await events.mark_forgotten(db, event_id, guild_id, mark, now)
            return touched

        return step
