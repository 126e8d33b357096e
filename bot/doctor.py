"""``python -m bot doctor``: check a real bot token against Discord without posting.

For a server admin before (or after) starting the bot (README "For server admins"):
one line per check, ``ok`` or ``FAIL`` (or ``skip`` when an earlier failure makes it
meaningless), exit code 0 only when every check passed, 1 otherwise, 2 for unusable
settings or options. Only REST through discord.py's ``HTTPClient`` (no gateway):

* ``token``: ``GET /users/@me`` answers (a refused token stops here);
* ``application``: ``GET /oauth2/applications/@me``, the application is the bot's;
* ``commands``: the ``/ddz`` commands this code defines are synced where the bot
  syncs them: in ``DDZ_DEV_GUILD_ID`` when set, else globally (every sub-command
  there, none missing, none extra);
* ``permission`` (with ``--channel ID``): each permission a table needs in that
  channel (``cogs/permissions.py``; a thread's come from its parent channel and need
  Send Messages in Threads; a text channel is also checked for Create Public Threads,
  which a tournament's tables need, docs/RULES.md §Tournaments), computed from the
  guild's roles, the bot's roles and the channel's overwrites as Discord does (docs:
  Topics § Permissions);
* ``round-trip``: three ``GET /users/@me``, the median under 1 s;
* ``rate limits``: Discord's ``X-RateLimit-*`` headers on those answers;
* ``post`` (only with ``--post`` and ``--channel``): posts one short message in the
  channel and deletes it.

Every check's requests together are bounded by ``STEP_TIMEOUT`` seconds (connecting
included; a 429 asking to wait longer raises at once): a Discord (or a proxy) that does
not answer fails that check's line, ``Discord did not answer …``, and the doctor stops
with exit code 1; it never waits for ever.

The token is never printed, nor logged.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import discord
from discord.http import HTTPClient, Route, handle_message_parameters
from pydantic import ValidationError

from bot.settings import Settings
from cogs.permissions import IN_THREAD, REQUIRED

NEEDED = (*REQUIRED, "read_message_history")
"""Permissions a table needs in a text channel (README: the bot's invite permissions)."""
NEEDED_IN_THREAD = (*IN_THREAD, "read_message_history")
THREAD_TYPES = {10, 11, 12}
RATE_HEADERS = ("X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset-After",
                "X-RateLimit-Bucket")
ROUND_TRIP_LIMIT = 1.0
"""Seconds: a median round-trip above this fails (the bot answers within Discord's 3 s)."""
POST_TEXT = "ddz-bot doctor: test message (deleted at once)"
STEP_TIMEOUT = 10.0
"""Seconds one check's requests may take together (connect, answer, retries, a 429's
wait); past that the check fails as unanswered and the doctor stops."""


@dataclass
class Report:
    """The checks' lines, in order: ``(status, name, detail)``, status ok/FAIL/skip."""

    lines: list[tuple[str, str, str]] = field(default_factory=list)
    out: Callable[[str], None] = print

    def add(self, ok: bool | None, name: str, detail: str) -> None:
        status = "skip" if ok is None else "ok" if ok else "FAIL"
        self.lines.append((status, name, detail))
        self.out(f"{status:<4}  {name:<12}  {detail}")

    @property
    def passed(self) -> bool:
        return bool(self.lines) and all(status == "ok" for status, _, _ in self.lines)


def permission_name(name: str) -> str:
    """``send_messages_in_threads`` → ``Send Messages In Threads``."""
    return name.replace("_", " ").title()


def channel_permissions(guild_id: int, roles: list[dict[str, Any]], member_roles: list[str],
                        member_id: int, overwrites: list[dict[str, Any]],
                        owner_id: int | None = None) -> discord.Permissions:
    """The member's permissions in a channel, as Discord computes them: @everyone's
    and the member's roles' permissions, Administrator (or the owner) is everything,
    then the @everyone overwrite, the roles' overwrites together, the member's own."""
    if owner_id == member_id:
        return discord.Permissions.all()
    by_id = {str(r["id"]): int(r.get("permissions") or 0) for r in roles}
    value = by_id.get(str(guild_id), 0)
    for role in member_roles:
        value |= by_id.get(str(role), 0)
    if value & discord.Permissions.administrator.flag:
        return discord.Permissions.all()
    by_target = {str(o["id"]): o for o in overwrites}

    def apply(value: int, allow: int, deny: int) -> int:
        return (value & ~deny) | allow

    everyone = by_target.get(str(guild_id))
    if everyone is not None:
        value = apply(value, int(everyone.get("allow") or 0), int(everyone.get("deny") or 0))
    allow = deny = 0
    for role in member_roles:
        o = by_target.get(str(role))
        if o is not None and int(o.get("type", 0)) == 0:
            allow |= int(o.get("allow") or 0)
            deny |= int(o.get("deny") or 0)
    value = apply(value, allow, deny)
    own = by_target.get(str(member_id))
    if own is not None and int(own.get("type", 1)) == 1:
        value = apply(value, int(own.get("allow") or 0), int(own.get("deny") or 0))
    return discord.Permissions(value)


def expected_commands() -> tuple[str, set[str]]:
    """The top-level command and its sub-commands (and groups) this code defines."""
    from cogs.ddz import DdzCog

    group = str(getattr(DdzCog.__cog_group_name__, "message", DdzCog.__cog_group_name__))
    return group, {c.name for c in DdzCog.__cog_app_commands__}


def synced_subcommands(commands: Sequence[Mapping[str, Any]], group: str) -> set[str] | None:
    """Sub-command names of the synced chat command ``group``; None when not synced."""
    top = next((c for c in commands if c.get("name") == group and int(c.get("type", 1)) == 1),
               None)
    if top is None:
        return None
    return {o["name"] for o in top.get("options") or [] if int(o.get("type", 0)) in (1, 2)}


class Doctor:
    """Runs the checks with one discord.py ``HTTPClient`` (see the module docstring)."""

    def __init__(self, settings: Settings, channel_id: int | None, post: bool,
                 report: Report, timeout: float = STEP_TIMEOUT) -> None:
        self.settings, self.channel_id, self.post, self.report = settings, channel_id, post, report
        self.timeout = timeout
        """Seconds each check's requests may take together (``STEP_TIMEOUT``)."""
        self.step = "token"
        """The check running (the one an unanswered request fails)."""
        self.headers: list[dict[str, str]] = []

    async def _on_end(self, session: Any, ctx: Any, params: aiohttp.TraceRequestEndParams) -> None:
        self.headers.append({k: params.response.headers[k] for k in RATE_HEADERS
                             if k in params.response.headers})

    async def run(self) -> bool:
        trace = aiohttp.TraceConfig()
        trace.on_request_end.append(self._on_end)
        http = HTTPClient(asyncio.get_running_loop(), http_trace=trace,
                          max_ratelimit_timeout=self.timeout)
        try:
            await self._checks(http)
        except (TimeoutError, aiohttp.ClientError, OSError, discord.RateLimited) as error:
            reason = (f"within {self.timeout:g} s" if isinstance(error, TimeoutError)
                      else f"({type(error).__name__}: {error})")
            self.report.add(False, self.step, f"Discord did not answer {reason}")
        finally:
            await http.close()
        return self.report.passed

    def _bounded(self, step: str) -> asyncio.Timeout:
        """``step``'s requests, bounded by ``timeout`` seconds together (TimeoutError)."""
        self.step = step
        return asyncio.timeout(self.timeout)

    async def _checks(self, http: HTTPClient) -> None:
        add = self.report.add
        token = self.settings.discord_token.get_secret_value()
        try:
            async with self._bounded("token"):
                me = await http.static_login(token)
        except discord.LoginFailure:
            add(False, "token", "Discord refused DISCORD_TOKEN (401 Unauthorized)")
            for name in ("application", "commands", "permission", "round-trip", "rate limits"):
                add(None, name, "needs a valid token")
            return
        except discord.HTTPException as error:
            add(False, "token", f"Discord did not answer: {type(error).__name__}: {error}")
            return
        bot_id = int(me["id"])
        add(True, "token", f"the bot user {me['username']} (id {bot_id})")
        async with self._bounded("application"):
            app_id = await self._application(http, bot_id)
        async with self._bounded("commands"):
            await self._commands(http, app_id)
        if self.channel_id is not None:
            async with self._bounded("permission"):
                await self._permissions(http, bot_id, self.channel_id)
        else:
            self.report.out("(no --channel ID: the permissions in a channel are not checked)")
        async with self._bounded("round-trip"):
            await self._round_trip(http)
        if self.post and self.channel_id is not None:
            async with self._bounded("post"):
                await self._post(http, self.channel_id)

    async def _application(self, http: HTTPClient, bot_id: int) -> int | None:
        try:
            app: Any = await http.application_info()
        except discord.HTTPException as error:
            self.report.add(False, "application", f"{error.status}: {error.text}")
            return None
        app_id = int(app["id"])
        bot: Any = app.get("bot") or {}
        ok = app_id == bot_id or int(bot.get("id", 0) or 0) == bot_id
        self.report.add(ok, "application", f"{app.get('name')} (id {app_id})" + (
            "" if ok else f": its bot is not this token's user {bot_id}"))
        return app_id

    async def _commands(self, http: HTTPClient, app_id: int | None) -> None:
        add = self.report.add
        if app_id is None:
            add(None, "commands", "needs the application")
            return
        group, wanted = expected_commands()
        guild = self.settings.dev_guild_id
        where = f"in server {guild} (DDZ_DEV_GUILD_ID)" if guild else "globally"
        try:
            if guild:
                synced = await http.get_guild_commands(app_id, guild)
            else:
                synced = await http.get_global_commands(app_id)
        except discord.HTTPException as error:
            add(False, "commands", f"{where}: {error.status}: {error.text}")
            return
        found = synced_subcommands(synced, group)
        if found is None:
            hint = ("start the bot once with DDZ_DEV_GUILD_ID set" if guild
                    else "start the bot once with DDZ_SYNC_COMMANDS=true")
            add(False, "commands", f"/{group} is not synced {where} ({hint})")
            return
        missing, extra = sorted(wanted - found), sorted(found - wanted)
        if missing or extra:
            parts = []
            if missing:
                parts.append("missing " + ", ".join(f"/{group} {n}" for n in missing))
            if extra:
                parts.append("stale " + ", ".join(f"/{group} {n}" for n in extra))
            add(False, "commands", f"{where}: {'; '.join(parts)} (sync again)")
            return
        add(True, "commands", f"/{group} and its {len(wanted)} sub-commands synced {where}")

    async def _permissions(self, http: HTTPClient, bot_id: int, channel_id: int) -> None:
        add = self.report.add
        try:
            channel: Any = await http.get_channel(channel_id)
            in_thread = int(channel.get("type", 0)) in THREAD_TYPES
            source: Any = channel
            if in_thread and channel.get("parent_id"):
                source = await http.get_channel(int(channel["parent_id"]))
            guild_id = int(channel["guild_id"])
            guild: Any = await http.get_guild(guild_id, with_counts=False)
            member: Any = await http.get_member(guild_id, bot_id)
        except discord.HTTPException as error:
            reason = "the bot cannot see it" if error.status in (403, 404) else error.text
            add(False, "permission", f"channel {channel_id}: {error.status} ({reason})")
            return
        perms = channel_permissions(guild_id, guild.get("roles") or [], member.get("roles") or [],
                                    bot_id, source.get("permission_overwrites") or [],
                                    int(guild["owner_id"]) if guild.get("owner_id") else None)
        where = f"#{channel.get('name')}" + (" (a thread)" if in_thread else "")
        for name in NEEDED_IN_THREAD if in_thread else NEEDED:
            has = bool(getattr(perms, name))
            add(has, "permission", f"{permission_name(name)} in {where}"
                + ("" if has else ": missing (the channel's or the bot role's settings)"))
        if not in_thread:
            has = perms.send_messages_in_threads
            add(has, "permission", f"Send Messages In Threads in {where}'s threads"
                + ("" if has else ": missing (tables in its threads cannot start)"))
            has = perms.create_public_threads
            add(has, "permission", f"Create Public Threads in {where}"
                + ("" if has else ": missing (a tournament cannot open its tables' threads "
                   "there)"))

    async def _round_trip(self, http: HTTPClient) -> None:
        times = []
        for _ in range(3):
            start = time.perf_counter()
            await http.request(Route("GET", "/users/@me"))
            times.append(time.perf_counter() - start)
        median = statistics.median(times)
        self.report.add(median < ROUND_TRIP_LIMIT, "round-trip",
                        f"median {median * 1000:.0f} ms over 3 requests (limit "
                        f"{ROUND_TRIP_LIMIT * 1000:.0f} ms)")
        seen = next((h for h in reversed(self.headers) if "X-RateLimit-Limit" in h), None)
        if seen is None:
            self.report.add(False, "rate limits",
                            "no X-RateLimit-* headers in Discord's answers (a proxy drops them?)")
        else:
            shown = ", ".join(f"{k.removeprefix('X-RateLimit-')} {v}" for k, v in seen.items())
            self.report.add(True, "rate limits", shown)

    async def _post(self, http: HTTPClient, channel_id: int) -> None:
        try:
            with handle_message_parameters(content=POST_TEXT) as params:
                message: Any = await http.send_message(channel_id, params=params)
            await http.delete_message(channel_id, int(message["id"]))
        except discord.HTTPException as error:
            self.report.add(False, "post", f"{error.status}: {error.text}")
            return
        self.report.add(True, "post", f"posted and deleted message {message['id']}")


def main(argv: Sequence[str], settings: Callable[[], Settings],
         out: Callable[[str], None] = print) -> int:
    """``python -m bot doctor [--channel ID] [--post]``; the exit code. ``settings``
    reads the settings and points discord.py at ``DISCORD_API_BASE`` (``bot.__main__``);
    it raises ValidationError for unusable ones."""
    parser = argparse.ArgumentParser(prog="python -m bot doctor",
                                     description="Check the bot's token, commands and "
                                                 "permissions against Discord.")
    parser.add_argument("--channel", type=int, help="a channel (or thread) id to check")
    parser.add_argument("--post", action="store_true",
                        help="also post one test message in --channel and delete it")
    try:
        args = parser.parse_args(list(argv))
    except SystemExit as stop:
        return int(stop.code or 0) and 2
    if args.post and args.channel is None:
        print("ddz-bot doctor: --post needs --channel ID", file=sys.stderr)
        return 2
    try:
        read = settings()
    except ValidationError:
        return 2  # (the line was printed)
    report = Report(out=out)
    passed = asyncio.run(Doctor(read, args.channel, args.post, report).run())
    out("all checks passed" if passed else "some checks failed")
    return 0 if passed else 1
