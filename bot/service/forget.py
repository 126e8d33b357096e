"""``/ddz forget`` in the service (docs/ARCHITECTURE.md §Where state lives): who may
forget now, and the deletion of a member's stored data in one server: the core's rows and
each feature's (its step, ``Forgetting.add_step``), keeping only the keyed marks a feature
keeps so that forgetting opens no second play of a deal it allows once."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from bot.game.errors import GameError
from bot.game.table import Table
from bot.storage.repository import ForgetStep, Repository

Check = Callable[[int, int], Awaitable[None]]
"""(guild id, user id) → None, or GameError while a feature holds the member in a way
forgetting would break (a feature's ``forget_check``)."""

StepOf = Callable[[int, int], Awaitable[ForgetStep]]
"""(guild id, user id) → a feature's part of the member's deletion (its rows of the member,
the keyed marks it keeps), run in ``Repository.forget_user``'s transaction."""


class Forgetting:
    """``tables``: the service's open tables; ``forgotten``: told (guild id, user id)
    once the data is gone (the turn pings' choice), before ``listeners``. Each feature
    with rows of the member, or marks to keep through a deletion, adds its step
    (``add_step``)."""

    def __init__(self, tables: Callable[[], list[Table]], storage: Repository, *,
                 forgotten: Callable[[int, int], None]) -> None:
        self._tables, self.storage = tables, storage
        self._steps: list[StepOf] = []
        self._checks: list[Check] = []
        self._forgotten = forgotten
        self.listeners: list[Callable[[int, int], None]] = []
        """Called with (guild id, user id) after ``forget`` deleted a member's data
        (the web page drops its cached pages of that server, docs/WEB.md; a feature
        takes the member's id off what it keeps open, its ``forgotten``)."""

    def add_check(self, check: Check) -> None:
        """Ask ``check`` too before each deletion (``check``, ``forget``)."""
        self._checks.append(check)

    def add_step(self, step_of: StepOf) -> None:
        """Run ``step_of``'s answer in each deletion (``Repository.forget_user``'s
        ``steps``, in the order added), in the same commit."""
        self._steps.append(step_of)

    async def check(self, guild_id: int, user_id: int) -> None:
        """Raise GameError("forget_while_seated") while the member sits at an open table
        of the guild, "forget_while_private" at a private deal's (``Table.private``: no
        leaving it: it is finished, by auto-play at worst); its hand would still settle
        for them. Then each feature's check (``add_check``: its own refusal)."""
        table = next((t for t in self._tables()
                      if t.guild_id == guild_id and t.seat_of(user_id) is not None), None)
        if table is not None and table.private:
            raise GameError("forget_while_private", table=table.id)
        if table is not None:
            raise GameError("forget_while_seated", table=table.id)
        for check in self._checks:
            await check(guild_id, user_id)

    async def forget(self, guild_id: int, user_id: int) -> int:
        """Delete the member's stored data in the guild (``/ddz forget``); rows touched.
        Each feature does its part in the same commit (``add_step``): its rows of the
        member go, only its keyed marks stay (of a deal the member began that allows one
        play), so that none opens a second time.
        Raises GameError("forget_while_seated") and the others of ``check``."""
        await self.check(guild_id, user_id)
        steps = [await step_of(guild_id, user_id) for step_of in self._steps]
        touched = await self.storage.forget_user(guild_id, user_id, steps)
        self._forgotten(guild_id, user_id)
        for listener in self.listeners:
            listener(guild_id, user_id)
        return touched
