"""The emulator's REST API v10: login, gateway discovery, command sync, channel messages,
interaction callbacks and interaction webhooks (JSON or multipart with ``files[n]``).

Error answers follow Discord: ``{"message": ..., "code": ...}`` with codes 10003
Unknown Channel, 10008 Unknown Message, 10015 Unknown Webhook, 10062 Unknown
Interaction, 40060 Already acknowledged, 50006 Empty message, 50027 Invalid Webhook
Token, 50035 Invalid Form Body; every one is recorded in ``Emulator.errors``. The rows
of docs/DISCORD.md that ``Emulator.rules`` enforces (``discord_rules.py``: webhook
buckets, 30046, permissions on webhook routes, notifications) answer here too.
"""

from __future__ import annotations

import contextlib
import json
import logging
import time
from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from aiohttp import web

from sandbox.loopback.command_rules import command_problems
from sandbox.loopback.commands import CommandRegistry
from sandbox.loopback.discord_rules import Limited
from sandbox.loopback.faults import Faults
from sandbox.loopback.messages import Emulator as MessagesHost
from sandbox.loopback.messages import MessageError, apply_edit, new_message
from sandbox.loopback.model import (
    FLAG_EPHEMERAL,
    PERM_ATTACH_FILES,
    PERM_CREATE_PUBLIC_THREADS,
    PERM_EMBED_LINKS,
    PERM_MANAGE_THREADS,
    PERM_READ_HISTORY,
    PERM_SEND_IN_THREADS,
    PERM_SEND_MESSAGES,
    PERM_VIEW_CHANNEL,
    ApiError,
    SimChannel,
    SimGuild,
    SimMessage,
)

if TYPE_CHECKING:
    from sandbox.loopback.members import SimInteraction


class Emulator(MessagesHost, Protocol):
    """What the REST routes use of the loopback Discord (the ``Emulator``, which builds on
    this module: a protocol here, so that no import closes a circle)."""

    @property
    def token(self) -> str: ...

    @property
    def token_lifetime(self) -> float: ...

    @property
    def response_deadline(self) -> float: ...

    @property
    def application_flags(self) -> int: ...

    @property
    def owner_id(self) -> int: ...

    @property
    def gateway_url(self) -> str: ...

    @property
    def guilds(self) -> list[SimGuild]: ...

    @property
    def by_token(self) -> dict[str, SimInteraction]: ...

    @property
    def commands(self) -> CommandRegistry: ...

    @property
    def faults(self) -> Faults: ...

    @property
    def requests(self) -> list[str]: ...

    @property
    def unknown_routes(self) -> list[str]: ...

    def guild_by_id(self, gid: int) -> SimGuild | None: ...

    def channel_by_id(self, cid: int) -> SimChannel | None: ...

    def bot_user_payload(self) -> dict[str, Any]: ...

    def bot_member_payload(self, g: SimGuild) -> dict[str, Any]: ...

    def guild_payload(self, g: SimGuild) -> dict[str, Any]: ...

    def message_payload(self, m: SimMessage) -> dict[str, Any]: ...

    def count_request(self, method: str, path: str) -> None: ...

    def count_edit(self, request: web.Request) -> None: ...

    def record_error(self, status: int, code: int, method: str, path: str, message: str,
                     problems: list[str] | None = None) -> ApiError: ...

    async def thread(self, parent: SimChannel, name: str = "thread", *,
                     owner_id: int | None = None, auto_archive_duration: int = 1440,
                     thread_id: int | None = None) -> SimChannel: ...

    async def thread_updated(self, thread: SimChannel) -> None: ...

log = logging.getLogger("e2e.rest")
P = "/api/v10"
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
Files = dict[int, tuple[str, bytes]]
current_ix: ContextVar[SimInteraction | None] = ContextVar("current_ix", default=None)
_BODY: web.RequestKey[tuple[dict[str, Any], Files]] = web.RequestKey("loopback_body", tuple)


@dataclass(frozen=True)
class Exchange:
    """One REST request the loopback answered, as :data:`REST_HOOKS` see it: ``payload``
    is the parsed JSON body (``payload_json`` of a multipart one; None without a body),
    ``files`` the number of uploaded files, ``response`` the answer's raw body."""

    emu: Emulator
    method: str
    path: str
    query: dict[str, str]
    content_type: str
    payload: Any
    files: int
    status: int
    response: bytes
    response_type: str


MAX_ACTIVE_THREADS = 1000
"""Active (not archived) threads a guild may hold (docs/DISCORD.md row 23: Discord's
thread docs say "guilds are capped at a certain number of active threads" and its code
list has 160006 "Maximum number of active threads reached"; the figure 1000 is a *guess*
from what its help pages and bot authors state)."""
THREAD_EDITS = ("archived", "locked", "name", "auto_archive_duration")
"""The fields of a thread that ``PATCH /channels/{id}`` changes on the loopback."""

REST_HOOKS: list[Callable[[Exchange], None]] = []
"""Called with every answered REST request of every emulator (the e2e suite's OpenAPI
check, tests/support/openapi.py); a hook must not raise."""


def jresp(data: Any, status: int = 200) -> web.Response:
    """JSON answer with the exact ``Content-Type: application/json`` discord.py requires."""
    return web.Response(
        body=json.dumps(data).encode(), status=status, content_type="application/json"
    )


class Fail(Exception):
    """Raised inside a handler to answer with a Discord error."""

    def __init__(
        self, status: int, code: int, message: str, problems: list[str] | None = None
    ) -> None:
        super().__init__(message)
        self.status, self.code, self.message, self.problems = status, code, message, problems or []


async def read_body(request: web.Request) -> tuple[dict[str, Any], Files]:
    """JSON body, or multipart ``payload_json`` + ``files[n]`` parts → (payload, files);
    read once per request (kept on it for the handler after :meth:`RestApi._wrap`)."""
    if _BODY in request:
        return request[_BODY]
    request[_BODY] = body = await _parse_body(request)
    return body


async def _parse_body(request: web.Request) -> tuple[dict[str, Any], Files]:
    if request.content_type.startswith("multipart/"):
        payload: dict[str, Any] = {}
        files: Files = {}
        reader = await request.multipart()
        async for part in reader:
            name = getattr(part, "name", None) or ""
            if name == "payload_json":
                payload = json.loads(await part.text())  # type: ignore[union-attr]
            elif name.startswith("files[") and name.endswith("]"):
                files[int(name[6:-1])] = (part.filename or "file", bytes(await part.read()))  # type: ignore[union-attr]
        return payload, files
    text = await request.text() if request.can_read_body else ""
    return (json.loads(text) if text else {}), {}


class RestApi:
    """Route handlers bound to an :class:`Emulator`."""

    def __init__(self, emu: Emulator) -> None:
        self.emu = emu

    def register(self, app: web.Application) -> None:
        bot, hook = self._bot_auth, self._wrap
        r = app.router
        r.add_get(P + "/users/@me", bot(self.me))
        r.add_get(P + "/gateway", hook(self.gateway_info))
        r.add_get(P + "/gateway/bot", bot(self.gateway_info))
        r.add_get(P + "/oauth2/applications/@me", bot(self.app_info))
        r.add_get(P + "/applications/@me", bot(self.app_info))
        for base in ("/applications/{app}/commands", "/applications/{app}/guilds/{gid}/commands"):
            r.add_get(P + base, bot(self.list_commands))
            r.add_put(P + base, bot(self.put_commands))
            r.add_post(P + base, bot(self.post_command))
            r.add_get(P + base + "/{cid:\\d+}", bot(self.one_command))
            r.add_patch(P + base + "/{cid:\\d+}", bot(self.patch_command))
            r.add_delete(P + base + "/{cid:\\d+}", bot(self.one_command))
        r.add_get(P + "/applications/{app}/guilds/{gid}/commands/permissions", bot(self.empty_list))
        r.add_post(P + "/interactions/{iid}/{token}/callback", hook(self.callback))
        r.add_post(P + "/webhooks/{app}/{token}", hook(self.followup))
        r.add_route("*", P + "/webhooks/{app}/{token}/messages/{mid}", hook(self.webhook_message))
        r.add_get(P + "/channels/{cid}", bot(self.get_channel))
        r.add_patch(P + "/channels/{cid}", bot(self.modify_thread))
        r.add_post(P + "/channels/{cid}/typing", bot(self.no_content))
        r.add_get(P + "/channels/{cid}/messages", bot(self.list_messages))
        r.add_post(P + "/channels/{cid}/messages", bot(self.create_message))
        r.add_route("*", P + "/channels/{cid}/messages/{mid:\\d+}", bot(self.channel_message))
        r.add_post(P + "/channels/{cid}/threads", bot(self.create_thread))
        r.add_post(P + "/channels/{cid}/messages/{mid:\\d+}/threads", bot(self.create_thread))
        r.add_get(P + "/guilds/{gid}", bot(self.get_guild))
        r.add_get(P + "/guilds/{gid}/channels", bot(self.guild_channels))
        r.add_get(P + "/guilds/{gid}/members/{uid}", bot(self.get_member))
        r.add_route("*", "/{tail:.*}", self.unknown)

    # ---- plumbing --------------------------------------------------------------

    def _wrap(self, handler: Handler) -> Handler:
        answer = self._answer(handler)

        async def run(request: web.Request) -> web.StreamResponse:
            if not REST_HOOKS:
                return await answer(request)
            has_body = request.can_read_body
            payload: Any = None
            files: Files = {}
            with contextlib.suppress(ValueError):  # not JSON: the hooks see no payload
                payload, files = await read_body(request)
            response = await answer(request)
            raw = response.body if isinstance(response, web.Response) else b""
            exchange = Exchange(
                self.emu, request.method, request.path, dict(request.query),
                request.content_type if has_body else "",
                payload if has_body else None, len(files), response.status,
                raw if isinstance(raw, bytes) else b"", response.content_type,
            )
            for hook in REST_HOOKS:
                hook(exchange)
            return response

        return run

    def _answer(self, handler: Handler) -> Handler:
        async def run(request: web.Request) -> web.StreamResponse:
            self.emu.requests.append(f"{request.method} {request.path}")
            self.emu.count_request(request.method, request.path)
            current_ix.set(None)
            injected = self.emu.faults.intercept(request)
            if injected is not None:
                return injected
            try:
                response = await handler(request)
                if 200 <= response.status < 300:
                    self.emu.count_edit(request)
                    response.headers.update(self.emu.faults.headers(request))
                    ix = current_ix.get()
                    if ix is not None and "/webhooks/" in request.path:
                        response.headers.update(self.emu.rules.token_headers(ix.id))
                return response
            except Limited as limited:
                self.emu.record_error(429, limited.code, request.method, request.path,
                                      limited.message)
                self.emu.rules.answered(429, limited.headers)
                body429: dict[str, Any] = {"message": limited.message,
                                           "retry_after": limited.retry_after, "global": False}
                if limited.code:
                    body429["code"] = limited.code
                headers = {**limited.headers, "Via": "1.1 google",
                           "Retry-After": f"{limited.retry_after:.3f}"}
                return web.Response(body=json.dumps(body429).encode(), status=429,
                                    headers=headers, content_type="application/json")
            except Fail as f:
                self.emu.rules.answered(f.status, {})
                err = self.emu.record_error(
                    f.status, f.code, request.method, request.path, f.message, f.problems
                )
                ix = current_ix.get()
                if ix is not None:
                    ix.errors.append(err)
                body: dict[str, Any] = {"message": f.message, "code": f.code}
                if f.problems:
                    body["errors"] = {
                        "payload": {
                            "_errors": [{"code": "INVALID", "message": p} for p in f.problems]
                        }
                    }
                return jresp(body, status=f.status)

        return run

    def _bot_auth(self, handler: Handler) -> Handler:
        async def checked(request: web.Request) -> web.StreamResponse:
            if request.headers.get("Authorization") != f"Bot {self.emu.token}":
                raise Fail(401, 0, "401: Unauthorized")
            return await handler(request)

        return self._wrap(checked)

    async def unknown(self, request: web.Request) -> web.StreamResponse:
        route = f"{request.method} {request.path}"
        self.emu.unknown_routes.append(route)
        self.emu.record_error(
            404, 0, request.method, request.path, "404: Not Found (unknown route)"
        )
        log.warning("emulator: unknown route %s", route)
        return jresp({"message": "404: Not Found", "code": 0}, status=404)

    async def no_content(self, request: web.Request) -> web.StreamResponse:
        return web.Response(status=204)

    async def empty_list(self, request: web.Request) -> web.StreamResponse:
        return jresp([])

    def _msg_json(self, m: SimMessage) -> web.Response:
        return jresp(self.emu.message_payload(m))

    # ---- identity / discovery --------------------------------------------------

    async def me(self, request: web.Request) -> web.StreamResponse:
        response = jresp(self.emu.bot_user_payload())
        # Discord's headers of this route's bucket (static here: never exhausted).
        response.headers.update({
            "X-RateLimit-Limit": "5", "X-RateLimit-Remaining": "4",
            "X-RateLimit-Reset": f"{time.time() + 1:.3f}", "X-RateLimit-Reset-After": "1.000",
            "X-RateLimit-Bucket": "loopback-users-me",
        })
        return response

    async def gateway_info(self, request: web.Request) -> web.StreamResponse:
        limit = {"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1}
        return jresp({"url": self.emu.gateway_url, "shards": 1, "session_start_limit": limit})

    async def app_info(self, request: web.Request) -> web.StreamResponse:
        emu = self.emu
        owner = {
            "id": str(emu.owner_id),
            "username": "owner",
            "discriminator": "0",
            "avatar": None,
            "global_name": None,
            "public_flags": 0,
            "flags": 0,
            "primary_guild": None,
        }
        return jresp(
            {
                "id": str(emu.application_id),
                "name": "ddz-bot",
                "icon": None,
                "description": "",
                "summary": "",
                "rpc_origins": [],
                "bot_public": True,
                "bot_require_code_grant": False,
                "owner": owner,
                "team": None,
                "verify_key": "0" * 64,
                "flags": emu.application_flags,
                "flags_new": str(emu.application_flags),
                "type": None,
                "interactions_endpoint_url": None,
                "role_connections_verification_url": None,
                "approximate_guild_count": len(emu.guilds),
                "approximate_user_install_count": 0,
                "approximate_user_authorization_count": 0,
                "explicit_content_filter": 0,
                "eligible_oauth2_scopes": ["bot", "applications.commands"],
                "redirect_uris": [],
                "tags": [],
                "bot": emu.bot_user_payload(),
            }
        )

    # ---- application commands --------------------------------------------------

    def _scope(self, request: web.Request) -> int | None:
        if int(request.match_info["app"]) != self.emu.application_id:
            raise Fail(403, 50001, "Missing Access")
        gid = request.match_info.get("gid")
        if gid is not None and self.emu.guild_by_id(int(gid)) is None:
            raise Fail(403, 50001, "Missing Access")
        return int(gid) if gid is not None else None

    async def list_commands(self, request: web.Request) -> web.StreamResponse:
        return jresp(self.emu.commands.scopes.get(self._scope(request), []))

    async def put_commands(self, request: web.Request) -> web.StreamResponse:
        scope = self._scope(request)
        payload, _ = await read_body(request)
        if not isinstance(payload, list) or len(payload) > 100:
            raise Fail(400, 50035, "Invalid Form Body", ["expected a list of at most 100 commands"])
        problems = [p for command in payload for p in command_problems(command)]
        if problems:  # docs/DISCORD.md row 26
            raise Fail(400, 50035, "Invalid Form Body", problems)
        out = self.emu.commands.bulk_overwrite(scope, payload)
        self.emu.notify()
        return jresp(out)

    async def post_command(self, request: web.Request) -> web.StreamResponse:
        payload, _ = await read_body(request)
        problems = command_problems(payload)
        if problems:  # docs/DISCORD.md row 26
            raise Fail(400, 50035, "Invalid Form Body", problems)
        out = self.emu.commands.upsert(self._scope(request), payload)
        self.emu.notify()
        return jresp(out, status=201)

    async def one_command(self, request: web.Request) -> web.StreamResponse:
        scope, cid = self._scope(request), int(request.match_info["cid"])
        if request.method == "DELETE":
            if not self.emu.commands.delete(scope, cid):
                raise Fail(404, 10063, "Unknown application command")
            return web.Response(status=204)
        cmd = self.emu.commands.get(scope, cid)
        if cmd is None:
            raise Fail(404, 10063, "Unknown application command")
        return jresp(cmd)

    async def patch_command(self, request: web.Request) -> web.StreamResponse:
        scope, cid = self._scope(request), int(request.match_info["cid"])
        cmd = self.emu.commands.get(scope, cid)
        if cmd is None:
            raise Fail(404, 10063, "Unknown application command")
        payload, _ = await read_body(request)
        problems = command_problems({**cmd, **payload})
        if problems:  # docs/DISCORD.md row 26
            raise Fail(400, 50035, "Invalid Form Body", problems)
        return jresp(self.emu.commands.upsert(scope, {**cmd, **payload}))

    # ---- guilds / channels -----------------------------------------------------

    def _channel(self, request: web.Request) -> Any:
        ch = self.emu.channel_by_id(int(request.match_info["cid"]))
        if ch is None:
            raise Fail(404, 10003, "Unknown Channel")
        if ch.denied & PERM_VIEW_CHANNEL:
            raise Fail(403, 50001, "Missing Access")
        return ch

    async def get_channel(self, request: web.Request) -> web.StreamResponse:
        return jresp(self._channel(request).payload(self.emu.application_id))

    async def get_guild(self, request: web.Request) -> web.StreamResponse:
        g = self.emu.guild_by_id(int(request.match_info["gid"]))
        if g is None:
            raise Fail(404, 10004, "Unknown Guild")
        payload = self.emu.guild_payload(g)
        for key in ("members", "channels", "threads", "presences", "voice_states"):
            payload.pop(key)
        # What GET /guilds/{id} has beyond GUILD_CREATE's guild (Discord's OpenAPI spec).
        payload.update(home_header=None, region="deprecated", widget_enabled=False,
                       widget_channel_id=None, max_presences=None,
                       max_stage_video_channel_users=50, max_video_channel_users=25,
                       safety_alerts_channel_id=None, nsfw=False, incidents_data=None)
        return jresp(payload)

    async def guild_channels(self, request: web.Request) -> web.StreamResponse:
        g = self.emu.guild_by_id(int(request.match_info["gid"]))
        if g is None:
            raise Fail(404, 10004, "Unknown Guild")
        return jresp([c.payload(self.emu.application_id) for c in g.channels])

    async def get_member(self, request: web.Request) -> web.StreamResponse:
        g = self.emu.guild_by_id(int(request.match_info["gid"]))
        uid = int(request.match_info["uid"])
        if g is None:
            raise Fail(404, 10004, "Unknown Guild")
        if uid == self.emu.application_id:
            return jresp(self.emu.bot_member_payload(g))
        if uid not in g.members:
            raise Fail(404, 10007, "Unknown Member")
        return jresp(g.members[uid].member_payload(with_permissions=False))

    async def list_messages(self, request: web.Request) -> web.StreamResponse:
        ch = self._channel(request)
        if ch.denied & PERM_READ_HISTORY:
            return jresp([])
        limit = min(int(request.query.get("limit", 50)), 100)
        msgs = list(reversed(ch.public_messages))
        if "before" in request.query:
            msgs = [m for m in msgs if m.id < int(request.query["before"])]
        if "after" in request.query:
            msgs = [m for m in msgs if m.id > int(request.query["after"])]
        return jresp([self.emu.message_payload(m) for m in msgs[:limit]])

    async def create_message(self, request: web.Request) -> web.StreamResponse:
        ch = self._channel(request)
        payload, files = await read_body(request)
        self._check_send(ch, payload, files)
        if ch.archived:  # a post unarchives the thread, unless it is locked
            if ch.locked and ch.denied & PERM_MANAGE_THREADS:
                raise Fail(400, 50083, "Operation cannot be performed on an archived thread")
            ch.archived = False
        try:
            m = new_message(self.emu, ch, payload, files, visible_to=None, interaction=None)
        except MessageError as e:
            raise Fail(400, e.code, e.message, e.problems) from None
        return self._msg_json(m)

    @staticmethod
    def _check_send(ch: Any, payload: dict[str, Any], files: Files) -> None:
        """403/50013 when the bot may not send this message in ``ch``."""
        needed = PERM_SEND_IN_THREADS if ch.is_thread else PERM_SEND_MESSAGES
        if files or payload.get("attachments"):
            needed |= PERM_ATTACH_FILES
        if payload.get("embeds"):
            needed |= PERM_EMBED_LINKS
        if ch.denied & needed:
            raise Fail(403, 50013, "Missing Permissions")

    async def channel_message(self, request: web.Request) -> web.StreamResponse:
        ch = self._channel(request)
        m = self.emu.messages.get(int(request.match_info["mid"]))
        if m is None or m.channel is not ch or m.deleted or m.ephemeral:
            raise Fail(404, 10008, "Unknown Message")
        return await self._message_verb(request, m)

    async def _message_verb(
        self, request: web.Request, m: Any, on_edit: Callable[[], None] | None = None
    ) -> web.StreamResponse:
        """GET, DELETE or PATCH (edit) one message the route already found."""
        if request.method == "GET":
            return self._msg_json(m)
        if request.method == "DELETE":
            m.deleted = True
            self.emu.notify()
            return web.Response(status=204)
        if request.method != "PATCH":
            return await self.unknown(request)
        payload, files = await read_body(request)
        if m.channel.archived and not m.ephemeral:
            raise Fail(400, 50083, "Operation cannot be performed on an archived thread")
        self.emu.rules.edit(m.born, self.emu.now())
        try:
            apply_edit(self.emu, m, payload, files)
        except MessageError as e:
            raise Fail(400, e.code, e.message, e.problems) from None
        if on_edit is not None:
            on_edit()
        return self._msg_json(m)

    # ---- threads (docs/DISCORD.md rows 23, 24) ----------------------------------------

    async def create_thread(self, request: web.Request) -> web.StreamResponse:
        """Start Thread without Message (``POST /channels/{id}/threads``, ``type`` 11) or
        from a message (``…/messages/{id}/threads``, the thread's id is the message's): a
        public thread under a text channel, 201 with the channel, THREAD_CREATE with
        ``newly_created``. 403/50013 without Create Public Threads; 400/50024 under a
        thread; 400/160006 at ``MAX_ACTIVE_THREADS`` active threads in the guild;
        400/50035 for a name outside 1..100 characters or another thread type."""
        ch = self._channel(request)
        payload, _ = await read_body(request)
        if ch.is_thread:
            raise Fail(400, 50024, "Cannot execute action on this channel type")
        if ch.denied & PERM_CREATE_PUBLIC_THREADS:
            raise Fail(403, 50013, "Missing Permissions")
        source: SimMessage | None = None
        if "mid" in request.match_info:
            source = self.emu.messages.get(int(request.match_info["mid"]))
            if source is None or source.channel is not ch or source.deleted or source.ephemeral:
                raise Fail(404, 10008, "Unknown Message")
            if any(c.id == source.id for c in ch.guild.channels):
                raise Fail(400, 160004, "A thread has already been created for this message")
        problems = []
        name = payload.get("name")
        if not isinstance(name, str) or not 1 <= len(name) <= 100:
            problems.append("name: 1..100 characters")
        if source is None and payload.get("type") != 11:
            problems.append("type: the loopback models public threads (11) only")
        if problems:
            raise Fail(400, 50035, "Invalid Form Body", problems)
        if self.active_threads(ch.guild) >= MAX_ACTIVE_THREADS:
            raise Fail(400, 160006, "Maximum number of active threads reached")
        thread = await self.emu.thread(
            ch, str(name), owner_id=self.emu.application_id,
            auto_archive_duration=int(payload.get("auto_archive_duration") or 1440),
            thread_id=source.id if source is not None else None)
        return jresp(thread.payload(), status=201)

    @staticmethod
    def active_threads(guild: SimGuild) -> int:
        """The guild's threads that count against ``MAX_ACTIVE_THREADS``: not archived."""
        return sum(1 for c in guild.channels if c.active_thread)

    async def modify_thread(self, request: web.Request) -> web.StreamResponse:
        """Modify Channel on a thread (``PATCH /channels/{id}``, docs/DISCORD.md row 26):
        ``archived``, ``locked``, ``name``, ``auto_archive_duration``; 200 with the thread
        and THREAD_UPDATE. ``locked`` needs Manage Threads; ``archived``, ``name`` and
        ``auto_archive_duration`` Manage Threads or being the thread's creator (403/50013);
        unarchiving at ``MAX_ACTIVE_THREADS`` answers 160006 (a guess). Other channels and
        other fields: 400/50035 (not modelled)."""
        ch = self._channel(request)
        payload, _ = await read_body(request)
        if not ch.is_thread or not payload or set(payload) - set(THREAD_EDITS):
            raise Fail(400, 50035, "Invalid Form Body",
                       [f"the loopback edits a thread's {', '.join(THREAD_EDITS)} only"])
        manage = not ch.denied & PERM_MANAGE_THREADS
        creator = ch.owner_id == self.emu.application_id
        if "locked" in payload and not manage:
            raise Fail(403, 50013, "Missing Permissions")
        if not (manage or creator):
            raise Fail(403, 50013, "Missing Permissions")
        if (payload.get("archived") is False and ch.archived
                and self.active_threads(ch.guild) >= MAX_ACTIVE_THREADS):
            raise Fail(400, 160006, "Maximum number of active threads reached")
        if "archived" in payload:
            ch.archived = bool(payload["archived"])
        if "locked" in payload:
            ch.locked = bool(payload["locked"])
        if "name" in payload:
            ch.name = str(payload["name"])[:100]
        if "auto_archive_duration" in payload:
            ch.auto_archive_duration = int(payload["auto_archive_duration"])
        await self.emu.thread_updated(ch)
        return jresp(ch.payload())

    # ---- interactions ----------------------------------------------------------

    async def callback(self, request: web.Request) -> web.StreamResponse:
        arrived = time.monotonic()
        payload, files = await read_body(request)
        emu = self.emu
        ix = emu.by_id.get(
            int(request.match_info["iid"]) if request.match_info["iid"].isdigit() else 0
        )
        if ix is None or ix.token != request.match_info["token"]:
            raise Fail(404, 10062, "Unknown interaction")
        current_ix.set(ix)
        ix.last_activity = arrived
        if ix.response_type is not None:
            raise Fail(400, 40060, "Interaction has already been acknowledged.")
        elapsed_ms = (arrived - ix.dispatched_at) * 1000.0
        if (
            elapsed_ms > emu.response_deadline * 1000.0
            or emu.now() - ix.created_at > emu.token_lifetime
        ):
            ix.late = True
            raise Fail(
                404, 10062, f"Unknown interaction (initial response after {elapsed_ms:.0f} ms)"
            )
        rtype, data = payload.get("type"), payload.get("data") or {}
        message: SimMessage | None = None
        try:
            if rtype == 4:
                eph = ix.member if int(data.get("flags") or 0) & FLAG_EPHEMERAL else None
                message = new_message(emu, ix.channel, data, files, visible_to=eph, interaction=ix)
            elif rtype == 5:
                eph = ix.member if int(data.get("flags") or 0) & FLAG_EPHEMERAL else None
                message = new_message(
                    emu, ix.channel, {}, {}, visible_to=eph, interaction=ix, loading=True
                )
            elif rtype in (6, 7):
                if ix.type != 3 or ix.source_message is None:
                    raise Fail(
                        400,
                        50035,
                        "Invalid Form Body",
                        [f"response type {rtype} needs a component interaction"],
                    )
                message = ix.source_message
                if message.deleted:
                    raise Fail(404, 10008, "Unknown Message")
                if rtype == 7:
                    apply_edit(emu, message, data, files)
            elif rtype == 9:
                problems = (
                    []
                    if len(data.get("custom_id") or "") in range(1, 101)
                    else ["modal custom_id 1..100"]
                )
                if (
                    len(data.get("title") or "") > 45
                    or not 1 <= len(data.get("components") or []) <= 5
                ):
                    problems.append("modal title ≤ 45 chars and 1..5 components")
                if problems:
                    raise Fail(400, 50035, "Invalid Form Body", problems)
                ix.modal = data
            else:
                raise Fail(
                    400,
                    50035,
                    "Invalid Form Body",
                    [f"unsupported interaction response type {rtype}"],
                )
        except MessageError as e:
            raise Fail(400, e.code, e.message, e.problems) from None
        ix.response_type, ix.responded_at, ix.message = rtype, arrived, message
        emu.notify()
        if request.query.get("with_response") not in ("1", "true", "True"):
            return web.Response(status=204)
        body: dict[str, Any] = {"interaction": {"id": str(ix.id), "type": ix.type}}
        if message is not None:
            body["interaction"].update(
                response_message_id=str(message.id),
                response_message_loading=message.loading,
                response_message_ephemeral=message.ephemeral,
            )
            if rtype in (4, 7):  # the only types whose resource is a message (the spec)
                body["resource"] = {"type": rtype, "message": emu.message_payload(message)}
        return jresp(body)

    def _webhook_ix(self, request: web.Request) -> SimInteraction:
        if request.match_info["app"] != str(self.emu.application_id):
            raise Fail(404, 10015, "Unknown Webhook")
        ix = self.emu.by_token.get(request.match_info["token"])
        if ix is None or self.emu.now() - ix.created_at > self.emu.token_lifetime:
            raise Fail(401, 50027, "Invalid Webhook Token")
        current_ix.set(ix)
        ix.last_activity = time.monotonic()
        self.emu.rules.token_request(ix.id)
        return ix

    def _webhook_permissions(self, ix: SimInteraction, payload: dict[str, Any] | None,
                             files: Files, target: SimMessage | None) -> None:
        """Since 2023-11-01 follow-ups and token edits follow the bot's permissions in
        the channel (docs/DISCORD.md row 17): View Channel for any public message, and
        for a new one what a channel post needs. Ephemeral ones need none (a guess)."""
        if not self.emu.rules.enabled:
            return
        ephemeral = target.ephemeral if target is not None else \
            bool(int((payload or {}).get("flags") or 0) & FLAG_EPHEMERAL)
        if ephemeral:
            return
        if ix.channel.denied & PERM_VIEW_CHANNEL:
            raise Fail(403, 50001, "Missing Access")
        if payload is not None:
            self._check_send(ix.channel, payload, files)

    async def followup(self, request: web.Request) -> web.StreamResponse:
        ix = self._webhook_ix(request)
        payload, files = await read_body(request)
        if ix.response_type is None:
            raise Fail(404, 10015, "Unknown Webhook (interaction not acknowledged yet)")
        original = ix.message
        fills = (ix.response_type == 5 and original is not None and original.loading
                 and not ix.followups)
        self._webhook_permissions(ix, payload, files, original if fills else None)
        eph = ix.member if int(payload.get("flags") or 0) & FLAG_EPHEMERAL else None
        if not fills and eph is None:
            self.emu.rules.webhook_message(ix.channel.id)
        try:
            if fills and original is not None:
                # The first follow-up after a deferred reply fills the "thinking" message
                # in, ephemeral or not as the defer was (docs/DISCORD.md row 4).
                apply_edit(self.emu, original, payload, files)
                m = original
            else:
                m = new_message(
                    self.emu, ix.channel, payload, files, visible_to=eph, interaction=ix
                )
        except MessageError as e:
            raise Fail(400, e.code, e.message, e.problems) from None
        ix.followups.append(m)
        self.emu.notify()
        if request.query.get("wait") in ("1", "true", "True"):
            return self._msg_json(m)
        return web.Response(status=204)

    async def webhook_message(self, request: web.Request) -> web.StreamResponse:
        ix = self._webhook_ix(request)
        mid = request.match_info["mid"]
        if mid == "@original":
            m = ix.message if ix.response_type in (4, 5, 6, 7) else None
        else:
            m = next((x for x in ix.messages if str(x.id) == mid), None)
        if m is None or m.deleted:
            raise Fail(404, 10008, "Unknown Message")
        if request.method == "PATCH":
            self._webhook_permissions(ix, None, {}, m)
            if not m.loading:
                self.emu.rules.edit(m.born, self.emu.now())

        def count_edit() -> None:
            ix.edits += 1

        return await self._message_verb(request, m, count_edit)
