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

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bot.ai import Decision
    from bot.service.deciders import Decider, pooled_decider, thread_decide
    from bot.service.host import Clock, SystemClock
    from bot.service.tables import NullListener, TableListener, TableService
    from bot.storage.repository import StorageUnavailable

_HOMES = {
    "Decision": "bot.ai", "Decider": "bot.service.deciders",
    "pooled_decider": "bot.service.deciders", "thread_decide": "bot.service.deciders",
    "Clock": "bot.service.host", "SystemClock": "bot.service.host",
    "NullListener": "bot.service.tables", "TableListener": "bot.service.tables",
    "TableService": "bot.service.tables", "StorageUnavailable": "bot.storage.repository",
}
"""Each public name's module, imported at the name's first use (PEP 562): a spawned worker
process that unpickles a function of ``bot.service.pool`` or ``bot.service.renderer``
imports that module and its own imports, not the whole service with the AI, the storage
and the features (bot/service/pool.py: a worker loads only the modules of its functions)."""

__all__ = [
    "Clock", "Decider", "Decision", "NullListener", "StorageUnavailable", "SystemClock",
    "TableListener", "TableService", "pooled_decider", "thread_decide",
]


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value
