"""Turn pings: the short message that mentions a member whose turn waits, and its
deletion when that turn ends (docs/RULES.md §Turn pings).

Discord notifies a member of a mention only in a message *created* with
``allowed_mentions`` that let it; an edit never notifies (docs/DISCORD.md). The board
names the seat to act in an edit, so ``TurnPings`` decides when a member gets a message
of their own; the cogs send and delete it (a ``PingSender``).

When the turn of a member's seat begins (bidding or playing; not on auto-play, not at a
daily or event deal, which are private) a ping is armed for that turn (the table and its
``move_seq``): after the server's ``/ddz config turn_ping`` delay counted from the turn's
start (``GuildSettings.ping_delay``; the start is the deadline minus the turn timer, so
it survives a restart), unless the member said ``/ddz notify off``. It ends when the
table shows another turn (a play, a pass, a bid, a timeout, auto-play, the hand's end,
the table closed): not yet sent, it is cancelled; sent, the message is deleted. At most
one per member: a new turn of theirs elsewhere ends the older one.

A ping sent is stored (``Repository.save_sent_ping``) until deleted, so a restart still
deletes it when its turn ends (``restore``: at once when the turn ended while the bot was
down). A ping not yet sent is armed again by the restart like any turn, with what is left
of its delay (at once when it has passed).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from dataclasses import dataclass, field
from typing import Any, Protocol

from bot.game.table import Table
from bot.service.host import PingHost
from bot.service.tasks import TaskSet
from bot.values import SentPing, ShardSet

log = logging.getLogger(__name__)


class PingSender(Protocol):
    """Implemented by the cogs: posts and deletes turn pings."""

    async def send_ping(self, table: Table, user_id: int) -> int | None:
        """Post the ping of ``user_id``'s turn at ``table``; its message id, or None when
        it could not be posted (logged by the sender)."""
        ...

    async def delete_ping(self, ping: SentPing) -> None:
        """Delete a ping posted (an already deleted message is no error)."""
        ...


@dataclass(eq=False)
class _Ping:
    """One member's turn ping: ``waiting`` (armed), ``sending``, ``sent`` or ``over``."""

    table_id: str
    guild_id: int
    channel_id: int
    user_id: int
    move_seq: int
    state: str = "waiting"
    message_id: int | None = None
    stored: bool = False
    over: bool = False
    gone: bool = False
    """Its channel or server went away: no request deletes it (it went with them)."""
    task: asyncio.Task[None] | None = field(default=None, repr=False)

    def sent(self) -> SentPing:
        assert self.message_id is not None
        return SentPing(table_id=self.table_id, guild_id=self.guild_id,
                        channel_id=self.channel_id, user_id=self.user_id,
                        move_seq=self.move_seq, message_id=self.message_id)


def wanted(table: Table) -> tuple[int, int] | None:
    """``(user id, move_seq)`` of the member whose turn at ``table`` may be pinged now, or
    None: no hand being played, a computer's or an auto-played seat, a private table."""
    if table.phase != "playing" or table.private or table.hand is None:
        return None
    index = table.turn_seat
    if index is None or table.deadline is None:
        return None
    seat = table.seats[index]
    if seat.user_id is None or seat.computer is not None or seat.autoplay:
        return None
    return seat.user_id, table.move_seq


def turn_start(table: Table) -> float:
    """Clock time the turn to act began: its deadline minus the phase's turn timer (the
    bid timer for every decision before the play: bids, and the Happy rules' show after
    the kitty, as ``Table`` arms it)."""
    assert table.deadline is not None and table.hand is not None
    deciding = table.hand.phase != "playing"
    return table.deadline - (table.turn_seconds_bid if deciding else table.turn_seconds_play)


class TurnPings:
    """The turn pings of ``service``'s tables (see the module docstring): ``schedule``
    after every change, ``restore`` at start-up, ``close`` at shutdown. Nothing is armed
    while ``sender`` is None (a service without Discord). Counters: ``sent`` pings
    posted, ``deleted`` pings deleted."""

    def __init__(self, service: PingHost) -> None:
        self.service = service
        self.sender: PingSender | None = None
        self._by_table: dict[str, _Ping] = {}
        self._by_user: dict[int, _Ping] = {}
        self._notify: dict[tuple[int, int], bool] = {}
        self._tasks = TaskSet()
        self.closed = False
        self.sent = 0
        self.deleted = 0

    @property
    def tasks(self) -> frozenset[asyncio.Task[Any]]:
        """Ping tasks still running (for tests and shutdown)."""
        return self._tasks.tasks

    def pending(self, table_id: str) -> SentPing | None:
        """The ping of ``table_id`` posted and not yet deleted, if any."""
        ping = self._by_table.get(table_id)
        return ping.sent() if ping is not None and ping.state == "sent" else None

    # ----- the member's choice ---------------------------------------------------------

    async def notify(self, guild_id: int, user_id: int) -> bool:
        """The member's ``/ddz notify`` choice in the guild (cached; default on)."""
        key = (guild_id, user_id)
        if key not in self._notify:
            self._notify[key] = await self.service.storage.notify(guild_id, user_id)
        return self._notify[key]

    async def set_notify(self, guild_id: int, user_id: int, on: bool) -> None:
        """``/ddz notify on|off``: stored; a ping of theirs still waiting follows it, one
        already sent stays until its turn ends."""
        await self.service.storage.save_notify(guild_id, user_id, on)
        self._notify[(guild_id, user_id)] = on

    def forget(self, guild_id: int, user_id: int) -> None:
        """``/ddz forget`` deleted the member's choice: the default again."""
        self._notify.pop((guild_id, user_id), None)

    # ----- turns -----------------------------------------------------------------------

    def schedule(self, table: Table) -> None:
        """After a change of ``table``: keep the ping of a turn that goes on, end one whose
        turn ended, arm one for a member's turn that began."""
        if self.closed or self.sender is None:
            return
        want = wanted(table)
        current = self._by_table.get(table.id)
        if current is not None and want == (current.user_id, current.move_seq):
            return
        if current is not None:
            self._end(current)
        if want is None:
            return
        user_id, move_seq = want
        older = self._by_user.get(user_id)
        if older is not None:  # at most one per member
            self._end(older)
        ping = _Ping(table.id, table.guild_id, table.channel_id, user_id, move_seq)
        self._by_table[table.id] = self._by_user[user_id] = ping
        ping.task = self._spawn(self._run(ping, turn_start(table)),
                                f"ddz-ping-{table.id}-{move_seq}", owner=ping)

    def abandon(self, table_id: str) -> None:
        """The table's channel or server is gone (cogs/gone.py): its ping, if any, went
        with it. Nothing is sent or deleted on Discord; a stored row is dropped."""
        ping = self._by_table.get(table_id)
        if ping is not None:
            ping.gone = True
            self._end(ping)

    async def restore(self, tables: list[Table], shards: ShardSet | None = None) -> None:
        """At start-up, after the tables were loaded: each ping stored as sent stays
        while its turn goes on (deleted when it ends) and is deleted now when its turn
        ended meanwhile; then every table's current turn is scheduled (a ping not yet
        sent is armed again with what is left of its delay)."""
        if self.sender is None:
            return
        try:
            stored = await self.service.storage.sent_pings(shards)
        except Exception:
            log.exception("could not read the turn pings to delete")
            stored = []
        for row in stored:
            ping = _Ping(row.table_id, row.guild_id, row.channel_id, row.user_id,
                         row.move_seq, state="sent", message_id=row.message_id, stored=True)
            self._by_table[row.table_id] = self._by_user[row.user_id] = ping
        by_id = {t.id: t for t in tables}
        for row in stored:
            table = by_id.get(row.table_id)
            if table is None:
                self._end(self._by_table[row.table_id])
        for table in tables:
            self.schedule(table)

    async def close(self) -> None:
        """Cancel every task (a ping sent stays stored: the next start deletes it)."""
        self.closed = True
        await self._tasks.close()

    def _spawn(self, coro: Coroutine[Any, Any, None], name: str,
               owner: Any = None) -> asyncio.Task[None]:
        return self._tasks.spawn(coro, name, owner)

    def _end(self, ping: _Ping) -> None:
        """``ping``'s turn ended: cancel it while waiting, delete it once sent (while it
        is being sent, its own task deletes it after)."""
        if self._by_table.get(ping.table_id) is ping:
            del self._by_table[ping.table_id]
        if self._by_user.get(ping.user_id) is ping:
            del self._by_user[ping.user_id]
        if ping.over:
            return
        ping.over = True
        if ping.state == "waiting" and ping.task is not None:
            ping.task.cancel()
        elif ping.state == "sent" and not self.closed and (ping.stored or not ping.gone):
            self._spawn(self._delete(ping), f"ddz-unping-{ping.table_id}")

    async def _run(self, ping: _Ping, start: float) -> None:
        """Wait for the ping's delay, then post it unless its turn ended or the member
        or the server said no; store it; delete it at once if its turn ended meanwhile."""
        service = self.service
        try:
            delay = (await service.settings(ping.guild_id)).ping_delay()
            if delay is None:
                return
            await service.clock.sleep(start + delay - service.clock.now())
            if ping.over or not await self.notify(ping.guild_id, ping.user_id):
                return
            if (await service.settings(ping.guild_id)).ping_delay() is None:
                return  # turned off while the turn waited
        except asyncio.CancelledError:
            raise
        except Exception:  # a storage error: no ping this turn
            log.exception("turn ping of table %s not armed", ping.table_id)
            return
        table = service.get(ping.table_id)
        if ping.over or table is None or self.sender is None:
            return
        ping.state = "sending"
        try:
            message_id = await self.sender.send_ping(table, ping.user_id)
        except Exception:
            log.exception("turn ping of table %s failed", ping.table_id)
            message_id = None
        if message_id is None:
            ping.state = "over"
            return
        self.sent += 1
        ping.message_id = message_id
        if not ping.over:
            try:
                await service.storage.save_sent_ping(ping.sent())
                ping.stored = True
            except Exception:  # deleted all the same when its turn ends, but for a restart
                log.exception("could not store the turn ping of table %s", ping.table_id)
        ping.state = "sent"
        if ping.over:
            await self._delete(ping)

    async def _delete(self, ping: _Ping) -> None:
        """Delete a sent ping's message, then its row."""
        sent = ping.sent()
        if self.sender is not None and not ping.gone:
            try:
                await self.sender.delete_ping(sent)
                self.deleted += 1
            except Exception:
                log.exception("could not delete the turn ping of table %s", ping.table_id)
        if ping.stored:
            try:
                await self.service.storage.delete_sent_ping(sent.table_id, sent.message_id)
            except Exception:
                log.exception("could not forget the turn ping of table %s", ping.table_id)
