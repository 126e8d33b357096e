"""Where a saved action waits: the SQLite group commit, timed (``benchmarks/interaction.py
--counts``; docs/PERFORMANCE.md §Saves that wait for the GIL).

Patches ``bot.storage.sqlite.SqliteStorage._transaction`` (a caller's wait: queued, then
its batch run in aiosqlite's thread, then the answer back on the loop) and
``bot.storage.sqlite._in_one_go`` (one batch in that thread: its steps, its wall time
and the thread's CPU time). A batch's wall time far above its CPU time is time the
connection's thread spent off the CPU: waiting for the GIL held by the event loop's
thread (sqlite3 lets it go around every statement, and each time takes it back only
when the loop thread lets it go: up to ``sys.getswitchinterval()``), or for the disk.
Trees before the group commit (no ``_in_one_go``) count the callers' waits only.
"""

from __future__ import annotations

import contextvars
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Sequence
from contextlib import asynccontextmanager
from typing import Any

_ACT: contextvars.ContextVar[list[float] | None] = contextvars.ContextVar("act", default=None)
"""In a ``TableService._act``: [its start, the start of its storage call]."""


def _pct(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


class CommitWaits:
    """``waits``: each caller's seconds in ``_transaction`` while ``active``; ``batches``:
    (steps, wall seconds, thread CPU seconds) of each batch run while ``active``."""

    def __init__(self) -> None:
        self.active = False
        self.waits: list[float] = []
        self.batches: list[tuple[int, float, float]] = []
        self.cycles: list[tuple[float, float, float, float]] = []
        """Per batch, perf_counter times: handed to the thread, started there, ended
        there, its caller (the flusher) resumed on the loop."""
        self._started: list[tuple[float, float]] = []
        self.acts: list[tuple[float, float, float]] = []
        """Per ``TableService._act`` that reached the storage (s): before the storage
        call (the table's lock, the rule), the storage call, after it until returned."""
        self.reads: Counter[str] = Counter()
        """Reads by the storage method that made them, while ``active``."""
        self.read_waits: defaultdict[str, list[float]] = defaultdict(list)
        """Per read method: seconds from asking for the storage's lock to the answer."""

    def install(self) -> None:
        """Patch the SQLite storage's group commit (for this process's life)."""
        from bot.storage import sqlite

        transaction = sqlite.SqliteStorage._transaction
        watch = self

        async def timed_transaction(storage: Any, step: Any) -> Any:
            start = time.perf_counter()
            act = _ACT.get()
            if act is not None and len(act) == 1:
                act.append(start)
            try:
                return await transaction(storage, step)
            finally:
                end = time.perf_counter()
                if act is not None and len(act) == 2:
                    act.append(end)
                if watch.active:
                    watch.waits.append(end - start)

        sqlite.SqliteStorage._transaction = timed_transaction  # type: ignore[method-assign,assignment]
        from bot.service.tables import TableService

        act = TableService._act

        async def timed_act(service: Any, *args: Any, **kwargs: Any) -> Any:
            marks = [time.perf_counter()]
            token = _ACT.set(marks)
            try:
                return await act(service, *args, **kwargs)
            finally:
                _ACT.reset(token)
                if watch.active and len(marks) == 3:
                    watch.acts.append((marks[1] - marks[0], marks[2] - marks[1],
                                       time.perf_counter() - marks[2]))

        TableService._act = timed_act  # type: ignore[method-assign,assignment]
        read = sqlite.SqliteStorage._read
        write = sqlite.SqliteStorage._write

        def timed_read(storage: Any, _use: Any = read, _kind: str = "", _depth: int = 1) -> Any:
            name = _kind + sys._getframe(_depth).f_code.co_name

            @asynccontextmanager
            async def timed() -> Any:
                start = time.perf_counter()
                try:
                    async with _use(storage) as db:
                        yield db
                finally:
                    if watch.active:
                        watch.reads[name] += 1
                        watch.read_waits[name].append(time.perf_counter() - start)

            return timed()

        def timed_write(storage: Any) -> Any:
            return timed_read(storage, write, "write ", 2)

        sqlite.SqliteStorage._read = timed_read  # type: ignore[method-assign,assignment]
        sqlite.SqliteStorage._write = timed_write  # type: ignore[method-assign,assignment]
        in_one_go = getattr(sqlite, "_in_one_go", None)
        if in_one_go is None:
            return

        def timed_batch(conn: Any, steps: list[Any], *reads: Any) -> Any:
            wall, cpu = time.perf_counter(), time.thread_time()
            try:
                return in_one_go(conn, steps, *reads)
            finally:
                end = time.perf_counter()
                watch._started.append((wall, end))
                if watch.active:
                    watch.batches.append((len(steps) + sum(len(r) for r in reads),
                                          end - wall, time.thread_time() - cpu))

        sqlite._in_one_go = timed_batch  # type: ignore[assignment]
        import aiosqlite

        execute = aiosqlite.Connection._execute

        async def timed_execute(connection: Any, fn: Any, *args: Any, **kwargs: Any) -> Any:
            if fn is not timed_batch:
                return await execute(connection, fn, *args, **kwargs)
            handed = time.perf_counter()
            try:
                return await execute(connection, fn, *args, **kwargs)
            finally:
                if watch._started:
                    started, ended = watch._started.pop()
                    if watch.active:
                        watch.cycles.append((handed, started, ended, time.perf_counter()))

        aiosqlite.Connection._execute = timed_execute  # type: ignore[method-assign,assignment]

    def report(self, seconds: float) -> str:
        """Two lines: the callers' waits, the batches (ms)."""
        w = [x * 1000 for x in self.waits]
        reads = ", ".join(
            f"{name} {n} (p50 {_pct(self.read_waits[name], .5) * 1000:.1f} p99 "
            f"{_pct(self.read_waits[name], .99) * 1000:.1f} ms)"
            for name, n in self.reads.most_common(8))
        line = (f"commits: {len(w)} saves waited p50 {_pct(w, .5):.1f} p90 {_pct(w, .9):.1f} "
                f"p99 {_pct(w, .99):.1f} max {max(w, default=0):.1f} ms")
        if self.acts:
            parts = []
            for i, name in enumerate(("lock", "save", "after")):
                v = [a[i] * 1000 for a in self.acts]
                parts.append(f"{name} p50 {_pct(v, .5):.1f} p99 {_pct(v, .99):.1f} "
                             f"max {max(v):.1f}")
            line += f"\nactions saved ({len(self.acts)}), ms: " + "; ".join(parts)
        line += f"\nreads and lone writes (lock wait + answer): {reads or 'none'}"
        if not self.batches:
            return line
        steps = [b[0] for b in self.batches]
        walls = [b[1] * 1000 for b in self.batches]
        cpus = [b[2] * 1000 for b in self.batches]
        off = sum(walls) - sum(cpus)
        return (f"{line}\ncommit batches: {len(steps)} ({len(steps) / seconds:.0f}/s), steps "
                f"p50 {_pct(steps, .5):.0f} max {max(steps)}; in the connection's thread "
                f"wall p50 {_pct(walls, .5):.1f} p99 {_pct(walls, .99):.1f} max {max(walls):.1f} ms, "
                f"CPU p50 {_pct(cpus, .5):.1f} p99 {_pct(cpus, .99):.1f} ms; off the CPU "
                f"{off / 1000:.2f} s of {sum(walls) / 1000:.2f} s "
                f"({off / max(sum(steps), 1):.2f} ms a step)\n{self.cycle_line(seconds)}")

    def cycle_line(self, seconds: float) -> str:
        """Where the group commit's time went, summed over the batches (s): handed to the
        thread → started there, run there, ended → the flusher back on the loop, and the
        flusher back → the next batch handed over (results set, the lock taken again; or
        no save waiting)."""
        c = self.cycles
        if not c:
            return "commit cycles: none timed"
        to_thread = [b - a for a, b, _, _ in c]
        run = [e - b for _, b, e, _ in c]
        back = [r - e for _, _, e, r in c]
        gaps = [c[i + 1][0] - c[i][3] for i in range(len(c) - 1)]
        ms = [x * 1000 for x in back]
        return (f"commit cycles ({len(c)} batches in {seconds:.0f} s), summed: to the thread "
                f"{sum(to_thread):.2f} s, in it {sum(run):.2f} s, back to the loop {sum(back):.2f} s "
                f"(p50 {_pct(ms, .5):.1f} p99 {_pct(ms, .99):.1f} max {max(ms):.1f} ms), "
                f"until the next batch {sum(gaps):.2f} s (max {max(gaps, default=0) * 1000:.0f} ms)")
