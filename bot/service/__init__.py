"""The service floor: state, locks, timers, worker pools and caches (asyncio, no discord).

Public API::

    from bot.service import TableService, TableListener, Clock, SystemClock,
                             Decider, thread_decide, pooled_decider, Decision,
                             StorageUnavailable

``StorageUnavailable`` (from the storage): an action the database could not take now
(full disk, read-only, no answer in time); nothing changed, try again in a moment.

``TableService`` is the only writer of table state; the cogs call it and
listen to it (docs/ARCHITECTURE.md). ``Decision`` (a move with its reason, from
``bot.ai``) is what the service's hints and deciders answer.
"""

from bot.ai import Decision
from bot.service.deciders import Decider, pooled_decider, thread_decide
from bot.service.host import Clock, SystemClock
from bot.service.tables import NullListener, TableListener, TableService
from bot.storage.repository import StorageUnavailable

__all__ = [
    "Clock", "Decider", "Decision", "NullListener", "StorageUnavailable", "SystemClock",
    "TableListener", "TableService", "pooled_decider", "thread_decide",
]
