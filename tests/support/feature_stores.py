"""The whole storage as the tests read and write it: the repository, and each feature's
own store (bot/features/<name>/store.py) over it, under one name (the ``store`` fixture).

Issue 49 moved each feature's rows out of the ``Repository`` into its wing's store; the
tests keep calling ``store.begin_daily(…)``, ``store.create_tournament(…)`` as before:
``FeatureStores`` finds each name on the repository first, then on the stores.
"""

from __future__ import annotations

from typing import Any

from bot.features.daily.store import DailyStore
from bot.features.events.store import EventStore
from bot.features.puzzles.store import PuzzleStore
from bot.features.tournaments.store import TournamentStore
from bot.storage.base import SqlRepository


class FeatureStores:
    """``repository``'s attributes, then its feature stores' (setting an attribute sets it
    on the repository). Passed to a ``TableService`` it is its storage, as the repository
    would be."""

    def __init__(self, repository: SqlRepository) -> None:
        object.__setattr__(self, "repository", repository)
        stores = (DailyStore(self), EventStore(self), PuzzleStore(self), TournamentStore(self))
        object.__setattr__(self, "stores", stores)  # each over this: a Repository by delegation

    def __getattr__(self, name: str) -> Any:
        repository = object.__getattribute__(self, "repository")
        if hasattr(repository, name):
            return getattr(repository, name)
        for store in object.__getattribute__(self, "stores"):
            if hasattr(store, name):
                return getattr(store, name)
        raise AttributeError(name)

    def __setattr__(self, name: str, value: Any) -> None:
        setattr(object.__getattribute__(self, "repository"), name, value)

    def __delattr__(self, name: str) -> None:
        delattr(object.__getattribute__(self, "repository"), name)

    async def forget_user(self, guild_id: int | None, user_id: int, steps: Any = (),
                          daily_marks: Any = (), event_marks: Any = (),
                          puzzle_marks: Any = ()) -> int:
        """``Repository.forget_user`` with every feature's part, as the service asks it
        (``daily_marks``, ``event_marks``, ``puzzle_marks``: the marks each keeps)."""
        daily, events, puzzles, tournaments = object.__getattribute__(self, "stores")
        repository: SqlRepository = object.__getattribute__(self, "repository")
        return await repository.forget_user(
            guild_id, user_id, [*steps, daily.forget_step(guild_id, user_id, daily_marks),
                                events.forget_step(guild_id, user_id, event_marks),
                                puzzles.forget_step(guild_id, user_id, puzzle_marks),
                                tournaments.forget_step(guild_id, user_id)])
