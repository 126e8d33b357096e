"""A TableService on a fake clock: the clock, a listener that records, helpers that
run the service's turn tasks, and a table of three members (``tests/support/fixtures.py``
builds the ``clock`` and ``service`` fixtures from them)."""

from __future__ import annotations

import asyncio
import itertools
from typing import Any

from bot.features.contract import install_features
from bot.features.installed import FEATURES
from bot.game.seat import Event
from bot.game.table import Table
from bot.service import TableService
from bot.storage.base import SqlRepository
from bot.values import Settlement

G, CH = 1, 10
ALICE, BOB, CARL = 101, 102, 103
HANDS = (  # seat 0 holds the bomb 3333; the kitty has both jokers (docs/RULES.md notation)
    "33334567899TJQKA2",
    "44556677889TJQKA2",
    "456789TTJJQQKKA22",
)
KITTY = "XDA"



def featured_service(storage: Any, **options: Any) -> TableService:
    """``TableService(storage, **options)`` with its features installed, as the Bot builds
    it (``bot.features.contract.install_features`` of ``FEATURES``), each feature also set
    on it for the tests under its name: ``service.daily``, ``.events``, ``.puzzles``,
    ``.tournaments``; ``service.installed``: the ``Features`` (the web page's ``Site``)."""
    service = TableService(storage, **options)
    features = install_features(service, FEATURES)
    for name, installed in features.installed.items():
        setattr(service, name, installed)
    service.installed = features  # type: ignore[attr-defined]
    return service


class FakeClock:
    """Time moves only when a test says so; ``sleep`` waits for that."""

    def __init__(self, start: float = 1_700_000_000.0) -> None:
        self.t = start
        self._order = itertools.count()
        self.sleepers: list[tuple[float, int, asyncio.Future[None]]] = []
        self.sleeping: dict[asyncio.Task, asyncio.Future[None]] = {}

    def now(self) -> float:
        return self.t

    async def sleep(self, seconds: float) -> None:
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        entry = (self.t + max(0.0, seconds), next(self._order), future)
        task = asyncio.current_task()
        assert task is not None
        self.sleepers.append(entry)
        self.sleeping[task] = future
        try:
            await future
        finally:
            self.sleepers.remove(entry)
            self.sleeping.pop(task, None)


class Recorder:
    """A listener that keeps everything it is told, and the latest state of every table
    it hears of (``latest``, by id: a finished daily or event table leaves the service at
    once)."""

    def __init__(self) -> None:
        self.events: list[Event] = []
        self.settlements: list[Settlement] = []
        self.latest: dict[str, Table] = {}

    async def on_table_changed(self, table: Table, events: list[Event]) -> None:
        self.events.extend(events)
        self.latest[table.id] = table

    async def on_hand_settled(self, table: Table, settlement: Settlement) -> None:
        self.settlements.append(settlement)

    def kinds(self) -> list[str]:
        return [e.kind for e in self.events]


async def quiesce(service: TableService, clock: FakeClock) -> None:
    """Wait until every service task is finished or sleeping on the fake clock."""
    for _ in range(2000):
        busy = [
            t
            for t in service.tasks
            if not t.done() and (t not in clock.sleeping or clock.sleeping[t].done())
        ]
        if not busy:
            return
        await asyncio.sleep(0.001)
    raise AssertionError("service never became idle")


async def run(service: TableService, clock: FakeClock, seconds: float = 0.0) -> None:
    """Advance the fake clock by ``seconds``, firing due sleepers in order."""
    target = clock.t + seconds
    while True:
        await quiesce(service, clock)
        due = sorted(s for s in clock.sleepers if s[0] <= target and not s[2].done())
        if not due:
            break
        clock.t = max(clock.t, due[0][0])
        due[0][2].set_result(None)
    clock.t = target


def recorder(service: TableService) -> Recorder:
    assert isinstance(service.listener, Recorder)
    return service.listener


async def three_players(service: TableService, *, first_bidder: int = 0) -> Table:
    table = await service.open_table(G, CH, ALICE, "Alice", "en")
    await service.join(table.id, BOB, "Bob")
    await service.join(table.id, CARL, "Carl")
    return await service.start(table.id, ALICE, hands=HANDS, kitty=KITTY, first_bidder=first_bidder)


async def saved(store: SqlRepository, table_id: str) -> Table | None:
    return next((t for t in await store.load_open_tables() if t.id == table_id), None)


def user_at(table: Table, seat: int) -> int:
    user = table.seats[seat].user_id
    assert user is not None
    return user


async def play_out(service: TableService, table_id: str) -> Table:
    """Members play their smallest legal play on a free lead and pass otherwise."""
    for _ in range(200):
        table = service.get(table_id)
        assert table is not None and table.hand is not None
        if table.phase != "playing":
            return table
        seat = table.turn_seat
        assert seat is not None
        hand = table.hand
        free = hand.last_play is None or hand.last_play.seat == seat
        if free:
            smallest = min(hand.legal_plays(seat), key=lambda c: (len(c.cards), c.rank))
            await service.play(table_id, user_at(table, seat), smallest, seq=table.seq)
        else:
            await service.pass_turn(table_id, user_at(table, seat), seq=table.seq)
    raise AssertionError("hand did not end")
