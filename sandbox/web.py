"""The sandbox's web client: static pages, and a small JSON + server-sent-events API
through which the page acts as one of the loopback Discord's members.

Routes (all on 127.0.0.1):

* ``GET /`` the client (``static/index.html``), ``GET /static/…`` its files;
* ``GET /api/world`` the server, its channels, members and the synced commands;
* ``GET /api/ws?member=&channel=`` a WebSocket carrying the page's live updates, one
  JSON object a message: ``{"reset": [message…]}`` first, then ``{"upsert": message}``,
  ``{"remove": id}`` and ``{"commands": true}`` when the bot syncs its commands again. A
  member only ever receives public messages and their **own** ephemeral ones
  (``SimMember.can_see``). The page uses it because a WebSocket does not count against
  the browser's six HTTP/1.1 connections per host, which an event stream per tab held
  (seven tabs hung); ``GET /api/events?member=&channel=`` serves the same updates as
  server-sent events (``data: {…}``), for scripts;
* ``POST /api/command`` ``{member, channel, text}``, ``/api/click`` ``{member, message,
  custom_id}``, ``/api/select`` ``{member, message, custom_id, values}``: the member types
  a slash command or uses a component; ``{"ok": true}`` once the bot answered, else
  ``{"error": …}`` (a use Discord's client would not allow) or ``{"failed": …}`` (no
  answer within Discord's 3 s: "This interaction failed");
* ``POST /api/locale`` ``{member, locale}``: the member's Discord locale from now on
  (one of ``LOCALE_CHOICES``), as if they changed their Discord app's language;
* ``GET /attachments/{id}/{filename}`` a file a message carries.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from aiohttp import web

from sandbox import commandline
from sandbox.loopback.emulator import Emulator
from sandbox.loopback.members import EmulatorUsageError, SimInteraction, SimMember
from sandbox.loopback.model import SimAttachment, SimMessage
from sandbox.world import World

STATIC = Path(__file__).with_name("static")
CJK_FONT = Path(__file__).resolve().parent.parent / "rendering" / "fonts" / "DroidSansFallback.ttf"
HISTORY = 100
"""Messages a channel shows (the newest)."""
LOCALE_CHOICES = ("en-US", "en-GB", "es-ES", "es-419", "zh-CN", "zh-TW")
"""Discord locales a member can be switched to in the page (the bot's languages: English,
Spanish, Simplified and Traditional Chinese)."""
PUSH_EVERY = 0.03
"""Seconds between two pushes to one page: changes that arrive together go together."""


class SandboxEmulator(Emulator):
    """The loopback Discord, telling ``listeners`` about every change it notes."""

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.listeners: set[Callable[[], None]] = set()

    def notify(self) -> None:
        super().notify()
        for wake in list(self.listeners):
            wake()


def _signature(m: SimMessage) -> tuple[Any, ...]:
    return (m.content, len(m.history), m.edited_at, m.flags, id(m.components), id(m.embeds),
            tuple(a.id for a in m.attachments))


def command_label(ix: SimInteraction, commands: list[dict[str, Any]]) -> str:
    """``/ddz start`` for a slash command interaction: the command and its subcommands,
    named in the member's locale as the bot synced them (``/ddz empezar`` in Spanish)."""
    locale = ix.member.locale
    words: list[str] = []
    node: dict[str, Any] | None = {"options": commands}
    wanted: list[dict[str, Any]] = [ix.data]
    while wanted:
        item = wanted[0]
        found = next((o for o in (node or {}).get("options") or []
                      if o.get("name") == item.get("name")), None)
        words.append(((found or {}).get("name_localizations") or {}).get(locale)
                     or item.get("name", ""))
        node = found
        wanted = [o for o in item.get("options") or [] if o.get("type") in (1, 2)]
    return "/" + " ".join(words)


class WebClient:
    """The aiohttp application of the web client over one :class:`World`."""

    def __init__(self, world: World, emu: SandboxEmulator) -> None:
        self.world = world
        self.emu = emu
        self.app = web.Application()
        r = self.app.router
        r.add_get("/", self.index)
        r.add_static("/static/", STATIC, show_index=False)
        r.add_get("/fonts/cjk.ttf", self.cjk_font)
        r.add_get("/api/world", self.world_info)
        r.add_get("/api/events", self.events)
        r.add_get("/api/ws", self.socket)
        r.add_post("/api/command", self.command)
        r.add_post("/api/click", self.click)
        r.add_post("/api/select", self.select)
        r.add_post("/api/locale", self.locale)
        r.add_get("/attachments/{aid:\\d+}/{filename}", self.attachment)
        self.streams: set[web.StreamResponse | web.WebSocketResponse] = set()
        self.app.on_shutdown.append(self._close_streams)

    # ---- pages and data --------------------------------------------------------

    async def index(self, request: web.Request) -> web.StreamResponse:
        return web.FileResponse(STATIC / "index.html")

    async def cjk_font(self, request: web.Request) -> web.StreamResponse:
        """The bot's own Chinese font (Droid Sans Fallback), the page's last resort for
        Chinese on a machine without one (``style.css`` asks for it only then)."""
        return web.FileResponse(CJK_FONT, headers={"Cache-Control": "max-age=86400"})

    async def world_info(self, request: web.Request) -> web.StreamResponse:
        g = self.emu.default_guild
        return web.json_response({
            "guild": {"id": str(g.id), "name": g.name, "locale": g.locale},
            "channels": [{"id": str(c.id), "name": c.name} for c in self.world.channels],
            "members": [{"id": str(m.id), "name": m.name.title(), "locale": m.locale}
                        for m in self.world.members],
            "bot": {"id": str(self.emu.application_id), "name": "ddz-bot"},
            "locales": list(LOCALE_CHOICES),
            "commands": self.emu.commands.all(g.id),
        })

    async def attachment(self, request: web.Request) -> web.StreamResponse:
        aid = int(request.match_info["aid"])
        found: SimAttachment | None = next(
            (a for m in self.emu.messages.values() for a in m.attachments if a.id == aid), None)
        if found is None:
            raise web.HTTPNotFound()
        return web.Response(body=found.data, content_type=found.media_type,
                            headers={"Cache-Control": "max-age=86400"})

    def message_view(self, m: SimMessage) -> dict[str, Any]:
        """A message as the page draws it: the API v10 payload the bot would read, with
        attachment URLs of this server and ``ephemeral``, ``loading`` and, for the reply
        to a slash command, who used which command."""
        out = self.emu.message_payload(m)
        for att, view in zip(m.attachments, out["attachments"], strict=True):
            view["url"] = view["proxy_url"] = f"/attachments/{att.id}/{att.filename}"
        out["ephemeral"], out["loading"] = m.ephemeral, m.loading
        ix = self.emu.by_id.get(m.interaction_id or 0)
        if ix is not None and ix.type == 2:
            commands = self.emu.commands.all(m.channel.guild.id)
            out["used"] = {"user": ix.member.name.title(), "command": command_label(ix, commands)}
        return out

    # ---- live updates ----------------------------------------------------------

    async def events(self, request: web.Request) -> web.StreamResponse:
        member, channel = self._member(request.query), self._channel(request.query)
        response = web.StreamResponse(headers={
            "Content-Type": "text/event-stream", "Cache-Control": "no-cache"})
        await response.prepare(request)

        async def send(event: dict[str, Any] | None) -> None:
            await response.write(b": keep-alive\n\n" if event is None
                                 else f"data: {json.dumps(event)}\n\n".encode())

        self.streams.add(response)
        try:
            await self._updates(member, channel, send)
        except (ConnectionResetError, asyncio.CancelledError):
            pass
        finally:
            self.streams.discard(response)
        return response

    async def socket(self, request: web.Request) -> web.StreamResponse:
        member, channel = self._member(request.query), self._channel(request.query)
        ws = web.WebSocketResponse(heartbeat=20.0)
        await ws.prepare(request)

        async def send(event: dict[str, Any] | None) -> None:
            if event is not None:  # aiohttp's heartbeat keeps the socket alive
                await ws.send_str(json.dumps(event))

        self.streams.add(ws)
        updates = asyncio.create_task(self._updates(member, channel, send))
        try:
            async for _ in ws:  # the page sends nothing: this ends when it closes
                pass
        finally:
            updates.cancel()
            with contextlib.suppress(asyncio.CancelledError, ConnectionResetError, RuntimeError):
                await updates
            self.streams.discard(ws)
        return ws

    async def _updates(self, member: SimMember, channel: Any,
                       send: Callable[[dict[str, Any] | None], Awaitable[None]]) -> None:
        """Send ``member``'s view of ``channel``: a reset, then each change (``send(None)``
        after 15 s without one: a keep-alive), until cancelled or the page is gone."""
        changed = asyncio.Event()
        self.emu.listeners.add(changed.set)
        sent: dict[int, tuple[Any, ...]] = {}
        syncs = self.emu.commands.sync_count
        first = True
        try:
            while True:
                changed.clear()  # before reading: a change while we write wakes us again
                visible = [m for m in channel.messages if member.can_see(m)][-HISTORY:]
                events: list[dict[str, Any]] = []
                if first:
                    events.append({"reset": [self.message_view(m) for m in visible]})
                    sent = {m.id: _signature(m) for m in visible}
                    first = False
                else:
                    ids = {m.id for m in visible}
                    events += [{"remove": str(mid)} for mid in list(sent) if mid not in ids]
                    for mid in [mid for mid in sent if mid not in ids]:
                        del sent[mid]
                    for m in visible:
                        if sent.get(m.id) != (sig := _signature(m)):
                            sent[m.id] = sig
                            events.append({"upsert": self.message_view(m)})
                if self.emu.commands.sync_count != syncs:
                    syncs = self.emu.commands.sync_count
                    events.append({"commands": True})
                for event in events:
                    await send(event)
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(changed.wait(), 15.0)
                if not changed.is_set():
                    await send(None)
                await asyncio.sleep(PUSH_EVERY)
        finally:
            self.emu.listeners.discard(changed.set)

    async def _close_streams(self, app: web.Application) -> None:
        for stream in list(self.streams):
            with contextlib.suppress(Exception):
                if isinstance(stream, web.WebSocketResponse):
                    await stream.close()
                else:
                    await stream.write_eof()

    # ---- a member acts -----------------------------------------------------------

    @staticmethod
    def _lookup(find: Callable[[int], Any], raw: Any, what: str) -> Any:
        """``find(int(raw))``; 400 "unknown <what>" when ``raw`` names nothing."""
        try:
            found = find(int(raw))
        except (TypeError, ValueError):
            found = None
        if found is None:
            raise web.HTTPBadRequest(text=f"unknown {what}")
        return found

    def _member(self, data: Any) -> SimMember:
        return self._lookup(self.world.member, data.get("member"), "member")

    def _channel(self, data: Any) -> Any:
        return self._lookup(self.world.channel, data.get("channel"), "channel")

    def _message(self, member: SimMember, data: Any) -> SimMessage:
        found = self._lookup(self.emu.messages.get, data.get("message"), "message")
        if not member.can_see(found):
            raise web.HTTPBadRequest(text="unknown message")
        return found

    async def _act(self, start: Callable[[], Awaitable[SimInteraction]]) -> web.Response:
        try:
            ix = await start()
        except EmulatorUsageError as refused:
            return web.json_response({"error": str(refused)})
        try:
            await ix.response(timeout=self.emu.response_deadline + 0.5)
        except AssertionError:
            return web.json_response({"failed": "The application did not respond"})
        if ix.late:
            return web.json_response({"failed": "The application did not respond in time"})
        return web.json_response({"ok": True})

    async def command(self, request: web.Request) -> web.StreamResponse:
        data = await request.json()
        member, channel = self._member(data), self._channel(data)

        async def start() -> SimInteraction:
            line = commandline.parse(str(data.get("text") or ""),
                                     self.emu.commands.all(member.guild.id), member)
            return await member.slash(line.path, channel=channel, wait=False, **line.options)

        return await self._act(start)

    async def click(self, request: web.Request) -> web.StreamResponse:
        data = await request.json()
        member = self._member(data)
        message = self._message(member, data)
        custom_id = str(data.get("custom_id") or "")
        return await self._act(lambda: member.click(message, custom_id, wait=False))

    async def select(self, request: web.Request) -> web.StreamResponse:
        data = await request.json()
        member = self._member(data)
        message = self._message(member, data)
        values = [str(v) for v in data.get("values") or []]
        custom_id = str(data.get("custom_id") or "")
        return await self._act(lambda: member.select(message, custom_id, values, wait=False))

    async def locale(self, request: web.Request) -> web.StreamResponse:
        data = await request.json()
        member = self._member(data)
        if data.get("locale") not in LOCALE_CHOICES:
            raise web.HTTPBadRequest(text="unknown locale")
        member.locale = str(data["locale"])
        self.emu.notify()
        return web.json_response({"ok": True})
