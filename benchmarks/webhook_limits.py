"""Webhook 429s per table-hour: Discord's interaction-webhook buckets against the boards of
many tables (simulated clock; docs/DISCORD.md rows 12 and 13).

Run: ``python -m benchmarks.webhook_limits [--tables 100] [--minutes 10] [--seed 1]``.

``benchmarks/global_limit.py``'s tables (a move every 0.8-1.2 s, boards redrawn at most
once a second, last state wins, the real ``cogs.delivery.Delivery``), with Discord's
webhook buckets modelled as ``sandbox/loopback/discord_rules.py`` enforces them: 5
requests per 2 s per token (a fixed window from its first request) and 30 messages created
by webhooks per minute per channel. discord.py's side as ``discord/webhook/async_.py``
does it: one lock per token (its requests one after the other), a 429 waited out and the
request sent again. Beside the board, each move refreshes the human's hand view on the
token of their latest click (an ``@original`` edit, as ``cogs/open_views.py`` does), and
that click is offered to ``Delivery`` as the channel's newest poster.

Two runs side by side: ``before``, Delivery without its own webhook buckets (as before
issue 35: a token is used whenever it lives), and ``after``, with them (``WEBHOOK_BUDGET``,
``CHANNEL_WEBHOOK_BUDGET``, ``Delivery.ready`` waiting for room). Printed per run: webhook
429s (per token, per channel) and per table-hour, token and channel requests, and the
boards' lag (seconds from a change to the request that shows it).
"""

from __future__ import annotations

import argparse
import asyncio
import random
from collections import Counter
from types import SimpleNamespace
from typing import Any

from benchmarks.global_limit import MIN_INTERVAL, Bot, Discord, Table, VirtualClockLoop, pct
from bot.service.budget import COSMETIC, RESULT, TURN, GlobalBudget
from cogs import delivery
from cogs.delivery import Delivery
from sandbox.loopback.discord_rules import CHANNEL_WEBHOOK_LIMIT, WEBHOOK_LIMIT, _Bucket
from tests.support.fake_tokens import fake_token


class Webhooks:
    """Discord's two webhook buckets and discord.py's per-token lock, on the loop's clock."""

    def __init__(self) -> None:
        self.tokens = _Bucket(*WEBHOOK_LIMIT)
        self.channels = _Bucket(*CHANNEL_WEBHOOK_LIMIT)
        self.locks: dict[int, asyncio.Lock] = {}
        self.limited: Counter[str] = Counter()
        self.requests = 0

    async def request(self, token: int, creates_in: int | None = None) -> None:
        loop = asyncio.get_running_loop()
        async with self.locks.setdefault(token, asyncio.Lock()):
            while True:
                self.requests += 1
                wait = self.tokens.take(token, loop.time())
                if not wait and creates_in is not None:
                    wait = self.channels.take(creates_in, loop.time())
                    if wait:
                        self.limited["per channel"] += 1
                elif wait:
                    self.limited["per token"] += 1
                if not wait:
                    return
                await asyncio.sleep(wait)  # discord.py: sleep retry_after, send again


class Interaction:
    """A click answered at once (a deferred update), its webhook requests through ``hooks``."""

    def __init__(self, hooks: Webhooks, channel_id: int, ids: Any) -> None:
        self.id = next(ids)
        self.channel_id, self._hooks, self._ids = channel_id, hooks, ids
        self.extras: dict[str, Any] = {}
        self.response = SimpleNamespace(is_done=lambda: True)
        self.followup = SimpleNamespace(send=self._send, edit_message=self._edit)
        fake_token(self)  # Delivery keeps its TokenRef (cogs/tokens.py)

    async def _send(self, **kwargs: Any) -> Any:
        await self._hooks.request(self.id, creates_in=self.channel_id)
        return SimpleNamespace(id=next(self._ids))

    async def _edit(self, message_id: int, **kwargs: Any) -> None:
        await self._hooks.request(self.id)

    async def edit_original_response(self, **kwargs: Any) -> None:
        await self._hooks.request(self.id)


class Sim:
    """``tables`` tables of one human and two computers on one process (see the module doc)."""

    def __init__(self, args: argparse.Namespace, own_buckets: bool) -> None:
        self.args = args
        self.hooks = Webhooks()
        self.discord = Discord()
        self.ids = iter(range(10**12, 10**13))
        self.delivery = Delivery(Bot(self.discord, self.ids),  # type: ignore[arg-type]
                                 GlobalBudget(40))
        if not own_buckets:  # before issue 35: no bucket of its own
            self.delivery.tokens = delivery._Window(10**9, 1.0)
            self.delivery.creates = delivery._Window(10**9, 1.0)
        self.end = args.minutes * 60.0
        self.clicks: dict[int, Interaction] = {}

    def click(self, table: Table, edits: int | None = None) -> Interaction:
        ix = Interaction(self.hooks, table.channel_id, self.ids)
        self.delivery.offer(ix, edits=edits)  # type: ignore[arg-type]
        self.clicks[table.channel_id] = ix
        return ix

    def change(self, table: Table, priority: int, new_message: bool = False) -> None:
        if table.changed_at is None:
            table.changed_at = asyncio.get_running_loop().time()
        table.priority = min(table.priority, priority)
        table.new_message = table.new_message or new_message
        table.wake.set()

    async def board(self, table: Table) -> None:
        """cogs/board.py's redraw task, ``Delivery.ready`` first (the wait coalesces)."""
        loop = asyncio.get_running_loop()
        last = -1e9
        while loop.time() < self.end + 60:
            await table.wake.wait()
            table.wake.clear()
            await asyncio.sleep(max(0.0, last + MIN_INTERVAL - loop.time()))
            await self.delivery.ready(table.channel_id,
                                      None if table.new_message else table.message_id)
            changed, priority, new = table.changed_at, table.priority, table.new_message
            table.changed_at, table.priority, table.new_message = None, COSMETIC, False
            if changed is None:
                continue
            if new or table.message_id is None:
                table.message_id = await self.delivery.send(table.channel_id, None, RESULT)
            else:
                await self.delivery.edit(table.channel_id, table.message_id, priority)
            last = loop.time()
            table.lags.append(last - changed)
            human = self.clicks.get(table.channel_id)
            if human is not None:  # the hand view follows the board (cogs/hand_refresh.py)
                await human.edit_original_response()

    async def play(self, table: Table, rng: random.Random) -> None:
        loop = asyncio.get_running_loop()
        await asyncio.sleep(rng.uniform(0, 30))
        self.change(table, RESULT, new_message=True)  # /ddz start: the lobby
        await asyncio.sleep(rng.uniform(2, 5))
        while loop.time() < self.end:
            self.click(table, table.message_id)  # Start / Play again, on the board
            self.change(table, RESULT, new_message=True)  # the deal
            for move in range(rng.randint(35, 55)):
                await asyncio.sleep(rng.uniform(0.8, 1.2))
                if move % 3 == 0:  # the human's own move: a click in the hand view
                    await self.click(table).edit_original_response()
                self.change(table, TURN if move % 3 == 2 else COSMETIC)
            self.change(table, RESULT)  # the result
            await asyncio.sleep(3.0)

    async def run(self) -> dict[str, Any]:
        rng = random.Random(self.args.seed)
        tables = [Table(channel_id=1000 + n) for n in range(self.args.tables)]
        boards = [asyncio.create_task(self.board(t)) for t in tables]
        await asyncio.gather(*(self.play(t, random.Random(rng.getrandbits(32)))
                               for t in tables))
        await asyncio.sleep(60)
        for task in boards:
            task.cancel()
        await asyncio.gather(*boards, return_exceptions=True)
        lags = sorted(lag for t in tables for lag in t.lags)
        limited = self.hooks.limited
        return {"per token": limited["per token"], "per channel": limited["per channel"],
                "table_hours": self.args.tables * self.end / 3600.0,
                "by_token": self.delivery.by_token, "by_channel": self.delivery.by_channel,
                "skipped": self.delivery.skipped, "requests": self.hooks.requests,
                "lag": (pct(lags, .5), pct(lags, .99), lags[-1] if lags else 0.0)}


async def simulate(args: argparse.Namespace, own_buckets: bool) -> dict[str, Any]:
    return await Sim(args, own_buckets).run()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"{args.tables} tables, {args.minutes:g} simulated minutes, a move every 0.8-1.2 s; "
          f"Discord: {WEBHOOK_LIMIT[0]} webhook requests per {WEBHOOK_LIMIT[1]:g} s per "
          f"token, {CHANNEL_WEBHOOK_LIMIT[0]} webhook messages per "
          f"{CHANNEL_WEBHOOK_LIMIT[1]:g} s per channel")
    print(f"{'run':<8}{'429 token':>10}{'429 chan':>10}{'per table-h':>12}{'webhook req':>12}"
          f"{'board tok':>10}{'board chan':>11}{'skipped':>9}{'lag p50':>9}{'p99':>7}{'max':>7}")
    for name, own in (("before", False), ("after", True)):
        loop = VirtualClockLoop()
        try:
            r = loop.run_until_complete(simulate(args, own))
        finally:
            loop.close()
        p50, p99, most = r["lag"]
        per_hour = (r["per token"] + r["per channel"]) / r["table_hours"]
        print(f"{name:<8}{r['per token']:>10}{r['per channel']:>10}{per_hour:>12.2f}"
              f"{r['requests']:>12}{r['by_token']:>10}{r['by_channel']:>11}{r['skipped']:>9}"
              f"{p50:>9.2f}{p99:>7.2f}{most:>7.1f}")


if __name__ == "__main__":
    main()
