"""Bot work per interaction with many tables playing at once (docs/PERFORMANCE.md).

Run: ``python -m benchmarks.interaction [--tables 200] [--seconds 60] [--think 2.0]
[--event-loop auto|uvloop|asyncio] [--profile [--profile-out PATH]]``. The bot runs on
the event loop ``python -m bot`` would take (``DDZ_EVENT_LOOP``: uvloop when installed),
on asyncio's own under ``--profile``.

Several processes: ``python -m benchmarks.interaction --processes 2 --database URL``
runs the same load twice, one after the other: once in one process on SQLite, once
split by shard over N processes sharing the PostgreSQL at URL (a fresh schema, dropped
afterwards), and prints both side by side (``benchmarks/processes.py``).

In-process: the real bot (``DdzBot.setup_hook``: SQLite storage on a temp file,
TableService, the ``/ddz`` cog, DynamicItem routing, the command tree) runs on
the recording fake of Discord's HTTP side from ``tests/support/fake_discord.py``;
interactions enter through discord.py's own ``parse_interaction_create``. So
each figure is the bot's own work — parsing, routing, the table lock,
validation, the SQLite commit, ``asyncio.to_thread`` rendering, the answer —
with no network. The background work the same clicks cause (public-message
redraws coalesced to one per second per table, refreshes of open hand views)
runs on the same loop and competes for the CPU, as in production.

Each table has three simulated members (no computers) in its own channel
(ten tables per guild); each acts on the seat the table gave it (the two who join
sit in the order their Join lands). They open the table (``/ddz start``, Join, Start), bid
with the public buttons, open "My hand", and in play take turns: Hint, then
for short plays Clear and the rank buttons again, then Play (a reading button
when asked) or Pass; members waiting for their turn now and then press a rank
button. Every member pauses ``--think`` seconds on average (uniform ±50 %)
between clicks, waiting ones ``--idle-factor`` times longer; after a result
the starter presses Play again.

Figures, per interaction kind and overall, in ms: *first* = event in → first
response out (the defer / initial callback reaches the fake Discord); *full* =
event in → the handler returned (rendered answer sent). The first ``--ramp``
seconds (tables opening) are left out. Also printed: interactions/s handled,
event-loop lag (a 50 ms ticker's overshoot), the CPU of the bot process (its
process time: the event loop, its threads, and this harness's simulated members
and fake Discord, which run in the same process) per interaction, the same without
the harness (its loop-thread CPU measured apart by ``benchmarks/ledger.py``), the
CPU of its worker processes (rendering, AI) apart, and the cores used in all; and the
requests Discord counts against the bot token's global rate limit (channel posts and
edits; interaction callbacks and webhooks are exempt) per second and per interaction,
with the tables one token (50 requests/s) carries at that pace.

Targets (docs/PERFORMANCE.md): first response p50 ≤ 50 ms, p99 ≤ 200 ms; Hint's
full answer p99 ≤ 300 ms; every kind's full answer p99 ≤ 250 ms up to 100
tables, ≤ 400 ms above; bot-process CPU ≤ 3 ms per interaction; more than 1.2
cores used in all at 200 tables when the load needs it.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import logging
import os
import random
import re
import sys
import tempfile
import threading
import time
import types
from collections import Counter, defaultdict, deque
from pathlib import Path
from typing import Any, cast

import discord
from discord.webhook.async_ import AsyncWebhookAdapter

from benchmarks.answer_stages import AnswerStages
from benchmarks.board_lag import BoardLag
from benchmarks.click_counts import ClickCounts
from benchmarks.commit_waits import CommitWaits
from benchmarks.cpu_sampler import CpuSampler
from benchmarks.ledger import CpuLedger
from bot.__main__ import loop_factory
from bot.client import DdzBot
from bot.rules import DECK
from bot.service.budget import DISCORD_GLOBAL_LIMIT, INTERACTION_RATE
from bot.settings import EVENT_LOOPS, Settings
from tests.support.fake_discord import FakeDiscord, KeepPatched, Member, Message, boot

TARGET_P50, TARGET_P99 = 50.0, 200.0
TARGET_HINT_P99 = 300.0
TARGET_FULL_P99 = {100: 250.0, 200: 400.0}
"""Every kind's full-answer p99 target (ms) up to this many tables."""
TARGET_CPU_MS = 3.0
TARGET_CORES = 1.2
TABLES_PER_GUILD = 10


class Recorder:
    """Timestamps of every interaction: sent, first callback, handler done."""

    def __init__(self) -> None:
        self.kind: dict[str, str] = {}
        self.sent: dict[str, float] = {}
        self.first: dict[str, float] = {}
        self.done: dict[str, asyncio.Future[float]] = {}
        self.measure_from = float("inf")
        self.samples: dict[str, list[tuple[float, float]]] = defaultdict(list)
        self.errors: Counter[str] = Counter()

    def start(self, token: str, kind: str) -> asyncio.Future[float]:
        self.kind[token] = kind
        self.sent[token] = time.perf_counter()
        fut: asyncio.Future[float] = asyncio.get_running_loop().create_future()
        self.done[token] = fut
        return fut

    def responded(self, token: str) -> None:
        if token in self.sent and token not in self.first:
            self.first[token] = time.perf_counter()

    def finished(self, token: str) -> None:
        end = time.perf_counter()
        fut = self.done.pop(token, None)
        sent = self.sent.pop(token, None)
        first = self.first.pop(token, end)
        kind = self.kind.pop(token, "?")
        if sent is None or fut is None:
            return
        if sent >= self.measure_from:
            self.samples[kind].append(((first - sent) * 1000, (end - sent) * 1000))
        if not fut.done():
            fut.set_result(end)


class Bench:
    """The bot on the fake Discord, plus the wrappers that time each interaction."""

    def __init__(self, fake: FakeDiscord, rec: Recorder, ledger: CpuLedger) -> None:
        self.fake, self.rec, self.ledger = fake, rec, ledger
        self.bot = fake.bot
        self.table_of_channel: dict[int, str] = {}
        fake.requests = deque(maxlen=1000)  # type: ignore[assignment]  # the log grows without end
        self.watchers: dict[int, list[asyncio.Future[None]]] = defaultdict(list)
        """Members waiting for a channel's messages to change, by channel id."""
        on_rest = fake.on_rest

        def seen_by_members(route: Any, body: dict[str, Any]) -> Any:
            answer = on_rest(route, body)
            if route.method in ("POST", "PATCH") and "channel_id" in route.path:
                for waiter in self.watchers.pop(int(route.channel_id), ()):
                    _wake(waiter)
            return answer

        fake.on_rest = seen_by_members  # type: ignore[method-assign]
        on_webhook = fake.on_webhook

        def public_on_token(route: Any, body: dict[str, Any]) -> Any:
            answer = on_webhook(route, body)
            if isinstance(answer, dict) and int(answer.get("id", 0)) in fake.posted:
                for waiter in self.watchers.pop(int(answer["channel_id"]), ()):
                    _wake(waiter)  # the table message, posted or edited on a token
            return answer

        fake.on_webhook = public_on_token  # type: ignore[method-assign]

    def connect_guilds(self, tables: dict[int, int]) -> None:
        """Put each table's guild, with its text channel, in discord.py's cache, as the
        GUILD_CREATE events of a real connection do (intent ``guilds``); without them
        discord.py makes a throwaway Guild for every interaction. ``tables``: table
        number → guild id; table ``n`` plays in channel ``900_000 + n``."""
        state = self.bot._connection  # noqa: SLF001
        by_guild: dict[int, list[int]] = defaultdict(list)
        for n, guild in tables.items():
            by_guild[guild].append(900_000 + n)
        for guild, channels in by_guild.items():
            state._add_guild_from_data({  # noqa: SLF001 (discord.py's GUILD_CREATE cache step)
                "id": str(guild), "name": f"guild {guild}", "owner_id": "1", "unavailable": False,
                "member_count": 1 + 3 * len(channels), "features": [], "emojis": [], "stickers": [],
                "roles": [{"id": str(guild), "name": "@everyone", "permissions": "0", "position": 0,
                           "color": 0, "hoist": False, "managed": False, "mentionable": False}],
                "channels": [{"id": str(c), "type": 0, "name": f"table-{c}", "position": i,
                              "permission_overwrites": [], "nsfw": False, "parent_id": None}
                             for i, c in enumerate(channels)],
            })

    async def channel_change(self, channel_id: int, timeout: float) -> None:
        """Until a message of the channel is posted or edited (what a member watching
        the channel sees), at most ``timeout`` seconds: no polling, so the harness adds
        no wake-ups of the event loop that the ledger could not charge to it."""
        loop = asyncio.get_running_loop()
        waiter: asyncio.Future[None] = loop.create_future()
        self.watchers[channel_id].append(waiter)
        timer = loop.call_later(max(0.0, timeout), _wake, waiter)
        try:
            await waiter
        finally:
            timer.cancel()

    @classmethod
    async def create(
        cls, db: Path | str, rec: Recorder, ledger: CpuLedger,
        shards: tuple[int, int] | None = None, *, hand_cache: bool = True,
    ) -> Bench:
        """The bot on SQLite file ``db`` or the PostgreSQL URL ``db``; ``shards`` =
        (shard count, this process's shard id). The fake's HTTP handling, the
        recorder and discord.py's parsing of dispatched payloads are charged to
        ``ledger`` (harness, bot). ``hand_cache`` False: ``--try-no-hand-cache``."""
        options: dict[str, Any] = {"discord_token": "bench-token"}
        options["database_url" if str(db).startswith("postgresql://") else "database_path"] = db
        if shards is not None:
            options.update(shard_count=shards[0], shard_ids=[shards[1]])
        settings = Settings(**options)
        bot = DdzBot(settings)
        if not hand_cache:
            _drop_hand_caches(bot)
        fake = FakeDiscord(bot, 0, 0)
        fake.install(KeepPatched())
        discord.http.HTTPClient.request = ledger.coroutine(  # type: ignore[method-assign]
            discord.http.HTTPClient.request)
        hook = ledger.coroutine(AsyncWebhookAdapter.request)
        state = bot._connection  # noqa: SLF001
        state.parse_interaction_create = ledger.call(  # type: ignore[method-assign]
            state.parse_interaction_create, harness=False)
        for name in ("start", "responded", "finished"):
            setattr(rec, name, ledger.call(getattr(rec, name)))

        async def timed_hook(adapter: Any, route: Any, *args: Any, **kwargs: Any) -> Any:
            if route.path.endswith("/callback"):
                rec.responded(route.webhook_token)
            return await hook(adapter, route, *args, **kwargs)

        AsyncWebhookAdapter.request = timed_hook  # type: ignore[method-assign,assignment]  # timed, same call
        await boot(bot)
        renderer = getattr(bot, "renderer", None)
        if renderer is not None:  # as the old setup_hook awaited warm_up: start warm
            await renderer.pool.wait_ready(180)
        ai = getattr(bot, "ai", None)
        if ai is not None:  # the Hint's searches: in the AI worker, not in threads of the
            await ai.wait_ready(180)  # bot process while it starts (slow on a loaded machine)
        bench = cls(fake, rec, ledger)
        cog = bot.get_cog("ddz")
        for name in ("on_public_click", "on_hand_click"):
            setattr(cog, name, bench._timed(getattr(cog, name)))
        tree_call = bot.tree._call

        async def timed_call(interaction: discord.Interaction[DdzBot]) -> None:
            try:
                await tree_call(interaction)
            finally:
                rec.finished(interaction.token)

        bot.tree._call = timed_call  # type: ignore[method-assign]
        return bench

    def _timed(self, handler: Any) -> Any:
        async def wrapper(interaction: discord.Interaction, *args: Any) -> None:
            try:
                await handler(interaction, *args)
            finally:
                self.rec.finished(interaction.token)

        return wrapper

    async def send(self, payload: dict[str, Any], kind: str) -> list[Message]:
        """Dispatch one interaction, wait for its handler, return the messages it touched."""
        token = payload["token"]
        fut = self.rec.start(token, kind)
        self.fake.dispatch(payload)
        try:
            await asyncio.wait_for(fut, 30)
        except TimeoutError:
            self.rec.errors["timeout"] += 1
        ids = list(dict.fromkeys(self.fake.replies.pop(token, [])))
        return [self.fake.messages[i] for i in ids]


def _wake(waiter: asyncio.Future[None]) -> None:
    if not waiter.done():
        waiter.set_result(None)


class Player(Member):
    """A member of one table's channel who plays by the rules of thumb above."""

    def __init__(self, bench: Bench, user_id: int, guild_id: int, channel_id: int, order: int,
                 rng: random.Random, think: float, idle_factor: float,
                 hint_share: float) -> None:
        super().__init__(bench.fake, user_id, f"P{user_id}")
        self.bench, self.guild_id, self.channel_id = bench, guild_id, channel_id
        self.order = order
        """0: the member who opens the table, starts and deals again; 1, 2: join it. Not
        the seat: the other two take seats 1 and 2 in the order their Join lands."""
        self.rng, self.think, self.idle_factor = rng, think, idle_factor
        self.hint_share = hint_share
        self.view: int | None = None  # id of my open hand view message
        self.view_hand = -1
        self.plan: list[str] = []

    def _base(self, kind: int) -> dict[str, Any]:
        data = super()._base(kind)
        data["guild_id"] = str(self.guild_id)
        data["channel_id"] = data["channel"]["id"] = str(self.channel_id)
        data["channel"]["guild_id"] = str(self.guild_id)
        return data

    async def slash_(self, sub: str, **options: Any) -> list[Message]:
        return await self.bench.send(self.slash_payload(sub, **options), sub)

    async def press(self, message: Message, custom_id: str, kind: str) -> list[Message]:
        data = self._base(3)
        data["data"] = {"custom_id": custom_id, "component_type": 2}
        data["message"] = message.payload()
        return await self.bench.send(data, kind)

    def _public(self) -> Message | None:
        table = self.bench.bot.service.get(self.bench.table_of_channel.get(self.channel_id, ""))
        if table is None or table.message_id is None:
            return None
        return self.fake.messages.get(table.message_id)

    def _my_turn(self) -> bool:
        table = self.bench.bot.service.get(self.bench.table_of_channel.get(self.channel_id, ""))
        seat = table.seat_of(self.id) if table else None
        return bool(table and table.phase == "playing" and seat is not None
                    and table.turn_seat == seat)

    async def pause(self, end: float) -> None:
        """Think before the next click; a waiting member reacts when the turn comes."""
        loop = asyncio.get_running_loop()
        table = self.bench.bot.service.get(self.bench.table_of_channel.get(self.channel_id, ""))
        waiting = bool(table and table.phase == "playing" and not self._my_turn())
        wake = loop.time() + self.think * (self.idle_factor if waiting else 1.0) * \
            self.rng.uniform(0.5, 1.5)
        while waiting and loop.time() < min(wake, end):
            await self.bench.channel_change(self.channel_id, min(wake, end) - loop.time())
            if self._my_turn():
                wake = loop.time() + self.think * self.rng.uniform(0.5, 1.5)
                break
        await asyncio.sleep(max(0.0, min(wake, end) - loop.time()))

    async def run(self, end: float) -> None:
        loop = asyncio.get_running_loop()
        while loop.time() < end:
            await self.pause(end)
            if loop.time() >= end:
                return
            try:
                await self.step()
            except Exception:  # a member's own bookkeeping error: log and go on
                logging.getLogger("bench").exception("member %s step failed", self.id)
                self.bench.rec.errors["member"] += 1

    async def step(self) -> None:
        bench = self.bench
        tid = bench.table_of_channel.get(self.channel_id)
        table = bench.bot.service.get(tid) if tid else None
        if table is None:
            if self.order == 0:
                await self.slash_("start")
                opened = bench.bot.service.table_in_channel(self.channel_id)
                if opened is not None:
                    bench.table_of_channel[self.channel_id] = opened.id
            return
        public = self._public()
        if table.phase == "lobby":
            if public is None:
                return
            if table.seat_of(self.id) is None:
                await self._click_public(public, "join")
            elif self.order == 0 and all(not s.is_empty for s in table.seats):
                await self._click_public(public, "start")
            return
        if table.phase == "finished":
            if self.order == 0 and public is not None:
                await self._click_public(public, "again")
            return
        hand = table.hand
        seat = table.seat_of(self.id)
        if hand is None or seat is None:
            return
        if self.view is None or self.view_hand != table.hand_no:
            if public is not None:
                replies = await self._click_public(public, "hand")
                if replies:
                    self.view, self.view_hand, self.plan = replies[-1].id, table.hand_no, []
            return
        if hand.phase == "bidding":
            if table.turn_seat == seat and public is not None:
                bids = [c for c in public.custom_ids() if c.split(":")[3].startswith("bid")
                        and not public.buttons().get(self._label(public, c), {}).get("disabled")]
                if bids:
                    await self.press(public, self.rng.choice(bids), "bid")
            return
        view = self.fake.messages[self.view]
        if table.turn_seat != seat:
            self.plan = []
            ranks = self._verbs(view, "r")
            if ranks and self.rng.random() < 0.5:
                await self._hand(view, self.rng.choice(ranks), "rank (waiting)")
            return
        if not self.plan:
            self.plan = ["hint"] if self.rng.random() < self.hint_share else ["pick"]
        verb = self.plan.pop(0)
        if verb == "pick":
            view = await self._pick(view, table, seat)
            self.plan = ["play"] if _selected(view) else ["pass"]
            return
        if verb == "hint":
            view = await self._hand(view, "hint", "hint")
            chosen = _selected(view)
            if not chosen:
                self.plan = ["pass"]
            elif len(chosen) <= 4 and self.rng.random() < 0.7:
                self.plan = ["clear"] + [f"r{DECK[i].rank.index}" for i in sorted(chosen)] + ["play"]
            else:
                self.plan = ["play"]
            return
        kind = "rank" if verb.startswith("r") else verb
        view = await self._hand(view, verb, kind)
        if verb == "play":
            readings = self._verbs(view, "rd")
            if readings:
                self.plan = [readings[0]]
            elif "You played" not in view.content and bench.bot.service.get(tid).turn_seat == seat:
                self.plan = ["pass"]  # refused (e.g. the selection cannot beat): pass instead

    async def _pick(self, view: Message, table: Any, seat: int) -> Message:
        """Choose the first (best-ranked) play in the hand view's select menu: the legal-play
        menu's first option (older trees), or that play's cards ticked in the card menu."""
        for row in view.components:
            for comp in row.get("components", []):
                if comp.get("type") == 3 and comp.get("options") and not comp.get("disabled"):
                    values = [comp["options"][0]["value"]]
                    if comp.get("max_values", 1) > 1:  # the card menu: the best play's cards
                        ranked = self.bench.bot.service.ranked_known(table, seat)
                        plays = ranked.plays if ranked else table.hand.legal_plays(seat)
                        if not plays:
                            return view
                        values = [str(c.index) for c in plays[0].cards]
                    data = self._base(3)
                    data["data"] = {"custom_id": comp["custom_id"], "component_type": 3,
                                    "values": values}
                    data["message"] = view.payload()
                    replies = await self.bench.send(data, "pick (menu)")
                    return replies[-1] if replies else view
        return view

    async def _click_public(self, public: Message, action: str) -> list[Message]:
        for custom_id in public.custom_ids():
            if custom_id.split(":")[3] == action:
                return await self.press(public, custom_id, "My hand" if action == "hand" else action)
        return []

    async def _hand(self, view: Message, verb: str, kind: str) -> Message:
        for custom_id in view.custom_ids():
            if custom_id.split(":")[3].split(".")[0] == "h" + verb:
                replies = await self.press(view, custom_id, kind)
                return replies[-1] if replies else view
        return view

    @staticmethod
    def _verbs(view: Message, prefix: str) -> list[str]:
        out = []
        for custom_id in view.custom_ids():
            verb = custom_id.split(":")[3].split(".")[0][1:]
            if verb.startswith(prefix) and verb[len(prefix):].isdigit():
                out.append(verb)
        return out

    @staticmethod
    def _label(message: Message, custom_id: str) -> str:
        for label, comp in message.buttons().items():
            if comp.get("custom_id") == custom_id:
                return label
        return custom_id


def _selected(view: Message) -> set[int]:
    for custom_id in view.custom_ids():
        parts = custom_id.split(":")[3].split(".")
        if len(parts) == 3:
            mask = int(parts[1], 36)
            return {i for i in range(54) if mask >> i & 1}
    return set()


class GcWatch:
    """Garbage collections while measuring (``gc.callbacks``): per generation, how many
    and their milliseconds, of wall time and of the loop thread's CPU (``thread_time``:
    what the collection itself cost, whatever the machine's load); a full (gen-2)
    collection stops the event loop."""

    def __init__(self, census: bool = False) -> None:
        self.pauses: dict[int, list[float]] = defaultdict(list)
        self.cpu: dict[int, list[float]] = defaultdict(list)
        self.scanned: list[int] = []
        """Objects each full collection scanned (all the unfrozen ones)."""
        self.census: Counter[str] | None = Counter() if census else None
        """With ``census``: what the full collections scanned, by type (coroutines and
        tasks by their code's name), summed over them (``census_line``)."""
        self.collected: Counter[int] = Counter()
        """Objects found unreachable (cyclic garbage), per generation."""
        self._start = self._start_cpu = 0.0

    def start(self) -> None:
        gc.callbacks.append(self._on_gc)

    def stop(self) -> None:
        gc.callbacks.remove(self._on_gc)

    def _on_gc(self, phase: str, info: dict[str, int]) -> None:
        if threading.current_thread() is not threading.main_thread():
            return  # a collection in another thread: its CPU is not the loop's
        if phase == "start":
            if info["generation"] == 2:  # what it scans (counted before the clock starts)
                self.scanned.append(sum(len(gc.get_objects(generation=g)) for g in range(3)))
                if self.census is not None:
                    self.census.update(_census_key(o) for g in range(3)
                                       for o in gc.get_objects(generation=g))
            self._start, self._start_cpu = time.perf_counter(), time.thread_time()
        else:
            self.pauses[info["generation"]].append((time.perf_counter() - self._start) * 1000)
            self.cpu[info["generation"]].append((time.thread_time() - self._start_cpu) * 1000)
            self.collected[info["generation"]] += info["collected"]

    def summary(self) -> str:
        parts = [f"gen{g} {len(p)} × = {sum(p):.0f} ms (longest {max(p):.1f}, "
                 f"{self.collected[g]} objects freed)" for g, p in sorted(self.pauses.items())]
        # bot.client.FreezeAfterFull, by its counter (a baseline tree run with this
        # harness may have none: benchmarks/interaction_compare.py)
        hooks = [h for h in gc.callbacks if hasattr(h, "whole_scans")]
        whole = f", {hooks[0].whole_scans} whole-heap scans since start-up" if hooks else ""
        return (", ".join(parts) or "none") + f"; {len(gc.get_objects())} objects tracked " \
            f"at the end ({gc.get_freeze_count()} frozen{whole})"

    def full_line(self) -> str:
        """The full collections in one line: count, longest and total pause (wall ms),
        longest and total CPU ms (``benchmarks/interaction_compare.py`` reads it)."""
        wall, cpu = self.pauses.get(2, []), self.cpu.get(2, [])
        return (f"gen-2 pauses: {len(wall)}, longest {max(wall, default=0):.1f} ms wall "
                f"{max(cpu, default=0):.1f} ms CPU, total {sum(wall):.0f} ms wall "
                f"{sum(cpu):.0f} ms CPU; CPU ms / objects scanned each: "
                + (", ".join(f"{c:.0f}/{n}" for c, n in zip(cpu, self.scanned, strict=False))
                   or "-"))

    def census_line(self, top: int = 40) -> str:
        """With ``census``: the ``top`` kinds of object a full collection scanned, on
        average over the full collections watched."""
        if self.census is None or not self.scanned:
            return "gen-2 census: -"
        n = len(self.scanned)
        return (f"gen-2 census (objects a full collection scanned, mean of {n}): "
                + ", ".join(f"{name} {count / n:.0f}"
                            for name, count in self.census.most_common(top)))

    def young_line(self) -> str:
        """The young and middle-generation collections in one line (they stop the loop
        too): per generation, count, longest wall and CPU ms, total CPU ms."""
        return "; ".join(
            f"gen-{g} pauses: {len(self.pauses.get(g, []))}, longest "
            f"{max(self.pauses.get(g, []), default=0):.1f} ms wall "
            f"{max(self.cpu.get(g, []), default=0):.1f} ms CPU, total "
            f"{sum(self.cpu.get(g, [])):.0f} ms CPU" for g in (1, 0))


def _census_key(obj: object) -> str:
    """The census's name of ``obj``: its type's, a coroutine's or task's code's."""
    kind = type(obj)
    if kind is types.CoroutineType:
        coroutine = cast("types.CoroutineType[Any, Any, Any]", obj)
        return f"coroutine {coroutine.cr_code.co_qualname}"
    if isinstance(obj, asyncio.Task):
        coro = obj.get_coro()
        return f"Task {coro.cr_code.co_qualname}" if isinstance(coro, types.CoroutineType) \
            else "Task"
    return kind.__qualname__ if kind.__module__ == "builtins" else \
        f"{kind.__module__}.{kind.__qualname__}"


def thread_cpu() -> dict[str, float]:
    """CPU seconds (user + system) of each live thread of this process, keyed by the
    Python thread's name (``loop`` for the main thread, ``aiosqlite`` for its
    connection threads, ``other`` for threads Python does not know); empty off Linux."""
    ticks = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    names = {t.native_id: t.name for t in threading.enumerate()}
    cpu: dict[str, float] = defaultdict(float)
    try:
        tids = os.listdir("/proc/self/task")
    except OSError:
        return {}
    for tid in tids:
        try:
            with open(f"/proc/self/task/{tid}/stat", encoding="ascii", errors="replace") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        name = names.get(int(tid), "other")
        if int(tid) == os.getpid():
            name = "loop"
        elif name.startswith("Thread-") and "(" in name:  # Thread-3 (_connection_worker_thread)
            name = name.split("(", 1)[1].rstrip(")")
        elif name.startswith("Thread-"):
            name = "thread"
        name = re.sub(r"_\d+$", "", name)  # ThreadPoolExecutor-0_1 -> ThreadPoolExecutor-0
        cpu[name] += (int(fields[11]) + int(fields[12])) / ticks
    return dict(cpu)


def worker_cpu() -> dict[int, float]:
    """CPU seconds (user + system) of each live descendant process of this one (Linux
    ``/proc``; empty elsewhere): the rendering and AI worker processes."""
    ticks = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    parent: dict[int, int] = {}
    cpu: dict[int, float] = {}
    try:
        names = os.listdir("/proc")
    except OSError:
        return {}
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", encoding="ascii", errors="replace") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parent[int(name)] = int(fields[1])
        cpu[int(name)] = (int(fields[11]) + int(fields[12])) / ticks
    mine: set[int] = set()
    frontier = {os.getpid()}
    while frontier:
        frontier = {pid for pid, ppid in parent.items() if ppid in frontier} - mine
        mine |= frontier
    return {pid: cpu[pid] for pid in mine}


def heap_census(top: int = 25) -> str:
    """What a full collection would scan now: the tracked objects outside the frozen
    generation, counted by type (the ``top`` most numerous), after a full collection;
    then the cyclic garbage hidden in the frozen generation (objects frozen while alive
    that became unreachable since: only ``gc.unfreeze`` and a full collection find them),
    by type. Unfreezes the heap."""
    gc.collect()
    counts = Counter(type(o).__qualname__ for o in gc.get_objects())
    rows = ", ".join(f"{name} {n}" for name, n in counts.most_common(top))
    frozen = gc.get_freeze_count()
    gc.unfreeze()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        gc.collect()
        leaked = Counter(type(o).__qualname__ for o in gc.garbage)
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
    hidden = ", ".join(f"{name} {n}" for name, n in leaked.most_common(top))
    return (f"heap census: {sum(counts.values())} tracked objects unfrozen: {rows}\n"
            f"frozen cyclic garbage: {sum(leaked.values())} of {frozen} frozen objects: "
            f"{hidden or 'none'}")


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


async def lag_monitor(samples: list[float], stop: asyncio.Event) -> None:
    loop = asyncio.get_running_loop()
    while not stop.is_set():
        before = loop.time()
        await asyncio.sleep(0.05)
        samples.append((loop.time() - before - 0.05) * 1000)


def guild_of_table(n: int) -> int:
    """Table ``n``'s guild id: ten tables per guild, guilds on consecutive shards
    (Discord's shard of a guild is ``(guild_id >> 22) % shard_count``)."""
    return ((n // TABLES_PER_GUILD) << 22) | 800_000


async def run(args: argparse.Namespace) -> bool | dict[str, Any]:
    rec = Recorder()
    ledger = CpuLedger()
    with tempfile.TemporaryDirectory() as tmp:
        shards = (args.shard_count, args.shard_id) if args.shard_count else None
        bench = await Bench.create(args.database or Path(tmp) / "bench.sqlite3", rec, ledger, shards,
                                   hand_cache=not args.try_no_hand_cache)
        counts = ClickCounts() if args.counts else None
        commits = CommitWaits() if args.counts else None
        stages = AnswerStages() if args.counts else None
        boards = BoardLag() if args.counts else None
        if counts is not None and commits is not None and stages is not None:
            counts.install(bench.fake)
            commits.install()
            stages.install()
            if args.record_calls:
                counts.record = []
        if boards is not None:
            boards.install(bench.bot)
        rng = random.Random(args.seed)
        loop = asyncio.get_running_loop()
        start = loop.time()
        end = start + args.ramp + args.seconds
        players: list[Player] = []
        bench.connect_guilds({n: guild_of_table(n) for n in range(args.tables)})
        for n in range(args.tables):
            guild, channel = guild_of_table(n), 900_000 + n
            if shards is not None and (guild >> 22) % shards[0] != shards[1]:
                continue
            for seat in range(3):
                players.append(Player(bench, 10_000 + 3 * n + seat, guild, channel, seat,
                                      random.Random(rng.getrandbits(32)), args.think, args.idle_factor,
                                      args.hint_share))
        lags: list[float] = []
        stop = asyncio.Event()
        monitor = asyncio.create_task(ledger.run(lag_monitor(lags, stop)))
        backlog = asyncio.create_task(ledger.run(boards.run(stop))) if boards else None

        async def delayed(player: Player) -> None:
            await asyncio.sleep(rng.uniform(0, args.ramp * 0.8) if player.order == 0 else
                                args.ramp * 0.8 + rng.uniform(0, args.ramp * 0.2))
            await player.run(end)

        tasks = [asyncio.create_task(ledger.run(delayed(p))) for p in players]
        ramp_collections = GcWatch(args.gc_census)  # the ramp's (tables being opened)
        ramp_collections.start()
        await asyncio.sleep(args.ramp)
        ramp_collections.stop()
        rec.measure_from = time.perf_counter()
        lags.clear()
        cpu0, wall0, workers0 = time.process_time(), time.perf_counter(), worker_cpu()
        threads0 = thread_cpu()
        sampler = CpuSampler() if args.profile else None
        if sampler is not None:
            sampler.start()
        collections = GcWatch(args.gc_census)
        collections.start()
        harness0 = ledger.harness
        requests0 = (bench.fake.global_limited, bench.fake.exempt)
        if counts is not None and commits is not None and stages is not None:
            counts.active = commits.active = stages.active = True
        if boards is not None:
            boards.active = True
        await asyncio.gather(*tasks)
        if counts is not None and commits is not None and stages is not None:
            counts.active = commits.active = stages.active = False
        if boards is not None:
            boards.active = False
        cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
        requests = (bench.fake.global_limited - requests0[0], bench.fake.exempt - requests0[1])
        if sampler is not None:
            sampler.stop()
        collections.stop()
        gc_summary = collections.summary()
        census = heap_census() if args.census else ""
        harness = ledger.harness - harness0
        threads = {name: v - threads0.get(name, 0.0) for name, v in thread_cpu().items()}
        used = {pid: v - workers0.get(pid, 0.0) for pid, v in worker_cpu().items()}
        renderer = getattr(bench.bot, "renderer", None)
        renderers = set(renderer.pool.pids) if renderer is not None else set()
        workers = (sum(v for pid, v in used.items() if pid in renderers),
                   sum(v for pid, v in used.items() if pid not in renderers))
        stop.set()
        await monitor
        if backlog is not None:
            await backlog
        hands = sum(t.hand_no for t in bench.bot.service.tables())
        try:
            await bench.fake.idle(timeout=60)
        except AssertionError as error:  # a loaded machine: still redrawing boards
            print(f"the bot was not idle 60 s after the measured time: {str(error)[:300]}",
                  file=sys.stderr)
        await bench.bot.close()
    if args.worker_json:
        samples = [(kind, first, full) for kind, rows in rec.samples.items() for first, full in rows]
        return {"samples": samples, "lags": lags, "cpu": cpu, "harness": harness, "wall": wall,
                "hands": hands, "workers": workers, "errors": dict(rec.errors),
                "requests": requests}
    met = report(args, rec, lags, (cpu, harness), workers, wall, hands, threads)
    print(global_line(requests, len([s for v in rec.samples.values() for s in v]), wall,
                      len({p.channel_id for p in players})))
    print(f"garbage collections while measuring: {gc_summary}")
    print(collections.full_line())
    print("ramp " + ramp_collections.full_line())
    print(collections.young_line())
    if args.gc_census:
        print(collections.census_line())
        print("ramp " + ramp_collections.census_line())
    if counts is not None:
        print(counts.report(len([s for v in rec.samples.values() for s in v])))
        if commits is not None:
            print(commits.report(wall))
        if stages is not None:
            print(stages.report())
        if boards is not None:
            print(boards.report())
        if counts.record is not None:
            import pickle

            Path(args.record_calls).write_bytes(pickle.dumps(counts.record))
    if census:
        print(census)
    if sampler is not None:
        sampler.report()
        if args.profile_out:
            sampler.save(args.profile_out)
    return met


def report(args: argparse.Namespace, rec: Recorder, lags: list[float], cpus: tuple[float, float],
           workers: tuple[float, float], wall: float, hands: int,
           threads: dict[str, float] | None = None) -> bool:
    """Print the figures and the targets; True when every target is met. ``cpus``: the
    bot process's CPU seconds (harness included), the harness's share of them (seconds,
    ``benchmarks/ledger.py``); ``workers``: (render workers', other workers') CPU seconds;
    ``threads``: the bot process's CPU seconds by thread (``thread_cpu``)."""
    cpu, harness = cpus
    rows = sorted(rec.samples.items(), key=lambda kv: -len(kv[1]))
    every = [s for _, samples in rows for s in samples]
    loop = type(asyncio.get_running_loop()).__module__.split(".")[0]  # uvloop or asyncio
    print(f"in-process ({loop} loop), {args.tables} tables × 3 members, think {args.think:.1f} s "
          f"(waiting ×{args.idle_factor:g}), Hint on {args.hint_share:.0%} of turns"
          f"{', no hand-PNG cache' if args.try_no_hand_cache else ''}"
          f"{f', switch interval {args.switch_interval * 1000:g} ms' if args.switch_interval else ''}, measured {wall:.0f} s after a {args.ramp:.0f} s ramp; "
          f"{hands} hands dealt in all")
    head = f"{'kind':<16}{'n':>6}  {'first p50':>9}{'p90':>7}{'p99':>7}{'max':>7}  " \
           f"{'full p50':>8}{'p90':>7}{'p99':>7}{'max':>7}"
    print(head)
    for kind, samples in rows + [("ALL", every)]:
        first = [s[0] for s in samples]
        full = [s[1] for s in samples]
        print(f"{kind:<16}{len(samples):>6}  {pct(first, .5):>9.1f}{pct(first, .9):>7.1f}"
              f"{pct(first, .99):>7.1f}{max(first, default=0):>7.1f}  {pct(full, .5):>8.1f}"
              f"{pct(full, .9):>7.1f}{pct(full, .99):>7.1f}{max(full, default=0):>7.1f}")
    first_all = [s[0] for s in every]
    count = max(1, len(every))
    print(f"throughput {len(every) / wall:.1f} interactions/s; event-loop lag p50 "
          f"{pct(lags, .5):.1f} ms p99 {pct(lags, .99):.1f} ms max {max(lags, default=0):.1f} ms")
    render, other = workers
    print(f"CPU: bot process {cpu / wall:.2f} cores = {cpu * 1000 / count:.2f} ms per interaction; "
          f"workers {(render + other) / wall:.2f} cores = {(render + other) * 1000 / count:.2f} ms "
          f"per interaction (render {render * 1000 / count:.2f}, AI {other * 1000 / count:.2f}); "
          f"total {(cpu + render + other) / wall:.2f} cores")
    print(f"bot process without the harness: {(cpu - harness) * 1000 / count:.2f} ms per interaction "
          f"(simulated members and fake Discord: {harness * 1000 / count:.2f} ms, "
          f"{harness / max(cpu, 1e-9):.0%} of the process)")
    if threads:
        parts = ", ".join(f"{name} {v * 1000 / count:.2f}" for name, v in
                          sorted(threads.items(), key=lambda kv: -kv[1]) if v * 1000 / count >= 0.005)
        print(f"bot process by thread, ms per interaction (the loop's includes the harness): {parts}")
    if rec.errors:
        print(f"client-side problems: {dict(rec.errors)}")
    checks = [
        ("first response p50", pct(first_all, .5), TARGET_P50),
        ("first response p99", pct(first_all, .99), TARGET_P99),
        ("hint full p99", pct([s[1] for s in rec.samples.get("hint", [])], .99), TARGET_HINT_P99),
    ]
    limit = next((ms for tables, ms in sorted(TARGET_FULL_P99.items()) if args.tables <= tables),
                 max(TARGET_FULL_P99.values()))
    worst = max(rows, key=lambda kv: pct([s[1] for s in kv[1]], .99), default=("-", []))
    checks.append((f"worst kind's full p99 ({worst[0]})", pct([s[1] for s in worst[1]], .99), limit))
    checks.append(("bot CPU ms per interaction (harness excluded)", (cpu - harness) * 1000 / count,
                   TARGET_CPU_MS))
    ok = True
    for name, value, target in checks:
        if value != value:  # nan: no sample of that kind
            print(f"{name}: no sample")
            continue
        met = value <= target
        ok = ok and met
        print(f"{name} {value:.1f} (≤ {target:g}): {'OK' if met else 'MISSED'}")
    cores = (cpu + render + other) / wall
    print(f"cores used {cores:.2f} (> {TARGET_CORES:g} at 200 tables when the load needs it)"
          f"{': OK' if cores > TARGET_CORES else ''}")
    return ok


def global_line(requests: tuple[int, int], interactions: int, wall: float, tables: int) -> str:
    """Discord's global rate limit at this load: ``requests`` = (global-limited, exempt)
    requests in the ``wall`` seconds measured, over ``interactions`` interactions and
    ``tables`` tables; and the tables one bot token (50 requests/s) carries at this pace."""
    limited, exempt = requests
    per_s = limited / max(wall, 1e-9)
    carried = (f"{DISCORD_GLOBAL_LIMIT * tables / per_s:,.0f}" if per_s > 0
               else "any number (none in the window)")
    exempt_s = exempt / max(wall, 1e-9)
    per_ip = (f"{INTERACTION_RATE * tables / exempt_s:,.0f}" if exempt_s > 0 else "any number")
    return (f"Discord's global limit: {limited} global-limited requests = {per_s:.2f}/s, "
            f"{limited / max(interactions, 1):.3f} per interaction (exempt: {exempt_s:.1f}/s, "
            f"interaction callbacks and webhooks); one token ({DISCORD_GLOBAL_LIMIT:g}/s) carries "
            f"{carried} tables at this pace\n"
            f"Interaction routes: {exempt_s:.1f} requests/s, {exempt_s / max(tables, 1):.2f} per "
            f"table; capped at DDZ_INTERACTION_RATE's {INTERACTION_RATE:g}/s (if Discord counts "
            f"them per IP) one process carries {per_ip} tables at this pace")


def _drop_hand_caches(bot: DdzBot) -> None:
    """Experiment: every hand image drawn again, to see what the hand-PNG caches save
    (docs/PERFORMANCE.md §Figures, item 2): the renderer's LRU of hand images
    (``bot.service.renderer.Renderer.hand``) keeps none, and the thread path without
    workers draws with ``rendering.render_hand`` instead of ``render_hand_cached``."""
    import cogs.hand_view as hand_view
    from rendering import render_hand

    bot.renderer.cache_size = 0
    hand_view.render_hand_cached = render_hand  # type: ignore[attr-defined]  # the module's own import, replaced


class _EchoId:
    """Stands in for discord.py's ``InteractionMessage`` in ``--try-no-echo-parse``: the
    message id only, none of the echoed message parsed."""

    def __init__(self, *, state: Any, channel: Any, data: dict[str, Any]) -> None:
        self.id = int(data["id"])
        self.channel = channel


def _skip_echo_parse() -> None:
    """Experiment (docs/PERFORMANCE.md §Figures, §Appendix): what the bot would save if
    discord.py did not build a message object from the message Discord sends back for
    each interaction response and each edit of an interaction's message (the bot never
    reads it). The bot cannot opt out: that would mean calling discord.py's internals."""
    import discord.interactions

    discord.interactions.InteractionMessage = _EchoId  # type: ignore[assignment,misc]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=60.0, help="measured time after the ramp")
    parser.add_argument("--ramp", type=float, default=10.0, help="seconds to open every table")
    parser.add_argument("--think", type=float, default=2.0, help="mean pause between clicks (s)")
    parser.add_argument("--idle-factor", type=float, default=4.0,
                        help="members waiting for their turn pause this many times longer")
    parser.add_argument("--hint-share", type=float, default=0.3,
                        help="share of turns that start with Hint (else the play menu)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--try-no-hand-cache", action="store_true",
                        help="experiment: draw every hand PNG again (the bot's hand-image "
                             "caches off), to see what they save")
    parser.add_argument("--try-no-echo-parse", action="store_true",
                        help="experiment: discord.py parses no echoed interaction message")
    parser.add_argument("--switch-interval", type=float, default=None,
                        help="experiment: sys.setswitchinterval (s; CPython default 0.005)")
    parser.add_argument("--event-loop", choices=EVENT_LOOPS, default="auto",
                        help="the bot's event loop, as DDZ_EVENT_LOOP for python -m bot "
                             "(auto: uvloop when installed; asyncio under --profile)")
    parser.add_argument("--counts", action="store_true",
                        help="print what a click causes: worker calls by function (with their "
                             "CPU), hand images, uploads, Discord requests (click_counts.py); "
                             "where saves and hand views wait; how far behind the boards "
                             "are and the render backlog (board_lag.py)")
    parser.add_argument("--record-calls", metavar="PATH",
                        help="with --counts: save every worker call (function, arguments) "
                             "made while measuring there, a pickled list, to replay them")
    parser.add_argument("--gc-thresholds", metavar="YOUNG,MIDDLE,OLD", default=None,
                        help="the bot's collector thresholds instead of bot.client's "
                             "GC_YOUNG_THRESHOLD, GC_MIDDLE_THRESHOLD, GC_OLD_THRESHOLD")
    parser.add_argument("--gc-census", action="store_true",
                        help="print what the full collections scanned, by type (slows them)")
    parser.add_argument("--census", action="store_true",
                        help="print the unfrozen tracked objects by type after the run")
    parser.add_argument("--profile", action="store_true",
                        help="sample the bot process's CPU during the measured time "
                             "(benchmarks/cpu_sampler.py) and print the top functions")
    parser.add_argument("--profile-out", metavar="PATH",
                        help="with --profile: also save the sampled stacks there (pickle of "
                             "stack tuple → samples), e.g. to find a function's callers")
    parser.add_argument("--processes", type=int, default=None,
                        help="compare: N processes on PostgreSQL (--database) vs 1 on SQLite")
    parser.add_argument("--database", default=None,
                        help="postgresql:// URL (with --processes; else SQLite in a temp dir)")
    parser.add_argument("--shard-count", type=int, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--shard-id", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--worker-json", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.processes is not None:
        from benchmarks.processes import compare

        sys.exit(0 if asyncio.run(compare(args)) else 1)
    if args.gc_thresholds:
        import bot.client

        young, middle, old = (int(part) for part in args.gc_thresholds.split(","))
        bot.client.GC_YOUNG_THRESHOLD, bot.client.GC_MIDDLE_THRESHOLD = young, middle
        bot.client.GC_OLD_THRESHOLD = old
    if args.switch_interval is not None:
        sys.setswitchinterval(args.switch_interval)
    if args.try_no_echo_parse:
        _skip_echo_parse()
    logging.basicConfig(level=logging.ERROR, format="%(levelname)s %(name)s: %(message)s")
    if args.profile and args.event_loop == "auto":
        args.event_loop = "asyncio"  # the sampler tells the loop's waits by their Python frame
    with asyncio.Runner(loop_factory=loop_factory(args.event_loop)) as runner:
        result = runner.run(run(args))
    if args.worker_json:
        print("RESULT " + json.dumps(result))


if __name__ == "__main__":
    main()
