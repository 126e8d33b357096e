"""TableService: the only writer of table state (docs/ARCHITECTURE.md §The path of one click).

Pure asyncio, no discord. Every action runs: table lock → apply to a copy of the
Table (its methods check seat, turn, phase and ``seq`` and raise GameError) →
``storage.save_table`` or, when the hand just finished, ``storage.settle_hand``
(one commit) → swap the copy in → unlock → schedule the next turn's timer or
computer move → notify the listener. A refused action changes nothing.

The turn tasks (timers and computer moves) are ``bot.service.turns``; the read-only
records (standings, stats, history) ``bot.service.records``, beside this service.
``restore()`` reloads open tables and re-arms them from the stored deadlines.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Awaitable, Callable
from typing import Any, Protocol, TypeVar

from bot.ai import Level
from bot.game.errors import GameError
from bot.game.hand import Cards
from bot.game.seat import PACE_MAX, PACE_MIN, Event
from bot.game.table import Table, rules_for
from bot.rules import Combo
from bot.service.deciders import Decider, thread_decide
from bot.service.forget import Forgetting
from bot.service.host import (
    Apply,
    Clock,
    PrivateDeal,
    PublicKind,
    SystemClock,
    Title,
    TitledKind,
)
from bot.service.pings import TurnPings
from bot.service.pool import WorkerPool
from bot.service.reads import PositionReads
from bot.service.records import RecordsService
from bot.service.releases import ReleaseNotes
from bot.service.turns import TurnTasks
from bot.storage.repository import Repository
from bot.values import (
    GuildSettings,
    NewMatch,
    Settlement,
    ShardSet,
)

log = logging.getLogger(__name__)
_D = TypeVar("_D", bound=PrivateDeal | PublicKind)


class TableListener(Protocol):
    """Implemented by the cogs. Keep both calls quick: schedule slow work (rendering)."""

    async def on_table_changed(self, table: Table, events: list[Event]) -> None: ...

    async def on_hand_settled(self, table: Table, settlement: Settlement) -> None: ...


class NullListener:
    """A listener that ignores everything."""

    async def on_table_changed(self, table: Table, events: list[Event]) -> None:
        return None

    async def on_hand_settled(self, table: Table, settlement: Settlement) -> None:
        return None


class TableService:
    """Owns every open table: one lock and one ``seq`` per table (docs/ARCHITECTURE.md §The path of one click).

    ``storage``: a Repository (committed before any method returns). ``clock``: a Clock
    (default SystemClock). ``listener``: a TableListener (default NullListener).
    ``ai_delay``: pause in seconds before a computer seat's move, a number or a
    ``(low, high)`` range drawn uniformly. ``pace_scale``: factor on a member's
    auto-play pace (``Seat.pace``, seconds; 1.0 = as chosen, tests use 0).
    ``deal_seed``: the shuffles of ``start``/``play_again`` follow this seed (the n-th
    deal is the same on every run; end-to-end tests); None = a random seed per deal.
    ``decider``: computes computer / auto-play moves (a Decider; default
    ``thread_decide``). ``prefetch_hints``: start the Hint's hard search for a member's
    turn when it begins (``HintCache.prefetch``; only while no other search runs).
    ``ranking_pool``: worker processes for the legal-play ranking (``ranked``; None:
    on the event loop). All
    action methods return the new Table
    (treat it as read-only) and raise GameError with the Table's codes, plus
    ``table_closed`` (unknown id), ``table_exists`` (channel busy) and
    ``already_seated`` (the member sits at another table of the guild; params ``table``,
    ``channel``: that table's id and channel id).
    """

    def __init__(
        self,
        storage: Repository,
        *,
        clock: Clock | None = None,
        listener: TableListener | None = None,
        ai_delay: float | tuple[float, float] = (0.6, 1.2),
        rng: random.Random | None = None,
        decider: Decider | None = None,
        prefetch_hints: bool = False,
        pace_scale: float = 1.0,
        deal_seed: int | None = None,
        ranking_pool: WorkerPool | None = None,
        ai_pool: WorkerPool | None = None,
    ) -> None:
        self.storage = storage
        self.clock: Clock = clock or SystemClock()
        self.listener: TableListener = listener or NullListener()
        self.ai_delay = ai_delay
        self.pace_scale = pace_scale
        self._deals = random.Random(deal_seed) if deal_seed is not None else None
        self.decider: Decider = decider or thread_decide
        self._tables: dict[str, Table] = {}
        self._locks: dict[str, asyncio.Lock] = {}
        self._settings: dict[int, GuildSettings] = {}
        self.reads = PositionReads(self.settings, ranking_pool=ranking_pool, ai_pool=ai_pool,
                                   prefetch_hints=prefetch_hints)
        """What the hand screens read of a position (``bot.service.reads``), offered here
        under the same names: ``choices``, ``ranked_known``, ``ranked``,
        ``hand_position``, ``hint_options``, ``hint_now``, ``hint_ready``."""
        reads = self.reads
        self.choices, self.ranked_known, self.ranked = reads.choices, reads.ranked_known, reads.ranked
        self.hand_position, self.hints = reads.hand_position, reads.hints
        self.hint_options, self.hint_now, self.hint_ready = (
            reads.hint_options, reads.hint_now, reads.hint_ready)
        self._guild_locks: dict[int, asyncio.Lock] = {}
        """Per server: opening a table and taking a seat (one table per channel, one seat
        per member per server), so that joins in different servers never wait for each other."""
        self.releases = ReleaseNotes()
        """Seats Play again released for timeouts, until their member hears of it."""
        self.take_release_notes = self.releases.take
        self.turns = TurnTasks(self, rng or random.Random(), self._act)
        """The tables' timers and computer moves (``bot.service.turns``)."""
        self.pings = TurnPings(self)
        """Turn pings: when a member whose turn waits gets a message mentioning them
        (``bot.service.pings``; the cogs set its ``sender``)."""
        self.records = RecordsService(storage)
        """The server's read-only records (``bot.service.records``)."""
        self.private: dict[str, PrivateDeal] = {}
        """Each kind of private deal by ``Table.kind`` (``bot.service.host.PrivateDeal``):
        what ``_act`` calls when such a table's hand ends."""
        self.public: dict[str, PublicKind] = {}
        """Each kind of public table by ``Table.kind`` (``bot.service.host.PublicKind``):
        told of each hand settled there, after the lock."""
        self.titled: dict[str, TitledKind] = {}
        """Each kind of table that names its hand view (``bot.service.host.TitledKind``);
        a channel's table (``"table"``) is named by ``hand_title`` itself."""
        self.forgetting = Forgetting(self.tables, storage, forgotten=self.pings.forget)
        """``/ddz forget`` (``bot.service.forget``): ``check_can_forget``, ``forget_user``
        and the ``forget_listeners`` told after a deletion; each feature adds its part of
        the deletion (``Forgetting.add_step``)."""
        self.forget_listeners = self.forgetting.listeners
        self.check_can_forget, self.forget_user = self.forgetting.check, self.forgetting.forget
        self.closing: list[Callable[[], Awaitable[None]]] = []
        """Awaited by ``close`` before the turn tasks stop: each feature's own shutdown."""
        # The features (``bot.features.installed.FEATURES``) are built over this service
        # and registered with it by ``bot.features.contract.install_features``.

    def register(self, kind: str, deal: _D) -> _D:
        """Take ``deal`` as the handler of tables of ``Table.kind`` ``kind``: a private
        deal's (``PrivateDeal.finish``) and/or a public kind's (``PublicKind.settled``), and
        the name of its hand view (``TitledKind.hand_title``)."""
        if isinstance(deal, PrivateDeal):
            self.private[kind] = deal
        if isinstance(deal, PublicKind):
            self.public[kind] = deal
        if isinstance(deal, TitledKind):
            self.titled[kind] = deal
        return deal

    @property
    def kinds(self) -> list[str]:
        """Every ``Table.kind`` this service holds tables of: ``"table"`` (a channel's) and
        each registered kind, sorted."""
        return sorted({"table", *self.private, *self.public, *self.titled})

    def hand_title(self, table: Table) -> Title:
        """The first line of a member's hand view at ``table``: its kind's
        (``TitledKind.hand_title``), else a channel table's ("Your hand · table ab12": no
        hand number, only a result shows one, the server's), so that a kind registered
        without one still draws its view."""
        kind = self.titled.get(table.kind)
        if kind is not None:
            return kind.hand_title(table)
        return "hand.title", {"table": table.id}

    # ----- queries (no lock; tables are replaced, never mutated, after commit) -------

    def get(self, table_id: str) -> Table | None:
        """The open table with this id, or None."""
        return self._tables.get(table_id)

    def tables(self) -> list[Table]:
        """Every open table."""
        return list(self._tables.values())

    def table_in_channel(self, channel_id: int) -> Table | None:
        """The open table of a channel (at most one), or None (a feature's private tables
        are in no channel)."""
        return next((t for t in self._tables.values()
                     if t.channel_id == channel_id and not t.private), None)

    def table_of_user(self, guild_id: int, user_id: int) -> Table | None:
        """The open table of the guild where the member holds a seat (``Table.holds``:
        not one they left during a hand that is over), or None. A private table (``Table.private``,
        a feature's private deal) is not one (its feature finds it among ``tables``)."""
        for table in self._tables.values():
            if table.guild_id == guild_id and not table.private and table.holds(user_id):
                return table
        return None

    @property
    def tasks(self) -> frozenset[asyncio.Task[Any]]:
        """Scheduled turn and ping tasks still running (for tests and shutdown)."""
        return self.turns.tasks | self.pings.tasks

    async def settings(self, guild_id: int) -> GuildSettings:
        """The guild's settings (cached after the first read)."""
        if guild_id not in self._settings:
            self._settings[guild_id] = await self.storage.get_settings(guild_id)
        return self._settings[guild_id]

    async def save_settings(self, guild_id: int, settings: GuildSettings) -> None:
        """Store new settings (``/ddz config``); tables use them from their next hand."""
        await self.storage.save_settings(guild_id, settings)
        self._settings[guild_id] = settings

    # ----- lobby -----------------------------------------------------------------

    async def open_table(
        self,
        guild_id: int,
        channel_id: int,
        user_id: int,
        name: str,
        locale: str | None = None,
        computers: int = 0,
        level: Level = "normal",
        chosen: dict[str, str] | None = None,
    ) -> Table:
        """Open a lobby in the channel with the member in seat 0 and ``computers`` (0..2)
        computer seats; ``chosen``: the table's rule set and deal over the server's
        (``Table.chosen``). Raises GameError: table_exists, already_seated."""
        settings = await self.settings(guild_id)
        async with self._guild_lock(guild_id):  # a channel belongs to one server
            if self.table_in_channel(channel_id) is not None:
                raise GameError("table_exists")
            seated = self.table_of_user(guild_id, user_id)
            if seated is not None:  # named, so the member can find it and leave
                raise GameError("already_seated", table=seated.id, channel=seated.channel_id)
            table = Table.open(
                guild_id, channel_id, user_id, name, locale,
                computers=max(0, min(2, computers)), level=level, rules=settings.rules,
                turn_seconds_play=settings.turn_seconds_play,
                turn_seconds_bid=settings.turn_seconds_bid, chosen=chosen,
            )  # fmt: skip
            _remembered_pace(table, user_id, await self.storage.autoplay_pace(guild_id, user_id))
            await self.storage.save_table(table)
            self._tables[table.id] = table
        await self._notify(table, [Event(kind="opened", seat=0)], None)
        return table

    async def join(
        self, table_id: str, user_id: int, name: str, locale: str | None = None,
        seq: int | None = None,
    ) -> Table:  # fmt: skip
        """Take a free seat, or take one's seat back after leaving mid-hand."""
        table = self._require(table_id)
        async with self._guild_lock(table.guild_id):  # one seat per member per guild, even racing
            other = self.table_of_user(table.guild_id, user_id)
            if other is not None and other.id != table_id:
                raise GameError("already_seated", table=other.id, channel=other.channel_id)
            pace = await self.storage.autoplay_pace(table.guild_id, user_id)

            def apply(work: Table, now: float) -> list[Event]:
                events = work.join(user_id, name, locale, seq=seq)
                _remembered_pace(work, user_id, pace)
                return events

            return await self._act(table_id, apply)

    async def leave(self, table_id: str, user_id: int, seq: int | None = None) -> Table:
        """Leave (mid-hand: the seat goes to auto-play and stays the member's)."""
        return await self._act(table_id, lambda t, now: t.leave(user_id, seq=seq))

    async def add_computer(
        self, table_id: str, user_id: int, level: str | None = None, seq: int | None = None
    ) -> Table:
        """Fill the first empty seat with a computer player of ``level`` (None: the
        table's ``computer_level``, chosen by ``/ddz start``)."""
        return await self._act(table_id, lambda t, now: t.add_computer(user_id, level, seq=seq))

    async def remove_computer(
        self, table_id: str, user_id: int, seat: int, seq: int | None = None
    ) -> Table:
        """Free a computer seat (lobby)."""
        return await self._act(table_id, lambda t, now: t.remove_computer(user_id, seat, seq=seq))

    async def start(
        self, table_id: str, user_id: int, seq: int | None = None, **deal: Any
    ) -> Table:
        """Deal a hand (three seats filled). ``deal``: ``seed``, ``first_bidder``,
        ``hands``, ``kitty`` for tests and set positions (``Table.start``)."""
        settings = await self.settings(self._require(table_id).guild_id)
        if "seed" not in deal and "hands" not in deal:
            deal = {**deal, "seed": self.deal_seed()}

        def apply(table: Table, now: float) -> list[Event]:
            _refresh(table, settings)
            return table.start(user_id, now, seq=seq, **deal)

        return await self._act(table_id, apply)

    async def play_again(self, table_id: str, user_id: int, seq: int | None = None) -> Table:
        """After a hand: deal again with the same seats (or back to the lobby)."""
        settings = await self.settings(self._require(table_id).guild_id)
        seed = self.deal_seed()

        def apply(table: Table, now: float) -> list[Event]:
            if table.phase == "finished":
                _refresh(table, settings)
            return table.play_again(user_id, now, seq=seq, seed=seed)

        return await self._act(table_id, apply)

    def deal_seed(self) -> int | None:
        """The next deal's seed with ``deal_seed`` set, else None (``Hand.deal`` draws one)."""
        return self._deals.getrandbits(63) if self._deals is not None else None

    async def set_fill(
        self, table_id: str, user_id: int, fill: str, is_admin: bool = False,
        seq: int | None = None,
    ) -> Table:  # fmt: skip
        """The starter's lobby choice for released seats (``Table.set_fill``)."""
        return await self._act(
            table_id, lambda t, now: t.set_fill(user_id, fill, is_admin, seq=seq)
        )

    async def cancel(
        self, table_id: str, user_id: int, is_admin: bool = False, seq: int | None = None
    ) -> Table:
        """Close the table (starter or admin); a hand in progress adds no points."""
        return await self._act(table_id, lambda t, now: t.cancel(user_id, is_admin, seq=seq))

    async def stop_hand(
        self, table_id: str, user_id: int, is_admin: bool = False, seq: int | None = None
    ) -> Table:
        """Abandon the current hand (starter or admin); it adds no points."""
        return await self._act(table_id, lambda t, now: t.stop_hand(user_id, is_admin, seq=seq))

    async def set_autoplay(
        self, table_id: str, user_id: int, on: bool, pace: float | None = None,
        seq: int | None = None,
    ) -> Table:  # fmt: skip
        """Turn auto-play on or off for the member's seat; ``pace`` in seconds (1..10,
        None: the seat's pace), also stored as the member's pace in this guild for their
        next seats. Raises GameError (``Table.set_autoplay``)."""
        done = await self._act(
            table_id, lambda t, now: t.set_autoplay(user_id, on, pace, seq=seq)
        )
        if pace is not None:
            await self.storage.save_autoplay_pace(done.guild_id, user_id, float(pace))
        return done

    async def new_match(self, guild_id: int, expected: int | None = None) -> NewMatch:
        """``/ddz newmatch``: every current match total of the guild back to zero, the
        finished match kept in the history; hands being played settle into the new
        match. Nothing changes when the current match is not ``expected`` or has no hand
        yet (``NewMatch.started`` False). Storage errors propagate."""
        return await self.storage.new_match(guild_id, expected)

    async def set_message_id(self, table_id: str, message_id: int | None) -> Table:
        """Remember the public table message (no ``seq`` change: buttons stay valid; the
        pending turn task is kept, so a computer's pause is not restarted)."""

        def apply(table: Table, now: float) -> list[Event]:
            table.message_id = message_id
            return []

        return await self._act(table_id, apply, notify=False, schedule=False)

    # ----- hand actions ------------------------------------------------------------

    async def bid(self, table_id: str, user_id: int, amount: int, seq: int | None = None) -> Table:
        """Bid ``amount`` (0 = pass, 1..3) for the member's seat."""
        return await self._act(table_id, lambda t, now: t.bid(user_id, amount, now, seq=seq))

    async def decide(self, table_id: str, user_id: int, kind: str, amount: int,
                     seq: int | None = None) -> Table:
        """A decision of the table's rule set before the play for the member's seat
        (``Table.decide``: under the Happy rules ``call``, ``grab``, ``show``, ``double``)."""
        return await self._act(
            table_id, lambda t, now: t.decide(user_id, kind, amount, now, seq=seq))

    async def play(
        self,
        table_id: str,
        user_id: int,
        cards: Cards,
        reading: int | Combo | None = None,
        seq: int | None = None,
    ) -> Table:
        """Play ``cards`` (docs/RULES.md notation, Cards or a Combo); ``reading`` picks one of
        several readings (index or Combo)."""
        return await self._act(
            table_id, lambda t, now: t.play(user_id, cards, now, reading, seq=seq)
        )

    async def pass_turn(self, table_id: str, user_id: int, seq: int | None = None) -> Table:
        """Pass (a pass bid while bidding)."""
        return await self._act(table_id, lambda t, now: t.pass_turn(user_id, now, seq=seq))

    # ----- lifecycle -------------------------------------------------------------

    async def restore(self, shards: ShardSet | None = None) -> list[Table]:
        """Load every open table (of guilds on ``shards`` only, if given: the process's
        own shards, docs/SCALING.md) and re-arm its timer / computer move.

        Returns the restored tables (the cogs redraw their messages).
        """
        restored = await self.storage.load_open_tables(shards)
        for table in restored:
            self._tables[table.id] = table
            self.turns.schedule(table)
        await self.pings.restore(restored, shards)
        log.info("restored %d open tables", len(restored))
        return restored

    async def close(self) -> None:
        """Cancel every scheduled task (the storage stays open: its owner closes it)."""
        self.reads.closed = True
        for close in self.closing:
            await close()
        await self.turns.close()
        await self.pings.close()
        await self.reads.close()

    # ----- the locked path ---------------------------------------------------------

    def _guild_lock(self, guild_id: int) -> asyncio.Lock:
        return self._guild_locks.setdefault(guild_id, asyncio.Lock())

    def _require(self, table_id: str) -> Table:
        table = self._tables.get(table_id)
        if table is None:
            raise GameError("table_closed")
        return table

    async def act(self, table_id: str, apply: Apply, *, notify: bool = True,
                  schedule: bool = True) -> Table:
        """A feature's change of one of its tables on the locked path (``DealingHost``,
        bot/service/host.py: the next hand, a seat handed over, a table closed): ``_act``
        without a move's ``expect_seq``. Raises GameError as ``apply`` does, or
        "table_closed"."""
        return await self._act(table_id, apply, notify=notify, schedule=schedule)

    async def _act(
        self,
        table_id: str,
        apply: Apply,
        *,
        expect_seq: int | None = None,
        notify: bool = True,
        schedule: bool = True,
    ) -> Table:
        """Lock, apply to a copy, commit (save / settle / delete), swap in, schedule, notify.

        ``expect_seq``: for scheduled moves, the ``move_seq`` they were armed for
        (GameError("stale") otherwise). ``schedule=False`` keeps the pending turn
        task (only for changes that leave turn, deadline and ``seq`` alone). Raises
        GameError; storage errors propagate and leave the table as it was.
        """
        lock = self._locks.setdefault(table_id, asyncio.Lock())
        settlement: Settlement | None = None
        async with lock:
            table = self._require(table_id)
            if expect_seq is not None and expect_seq != table.move_seq:
                raise GameError("stale")
            work = table.copy_for_change()
            events = apply(work, self.clock.now())
            if work.phase == "closed":
                await self.storage.delete_table(table_id)
                del self._tables[table_id]
                self._locks.pop(table_id, None)
            elif work.settleable and table.phase != "finished" and work.private:
                await self.private[work.kind].finish(work)  # a result, no table hand
                del self._tables[table_id]
                self._locks.pop(table_id, None)
                events.append(Event(kind=f"{work.kind}_finished"))
            elif work.settleable and table.phase != "finished":
                settlement = await self.storage.settle_hand(work, work.hand_id)
                self._tables[table_id] = work
                events.append(_settled_event(settlement))
            else:
                await self.storage.save_table(work)
                self._tables[table_id] = work
        self.releases.note(work, events)
        if schedule:
            self.turns.schedule(work)
            self.pings.schedule(work)
            self.reads.ahead(work)
        if notify:
            await self._notify(work, events, settlement)
        kind = self.public.get(work.kind)
        if settlement is not None and kind is not None and not settlement.replayed:
            try:
                await kind.settled(work, settlement)
            except Exception:
                log.exception("%s failed after hand %s", work.kind, settlement.hand_id)
        return work

    async def add_private(self, table: Table, claim: Callable[[], Awaitable[bool]],
                          events: list[Event]) -> bool:
        """Take a private table a feature freshly dealt: ``claim()`` the member's play of it
        and save it in one commit (the feature's store writes its row of the play), then arm
        its turn and notify. False (nothing kept) when the claim fails: the member has
        played or is playing it already (or the feature's deal has closed). Storage errors
        propagate."""
        async with self._guild_lock(table.guild_id):
            if not await claim():
                return False
            self._tables[table.id] = table
        self.turns.schedule(table)
        await self._notify(table, events, None)
        return True

    async def _notify(
        self, table: Table, events: list[Event], settlement: Settlement | None
    ) -> None:
        """Tell the listener; its errors are logged, never raised."""
        try:
            await self.listener.on_table_changed(table, events)
            if settlement is not None:
                await self.listener.on_hand_settled(table, settlement)
        except Exception:
            log.exception("listener failed for table %s seq %s", table.id, table.seq)

def _remembered_pace(table: Table, user_id: int, pace: float | None) -> None:
    """Give the member's seat their stored auto-play pace (ignored when out of range)."""
    index = table.seat_of(user_id)
    if index is not None and pace is not None and PACE_MIN <= pace <= PACE_MAX:
        table.seats[index].pace = pace


def _refresh(table: Table, settings: GuildSettings) -> None:
    """Apply the guild's current timers and rules before a new hand."""
    table.rules = rules_for(settings.rules, table.chosen)
    table.turn_seconds_play = settings.turn_seconds_play
    table.turn_seconds_bid = settings.turn_seconds_bid


def _settled_event(settlement: Settlement) -> Event:
    params: dict[str, str | int] = {
        "hand_id": settlement.hand_id,
        "match_no": settlement.match_no,
        "match_over": int(settlement.match_over),
        "winners": ",".join(str(u) for u in settlement.winners),
    }
    return Event(kind="settled", params=params)
