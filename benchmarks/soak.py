"""A long run at steady load: does anything grow that should stay flat? (issue 25)

Run: ``python -m benchmarks.soak [--tables 50] [--minutes 20] [--every 120]``

The bot's service floor as ``python -m bot`` builds it, with no Discord: a real
``TableService`` on a SQLite file (temporary directory), the computers' hard moves and
Hints in the AI worker pool (``pooled_decider``, Hint prefetch on), the legal-play
ranking and the hand images in the render worker processes (``Renderer``, 2 workers).
Each table has one member on auto-play (pace ``--pace`` s) and two computers
(every tenth table ``hard``, the others ``normal``; a computer waits 1–2 s before acting);
each change redraws the member's hand image through the ``Renderer``; after each
result the member deals again one second later, with auto-play on again. Hands are
settled in the database (ledger, stats, ratings, records), matches end and start.

Every ``--every`` seconds one line: minutes, hands settled so far, this process's
resident memory (MiB), objects the garbage collector tracks, open file descriptors,
asyncio tasks, the database's size on disk (file + WAL, MiB) and per settled hand
(KiB), the worker processes' resident memory (MiB, summed), the entries of the AI's
hand-evaluation memo (LRU, ``bot.ai.evaluate.MEMO_SIZE``; its hit rate since the start)
and of the rules' memo of readings per rank shape (kept until 200,000); with
``--census N``, the N object types whose count grew most since the line before.
At the end: each figure's growth over the second half of the run (last sample vs the middle one;
the database grows with the hands by design, so its figure is per hand).
Target (docs/PERFORMANCE.md §Soak): < 5 % for each over an hour's second half.

Not in it: discord.py and the cogs (open hand views, the public board), which the
in-process click benchmark (``benchmarks/interaction.py``) drives; its fake Discord
keeps every message, so its own memory grows by design and it cannot soak.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import logging
import os
import random
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from bot.ai import evaluate
from bot.ai.players import Level
from bot.features.contract import install_features
from bot.features.installed import FEATURES
from bot.game.seat import Event
from bot.game.table import Table
from bot.rules import combos
from bot.service import TableService, pooled_decider
from bot.service.pool import WorkerPool
from bot.service.renderer import Renderer
from bot.service.worker import ai_pool
from bot.storage.sqlite import SqliteStorage
from bot.values import Settlement

PAGE = os.sysconf("SC_PAGE_SIZE")
TARGET_GROWTH = 0.05


def rss_mib(pid: int | str = "self") -> float:
    """Resident memory of process ``pid`` in MiB (Linux /proc)."""
    try:
        with open(f"/proc/{pid}/statm") as statm:
            return int(statm.read().split()[1]) * PAGE / 2**20
    except OSError:
        return 0.0


@dataclass
class Sample:
    minutes: float
    hands: int
    rss: float
    objects: int
    fds: int
    tasks: int
    db_mib: float
    workers_rss: float
    evaluations: int
    eval_hits: float
    readings: int

    @property
    def per_hand_kib(self) -> float:
        return self.db_mib * 1024 / self.hands if self.hands else 0.0

    def line(self) -> str:
        return (f"{self.minutes:6.1f} min  hands {self.hands:6d}  rss {self.rss:7.1f} MiB  "
                f"objects {self.objects:8d}  fds {self.fds:4d}  tasks {self.tasks:4d}  "
                f"db {self.db_mib:7.2f} MiB ({self.per_hand_kib:5.2f} KiB/hand)  "
                f"workers {self.workers_rss:6.1f} MiB  evals {self.evaluations:6d} "
                f"({self.eval_hits:4.0%} hits)  "
                f"readings {self.readings:6d}")


class Soak:
    """The tables, their member on auto-play, and what each change redraws."""

    def __init__(self, service: TableService, renderer: Renderer, pace: float,
                 ai: WorkerPool) -> None:
        self.service, self.renderer, self.pace, self.ai = service, renderer, pace, ai
        self.members: dict[str, int] = {}
        self.hands = 0
        self.redraws: set[asyncio.Task[None]] = set()
        self.stopping = False

    async def on_table_changed(self, table: Table, events: list[Event]) -> None:
        if self.stopping or table.hand is None or table.phase != "playing":
            return
        task = asyncio.create_task(self._redraw(table))
        self.redraws.add(task)
        task.add_done_callback(self.redraws.discard)

    async def _redraw(self, table: Table) -> None:
        assert table.hand is not None
        await self.renderer.hand(table.hand.hand_of(0))

    async def on_hand_settled(self, table: Table, settlement: Settlement) -> None:
        self.hands += 1
        if not self.stopping:
            task = asyncio.create_task(self._deal_again(table.id))
            self.redraws.add(task)
            task.add_done_callback(self.redraws.discard)

    async def _deal_again(self, table_id: str) -> None:
        await asyncio.sleep(1.0)
        if self.stopping:
            return
        user = self.members[table_id]
        try:
            await self.service.play_again(table_id, user)
            await self.service.set_autoplay(table_id, user, True, self.pace)
        except Exception as error:  # counted, not fatal: the soak measures, it does not judge
            logging.getLogger("soak").warning("deal again failed: %r", error)

    async def open(self, n: int) -> None:
        guild, channel, user = 1_000 + n // 10, 900_000 + n, 10_000 + n
        level: Level = "hard" if n % 10 == 0 else "normal"
        table = await self.service.open_table(guild, channel, user, f"member {n}",
                                              computers=2, level=level)
        self.members[table.id] = user
        await self.service.start(table.id, user)
        await self.service.set_autoplay(table.id, user, True, self.pace)


def db_size_mib(path: Path) -> float:
    return sum(p.stat().st_size for p in (path, Path(f"{path}-wal")) if p.exists()) / 2**20


def sample(soak: Soak, path: Path, began: float) -> Sample:
    pids = soak.renderer.pool.pids + soak.ai.pids
    memo = evaluate.memo_info()
    return Sample(
        minutes=(time.monotonic() - began) / 60, hands=soak.hands, rss=rss_mib(),
        objects=len(gc.get_objects()), fds=len(os.listdir("/proc/self/fd")),
        tasks=len(asyncio.all_tasks()), db_mib=db_size_mib(path),
        workers_rss=sum(rss_mib(pid) for pid in pids),
        evaluations=memo.currsize, eval_hits=memo.hits / max(1, memo.hits + memo.misses),
        readings=len(combos._READINGS) + len(combos._READINGS_DISTINCT))  # noqa: SLF001


def census() -> Counter[str]:
    """Objects the garbage collector tracks, by type name."""
    return Counter(type(o).__qualname__ for o in gc.get_objects())


def census_line(before: Counter[str], after: Counter[str], top: int) -> str:
    """The ``top`` types that grew most between two censuses (count deltas)."""
    grew = sorted(((after[k] - before[k], k) for k in after.keys() | before.keys()),
                  reverse=True)[:top]
    return "          grew: " + ", ".join(f"{name} {delta:+d}" for delta, name in grew)


def growth(first: float, last: float) -> str:
    return f"{(last - first) / first * 100:+.1f} %" if first else "-"


async def run(args: argparse.Namespace) -> bool:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "soak.sqlite3"
        storage = await SqliteStorage.open(path)
        renderer = Renderer(2)
        renderer.start()
        ai = ai_pool()
        service = TableService(storage, ai_delay=(1.0, 2.0), decider=pooled_decider(ai),
                               prefetch_hints=True, rng=random.Random(args.seed),
                               deal_seed=args.seed, ranking_pool=renderer.pool, ai_pool=ai)
        install_features(service, FEATURES)  # as the bot builds it (bot/client.py setup_hook)
        soak = Soak(service, renderer, args.pace, ai)
        service.listener = soak
        await renderer.pool.wait_ready()
        for n in range(args.tables):
            await soak.open(n)
        began = time.monotonic()
        samples: list[Sample] = []
        counted = census() if args.census else Counter()
        print(f"{args.tables} tables, {args.minutes} min, a line every {args.every:.0f} s",
              flush=True)
        end = began + args.minutes * 60
        while time.monotonic() < end:
            await asyncio.sleep(min(args.every, max(0.0, end - time.monotonic())))
            gc.collect()
            samples.append(sample(soak, path, began))
            print(samples[-1].line(), flush=True)
            if args.census:
                counted, before = census(), counted
                print(census_line(before, counted, args.census), flush=True)
        soak.stopping = True
        await service.close()
        for task in list(soak.redraws):
            task.cancel()
        await asyncio.gather(*soak.redraws, return_exceptions=True)
        await storage.close()
        renderer.shutdown()
        ai.shutdown()
    if len(samples) < 3:
        print("too short to compare halves (needs 3 samples)")
        return True
    mid, last = samples[(len(samples) - 1) // 2], samples[-1]
    rows = {
        "rss": (mid.rss, last.rss), "objects": (mid.objects, last.objects),
        "fds": (mid.fds, last.fds), "tasks": (mid.tasks, last.tasks),
        "db per hand": (mid.per_hand_kib, last.per_hand_kib),
        "workers rss": (mid.workers_rss, last.workers_rss),
    }
    print(f"second half ({mid.minutes:.1f} → {last.minutes:.1f} min, "
          f"{last.hands - mid.hands} hands): "
          + ", ".join(f"{name} {growth(a, b)}" for name, (a, b) in rows.items()))
    flat = all(b <= a * (1 + TARGET_GROWTH) for a, b in rows.values() if a)
    print(f"target < {TARGET_GROWTH:.0%} growth each: {'met' if flat else 'NOT met'}")
    return flat


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--minutes", type=float, default=20.0)
    parser.add_argument("--every", type=float, default=120.0, help="seconds between lines")
    parser.add_argument("--pace", type=float, default=2.0, help="the member's auto-play pace (s)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--census", type=int, default=0, metavar="N",
                        help="after each line, the N object types that grew most")
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    raise SystemExit(0 if asyncio.run(run(args)) else 1)


if __name__ == "__main__":
    main()
