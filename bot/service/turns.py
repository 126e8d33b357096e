"""Turn tasks: each open table's one timer or computer move (docs/ARCHITECTURE.md
§Timers and computer moves).

Timers are data (docs/RULES.md §Timers): ``Table.deadline`` holds the clock time by
which the seat to act must act; one task per open table sleeps until then (or
``ai_delay`` for a computer seat, the member's ``Seat.pace`` for a member on
auto-play) and then acts through the service's locked path (``TableService._act``),
guarded by the ``move_seq`` it was armed for. A change that moves nothing (an
auto-play toggle of another seat, leaving, coming back) keeps a pending move's task,
so its pause is not restarted. A failing task is tried again with back-off.
"""

from __future__ import annotations

import asyncio
import logging
import random
from dataclasses import dataclass, field
from typing import Any

from bot.game.computer import AutoAction, decide_pending, fallback_action
from bot.game.errors import GameError
from bot.game.private import move_rng
from bot.game.seat import Event
from bot.game.table import Table
from bot.service.host import Act, TurnHost
from bot.service.tasks import TaskSet

log = logging.getLogger(__name__)

RETRY_SECONDS = 5.0
"""Pause before a failed timer / computer move is tried again; it doubles after each
further failure of the same table's turn task (storage down…), up to RETRY_MAX_SECONDS."""
RETRY_MAX_SECONDS = 300.0


@dataclass
class _Timer:
    """The pending turn task of one table; ``armed`` while it is still sleeping.

    ``move_seq``: the table's ``move_seq`` it acts on; ``plan``: what it will do
    (``("timeout",)``, ``("computer",)`` or ``("pace", seconds)``)."""

    move_seq: int
    plan: tuple[object, ...] = ()
    armed: bool = True
    task: asyncio.Task[None] | None = field(default=None, repr=False)


class TurnTasks:
    """The turn tasks of ``service``'s tables: ``schedule(table)`` after every change,
    ``close()`` at shutdown. Reads the service's ``clock``, ``ai_delay``,
    ``pace_scale`` and ``decider`` when a task is armed or fires (tests change them);
    ``rng``: the computers' pauses and the seeds of their moves; ``act``: the service's
    locked path, which every move takes."""

    def __init__(self, service: TurnHost, rng: random.Random, act: Act) -> None:
        self.service = service
        self.rng = rng
        self.act = act
        self._timers: dict[str, _Timer] = {}
        self._failures: dict[str, int] = {}
        self._tasks = TaskSet()
        self.closed = False

    @property
    def tasks(self) -> frozenset[asyncio.Task[Any]]:
        """Turn tasks still running (for tests and shutdown)."""
        return self._tasks.tasks

    async def close(self) -> None:
        """Cancel every task; none is armed again."""
        self.closed = True
        await self._tasks.close()
        self._timers.clear()

    def schedule(self, table: Table) -> None:
        """Arm the table's turn task for its current state; a pending task with the same
        plan for the same move is kept (its pause goes on, not restarted)."""
        plan = self.plan(table)
        old = self._timers.get(table.id)
        if (old is not None and old.armed and plan is not None
                and (old.move_seq, old.plan) == (table.move_seq, plan)):
            return
        self._timers.pop(table.id, None)
        if old is not None and old.armed and old.task is not None:
            old.task.cancel()
        if plan is None:
            return
        if plan[0] == "timeout":
            assert table.deadline is not None
            delay = table.deadline - self.service.clock.now()
        elif plan[0] == "pace":
            delay = float(plan[1]) * self.service.pace_scale  # type: ignore[arg-type]  # plan[1] is the pace, a float
        else:
            delay = self._ai_pause()
        self._arm(table.id, table.move_seq, delay, plan)

    def plan(self, table: Table) -> tuple[object, ...] | None:
        """What the turn task must do now: act for a computer seat, for a member on
        auto-play at their pace (an away member: at the computers' pause), time the
        member out at the deadline, or nothing (None)."""
        if self.closed or table.phase != "playing" or table.hand is None:
            return None
        if table.turn_seat is None:  # a decision all seats make at once, or nothing
            if not table.hand.awaiting:
                return None
            if decide_pending(table):
                return ("computer",)
            return ("timeout",) if table.deadline is not None else None
        seat = table.seats[table.turn_seat]
        if seat.computer is not None or (seat.autoplay and seat.away):
            return ("computer",)
        if seat.autoplay:
            return ("pace", seat.pace)
        if table.deadline is not None:
            return ("timeout",)
        return None

    def _arm(self, table_id: str, move_seq: int, delay: float, plan: tuple[object, ...]) -> None:
        timer = _Timer(move_seq=move_seq, plan=plan)
        timer.task = self._tasks.spawn(self._fire(timer, table_id, delay),
                                       name=f"ddz-turn-{table_id}-{move_seq}", owner=timer)
        self._timers[table_id] = timer

    def _ai_pause(self) -> float:
        ai_delay = self.service.ai_delay
        if isinstance(ai_delay, tuple):
            return self.rng.uniform(*ai_delay)
        return float(ai_delay)

    async def _fire(self, timer: _Timer, table_id: str, delay: float) -> None:
        """Sleep, then act for the seat to act (timeout or computer move) through ``_act``."""
        await self.service.clock.sleep(max(0.0, delay))
        timer.armed = False
        try:
            await self._auto_turn(table_id, timer.move_seq, timer.plan)
            self._failures.pop(table_id, None)
        except GameError as error:
            # the code only: a GameError's params may name cards of a hidden hand
            log.debug("turn task for %s move %s dropped: %s", table_id, timer.move_seq, error.code)
        except Exception:
            log.exception("turn task failed: table %s move %s", table_id, timer.move_seq)
            table = self.service.get(table_id)
            if table is not None and table.move_seq == timer.move_seq and not self.closed:
                failures = self._failures[table_id] = self._failures.get(table_id, 0) + 1
                retry = min(RETRY_SECONDS * 2 ** (failures - 1), RETRY_MAX_SECONDS)
                self._arm(table_id, timer.move_seq, retry, timer.plan)

    async def _auto_turn(self, table_id: str, move_seq: int, plan: tuple[object, ...]) -> None:
        table = self.service.get(table_id)
        if table is None or table.move_seq != move_seq or table.hand is None:
            return
        if table.turn_seat is None:
            await self._all_at_once(table_id, move_seq, plan)
            return
        timed_out = plan[0] == "timeout"
        if timed_out and table.hand.asked(table.turn_seat) != "play":
            action: AutoAction = 0  # docs/RULES.md §Timers: a pass in bidding (Happy: "no")
        else:
            # A private table's computers answer the position alone (docs/RULES.md §Daily deal).
            rng = (move_rng(table) if table.private
                   else random.Random(self.rng.getrandbits(64)))
            try:
                action = await self.service.decider(table, rng)
            except Exception:
                log.exception("computer player failed: table %s move %s", table_id, move_seq)
                action = fallback_action(table)

        def apply(work: Table, now: float) -> list[Event]:
            if self.plan(work) != plan:  # auto-play turned off (or on) meanwhile
                raise GameError("stale")
            try:
                return work.auto_act(action, now, timed_out=timed_out)
            except GameError as error:
                log.warning("computer action refused (%s) at table %s", error.code, table_id)
                return work.auto_act(fallback_action(work), now, timed_out=timed_out)

        await self.act(table_id, apply, expect_seq=move_seq)  # the one locked path

    async def _all_at_once(self, table_id: str, move_seq: int, plan: tuple[object, ...]) -> None:
        """A decision all seats make at once (the Happy rules' doubling): the computers'
        choices (``decide_pending``), or at the deadline ``Table.time_out``."""

        def apply(work: Table, now: float) -> list[Event]:
            if self.plan(work) != plan:
                raise GameError("stale")
            if plan[0] == "timeout":
                return work.time_out(now)
            events: list[Event] = []
            for seat, kind, amount in decide_pending(work):
                events.extend(work.auto_decide(seat, kind, amount, now))
            return events

        await self.act(table_id, apply, expect_seq=move_seq)
