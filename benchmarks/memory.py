"""Memory per open table (docs/PERFORMANCE.md: ≤ 100 KB per table).

Run: ``python -m benchmarks.memory [--tables 200 1000] [--plays 6]``

A real TableService (SQLite storage on a temp file, the system clock, wall-time
turn timers) holds N open tables, each in its own guild (so each carries one
cached GuildSettings), three human seats, mid-hand: dealt at random, bid 3 by
the first bidder, then ``--plays`` plays or passes (the smallest legal play or
a pass), so every table has a hand with history and an armed turn-timer task.

Two figures per N, after one warm-up table (imports, caches) and a GC:

* tracemalloc: Python heap growth / N (every object the tables, their locks,
  timer tasks and settings own; excludes SQLite's C page cache);
* RSS: resident-set growth / N, measured in a separate pass without
  tracemalloc (includes SQLite's page cache and allocator slack).

Not included: the cogs' per-table state (the public-message Board entry and up
to three open hand views with their discord.py Interaction objects).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import random
import tempfile
import tracemalloc
from pathlib import Path

from bot.features.contract import install_features
from bot.features.installed import FEATURES
from bot.service import TableService
from bot.storage import Storage

TARGET_KB = 100.0


def rss_bytes() -> int:
    """Resident set size of this process (Linux /proc)."""
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


async def open_mid_hand(service: TableService, n: int, plays: int, rng: random.Random) -> str:
    """Open table ``n`` (guild 10⁶+n) and bring it mid-hand; returns its id."""
    guild, base = 1_000_000 + n, 10_000_000 + 3 * n
    table = await service.open_table(guild, 2_000_000 + n, base, f"P{base}", "en-US")
    await service.join(table.id, base + 1, f"P{base + 1}", "en-US")
    await service.join(table.id, base + 2, f"P{base + 2}", "en-US")
    table = await service.start(table.id, base, seed=rng.getrandbits(32))
    first = table.turn_seat
    assert first is not None  # the hand just dealt: someone bids
    table = await service.bid(table.id, base + first, 3)
    for _ in range(plays):
        seat = table.turn_seat
        hand = table.hand
        if seat is None or hand is None or table.phase != "playing":
            break
        user = base + seat
        free = hand.to_beat is None or (hand.last_play is not None and hand.last_play.seat == seat)
        options = hand.legal_plays(seat)
        if options and (free or rng.random() < 0.6):
            smallest = min(options, key=lambda c: (len(c.cards), c.cards))
            table = await service.play(table.id, user, list(smallest.cards), reading=smallest)
        else:
            table = await service.pass_turn(table.id, user)
    return table.id


async def measure(n: int, plays: int, traced: bool) -> float:
    """Bytes per table for ``n`` tables (tracemalloc growth or RSS growth)."""
    rng = random.Random(n)
    with tempfile.TemporaryDirectory() as tmp:
        storage = await Storage.open(Path(tmp) / "mem.sqlite3")
        service = TableService(storage)
        install_features(service, FEATURES)  # as the bot builds it (bot/client.py setup_hook)
        await open_mid_hand(service, -1, plays, rng)  # warm-up: imports, caches, first timer
        gc.collect()
        if traced:
            tracemalloc.start()
            before = tracemalloc.get_traced_memory()[0]
        else:
            before = rss_bytes()
        for i in range(n):
            await open_mid_hand(service, i, plays, rng)
        gc.collect()
        after = tracemalloc.get_traced_memory()[0] if traced else rss_bytes()
        if traced:
            tracemalloc.stop()
        playing = sum(1 for t in service.tables() if t.phase == "playing")
        timers = len(service.tasks)
        await service.close()
        await storage.close()
    print(f"  {n} tables ({playing} mid-hand, {timers} timer tasks): "
          f"{'tracemalloc' if traced else 'RSS'} +{(after - before) / 1024:.0f} KB")
    return (after - before) / n


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, nargs="+", default=[200, 1000])
    parser.add_argument("--plays", type=int, default=6, help="plays/passes made in each hand")
    args = parser.parse_args()
    ok = True
    print(f"{'tables':>7}{'tracemalloc KB/table':>22}{'RSS KB/table':>14}   target ≤{TARGET_KB:.0f} KB")
    for n in args.tables:
        rss = asyncio.run(measure(n, args.plays, traced=False))
        heap = asyncio.run(measure(n, args.plays, traced=True))
        good = max(rss, heap) / 1024 <= TARGET_KB
        ok &= good
        print(f"{n:>7}{heap / 1024:>22.1f}{rss / 1024:>14.1f}   {'OK' if good else 'MISSED'}")
    print("all within target" if ok else "target missed")


if __name__ == "__main__":
    main()
