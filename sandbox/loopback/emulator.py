"""A loopback Discord (API v10 REST + gateway) that an unmodified bot logs in to: the
end-to-end tests, the benchmarks and the sandbox (``python -m sandbox``) share it.

Usage::

    async with Emulator() as emu:                  # 127.0.0.1, free port
        alice = emu.member(name="alice", locale="en-US")
        # start the bot with DISCORD_API_BASE=emu.api_base, DISCORD_GATEWAY_URL=emu.gateway_url
        ix = await alice.slash("ddz start", computers=2)   # waits for the initial response
        await ix.settled()
        assert ix.message.ephemeral and alice.latest_ephemeral is ix.message

Rules enforced (recorded in ``emu.errors`` as :class:`ApiError`): initial response
within ``response_deadline`` (3 s) else 404/10062; a second initial response 400/40060;
unknown interaction 404/10062; unknown or expired (15 min) webhook token 401/50027;
component/embed/content limits 400/50035 (see ``limits.py``); empty message 400/50006.

Discord's global rate limit (50 requests per second for one bot token, whatever the
number of processes) applies to every route except the interaction callback and the
interaction webhook (``/webhooks/{application}/{token}...``, while the token lives):
``emu.global_requests`` lists the global-limited requests (monotonic time, route class
such as ``PATCH /channels/{id}/messages/{id}``) and ``emu.global_channels`` the
channel id of each (None off a channel route), ``emu.exempt_requests`` counts the
others by route class; ``emu.faults.global_limit`` makes the emulator enforce the limit.
``token_lifetime`` (seconds, default 15 min) may be set short to expire tokens mid-hand.

``emu.rules`` (``discord_rules.DiscordRules``, on unless ``Emulator(rules=False)``)
enforces the rows of docs/DISCORD.md: per-token (5 / 2 s) and per-channel (30 webhook
messages / min) webhook buckets with real 429s and headers, 30046 on edits of messages
older than an hour on the emulator's clock, the bot's permissions on webhook routes,
and it records who each created message notified (``rules.notifications``,
``SimMessage.notified``) and the invalid requests (``rules.invalid``).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import re
import secrets
import socket
import time
from collections.abc import Callable
from typing import Any

from aiohttp import web

from sandbox.loopback.commands import CommandRegistry
from sandbox.loopback.discord_rules import DiscordRules
from sandbox.loopback.faults import EDIT_ROUTE, Faults, is_global_limited
from sandbox.loopback.gateway import Gateway
from sandbox.loopback.members import EmulatorUsageError, SimInteraction, SimMember
from sandbox.loopback.model import (
    EVERYONE_PERMISSIONS,
    PERM_MANAGE_GUILD,
    ApiError,
    SimChannel,
    SimGuild,
    SimMessage,
    SimRole,
    snowflake,
)
from sandbox.loopback.payloads import Payloads
from sandbox.loopback.rest import RestApi

__all__ = [
    "ApiError",
    "Emulator",
    "EmulatorUsageError",
    "SimChannel",
    "SimGuild",
    "SimInteraction",
    "SimMember",
    "SimMessage",
    "SimRole",
    "FAKE_TOKEN",
]

CLOSE_HOOKS: list[Callable[[Emulator], None]] = []
"""Called with every emulator as it closes (the e2e suite's edit counter, tests/support/timing.py)."""

FAKE_TOKEN = "MTAwMDAwMDAwMDAwMDAwMDAw.GeMuLa.loopback-emulator-fake-token-0000000000"
BOT_PERMISSIONS = EVERYONE_PERMISSIONS | (1 << 13) | (1 << 35) | (1 << 38)
"""The bot's role: everyone's, Manage Messages, Create Public Threads, Send Messages in
Threads."""
APPLICATION_FLAGS = 1 << 23  # APPLICATION_COMMAND_BADGE
_TOKEN_IN_ROUTE = re.compile(r"^(/api/v10/(?:interactions/\d+|webhooks/\d+))/[^/]+")
_ID_IN_ROUTE = re.compile(r"/\d+(?=/|$)")
_CHANNEL_IN_ROUTE = re.compile(r"/channels/(\d+)")


def route_class(method: str, path: str) -> str:
    """``method`` and ``path`` with ids as ``{id}`` and tokens as ``{token}``, without the
    API prefix: ``PATCH /channels/{id}/messages/{id}``."""
    path = _TOKEN_IN_ROUTE.sub(r"\1/{token}", path)
    return f"{method} {_ID_IN_ROUTE.sub('/{id}', path).removeprefix('/api/v10')}"


class Emulator(Payloads):
    """Loopback Discord. Build guilds/members, start, point a bot at it, drive members.

    Public state: ``guilds``, ``default_guild``, ``default_channel``, ``messages``
    (id → SimMessage), ``interactions`` (in dispatch order), ``errors`` (ApiError, in
    order), ``unknown_routes`` ("METHOD /path"), ``commands`` (CommandRegistry),
    ``gateway`` (Gateway: ``connected``, ``identify_count``, ``ready_count``).
    """

    def __init__(
        self,
        *,
        token: str = FAKE_TOKEN,
        response_deadline: float = 3.0,
        token_lifetime: float = 15 * 60.0,
        guild_name: str = "Test Guild",
        guild_locale: str = "en-US",
        rules: bool = True,
    ) -> None:
        self.token = token
        self.response_deadline = response_deadline
        self.token_lifetime = token_lifetime
        self.application_id = snowflake()
        self.application_flags = APPLICATION_FLAGS
        self.owner_id = snowflake()
        self.guilds: list[SimGuild] = []
        self.messages: dict[int, SimMessage] = {}
        self.interactions: list[SimInteraction] = []
        self.by_token: dict[str, SimInteraction] = {}
        self.by_id: dict[int, SimInteraction] = {}
        self.errors: list[ApiError] = []
        self.unknown_routes: list[str] = []
        self.requests: list[str] = []
        self.global_requests: list[tuple[float, str]] = []
        self.global_channels: list[int | None] = []
        """The channel of each of ``global_requests`` (same index), None off a channel."""
        self.exempt_requests: collections.Counter[str] = collections.Counter()
        self.commands = CommandRegistry(self.application_id)
        self.gateway = Gateway(self)
        self.rest = RestApi(self)
        self.faults = Faults(self)
        self.rules = DiscordRules(enabled=rules)
        self.edit_times: dict[int, list[float]] = {}
        self.diagnostics: list[Callable[[], str]] = []
        self.clock_offset = 0.0
        self.port = 0
        self._runner: web.AppRunner | None = None
        self._changed: asyncio.Event | None = None
        self.default_guild = self.guild(guild_name, locale=guild_locale)
        self.default_channel = self.default_guild.channels[0]

    # ---- lifecycle -------------------------------------------------------------

    @property
    def api_base(self) -> str:
        """Value for ``discord.http.Route.BASE`` (DISCORD_API_BASE)."""
        return f"http://127.0.0.1:{self.port}/api/v10"

    @property
    def gateway_url(self) -> str:
        """Value for ``DiscordWebSocket.DEFAULT_GATEWAY`` (DISCORD_GATEWAY_URL)."""
        return f"ws://127.0.0.1:{self.port}/gateway"

    async def start(self) -> Emulator:
        self._changed = asyncio.Event()
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self.gateway.handle)
        self.rest.register(app)
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.bind(("127.0.0.1", 0))
        self.port = sock.getsockname()[1]
        await web.SockSite(self._runner, sock).start()
        return self

    async def close(self) -> None:
        for hook in CLOSE_HOOKS:
            hook(self)
        await self.gateway.close_all()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> Emulator:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # ---- world building --------------------------------------------------------

    def guild(
        self,
        name: str = "Guild",
        *,
        locale: str = "en-US",
        channels: tuple[str, ...] = ("ddz", "general"),
    ) -> SimGuild:
        """A new guild with @everyone, a "Manager" role (Manage Server), a bot role and
        text ``channels``; announced over the gateway if a bot is connected."""
        gid = snowflake()
        g = SimGuild(id=gid, name=name, locale=locale, owner_id=self.owner_id)
        g.roles = [
            SimRole(gid, "@everyone", EVERYONE_PERMISSIONS, 0),
            SimRole(snowflake(), "Manager", PERM_MANAGE_GUILD, 1),
            SimRole(snowflake(), "DDZ Bot", BOT_PERMISSIONS, 2),
        ]
        g.channels = [SimChannel(snowflake(), ch, g) for ch in channels]
        self.guilds.append(g)
        if self.gateway.connected:
            asyncio.get_running_loop().create_task(
                self.gateway.dispatch("GUILD_CREATE", self.guild_payload(g), g.id)
            )
        return g

    def member(
        self,
        guild: SimGuild | None = None,
        name: str = "member",
        *,
        locale: str = "en-US",
        manage_guild: bool = False,
        roles: list[SimRole] | None = None,
    ) -> SimMember:
        """A member of ``guild`` (default guild); ``manage_guild`` adds the Manager role."""
        g = guild or self.default_guild
        rs = list(roles or [])
        if manage_guild:
            rs.append(g.role("Manager"))
        m = SimMember(id=snowflake(), name=name, guild=g, locale=locale, roles=rs, emu=self)
        g.members[m.id] = m
        return m

    async def thread(self, parent: SimChannel, name: str = "thread", *,
                     owner_id: int | None = None, auto_archive_duration: int = 1440,
                     thread_id: int | None = None) -> SimChannel:
        """A public thread under ``parent`` (THREAD_CREATE with ``newly_created``); it is
        listed with the guild's channels so that ``public_messages`` and the REST routes
        find it. ``owner_id``: who started it (the bot's id for ``POST …/threads``);
        ``thread_id``: the id of the message it starts from (Discord gives the thread
        that id), else a new one."""
        thread = SimChannel(thread_id or snowflake(), name, parent.guild, parent=parent,
                            owner_id=owner_id, auto_archive_duration=auto_archive_duration)
        parent.guild.channels.append(thread)
        await self.gateway.dispatch("THREAD_CREATE", {**thread.payload(), "newly_created": True},
                                    parent.guild.id)
        self.notify()
        return thread

    async def thread_updated(self, thread: SimChannel) -> None:
        """A thread's fields changed (archived, locked, name…): THREAD_UPDATE."""
        await self.gateway.dispatch("THREAD_UPDATE", thread.payload(), thread.guild.id)
        self.notify()

    async def delete_channel(self, channel: SimChannel) -> None:
        """A moderator deletes ``channel``: CHANNEL_DELETE, then REST answers 10003."""
        channel.guild.channels.remove(channel)
        await self.gateway.dispatch("CHANNEL_DELETE", channel.payload(), channel.guild.id)
        self.notify()

    async def remove_bot(self, guild: SimGuild) -> None:
        """The bot is kicked from ``guild``: GUILD_DELETE (not an outage), then REST
        answers 404/10004 for the guild and 10003 for its channels."""
        await self.gateway.dispatch("GUILD_DELETE", {"id": str(guild.id)}, guild.id)
        self.guilds.remove(guild)
        self.notify()

    async def add_bot(self, guild: SimGuild) -> None:
        """The bot is invited (back) into ``guild``: GUILD_CREATE."""
        if guild not in self.guilds:
            self.guilds.append(guild)
        await self.gateway.dispatch("GUILD_CREATE", self.guild_payload(guild), guild.id)
        self.notify()

    def guild_by_id(self, gid: int) -> SimGuild | None:
        return next((g for g in self.guilds if g.id == gid), None)

    def channel_by_id(self, cid: int) -> SimChannel | None:
        return next((c for g in self.guilds for c in g.channels if c.id == cid), None)

    # ---- observation -----------------------------------------------------------

    def now(self) -> float:
        """The emulator clock (monotonic seconds + ``clock_offset``) used for token expiry."""
        return time.monotonic() + self.clock_offset

    def advance(self, seconds: float) -> None:
        """Move the token-expiry clock forward (e.g. 901 s to expire every token)."""
        self.clock_offset += seconds

    def notify(self) -> None:
        """Wake everything waiting in :meth:`wait_until` (called on every state change)."""
        if self._changed is not None:
            ev, self._changed = self._changed, asyncio.Event()
            ev.set()

    async def wait_until(
        self, predicate: Callable[[], Any], *, timeout: float = 5.0, what: str = "condition"
    ) -> None:
        """Return once ``predicate()`` is truthy (re-checked on changes and every 50 ms);
        AssertionError naming ``what`` plus recent errors and the bot's log tail on timeout."""
        deadline = time.monotonic() + timeout
        while not predicate():
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise AssertionError(
                    f"timed out after {timeout:.1f}s waiting for {what}\n{self.report()}"
                )
            ev = self._changed or asyncio.Event()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(ev.wait(), min(remaining, 0.05))

    def report(self) -> str:
        """A short diagnostic text: connection, last errors, unknown routes, diagnostics hooks."""
        lines = [
            f"gateway connected={self.gateway.connected} identifies={self.gateway.identify_count}"
        ]
        lines += [f"error: {e}" for e in self.errors[-8:]]
        lines += [f"unknown route: {r}" for r in self.unknown_routes[-8:]]
        for hook in self.diagnostics:
            lines.append(hook())
        return "\n".join(lines)

    def count_request(self, method: str, path: str) -> None:
        """Note one REST request as global-limited or exempt (see the module docstring)."""
        if is_global_limited(path):
            self.global_requests.append((time.monotonic(), route_class(method, path)))
            channel = _CHANNEL_IN_ROUTE.search(path)
            self.global_channels.append(int(channel[1]) if channel else None)
        else:
            self.exempt_requests[route_class(method, path)] += 1

    def global_count(self, since: float = 0.0) -> collections.Counter[str]:
        """Global-limited requests made at or after ``since`` (monotonic), by route class."""
        return collections.Counter(r for t, r in self.global_requests if t >= since)

    def max_global_per_second(self, window: float = 1.0, since: float = 0.0,
                              channels: set[int] | None = None) -> int:
        """The most global-limited requests made at or after ``since`` (monotonic) in any
        ``window`` seconds (Discord allows 50/s); ``channels``: only those on these
        channels (e.g. one bot process's)."""
        times = [t for (t, _), c in zip(self.global_requests, self.global_channels, strict=True)
                 if t >= since and (channels is None or c in channels)]
        best = start = 0
        for end, t in enumerate(times):
            while t - times[start] >= window:
                start += 1
            best = max(best, end - start + 1)
        return best

    def count_edit(self, request: web.Request) -> None:
        """Note a successful channel-message edit (``PATCH /channels/{cid}/messages/{mid}``)."""
        m = EDIT_ROUTE.match(request.path)
        if m is not None and request.method == "PATCH":
            self.edit_times.setdefault(int(m.group(1)), []).append(time.monotonic())

    def max_edits_per_channel(self, window: float = 5.0) -> int:
        """The most channel-message edits one channel got in any ``window`` seconds
        (Discord's budget is about 5 per 5 s per channel)."""
        best = 0
        for times in self.edit_times.values():
            start = 0
            for end, t in enumerate(times):
                while t - times[start] >= window:
                    start += 1
                best = max(best, end - start + 1)
        return best

    def take_errors(self) -> list[ApiError]:
        """Return and clear ``errors``."""
        out, self.errors = self.errors, []
        return out

    def response_times_ms(self) -> list[float]:
        """First-response times (ms) of every answered interaction, in dispatch order."""
        return [ms for ix in self.interactions if (ms := ix.first_response_ms) is not None]

    def response_time_summary(self) -> dict[str, float]:
        """``count``, ``p50``, ``p99`` and ``max`` of :meth:`response_times_ms` (ms; 0 if none)."""
        times = sorted(self.response_times_ms())
        if not times:
            return {"count": 0, "p50": 0.0, "p99": 0.0, "max": 0.0}

        def pct(q: float) -> float:
            return times[min(len(times) - 1, round(q * (len(times) - 1)))]

        return {"count": len(times), "p50": pct(0.5), "p99": pct(0.99), "max": times[-1]}

    def late_interactions(self) -> list[SimInteraction]:
        """Interactions not answered inside the deadline (late, or unanswered and overdue)."""
        now = time.monotonic()
        return [
            ix
            for ix in self.interactions
            if ix.late
            or (ix.response_type is None and now - ix.dispatched_at > self.response_deadline)
        ]

    def public_messages(self) -> list[SimMessage]:
        """Every public, not deleted message in every channel, oldest first."""
        return [m for g in self.guilds for c in g.channels for m in c.public_messages]

    def record_error(
        self,
        status: int,
        code: int,
        method: str,
        path: str,
        message: str,
        problems: list[str] | None = None,
    ) -> ApiError:
        err = ApiError(status, code, method, path, message, list(problems or []))
        self.errors.append(err)
        self.notify()
        return err

    # ---- interactions ----------------------------------------------------------

    async def dispatch_interaction(
        self,
        member: SimMember,
        itype: int,
        data: dict[str, Any],
        channel: SimChannel,
        message: SimMessage | None = None,
    ) -> SimInteraction:
        """Create an interaction (2 command, 3 component) and send INTERACTION_CREATE."""
        ix = SimInteraction(
            id=snowflake(),
            token="aW50ZXJhY3Rpb246" + secrets.token_urlsafe(64),
            type=itype,
            member=member,
            channel=channel,
            data=data,
            source_message=message,
            _emu=self,
        )
        g = member.guild
        ch = channel.payload()
        ch["permissions"] = str(member.permissions)
        payload: dict[str, Any] = {
            "id": str(ix.id),
            "application_id": str(self.application_id),
            "type": itype,
            "data": data,
            "guild_id": str(g.id),
            "guild": {"id": str(g.id), "locale": g.locale, "features": []},
            "channel_id": str(channel.id),
            "channel": ch,
            "member": member.member_payload(),
            "token": ix.token,
            "version": 1,
            "app_permissions": str(BOT_PERMISSIONS & ~channel.denied),
            "locale": member.locale,
            "guild_locale": g.locale,
            "entitlements": [],
            "authorizing_integration_owners": {"0": str(g.id)},
            "context": 0,
            "attachment_size_limit": 10 * 1024 * 1024,
        }
        if message is not None:
            payload["message"] = self.message_payload(message)
        self.interactions.append(ix)
        member.interactions.append(ix)
        self.by_id[ix.id] = ix
        self.by_token[ix.token] = ix
        ix.created_at = self.now()
        ix.dispatched_at = ix.last_activity = time.monotonic()
        ix.delivered = await self.gateway.dispatch("INTERACTION_CREATE", payload, g.id)
        self.notify()
        return ix
