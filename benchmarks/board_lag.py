"""How far behind the public boards are, and the render pool's backlog that holds them
(``benchmarks/interaction.py --counts``; docs/PERFORMANCE.md §Fewer table images while the
render backlog is long).

* **Board lag**: from the first change of a table after its message was last drawn
  (``Board.notify`` on a clean table) to the message showing it (``Board._shown``): what a
  member watching the channel waits for, the board's wait, the table image and the send.
* **Render backlog**: every ``EVERY`` seconds, the render pool's calls waiting for a
  worker (``WorkerPool._backlog``: urgent ones, a view a member waits for; the others,
  public table images) and whether every worker's pipe was full (``MAX_IN_FLIGHT``).

Both read only what the bot keeps anyway (the same names on older trees; a tree without
them prints nothing), so ``benchmarks.interaction_compare`` compares them side by side.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from typing import Any

EVERY = 0.1
"""Seconds between two samples of the render backlog."""


def _pct(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


class BoardLag:
    """``install(bot)``, then ``active`` while measuring; ``run(stop)`` samples the backlog;
    ``report()`` prints both."""

    def __init__(self) -> None:
        self.active = False
        self.lags: list[float] = []
        """Seconds from a table's first change to its message showing it."""
        self.others: list[int] = []
        self.urgent: list[int] = []
        self.full: list[bool] = []
        self._since: dict[str, float] = {}
        self._pool: Any = None

    def install(self, bot: Any) -> None:
        """Watch ``bot``'s board and render pool (for this process's life)."""
        renderer = getattr(bot, "renderer", None)
        self._pool = getattr(renderer, "pool", None)
        cog = bot.get_cog("ddz")
        board = getattr(cog, "board", None)
        if board is None or not hasattr(board, "_shown"):
            return
        notify, shown, since = board.notify, board._shown, self._since  # noqa: SLF001

        def timed_notify(table: Any, *args: Any, **kwargs: Any) -> None:
            since.setdefault(table.id, time.perf_counter())
            notify(table, *args, **kwargs)

        def timed_shown(table: Any) -> None:
            start = since.pop(table.id, None)
            if start is not None and self.active:
                self.lags.append(time.perf_counter() - start)
            shown(table)

        board.notify = timed_notify
        board._shown = timed_shown  # noqa: SLF001

    async def run(self, stop: asyncio.Event) -> None:
        """Sample the render backlog every ``EVERY`` s until ``stop`` is set."""
        pool = self._pool
        backlog = getattr(pool, "_backlog", None)
        if backlog is None:
            return
        from bot.service.pool import MAX_IN_FLIGHT

        while not stop.is_set():
            await asyncio.sleep(EVERY)
            if not self.active:
                continue
            self.urgent.append(len(backlog[0]))
            self.others.append(len(backlog[1]))
            procs = getattr(pool, "_procs", [])
            self.full.append(bool(procs) and all(len(w.pending) >= MAX_IN_FLIGHT for w in procs))
            backlog = pool._backlog  # noqa: SLF001  (a new tuple after a shutdown)

    def report(self) -> str:
        """Two lines: the board lag (ms) and the render backlog (calls)."""
        lags = [s * 1000 for s in self.lags]
        lines = [f"board lag (a table's change to its message): p50 {_pct(lags, .5):.0f} "
                 f"p90 {_pct(lags, .9):.0f} p99 {_pct(lags, .99):.0f} max "
                 f"{max(lags, default=0):.0f} ms ({len(lags)} shown)"]
        if self.others:
            full = 100 * sum(self.full) / len(self.full)
            lines.append(
                f"render backlog every {EVERY:g} s: table images etc. p50 {_pct(self.others, .5):.0f} "
                f"p99 {_pct(self.others, .99):.0f} max {max(self.others)}; urgent p50 "
                f"{_pct(self.urgent, .5):.0f} p99 {_pct(self.urgent, .99):.0f} max "
                f"{max(self.urgent)}; every worker's pipe full {full:.0f} % of the samples")
        return "\n".join(lines)
