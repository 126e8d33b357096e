"""The daily wing's store: the daily deal's rows (docs/RULES.md §Daily deal): the plays, the frozen days, the posts, the marks, over the repository's transactions
(``Repository.transaction``, ``reading``, ``writing``; bot/features/contract.py). Its SQL
steps are ``queries.py``'s (beside it); its tables are still created by the core's migrations.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from bot.features.daily import queries as daily
from bot.features.daily.values import DailyEntry
from bot.game.table import Table
from bot.storage.repository import ForgetStep, Repository
from bot.storage.sql import Sql


class DailyStore:
    """The daily deal's rows (docs/RULES.md §Daily deal): the plays, the frozen days, the posts, the marks. Each method commits on return (the writes) or reads."""

    def __init__(self, storage: Repository) -> None:
        self.storage = storage

    async def begin_daily(self, table: Table, user_id: int, name: str) -> bool:
        """Claim the member's play of the table's day (``table_day``) and save the table, in one commit;
        False (nothing written) when they have played or are playing that day."""
        now = time.time()
        return await self.storage.transaction(lambda db: daily.begin(db, table, user_id, name, now))

    async def finish_daily(self, table: Table, user_id: int, points: int, moves: int,
                           won: bool) -> bool:
        """Record the daily result and forget the open table, in one commit, once;
        False when it was recorded already."""
        now = time.time()
        return await self.storage.transaction(
            lambda db: daily.finish(db, table, user_id, points, moves, won, now))

    async def daily_entry(self, guild_id: int, day: str, user_id: int) -> DailyEntry | None:
        """The member's play of ``day`` (finished or not), or None."""
        async with self.storage.reading() as db:
            return await daily.entry(db, guild_id, day, user_id)

    async def daily_finished(self, guild_id: int, day: str) -> list[DailyEntry]:
        """Every finished play of ``day`` in the server (unordered)."""
        async with self.storage.reading() as db:
            return await daily.finished(db, guild_id, day)

    async def freeze_daily_day(self, guild_id: int, day: str, level: str, rules: str
                               ) -> tuple[str, str]:
        """(level, RuleSet JSON) of the server's deal of ``day``: the given ones the first
        time, the stored ones after."""
        return await self.storage.transaction(
            lambda db: daily.freeze_day(db, guild_id, day, level, rules))

    async def daily_unfinished(self, guild_id: int, day: str) -> int:
        """How many members' plays of ``day`` are begun and not finished."""
        async with self.storage.reading() as db:
            return await daily.unfinished(db, guild_id, day)

    async def daily_won_days(self, guild_id: int, user_ids: list[int]) -> dict[int, list[str]]:
        """The days each member won the daily deal."""
        async with self.storage.reading() as db:
            return await daily.won_days(db, guild_id, user_ids)

    async def daily_totals(self, guild_id: int, user_id: int) -> tuple[int, int, int]:
        """(days finished, days won, points) of the member's daily deals."""
        async with self.storage.reading() as db:
            return await daily.totals(db, guild_id, user_id)

    async def daily_hand(self, guild_id: int, day: str, user_id: int) -> str | None:
        """The Hand JSON of the member's finished daily deal of ``day``, or None."""
        async with self.storage.reading() as db:
            return await daily.hand_json(db, guild_id, day, user_id)

    async def claim_daily_post(self, guild_id: int, day: str) -> bool:
        """Claim the day's post in the daily channel (True once per server and day)."""
        return await self.storage.transaction(lambda db: daily.claim_post(db, guild_id, day))

    async def drop_daily_marks(self, guild_id: int, before: str) -> int:
        """Delete the marks ``forget_user`` kept of the days before ``before``; how many."""
        return await self.storage.transaction(lambda db: daily.drop_marks(db, guild_id, before))

    def forget_step(self, guild_id: int | None, user_id: int,
                    marks: Sequence[tuple[str, int]] = ()) -> ForgetStep:
        """Its part of ``/ddz forget`` (``Repository.forget_user``): keep each (day, mark)
        (``bot.game.private.forgotten_mark``) as a play of that day with no member, so
        forgetting does not open a second play (``guild_id`` only), after deleting the
        member's plays (``daily.forget_rows``)."""
        async def step(db: Sql, now: float) -> int:
            touched = await daily.forget_rows(db, guild_id, user_id)
            if guild_id is not None:
                for day, mark in marks:
                    await daily.mark_forgotten(db, guild_id, day, mark, now)
            return touched

        return step
