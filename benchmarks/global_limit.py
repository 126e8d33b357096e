"""1,000 busy tables on one bot token within Discord's global rate limit (simulated clock).

Run: ``python -m benchmarks.global_limit [--tables 1000] [--minutes 10] [--rate 40]
[--restart-at 300] [--seed 1] [--rtt 0.002] [--runs old,tokens,...]``. No Discord, no rendering, no game: the real
``cogs.delivery.Delivery`` and ``bot.service.budget.GlobalBudget`` on an event loop
whose clock jumps to the next timer instead of sleeping (``VirtualClockLoop``), so
ten minutes of 1,000 tables take a few seconds of CPU.

Each table plays hands as the e2e acceptance test does (one member on auto-play,
two computers, a move every 0.8-1.2 s, 35-55 moves a hand, 3 s between hands); the
board is redrawn as ``cogs/board.py`` does: one task per table, at most once per
second, last state wins. A hand starts with a click (Start, then Play again) whose
token the board gets (``Delivery.offer``); the deal is that click's follow-up. A
new table's lobby is posted in the channel (``/ddz start``). Interaction tokens
live 15 minutes (``cogs.delivery.TOKEN_LIFETIME``).

Three runs, side by side:

* ``old way``: every post and edit through the channel, no budget (the board before
  issue 24);
* ``tokens``: the board on interaction tokens, the channel within ``--rate``;
* ``restart``: the same, but at ``--restart-at`` seconds every token is lost (a
  restart: tokens are kept in memory only), so every board goes through the channel
  and the budget until its next hand's click.

Then two processes of one bot token, half the tables each (one shard each), and only
process A restarts at ``--restart-at`` (a rolling deploy): A's boards all go through
the channel for a while, B's stay on tokens.

* ``2p static``: each process has its static half of ``--rate`` (before the shared
  budget, and what a process falls back to when PostgreSQL does not answer);
* ``2p shared``: both lease from one shared bucket: the real ``GlobalBudget`` on a
  model of ``bot/storage/shared_budget.py``'s row (``ModelBucket``: the same
  arithmetic in Python, a round-trip of ``--rtt`` seconds), so A may use what B does
  not. ``leases/s`` is the round-trips to that row per process (A, B): on average /
  the most in any simulated second.

Then the same two processes, but A serves 7 tables in 10 and both restart at
``--restart-at`` (a full deploy): ``7:3 static`` (half the rate each) and ``7:3
shared`` (the shared row, where each process's reservations are sized by how many
requests wait in it, so the rate is split by demand). ``--runs`` picks runs by key:
``old,tokens,restart,static,shared,uneven-static,uneven-shared``.

Printed per run: global-limited requests (in all, per second on average, the most in
any one second, the seconds above Discord's 50, i.e. where a 429 storm would start),
exempt requests per second, and how far boards fell behind (seconds from a table
change to the edit that shows it: p50, p99, max).
"""

from __future__ import annotations

import argparse
import asyncio
import math
import random
import selectors
from collections import Counter
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

from bot.service.budget import (
    COSMETIC,
    DISCORD_GLOBAL_LIMIT,
    INTERACTION_RATE,
    RESULT,
    TURN,
    GlobalBudget,
    InteractionGuard,
)
from bot.storage.shared_budget import DEBT_SECONDS, DEMAND_SECONDS
from cogs import delivery
from cogs.delivery import Delivery
from tests.support.fake_tokens import fake_token

MIN_INTERVAL = 1.0
"""cogs/board.py's redraw interval per table (seconds)."""


class _Selector(selectors.SelectSelector):
    """Never sleeps: a wait for ``timeout`` seconds moves the loop's clock instead."""

    def __init__(self, loop: VirtualClockLoop) -> None:
        super().__init__()
        self.loop = loop

    def select(self, timeout: float | None = None) -> list[Any]:
        ready = super().select(0)
        if not ready and timeout:
            self.loop.now += timeout
        return ready


class VirtualClockLoop(asyncio.SelectorEventLoop):
    """An event loop on simulated time (seconds from 0)."""

    def __init__(self) -> None:
        self.now = 0.0
        super().__init__(_Selector(self))

    def time(self) -> float:
        return self.now


class Discord:
    """Counts what the bot sends: global-limited requests by second, exempt ones."""

    def __init__(self, guard: InteractionGuard | None = None) -> None:
        self.per_second: Counter[int] = Counter()
        self.exempt = 0
        self.exempt_per_second: Counter[int] = Counter()
        self.guard = guard
        self.loop = asyncio.get_running_loop()

    def limited(self) -> None:
        self.per_second[int(self.loop.time())] += 1

    async def interaction_route(self) -> None:
        """One request on an interaction route, through the process's cap when capped
        (``DDZ_INTERACTION_RATE``: bot.service.budget.InteractionGuard)."""
        if self.guard is not None:
            await self.guard.take()
        self.exempt += 1
        self.exempt_per_second[int(self.loop.time())] += 1


class Interaction:
    """What Delivery uses of an interaction (answered at once, as a deferred click)."""

    def __init__(self, discord: Discord, channel_id: int, ids: Any) -> None:
        self.channel_id, self._discord, self._ids = channel_id, discord, ids
        self.extras: dict[str, Any] = {}
        self.id = next(ids)  # Delivery's per-token bucket is keyed by the interaction's id
        self.response = SimpleNamespace(is_done=lambda: True)
        self.followup = SimpleNamespace(send=self._send, edit_message=self._edit)
        fake_token(self)  # Delivery keeps its TokenRef (cogs/tokens.py)

    async def _send(self, **kwargs: Any) -> Any:
        await self._discord.interaction_route()
        return SimpleNamespace(id=next(self._ids))

    async def _edit(self, message_id: int, **kwargs: Any) -> None:
        await self._discord.interaction_route()

    async def edit_original_response(self, **kwargs: Any) -> None:
        await self._discord.interaction_route()


class Bot:
    """What Delivery uses of the bot for channel requests."""

    def __init__(self, discord: Discord, ids: Any) -> None:
        self._discord, self._ids = discord, ids

    def get_partial_messageable(self, channel_id: int, guild_id: int | None = None) -> Any:
        discord, ids = self._discord, self._ids

        async def send(**kwargs: Any) -> Any:
            discord.limited()
            return SimpleNamespace(id=next(ids))

        async def edit(**kwargs: Any) -> None:
            discord.limited()

        return SimpleNamespace(send=send,
                               get_partial_message=lambda message_id: SimpleNamespace(edit=edit))


class ModelBucket:
    """``bot/storage/shared_budget.py``'s rows in Python on the loop's clock: ``state`` is
    the bucket's row and the processes' demand (shared by every process's bucket), half
    the round-trip ``rtt`` each way."""

    def __init__(self, state: dict[str, Any], rate: float, burst: float, rtt: float,
                 process: str) -> None:
        self.state, self.rate, self.burst, self.rtt = state, rate, burst, rtt
        self.process = process
        self.leases = 0
        self.per_second: Counter[int] = Counter()

    async def lease(self, wanted: int, waiting: int) -> tuple[int, float, int]:
        loop = asyncio.get_running_loop()
        await asyncio.sleep(self.rtt / 2)
        row, now, debt = self.state, loop.time(), self.rate * DEBT_SECONDS
        demand: dict[str, tuple[int, float]] = row["demand"]
        demand[self.process] = (max(waiting, wanted), now)
        busiest = max((n for p, (n, at) in demand.items()
                       if p != self.process and at > now - DEMAND_SECONDS), default=0)
        banked = min(self.burst, row["tokens"] + self.rate * max(0.0, now - row["stamp"]))
        granted = max(0, min(wanted, math.floor(banked + debt)))
        row["tokens"], row["stamp"] = banked - granted, max(row["stamp"], now)
        left = row["tokens"]
        await asyncio.sleep(self.rtt / 2)
        self.leases += 1
        self.per_second[int(now)] += 1
        if granted:
            return granted, max(0.0, -left) / self.rate, busiest
        return 0, max(0.0, 1.0 - (left + debt)) / self.rate, busiest

    async def close(self) -> None:
        pass


@dataclass
class Table:
    """One table's board as cogs/board.py keeps it: the message, what is not shown yet."""

    channel_id: int
    message_id: int | None = None
    changed_at: float | None = None
    """When the oldest change not yet on the board happened (None: the board is current)."""
    priority: int = COSMETIC
    new_message: bool = False
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    lags: list[float] = field(default_factory=list)


class Sim:
    """``processes`` 1: one process with the whole budget; 2: two, table n served by
    process n % 2, with ``shared`` a shared bucket (else each has half the rate); the
    restart drops process 0's tokens only when there are two. ``uneven``: process A
    serves 7 tables in 10, and both restart."""

    def __init__(self, args: argparse.Namespace, tokens: bool, restart_at: float | None,
                 processes: int = 1, shared: bool = False, uneven: bool = False,
                 capped: bool = False) -> None:
        self.args, self.tokens, self.restart_at = args, tokens, restart_at
        self.uneven = uneven
        self.discord = Discord(
            InteractionGuard(args.interaction_rate, capped=True) if capped else None)
        self.ids = iter(range(10**12, 10**13))
        self.budgets: list[GlobalBudget] = []
        self.buckets: list[ModelBucket] = []
        row: dict[str, Any] = {"tokens": args.rate / 4, "stamp": 0.0, "demand": {}}
        for n in range(processes if tokens else 0):
            if shared:
                bucket = ModelBucket(row, args.rate, args.rate / 4, args.rtt, f"shards:{n}")
                self.buckets.append(bucket)
                self.budgets.append(GlobalBudget(args.rate, shared=bucket,
                                                 fallback_rate=args.rate / processes))
            else:
                self.budgets.append(GlobalBudget(args.rate / processes))
        budgets: list[GlobalBudget | None] = [*self.budgets] or [None]
        self.deliveries = [Delivery(Bot(self.discord, self.ids), budget)  # type: ignore[arg-type]
                           for budget in budgets]
        self.end = args.minutes * 60.0

    def process_of(self, table: Table) -> int:
        """0 (A) or 1 (B): which process serves ``table`` (0 with one process)."""
        if len(self.deliveries) == 1:
            return table.channel_id % 2  # (A and B's lags: every other table)
        return int(table.channel_id % 10 >= 7) if self.uneven else table.channel_id % 2

    def delivery_of(self, table: Table) -> Delivery:
        return self.deliveries[self.process_of(table) % len(self.deliveries)]

    def offer(self, table: Table, edits: int | None) -> None:
        if self.tokens:
            self.delivery_of(table).offer(
                Interaction(self.discord, table.channel_id, self.ids),  # type: ignore[arg-type]
                edits=edits)

    def change(self, table: Table, priority: int, new_message: bool = False) -> None:
        loop = asyncio.get_running_loop()
        if table.changed_at is None:
            table.changed_at = loop.time()
        table.priority = min(table.priority, priority)
        table.new_message = table.new_message or new_message
        table.wake.set()

    async def board(self, table: Table) -> None:
        """cogs/board.py's redraw task: at most once per MIN_INTERVAL, last state wins."""
        loop = asyncio.get_running_loop()
        last = -1e9
        while loop.time() < self.end + 60:
            await table.wake.wait()
            table.wake.clear()
            await asyncio.sleep(max(0.0, last + MIN_INTERVAL - loop.time()))
            changed, priority, new = table.changed_at, table.priority, table.new_message
            table.changed_at, table.priority, table.new_message = None, COSMETIC, False
            if changed is None:
                continue
            if new or table.message_id is None:
                table.message_id = await self.delivery_of(table).send(table.channel_id, None,
                                                                      RESULT)
            else:
                await self.delivery_of(table).edit(table.channel_id, table.message_id, priority)
            last = loop.time()
            table.lags.append(last - changed)

    async def play(self, table: Table, rng: random.Random) -> None:
        loop = asyncio.get_running_loop()
        await asyncio.sleep(rng.uniform(0, 30))  # tables open over the first half minute
        self.change(table, RESULT, new_message=True)  # /ddz start: the lobby
        await asyncio.sleep(rng.uniform(2, 5))
        while loop.time() < self.end:
            self.offer(table, table.message_id)  # Start / Play again, on the board
            self.change(table, RESULT, new_message=True)  # the deal
            for move in range(rng.randint(35, 55)):
                await asyncio.sleep(rng.uniform(0.8, 1.2))
                self.change(table, TURN if move % 3 == 0 else COSMETIC)  # alice's turn: a ping
            self.change(table, RESULT)  # the result
            await asyncio.sleep(3.0)

    async def restart(self) -> None:
        if self.restart_at is None:
            return
        await asyncio.sleep(self.restart_at)
        restarted = self.deliveries[:1] if not self.uneven else self.deliveries
        for lost in restarted:  # a restart: tokens live in memory only
            lost.posters.clear()
            lost.editors.clear()

    async def run(self) -> dict[str, Any]:
        rng = random.Random(self.args.seed)
        tables = [Table(channel_id=1000 + n) for n in range(self.args.tables)]
        boards = [asyncio.create_task(self.board(t)) for t in tables]
        await asyncio.gather(self.restart(), *(self.play(t, random.Random(rng.getrandbits(32)))
                                               for t in tables))
        await asyncio.sleep(60)  # boards catch up
        for task in boards:
            task.cancel()
        await asyncio.gather(*boards, return_exceptions=True)
        lags = sorted(lag for t in tables for lag in t.lags)
        a_lags = sorted(lag for t in tables if self.process_of(t) == 0 for lag in t.lags)
        b_lags = sorted(lag for t in tables if self.process_of(t) == 1 for lag in t.lags)
        behind = [t for t in tables if t.changed_at is not None]
        seconds = self.discord.per_second
        return {
            "global": sum(seconds.values()), "per_s": sum(seconds.values()) / self.end,
            "max_s": max(seconds.values(), default=0),
            "over": sum(1 for n in seconds.values() if n > DISCORD_GLOBAL_LIMIT),
            # over the seconds that had any (boards catch up after the end)
            "exempt_s": self.discord.exempt / max(1, len(self.discord.exempt_per_second)),
            "exempt_max": max(self.discord.exempt_per_second.values(), default=0),
            "lag": (pct(lags, .5), pct(lags, .99), lags[-1] if lags else 0.0),
            "behind": len(behind),
            "token_errors": sum(d.token_errors for d in self.deliveries),
            "a_lag": (pct(a_lags, .99), a_lags[-1] if a_lags else 0.0),
            "b_lag": (pct(b_lags, .99), b_lags[-1] if b_lags else 0.0),
            "leases_s": [(b.leases / self.end, max(b.per_second.values(), default=0))
                         for b in self.buckets],
            "fallbacks": sum(b.fallbacks for b in self.budgets),
        }


async def simulate(args: argparse.Namespace, tokens: bool, restart: float | None,
                   processes: int = 1, shared: bool = False,
                   uneven: bool = False, capped: bool = False) -> dict[str, Any]:
    return await Sim(args, tokens, restart, processes, shared, uneven, capped).run()


def pct(values: list[float], q: float) -> float:
    return values[min(len(values) - 1, round(q * (len(values) - 1)))] if values else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--rate", type=float, default=40.0,
                        help="the budget, requests/s (DDZ_GLOBAL_RATE)")
    parser.add_argument("--restart-at", type=float, default=300.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rtt", type=float, default=0.002,
                        help="seconds of one round-trip to the shared bucket (2p shared)")
    parser.add_argument("--interaction-rate", type=float, default=INTERACTION_RATE,
                        help="the cap on interaction routes, requests/s, of the 'capped' run "
                             "(DDZ_INTERACTION_RATE)")
    parser.add_argument("--runs", default="old,tokens,capped,restart,static,shared,"
                        "uneven-static,uneven-shared",
                        help="which runs, comma-separated (names as below)")
    args = parser.parse_args()
    runs = set(args.runs.split(","))
    print(f"{args.tables} tables, {args.minutes:g} simulated minutes, a move every 0.8-1.2 s, "
          f"budget {args.rate:g}/s, tokens live {delivery.TOKEN_LIFETIME / 60:g} min; "
          f"Discord allows {DISCORD_GLOBAL_LIMIT:g} global-limited requests/s")
    print(f"interaction routes (exempt from the global limit): 'exempt/s' on average over the "
          f"seconds that had any, 'ex max' "
          f"the most in one second; 'capped' = tokens with DDZ_INTERACTION_RATE="
          f"{args.interaction_rate:g}")
    print(f"{'run':<11}{'global':>8}{'per s':>8}{'max 1 s':>9}{'s > 50':>8}{'exempt/s':>10}"
          f"{'ex max':>8}"
          f"{'lag p50':>9}{'p99':>7}{'max':>7}{'behind':>8}{'A p99':>7}{'A max':>7}"
          f"{'B p99':>7}{'B max':>7}{'leases/s':>14}")
    for key, name, tokens, restart, processes, shared, uneven, capped in (
            ("old", "old way", False, None, 1, False, False, False),
            ("tokens", "tokens", True, None, 1, False, False, False),
            ("capped", "capped", True, None, 1, False, False, True),
            ("restart", "restart", True, args.restart_at, 1, False, False, False),
            ("static", "2p static", True, args.restart_at, 2, False, False, False),
            ("shared", "2p shared", True, args.restart_at, 2, True, False, False),
            ("uneven-static", "7:3 static", True, args.restart_at, 2, False, True, False),
            ("uneven-shared", "7:3 shared", True, args.restart_at, 2, True, True, False)):
        if key not in runs:
            continue
        loop = VirtualClockLoop()
        try:
            r = loop.run_until_complete(simulate(args, tokens, restart, processes, shared,
                                                 uneven, capped))
        finally:
            loop.close()
        p50, p99, most = r["lag"]
        a99, amax = r["a_lag"]
        b99, bmax = r["b_lag"]
        leases = " ".join(f"{n:.1f}/{most}" for n, most in r["leases_s"]) or "-"
        print(f"{name:<11}{r['global']:>8}{r['per_s']:>8.2f}{r['max_s']:>9}{r['over']:>8}"
              f"{r['exempt_s']:>10.1f}{r['exempt_max']:>8}{p50:>9.2f}{p99:>7.2f}{most:>7.1f}{r['behind']:>8}"
              f"{a99:>7.1f}{amax:>7.1f}{b99:>7.1f}{bmax:>7.1f}{leases:>14}")


if __name__ == "__main__":
    main()
