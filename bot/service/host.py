"""What the service's helpers need of the ``TableService`` that owns them, as protocols: the
turn tasks (``TurnHost``), the turn pings (``PingHost``), the features' private deals
(``PrivateHost``), a feature dealing its tables' hands (``DealingHost``), and what a kind of private deal
(``PrivateDeal``) or of public table (``PublicKind``) does for the service, and how a kind
names its hand view (``TitledKind``). They import this module, never ``bot.service.tables``: the service
is their host (the features' are built over it by ``bot.service.features``), without an
import circle (even in annotations).

Also the service's clock (``Clock``, ``SystemClock``) and the shape of a change
(``Apply``), which they share.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Protocol, runtime_checkable

from bot.game.seat import Event
from bot.game.table import Table
from bot.service.deciders import Decider
from bot.storage.repository import Repository
from bot.values import GuildSettings, Settlement

Apply = Callable[[Table, float], list[Event]]
"""A change applied to a working copy of a table at clock time ``now``; returns events."""

Title = tuple[str, dict[str, str | int]]
"""A hand view's first line as a catalog key and its parameters (the cogs translate it):
``("hand.title", {"table": "ab12", "hand": 3})``."""


class Clock(Protocol):
    """Time source of the service: ``now()`` in seconds (stored in deadlines), ``sleep``."""

    def now(self) -> float: ...

    async def sleep(self, seconds: float) -> None: ...


class SystemClock:
    """Wall-clock seconds (deadlines survive restarts) and ``asyncio.sleep``."""

    def now(self) -> float:
        return time.time()

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(max(0.0, seconds))


class Act(Protocol):
    """The service's one locked path of a change (``TableService._act``): ``apply`` to a
    copy of the table, committed; ``expect_seq``: GameError("stale") unless the table's
    ``move_seq`` is still this one."""

    async def __call__(self, table_id: str, apply: Apply, *,
                       expect_seq: int | None = None) -> Table: ...


class TurnHost(Protocol):
    """What ``bot.service.turns.TurnTasks`` reads of the service when a task is armed or
    fires (tests change them on the fly); a move takes the ``Act`` it is given."""

    clock: Clock
    ai_delay: float | tuple[float, float]
    pace_scale: float
    decider: Decider

    def get(self, table_id: str) -> Table | None: ...


class PingHost(Protocol):
    """What ``bot.service.pings.TurnPings`` reads of the service: its storage, clock,
    settings and open tables."""

    storage: Repository
    clock: Clock

    async def settings(self, guild_id: int) -> GuildSettings: ...

    def get(self, table_id: str) -> Table | None: ...


class PrivateHost(Protocol):
    """What a feature dealing private tables (a ``PrivateDeal`` kind) uses of the service
    whose tables it deals."""

    storage: Repository
    clock: Clock
    decider: Decider

    async def settings(self, guild_id: int) -> GuildSettings: ...

    def tables(self) -> list[Table]: ...

    async def add_private(self, table: Table, claim: Callable[[], Awaitable[bool]],
                          events: list[Event]) -> bool: ...


@runtime_checkable
class PrivateDeal(Protocol):
    """A kind of private deal (a feature's ``Table.kind``, ``Table.private``), registered
    with the service under that kind (``TableService.private``): ``finish`` records a
    finished table as the member's result in place of settling a table hand (no match
    totals, stats or ratings change)."""

    async def finish(self, table: Table) -> None: ...


@runtime_checkable
class PublicKind(Protocol):
    """A kind of public table (a feature's ``Table.kind``) registered with the service
    (``TableService.register``): ``settled`` is told, after the table's lock, of each hand
    the service settled at such a table (the settlement committed). Keep it quick:
    schedule slow work."""

    async def settled(self, table: Table, settlement: Settlement) -> None: ...


@runtime_checkable
class TitledKind(Protocol):
    """A kind of table that names its hand view (a feature's ``Table.kind``), registered
    with the service (``TableService.register``):
    ``hand_title`` is the first line of a member's hand view at such a table, from the
    table alone (no I/O: the view is drawn on every click)."""

    def hand_title(self, table: Table) -> Title: ...


class DealingHost(PrivateHost, Protocol):
    """What a feature that deals the hands of its own tables (``Table.feature_deals``) uses
    of the service: ``PrivateHost``'s
    (``add_private`` takes a table the feature dealt), the locked path of a change (``act``:
    the next hand, a seat handed over, a table closed), the auto-play pace's scale and the
    next deal's seed (``deal_seed``)."""

    pace_scale: float

    def deal_seed(self) -> int | None:
        """The next shuffle's seed when the service's deals follow a seed (``DDZ_DEAL_SEED``,
        tests only), else None (a fresh random shuffle)."""
        ...

    def get(self, table_id: str) -> Table | None: ...

    async def act(self, table_id: str, apply: Apply, *, notify: bool = True,
                  schedule: bool = True) -> Table: ...
