"""DailyService: the daily deal of each server (docs/RULES.md §Daily deal).

``open`` deals the member's private table for the day (through ``TableService``, which
then owns it like any table: lock, ``seq``, timers, restore after a restart) or, once
played, answers the member's result; ``board`` gives a day's standings with streaks;
``may_see`` is the one rule of who may see a daily hand (replay, review, standings,
the web page): nobody sees the day's deal before having finished it, everybody else
once the day is over. A table begun before midnight is still the member's to finish
(``open`` brings it back first) and counts on its own day's board, whose podium waits for
it (``podium_ready``). The clock is the TableService's (a fake one in tests rolls the day
over).
"""

from __future__ import annotations

import datetime as dt
import functools
import secrets
from dataclasses import dataclass

from bot.ai import LEVELS, Level
from bot.features.daily.rules import DAILY_SEAT, daily_seed, daily_table, table_day
from bot.features.daily.store import DailyStore
from bot.features.daily.values import (
    DailyBoard,
    DailyEntry,
    DailyRow,
    DailySettings,
    DailySummary,
)
from bot.game.errors import GameError
from bot.game.hand import Hand
from bot.game.private import (
    day_before,
    day_of,
    day_start,
    forgotten_mark,
    moves_of,
    standing_order,
    streaks,
)
from bot.game.table import Table
from bot.rules import RuleSet
from bot.service.host import PrivateHost, Title
from bot.service.replays import private_record
from bot.storage.repository import ForgetStep
from bot.values import FinishedHand, GuildSettings

POST_GRACE = 3600.0
"""Seconds after a day's end that its podium waits at most for plays of it still open
(docs/RULES.md §Daily deal)."""


@dataclass(frozen=True)
class DailyOpen:
    """What ``/ddz daily`` leads to: the member's table to play on (``table``; ``fresh``
    when just dealt), or their finished ``entry`` of the day (then ``table`` is None)."""

    day: str
    table: Table | None = None
    entry: DailyEntry | None = None
    fresh: bool = False


class DailyService:
    """The daily deal over a TableService (its storage, clock and tables)."""

    def __init__(self, tables: PrivateHost) -> None:
        self.tables = tables
        self.storage = tables.storage
        self.store = DailyStore(tables.storage)
        """The daily deal's rows (``bot.features.daily.store``)."""

    def hand_title(self, table: Table) -> Title:
        """The hand view's first line at a daily table ("Daily deal of 2026-12-06",
        ``TitledKind``)."""
        return "daily.title", {"day": table_day(table) or ""}

    async def finish(self, table: Table) -> None:
        """Record a finished daily hand as the member's result of the day (docs/RULES.md
        §Daily deal): no match totals, stats or ratings change (``PrivateDeal``, called by
        ``TableService`` in place of settling a table hand)."""
        assert table.hand is not None and table.hand.result is not None
        user_id = table.seats[DAILY_SEAT].user_id
        assert user_id is not None
        result = table.hand.result
        await self.store.finish_daily(table, user_id, result.points[DAILY_SEAT],
                                        moves_of(table), result.winner == "landlord")

    async def today(self, guild_id: int) -> str:
        """The server's calendar day now (``"YYYY-MM-DD"``, its ``/ddz config timezone``)."""
        settings = await self.tables.settings(guild_id)
        return _day(self.tables.clock.now(), settings)

    async def _key(self, guild_id: int) -> bytes:
        """The server's secret key (created on first use)."""
        return bytes.fromhex(await self.storage.server_key(guild_id, secrets.token_hex(32)))

    async def seed(self, guild_id: int, day: str) -> int:
        """The seed of the server's deal of ``day`` (``bot.features.daily.rules.daily_seed`` with the
        server's secret key, created on first use)."""
        return daily_seed(await self._key(guild_id), guild_id, day)

    async def forget_step(self, guild_id: int, user_id: int) -> ForgetStep:
        """Its part of ``/ddz forget`` (``Forgetting.add_step``): ``forget_marks`` kept."""
        return self.store.forget_step(guild_id, user_id, await self.forget_marks(guild_id, user_id))

    async def forget_marks(self, guild_id: int, user_id: int) -> list[tuple[str, int]]:
        """What ``/ddz forget`` keeps of the member's daily plays: for today's deal, if
        begun, (today, ``forgotten_mark``), a keyed hash standing for the member with no
        id, name or result, so forgetting cannot buy a second play (or a look) of today's
        deal. Earlier days are over: nothing is kept of them."""
        today = await self.today(guild_id)
        if await self.store.daily_entry(guild_id, today, user_id) is None:
            return []
        return [(today, forgotten_mark(await self._key(guild_id), guild_id, today, user_id))]

    async def open(self, guild_id: int, user_id: int, name: str,
                   locale: str | None = None) -> DailyOpen:
        """``/ddz daily``: the member's table of an earlier day still being played (begun
        before midnight: finished first, it counts on its own day), else their table of
        today's deal (dealt now the first time, the same table while it is being played,
        also after a restart), else their finished result of the day. Raises GameError("daily_forgotten") when the member
        played today's deal before ``/ddz forget`` (``forget_marks``), GameError("daily_lost")
        in the unlikely case of a play begun elsewhere whose table this process does not
        hold."""
        settings = await self.tables.settings(guild_id)
        day = _day(self.tables.clock.now(), settings)
        earlier = self.unfinished_table(guild_id, user_id, before=day)
        if earlier is not None:
            earlier_day = table_day(earlier)
            assert earlier_day is not None
            return DailyOpen(earlier_day, table=earlier)
        table = self.table_of(guild_id, user_id, day)
        if table is not None:
            return DailyOpen(day, table=table)
        entry = await self.store.daily_entry(guild_id, day, user_id)
        if entry is None:
            key = await self._key(guild_id)
            await self.store.drop_daily_marks(guild_id, day)  # the days that are over
            mark = forgotten_mark(key, guild_id, day, user_id)
            if await self.store.daily_entry(guild_id, day, mark) is not None:
                raise GameError("daily_forgotten")  # played today, then used /ddz forget
            seed = daily_seed(key, guild_id, day)
            level, rules = await self.frozen(guild_id, day, settings)
            table, events = daily_table(
                guild_id, user_id, name, locale, day=day, seed=seed,
                level=level, rules=rules,
                turn_seconds=settings.turn_seconds_play, now=self.tables.clock.now())
            if await self.tables.add_private(
                    table, functools.partial(self.store.begin_daily, table, user_id, name),
                    events):
                return DailyOpen(day, table=table, fresh=True)
            table = self.table_of(guild_id, user_id, day)
            if table is not None:  # a racing /ddz daily of the same member dealt it
                return DailyOpen(day, table=table)
            entry = await self.store.daily_entry(guild_id, day, user_id)
        if entry is None or not entry.finished:
            raise GameError("daily_lost")
        return DailyOpen(day, entry=entry)

    async def frozen(self, guild_id: int, day: str, settings: GuildSettings
                     ) -> tuple[Level, RuleSet]:
        """The computers' level and the rule variants of the server's deal of ``day``:
        the server's settings at the day's first deal, kept for the whole day (an admin's
        change the same day does not reach it: the same game for everyone)."""
        mine = DailySettings.of(settings)
        level, rules = await self.store.freeze_daily_day(
            guild_id, day, mine.level, settings.rules.model_dump_json())
        return (level if level in LEVELS else mine.level,
                RuleSet.model_validate_json(rules))

    def table_of(self, guild_id: int, user_id: int, day: str) -> Table | None:
        """The member's open daily-deal table of ``day`` in the guild, or None."""
        for table in self.tables.tables():
            if (table_day(table) == day and table.guild_id == guild_id
                    and table.seat_of(user_id) is not None):
                return table
        return None

    def unfinished_table(self, guild_id: int, user_id: int, *, before: str) -> Table | None:
        """The member's open daily table of a day before ``before`` (begun before
        midnight, not finished yet), or None."""
        for table in self.tables.tables():
            day = table_day(table)
            if (day is not None and day < before and table.guild_id == guild_id
                    and table.seats[DAILY_SEAT].user_id == user_id):
                return table
        return None

    async def may_see(self, guild_id: int, day: str, user_id: int) -> bool:
        """Whether the member may see the server's deal of ``day`` (its cards, a replay or
        review of anyone's play of it, its points): once the member has finished it;
        a member who began it and has not finished it, never, whatever the clock says
        (a table begun before midnight); anyone else once the day is over. The one rule
        (replay, review, standings and the web page call it)."""
        entry = await self.store.daily_entry(guild_id, day, user_id)
        if entry is not None:
            return entry.finished
        return day < await self.today(guild_id)

    async def podium_ready(self, guild_id: int, day: str) -> bool:
        """Whether ``day``'s podium may be posted: no member's play of it is still open,
        or ``POST_GRACE`` seconds have passed since the day ended (a play whose table
        is lost must not hold the post back for ever). docs/RULES.md §Daily deal."""
        if not await self.store.daily_unfinished(guild_id, day):
            return True
        settings = await self.tables.settings(guild_id)
        after = (dt.date.fromisoformat(day) + dt.timedelta(days=1)).isoformat()
        try:
            ended = day_start(after, settings.timezone)
        except ValueError:
            ended = day_start(after)
        return self.tables.clock.now() >= ended + POST_GRACE

    async def board(self, guild_id: int, day: str) -> DailyBoard:
        """The standings of ``day``: finished plays best first (points, then fewer moves,
        then the earlier finish), each with the member's streak as of that day."""
        entries = standing_order(await self.store.daily_finished(guild_id, day))
        won = await self.store.daily_won_days(guild_id, [e.user_id for e in entries])
        rows = []
        for place, entry in enumerate(entries, start=1):
            current, best = streaks(won.get(entry.user_id, []), day, played_today=True)
            rows.append(DailyRow(place=place, entry=entry, streak=current, best_streak=best))
        return DailyBoard(day=day, rows=rows)

    async def visible_board(self, guild_id: int, day: str, user_id: int) -> DailyBoard | None:
        """``board(day)`` when the member may see that day (``may_see``), else None."""
        if not await self.may_see(guild_id, day, user_id):
            return None
        return await self.board(guild_id, day)

    async def played_count(self, guild_id: int, day: str) -> int:
        """How many members finished the deal of ``day`` (shown to those who have not)."""
        return len(await self.store.daily_finished(guild_id, day))

    async def summary(self, guild_id: int, user_id: int) -> DailySummary:
        """The member's daily-deal record (``/ddz stats``): never today's cards."""
        played, won, points = await self.store.daily_totals(guild_id, user_id)
        if not played:
            return DailySummary()
        days = (await self.store.daily_won_days(guild_id, [user_id])).get(user_id, [])
        today = await self.today(guild_id)
        entry = await self.store.daily_entry(guild_id, today, user_id)
        current, best = streaks(days, today, played_today=entry is not None and entry.finished)
        return DailySummary(played=played, won=won, points=points, streak=current,
                            best_streak=best)

    async def hand(self, guild_id: int, day: str, user_id: int, viewer_id: int) -> Hand | None:
        """``user_id``'s finished hand of ``day`` for ``viewer_id``: None when unknown or
        when the viewer may not see that day yet (``may_see``)."""
        if not await self.may_see(guild_id, day, viewer_id):
            return None
        blob = await self.store.daily_hand(guild_id, day, user_id)
        return None if blob is None else Hand.model_validate_json(blob)

    async def record(self, guild_id: int, day: str, user_id: int,
                     viewer_id: int) -> FinishedHand | None:
        """``user_id``'s finished hand of ``day`` shaped as a settled table hand, so that
        ``ReplayService`` pages, animates and reviews it like one (``ReplayService.rebuilt``,
        ``review``); for ``viewer_id``, None when unknown or when the viewer may not see
        that day yet (``may_see``). No hand number (``hand_no`` 0), no channel; the hand
        id is ``"daily:<guild>:<day>:<user>"``; seat 0 is the member (their stored
        name, ``"?"`` once forgotten), seats 1 and 2 the computers, no match totals."""
        if not await self.may_see(guild_id, day, viewer_id):
            return None
        entry = await self.store.daily_entry(guild_id, day, user_id)
        blob = await self.store.daily_hand(guild_id, day, user_id)
        if entry is None or blob is None:
            return None
        return private_record(f"daily:{guild_id}:{day}:{user_id}", guild_id, entry.table_id,
                              entry.finished_at or 0.0, blob, user_id, entry.name)

    async def claim_post(self, guild_id: int, day: str) -> bool:
        """Claim the day's post in the server's daily channel: True once per day."""
        return await self.store.claim_daily_post(guild_id, day)

    async def yesterday(self, guild_id: int) -> str:
        """The server's previous calendar day."""
        return day_before(await self.today(guild_id))

def _day(now: float, settings: GuildSettings) -> str:
    """The calendar day of ``now`` in the server's zone; UTC if the stored zone is unknown
    here (a missing tzdata entry must not stop the daily deal)."""
    try:
        return day_of(now, settings.timezone)
    except ValueError:
        return day_of(now)
