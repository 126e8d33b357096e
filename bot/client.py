"""The Bot class: ``setup_hook`` wires storage, the table service, cogs, buttons and commands.

No privileged intents (only ``guilds``: every action arrives as an interaction).
``create_bot(settings)`` returns a ``DdzBot`` or, when ``DDZ_SHARD_COUNT`` is set,
a ``ShardedDdzBot`` (``AutoShardedBot``) for the configured shard ids.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import time
from collections.abc import Callable, Sequence
from typing import Any

import discord
from discord.ext import commands

import rendering
from bot import faults
from bot.features.contract import Feature, install_features, migrate_features
from bot.features.installed import FEATURES
from bot.game.seat import Event
from bot.game.table import Table
from bot.service import TableService, pooled_decider
from bot.service.budget import (
    INTERACTION_RATE,
    LEASE_TIMEOUT,
    GlobalBudget,
    InteractionGuard,
    bucket_name,
    share_of,
)
from bot.service.features import Features
from bot.service.health import database_problem
from bot.service.links import WebLinks
from bot.service.metrics import METRICS, TimedRepository
from bot.service.pool import WorkerPool
from bot.service.renderer import Renderer
from bot.service.replays import ReplayService
from bot.service.worker import ai_pool
from bot.settings import Settings
from bot.storage import Repository, open_repository, shared_bucket
from bot.values import Settlement
from cogs.ddz import ddz_cog
from cogs.metering import ARRIVED, install_interaction_guard
from cogs.translator import DdzTranslator

log = logging.getLogger(__name__)

GC_YOUNG_THRESHOLD = 1000
"""Net container allocations between two young garbage collections once the bot is up
(CPython's default: 700). Issue 13 raised it to 2,000 (before anything was frozen: the
collector's time down by about a third, longer single pauses); with every survivor of a
full collection frozen, 1,000 halves every pause (young, middle and full ones) for the
same collector CPU in all: at 1,000 busy tables the longest full collection 11-13 ms of
CPU against 23-29 at 2,000, about 0.12 ms a click either way (docs/PERFORMANCE.md
§Short collections)."""


GC_MIDDLE_THRESHOLD = 3
"""A middle-generation collection runs once more than this many young ones ran since
the last (CPython's default: 10). It stops the loop too, scanning what survived the
young ones since the last: at 1,000 busy tables up to 60 ms of CPU after 11 young
collections of 2,000, 34 ms after 4, 14 ms after 4 of 1,000 (docs/PERFORMANCE.md
§Collector)."""

GC_OLD_THRESHOLD = 0
"""A full collection runs once more than this many middle-generation ones ran since the
last: 0, after each (CPython's default: 10), when what aged into the oldest generation
since the last full collection is more than a quarter of what that one left (CPython's
own rule). Each scans what aged since the last one (``FreezeAfterFull``): at 1,000 busy
tables 190,000-260,000 objects after 11 middle collections, 90,000-150,000 (up to 112
ms of CPU) after 3, 14,000-58,000 (up to 34 ms) after each, 9,000-18,000 (up to 13 ms)
with young collections of 1,000 (docs/PERFORMANCE.md §Collector)."""
WHOLE_SCAN_GROWTH = 2.0
WHOLE_SCAN_EVERY = 3600.0
"""``FreezeAfterFull`` scans the whole heap again when the frozen heap has grown
``WHOLE_SCAN_GROWTH`` times over since the last whole scan, at most once per
``WHOLE_SCAN_EVERY`` seconds (looking at its size at most every ``GROWTH_LOOK_EVERY``)."""
GROWTH_LOOK_EVERY = 60.0


class FreezeAfterFull:
    """A ``gc.callbacks`` hook: after every full (generation 2) garbage collection,
    freeze what survived it (``gc.freeze``), so that the next one, which stops the
    event loop, scans only what aged since: at 1,000 busy tables the whole heap took
    90-280 ms per full collection (docs/PERFORMANCE.md §Collector).

    Frozen objects still go by reference counting; only a cycle that became garbage
    while frozen stays. So whatever a click keeps past its end is no cycle
    (``cogs.tokens``: the interaction and its response; the turn and ping tasks' owners,
    ``bot.service.tasks.TaskSet.spawn``). For any cycle still missed: once the frozen
    heap has grown ``growth`` times over since the last whole scan (start-up counts as
    one), and at least ``every`` seconds after it, the heap is unfrozen: the next full
    collection scans (and frees) all of it, once, and freezes again. A heap that grows
    with the tables pays that long pause at most once an hour, each time it doubled."""

    def __init__(self, growth: float = WHOLE_SCAN_GROWTH, every: float = WHOLE_SCAN_EVERY,
                 clock: Callable[[], float] = time.monotonic,
                 look_every: float = GROWTH_LOOK_EVERY) -> None:
        self.growth, self.every, self.clock = growth, every, clock
        self.look_every = look_every
        self.clean = gc.get_freeze_count()
        """Objects frozen after the last full collection that scanned the whole heap."""
        self.cleaned = clock()
        """When that was (``clock`` seconds)."""
        self.looked = -look_every
        """When the frozen heap's growth was last looked at (``clock`` seconds)."""
        self.whole = False
        """The heap is unfrozen: the next full collection scans all of it."""
        self.whole_scans = 0

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        if phase != "stop" or info["generation"] != 2:
            return
        gc.freeze()
        # gc.get_freeze_count walks the frozen heap (≈ 2.4 ms at 400,000 objects):
        # read only once the hour since the last whole scan is over, then once a minute
        now = self.clock()
        if self.whole:
            self.whole, self.clean, self.cleaned = False, gc.get_freeze_count(), now
            self.whole_scans += 1
        elif now - self.cleaned >= self.every and now >= self.looked + self.look_every:
            self.looked = now
            if gc.get_freeze_count() > self.growth * max(self.clean, 1):
                gc.unfreeze()
                self.whole = True


_PROCESS_HOOK: list[FreezeAfterFull] = []
"""The process's ``FreezeAfterFull`` once made, kept while removed (a closed bot)."""


def freeze_after_full_collections(on: bool = True) -> FreezeAfterFull | None:
    """Install the process's one ``FreezeAfterFull`` hook (idempotent; the hook), or
    remove it (``on=False``: the bot closing; None).

    A bot set up again in the same process (the tests' in-process bots, one a test) gets
    the process's hook back, with what it counted: the frozen heap is the process's, and
    counting it again (``gc.get_freeze_count`` walks it) took 20 ms a setup in a test
    worker holding millions of frozen objects."""
    hooks = [hook for hook in gc.callbacks if isinstance(hook, FreezeAfterFull)]
    if not on:
        for hook in hooks:
            gc.callbacks.remove(hook)
        return None
    if hooks:
        return hooks[0]
    if not _PROCESS_HOOK:
        _PROCESS_HOOK.append(FreezeAfterFull())
    hook = _PROCESS_HOOK[0]
    gc.callbacks.append(hook)
    return hook


def bot_intents() -> discord.Intents:
    """Only the guilds intent: no members, presences or message content."""
    return discord.Intents(guilds=True)


async def open_storage(settings: Settings) -> Repository:
    """Open the configured database (PostgreSQL URL or SQLite path) and claim this
    process's shards in it, before any table is served.

    Raises ShardTaken (storage closed again) when another live process serves one of
    them, so that two processes never write one table (docs/SCALING.md).
    """
    storage = await open_repository(settings.database_location,
                                    pool_size=settings.database_pool_size,
                                    timeout=settings.database_timeout)
    try:
        await storage.claim_shards(settings.shards)
    except BaseException:
        await storage.close()
        raise
    return storage


def web_room_problem(settings: Settings) -> str | None:
    """None when the open-file limit leaves the web page room for its connections beside
    what the bot needs (or the page is off), else the one-line reason
    (``bot.web.gate.connection_room``: it may raise the soft limit)."""
    if settings.web_port is None:
        return None
    from bot.web.gate import DescriptorShortage, connection_room

    try:
        connection_room()
    except DescriptorShortage as error:
        return str(error)
    return None


class DdzBotMixin:
    """Shared start-up of the plain and the sharded bot.

    Attributes set by ``setup_hook``: ``storage`` (bot.storage repository, unless given),
    ``service`` (``bot.service.TableService``, the only writer of tables), ``features``
    (``bot.service.features.Features``: the services of the features of ``feature_list``,
    by default ``bot.features.installed.FEATURES``, built over the service and plugged
    into its seams) and ``replays`` (``bot.service.replays.ReplayService``: finished hands, reviews).
    Service notifications are re-dispatched as discord.py events
    ``on_ddz_table_changed(table, events)`` and ``on_ddz_hand_settled(table, settlement)``
    so that cogs can listen without the service knowing about them.
    """

    settings: Settings
    storage: Repository | None
    service: TableService | None
    features: Features | None
    replays: ReplayService | None
    exit_code: int
    """0, or 4 after the database connection holding the shard locks was lost."""
    renderer: Renderer
    web: Any
    """The web page (``bot.web.app.WebServer``) when ``DDZ_WEB_PORT`` is set, else None."""
    budget: GlobalBudget | None
    """The global-limited requests' budget (``setup_hook``; None before)."""
    interactions: InteractionGuard | None
    """Meter and cap of the interaction routes' requests (``setup_hook``; None before)."""
    ai: WorkerPool
    """The AI worker pool (hard computer moves, Hints, reviews), handed to the services."""

    def _init_ddz(self, settings: Settings, storage: Repository | None = None,
                  features: Sequence[Feature] = FEATURES) -> None:
        self.settings = settings
        self.storage = storage
        self.feature_list = tuple(features)
        """The features this bot runs (bot/features/contract.py)."""
        self.exit_code = 0
        self.service = None
        self.features = None
        self.replays = None
        self.web = None
        self.budget = None
        self.interactions = None
        self.site: Any = None
        self._gc_threshold: tuple[int, int, int] | None = None
        """The collector's thresholds before ``setup_hook`` tuned them (None: untouched)."""
        # Images are drawn by worker processes (started in setup_hook), off the GIL.
        self.renderer = Renderer(settings.render_workers)
        self.ai = ai_pool()  # one process, started with the first search

    async def setup_hook(self) -> None:
        bot: commands.Bot = self  # type: ignore[assignment]  # DdzBot or ShardedDdzBot: both are commands bots
        if self.storage is None:
            self.storage = await open_storage(self.settings)
        storage = self.storage
        if hasattr(storage, "on_shards_lost"):  # PostgreSQL: the shard locks' connection
            storage.on_shards_lost = self._shards_lost
        # Every repository call's time goes to /metrics (ddz_database_seconds).
        timed = TimedRepository(storage, METRICS)
        # Hard computer moves, Hints and reviews run in the AI worker pool, off the GIL.
        self.service = service = TableService(
            timed, listener=self, ai_delay=self.settings.computer_delay,
            decider=pooled_decider(self.ai), ai_pool=self.ai,
            prefetch_hints=self.settings.hint_prefetch,
            pace_scale=self.settings.autoplay_pace_scale, deal_seed=self.settings.deal_seed,
            ranking_pool=self.renderer.pool,  # the legal-play ranking, off the loop
        )
        # The features: their stores' tables, then each built over the service and
        # plugged into its seams.
        await migrate_features(storage, self.feature_list)
        self.features = features = install_features(service, self.feature_list, self.settings)
        self.replays = replays = ReplayService(timed, run=self.ai.run)  # reviews: AI pool
        METRICS.watch_open_tables(lambda: len(service.tables()))
        METRICS.watch_queue("render", lambda: self.renderer.pool.pending)
        METRICS.watch_queue("ai", lambda: self.ai.pending)
        links = None
        if self.settings.web_port is not None:
            links = await self._start_web(service, replays)
        self.budget = budget = self._global_budget(bot)
        # Interaction routes (exempt from the global limit) metered and capped per
        # process: DDZ_INTERACTION_RATE (docs/SCALING.md §Exempt traffic).
        rate = self.settings.interaction_rate
        self.interactions = InteractionGuard(
            INTERACTION_RATE if rate is None else rate, capped=rate is not None)
        install_interaction_guard(self.interactions)
        cog = ddz_cog(self.feature_list)(bot, service, features, self.feature_list, replays,
                                         self.renderer, links, budget=budget,
                                         board_interval=self.settings.board_interval)
        crash = faults.crash_hook()  # DDZ_FAULT (the end-to-end crash tests) only
        if crash is not None:
            cog.board.messages.crash = cog.hands.crash = crash
        await bot.add_cog(cog)
        # Every click of the bot's components: DdzCog.on_interaction → cogs.items.route_click.
        await bot.tree.set_translator(DdzTranslator())
        if self.settings.dev_guild_id:
            guild = discord.Object(id=self.settings.dev_guild_id)
            bot.tree.copy_global_to(guild=guild)
            synced = await bot.tree.sync(guild=guild)
            log.info("synced %d commands to dev guild %s", len(synced), guild.id)
        if self.settings.sync_commands:
            synced = await bot.tree.sync()
            log.info("synced %d global commands", len(synced))
        # Draw every card face and choose the PNG palette now (≈ 0.7 s of CPU, off the
        # loop) for images drawn here: the render workers start once the bot is
        # connected (``on_ready``, or the first image) and each warms up the same way.
        await asyncio.to_thread(rendering.warm_up)
        restored = await service.restore(self.settings.shards)
        if restored:
            await cog.redraw_restored(restored)
        # What exists now (modules, discord.py's tables, catalogs, card faces, restored
        # tables) lives as long as the process: frozen out of the collector's sight, so
        # that a full collection, which stops the event loop, scans only what came later
        # (docs/PERFORMANCE.md §Collector).
        gc.collect()
        gc.freeze()
        self._gc_threshold = gc.get_threshold()
        gc.set_threshold(GC_YOUNG_THRESHOLD, GC_MIDDLE_THRESHOLD, GC_OLD_THRESHOLD)
        freeze_after_full_collections()

    def _global_budget(self, bot: commands.Bot) -> GlobalBudget:
        """The budget of global-limited requests: the bot token's whole
        ``DDZ_GLOBAL_RATE`` when this process serves every shard; else, on PostgreSQL,
        one bucket shared by every process of the bot token (this process's shards'
        share while it fails), or on SQLite just that share (docs/SCALING.md)."""
        settings = self.settings
        rate = settings.global_rate
        share = share_of(rate, settings.shard_ids, settings.shard_count)
        application = bot.application_id or getattr(bot.user, "id", None)
        if share >= rate or application is None:
            return GlobalBudget(share)
        burst = rate / 4
        process = "shards:" + ",".join(map(str, settings.shards.ids))  # unique: shard locks
        bucket = shared_bucket(settings.database_location, bucket_name(application), rate,
                               burst, min(settings.database_timeout, LEASE_TIMEOUT), process)
        if bucket is None:
            return GlobalBudget(share)
        log.info("global budget: %.3g requests/s shared with the bot's other processes"
                 " through PostgreSQL (%.3g/s of our own if it fails)", rate, share)
        return GlobalBudget(rate, burst, shared=bucket, fallback_rate=share,
                            on_lease=METRICS.budget_lease)

    async def _start_web(self, service: TableService, replays: ReplayService) -> WebLinks:
        """Start the web page (docs/WEB.md) on ``DDZ_WEB_HOST:DDZ_WEB_PORT``; its links."""
        from bot.web.app import WebServer, build_app
        from bot.web.site import Site

        settings = self.settings
        assert settings.web_secret is not None and settings.web_port is not None
        links = WebLinks(settings.web_secret.get_secret_value().strip(), settings.web_url)
        site = Site(replays, links, draw_result=self.renderer.result, service=service,
                    features=self.feature_list, installed=self.features)
        self.site = site
        service.forget_listeners.append(site.forget)  # /ddz forget: off every page at once
        self.web = WebServer(build_app(site, self.health_problem), settings.web_host,
                             settings.web_port)
        await self.web.start()
        return links

    async def health_problem(self) -> str | None:
        """``/healthz``: None when the gateway is connected and the database answers,
        else a one-line reason."""
        bot: commands.Bot = self  # type: ignore[assignment]  # as in __init__: a commands bot
        if bot.is_closed():
            return "the bot is shutting down"
        if not bot.is_ready():
            return "not connected to the Discord gateway"
        shards = getattr(bot, "shards", None)
        if isinstance(shards, dict) and shards:
            down = sorted(i for i, shard in shards.items() if shard.is_closed())
            if down:
                return f"gateway shard {', '.join(map(str, down))} disconnected"
        else:
            ws = getattr(bot, "ws", None)
            if ws is None or getattr(ws.socket, "closed", False):
                return "the gateway connection is down"
        return await database_problem(self.storage)

    def dispatch(self, event_name: str, /, *args: Any, **kwargs: Any) -> None:
        if event_name == "interaction" and args:
            # Its arrival, for the answer time in /metrics (cogs/metering.py).
            args[0].extras.setdefault(ARRIVED, time.perf_counter())
        super().dispatch(event_name, *args, **kwargs)  # type: ignore[misc]  # the mixin's next class: Bot.dispatch

    def _shards_lost(self) -> None:
        """Another process may serve our shards now: stop serving them (exit code 4)."""
        self.exit_code = 4
        asyncio.ensure_future(self.close())

    # TableService listener protocol → discord.py events (each in its own task).
    async def on_table_changed(self, table: Table, events: list[Event]) -> None:
        self.dispatch("ddz_table_changed", table, events)

    async def on_hand_settled(self, table: Table, settlement: Settlement) -> None:
        if self.site is not None:  # the server's standings pages are built again
            self.site.drop_guild(settlement.guild_id)
        self.dispatch("ddz_hand_settled", table, settlement)

    async def close(self) -> None:
        # The collector's thresholds as before ``setup`` (the frozen heap stays frozen:
        # unfrozen, the in-process tests' next full collections scanned it all, 7.4 s more
        # CPU over tests/cogs)
        freeze_after_full_collections(False)
        # The cogs first, as Bot.close would do after us: their background rounds (the
        # daily posts, the tournaments' ticker, the events' results) stop before the
        # service and the storage they use close (a round started in between read a
        # closed PostgreSQL pool: "pool is closed", a traceback at each stop)
        for name in tuple(self.cogs):  # type: ignore[attr-defined]  # as below: Bot.cogs
            try:
                await self.remove_cog(name)  # type: ignore[attr-defined]  # Bot.remove_cog
            except Exception:
                log.exception("unloading the cog %s failed", name)
        if self._gc_threshold is not None:
            gc.set_threshold(*self._gc_threshold)
            self._gc_threshold = None
        if self.web is not None:
            web, self.web = self.web, None
            try:
                await web.stop()
            except Exception:
                log.exception("stopping the web page failed")
        if self.budget is not None:
            budget, self.budget = self.budget, None
            log.info("global budget: %d requests taken (%d waited), %d leases from the"
                     " shared bucket, %d fallbacks to this process's share", budget.taken,
                     budget.waited, budget.leases, budget.fallbacks)
            try:
                await budget.close()
            except Exception:
                log.exception("closing the global budget failed")
        if self.service is not None:
            try:
                await self.service.close()
            except Exception:
                log.exception("closing the table service failed")
        if self.storage is not None:
            try:
                await self.storage.close()
            except Exception:
                log.exception("closing storage failed")
        self.service = self.features = self.storage = None
        self.ai.shutdown()  # the AI worker process (hard moves, Hints, reviews)
        self.renderer.shutdown()  # the render worker processes
        await super().close()  # type: ignore[misc]  # as above: Bot.close

    async def on_ready(self) -> None:
        if self.settings.render_workers:
            self.renderer.start()  # after the login, so that both do not compete for the CPU
        self.ai.start()
        user = self.user  # type: ignore[attr-defined]  # as above: Bot.user
        log.info("logged in as %s (%s)", user, getattr(user, "id", "?"))


def _bot_options(settings: Settings) -> dict[str, Any]:
    return {
        "command_prefix": commands.when_mentioned,
        "intents": bot_intents(),
        "help_command": None,
        "allowed_mentions": discord.AllowedMentions.none(),
        "member_cache_flags": discord.MemberCacheFlags.none(),
        "chunk_guilds_at_startup": False,
    }


class DdzBot(DdzBotMixin, commands.Bot):
    """The unsharded bot (one gateway connection)."""

    def __init__(self, settings: Settings, storage: Repository | None = None,
                 features: Sequence[Feature] = FEATURES) -> None:
        super().__init__(**_bot_options(settings))
        self._init_ddz(settings, storage, features)


class ShardedDdzBot(DdzBotMixin, commands.AutoShardedBot):
    """The sharded bot: ``DDZ_SHARD_COUNT`` shards, this process runs ``DDZ_SHARD_IDS``."""

    def __init__(self, settings: Settings, storage: Repository | None = None,
                 features: Sequence[Feature] = FEATURES) -> None:
        super().__init__(
            shard_count=settings.shard_count,
            shard_ids=settings.shard_ids,  # type: ignore[arg-type]  # None: every shard (discord.py's default)
            **_bot_options(settings),
        )
        self._init_ddz(settings, storage, features)


def create_bot(settings: Settings,
               storage: Repository | None = None) -> commands.Bot | commands.AutoShardedBot:
    """The bot for these settings (sharded when a shard count is configured).

    ``storage``: an open Repository with the shards claimed (``open_storage``); None
    opens it in ``setup_hook``. The bot closes it.
    """
    if settings.shard_count:
        return ShardedDdzBot(settings, storage)
    return DdzBot(settings, storage)
