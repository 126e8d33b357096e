"""The service floor: state, locks, timers, worker pools and caches (asyncio, no discord).

Public API::

    from bot.service import TableService, TableListener, Clock, SystemClock,
                             Decider, thread_decide, pooled_decide

``TableService`` is the only writer of table state; the cogs call it and
listen to it (docs/ARCHITECTURE.md).
"""

from bot.service.deciders import Decider, pooled_decide, thread_decide
from bot.service.tables import Clock, NullListener, SystemClock, TableListener, TableService

__all__ = [
    "Clock", "Decider", "NullListener", "SystemClock", "TableListener", "TableService",
    "pooled_decide", "thread_decide",
]
