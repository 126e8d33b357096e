"""The emulator's gateway websocket (Discord API v10 "Gateway").

Speaks what discord.py 2.7 asks for: ``?v=10&encoding=json&compress=zlib-stream``
(one shared zlib stream per connection, every message ending in a Z_SYNC_FLUSH
``00 00 ff ff``); plain text frames when no ``compress`` is asked. Opcodes: HELLO(10)
→ IDENTIFY(2) → READY + one GUILD_CREATE per test guild; HEARTBEAT(1) → ACK(11);
RESUME(6) → RESUMED or INVALID_SESSION(9); REQUEST_GUILD_MEMBERS(8) → one chunk.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import zlib
from typing import Any, Protocol

from aiohttp import WSMsgType, web

from sandbox.loopback.model import ApiError, SimGuild


class Emulator(Protocol):
    """What the gateway uses of the loopback Discord (the ``Emulator``, which builds on this module: a protocol here, so that no import closes a circle)."""

    @property
    def token(self) -> str: ...

    @property
    def guilds(self) -> list[SimGuild]: ...

    @property
    def gateway_url(self) -> str: ...

    @property
    def application_id(self) -> int: ...

    @property
    def application_flags(self) -> int: ...

    def bot_user_payload(self) -> dict[str, Any]: ...

    def bot_member_payload(self, g: SimGuild) -> dict[str, Any]: ...

    def guild_payload(self, g: SimGuild) -> dict[str, Any]: ...

    def guild_by_id(self, gid: int) -> SimGuild | None: ...

    def notify(self) -> None: ...

    def record_error(self, status: int, code: int, method: str, path: str, message: str,
                     problems: list[str] | None = None) -> ApiError: ...

log = logging.getLogger("e2e.gateway")

HEARTBEAT_INTERVAL_MS = 41250
ACK_DELAY = 0.1
"""Seconds before a HEARTBEAT_ACK, a round trip as over a network. discord.py's
keep-alive thread notes when its heartbeat went out only after the loop sent it; an ACK
written back at once is read before that, so the bot measured its latency from the
previous heartbeat, one interval (41.25 s) earlier, and logged "Can't keep up … 41.3s
behind" about every heartbeat in the sandbox."""


class Connection:
    """One websocket from the bot; ``seq`` is the last dispatched sequence number."""

    def __init__(self, ws: web.WebSocketResponse, compress: bool) -> None:
        self.ws = ws
        self.compressor = zlib.compressobj() if compress else None
        self.lock = asyncio.Lock()
        self.seq = 0
        self.session_id: str | None = None
        self.intents = 0
        self.ready = False
        self.shard_id = 0

    @property
    def live(self) -> bool:
        return self.ready and not self.ws.closed

    async def send(self, payload: dict[str, Any]) -> None:
        raw = json.dumps(payload, separators=(",", ":"))
        async with self.lock:
            if self.ws.closed:
                return
            if self.compressor is None:
                await self.ws.send_str(raw)
            else:
                data = self.compressor.compress(raw.encode()) + self.compressor.flush(
                    zlib.Z_SYNC_FLUSH
                )
                await self.ws.send_bytes(data)

    async def dispatch(self, event: str, data: dict[str, Any]) -> int:
        self.seq += 1
        await self.send({"op": 0, "t": event, "s": self.seq, "d": data})
        return self.seq


class Gateway:
    """Accepts bot connections; ``shards`` maps shard id → its live identified connection
    (an unsharded bot is shard 0 of 1); a guild is on shard ``(id >> 22) % shard_count``.

    Counters for tests/BotProcess: ``identify_count`` (IDENTIFYs accepted),
    ``ready_count`` (sessions that got READY and every GUILD_CREATE), ``resume_count``.
    """

    def __init__(self, emu: Emulator) -> None:
        self.emu = emu
        self.shards: dict[int, Connection] = {}
        self.shard_count = 1
        self.connections: list[Connection] = []
        self.sessions: dict[str, int] = {}
        self.identify_count = 0
        self.ready_count = 0
        self.resume_count = 0
        self.dispatched: list[tuple[str, int]] = []
        self.queries: list[dict[str, str]] = []
        self._acks: set[asyncio.Task[None]] = set()

    @property
    def connected(self) -> bool:
        """True when every shard ``0..shard_count-1`` has a live, identified connection."""
        return all(
            (c := self.shards.get(i)) is not None and c.live for i in range(self.shard_count)
        )

    def shard_of(self, guild_id: int) -> int:
        return (guild_id >> 22) % self.shard_count

    async def dispatch(self, event: str, data: dict[str, Any], guild_id: int) -> bool:
        """Send a DISPATCH to the shard owning ``guild_id``; False when it is not connected."""
        conn = self.shards.get(self.shard_of(guild_id))
        if conn is None or not conn.live:
            return False
        seq = await conn.dispatch(event, data)
        self.dispatched.append((event, seq))
        return True

    async def request_reconnect(self) -> None:
        """Send RECONNECT (op 7) on every live connection: the bot closes and RESUMEs."""
        for conn in list(self.shards.values()):
            await conn.send({"op": 7, "d": None, "s": None, "t": None})

    async def invalidate_session(self, resumable: bool = False) -> None:
        """Send INVALID_SESSION (op 9) on every live connection; not resumable: the bot
        must IDENTIFY again (a new session, READY and GUILD_CREATE)."""
        for conn in list(self.shards.values()):
            if not resumable and conn.session_id is not None:
                self.sessions.pop(conn.session_id, None)
            await conn.send({"op": 9, "d": resumable, "s": None, "t": None})

    async def close_all(self) -> None:
        for conn in list(self.connections):
            if not conn.ws.closed:
                await conn.ws.close(code=1001)

    async def handle(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(max_msg_size=0, autoping=True)
        await ws.prepare(request)
        q = request.query
        self.queries.append(dict(q))
        compress = q.get("compress")
        if q.get("encoding", "json") != "json" or compress not in (None, "zlib-stream"):
            self.emu.record_error(400, 4002, "WS", str(request.rel_url), f"unsupported {dict(q)}")
            await ws.close(code=4002)
            return ws
        conn = Connection(ws, compress == "zlib-stream")
        self.connections.append(conn)
        await conn.send(
            {"op": 10, "d": {"heartbeat_interval": HEARTBEAT_INTERVAL_MS}, "s": None, "t": None}
        )
        try:
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    if msg.type == WSMsgType.BINARY:
                        await ws.close(code=4002)
                    continue
                await self._on_message(conn, json.loads(msg.data))
        except (ConnectionResetError, asyncio.CancelledError):
            pass
        finally:
            if self.shards.get(conn.shard_id) is conn:
                del self.shards[conn.shard_id]
            self.emu.notify()
        return ws

    async def _on_message(self, conn: Connection, msg: dict[str, Any]) -> None:
        op, d = msg.get("op"), msg.get("d")
        if op == 1:  # ACK_DELAY later, without holding up the bot's next messages
            task = asyncio.create_task(self._ack(conn))
            self._acks.add(task)
            task.add_done_callback(self._acks.discard)
        elif op == 2:
            await self._identify(conn, d or {})
        elif op == 6:
            await self._resume(conn, d or {})
        elif op == 8:
            await self._request_members(conn, d or {})
        elif op in (3, 4):
            return
        else:
            log.warning("unknown gateway op %s", op)
            await conn.ws.close(code=4001)

    @staticmethod
    async def _ack(conn: Connection) -> None:
        await asyncio.sleep(ACK_DELAY)
        await conn.send({"op": 11, "d": None, "s": None, "t": None})

    async def _identify(self, conn: Connection, d: dict[str, Any]) -> None:
        if d.get("token") != self.emu.token:
            self.emu.record_error(401, 4004, "WS", "IDENTIFY", "Authentication failed")
            await conn.ws.close(code=4004)
            return
        conn.intents = int(d.get("intents") or 0)
        conn.session_id = secrets.token_hex(16)
        shard = d.get("shard") or [0, 1]
        conn.shard_id, self.shard_count = int(shard[0]), int(shard[1])
        self.identify_count += 1
        self.shards[conn.shard_id] = conn
        emu = self.emu
        guilds = [g for g in emu.guilds if self.shard_of(g.id) == conn.shard_id]
        ready: dict[str, Any] = {
            "v": 10,
            "user": emu.bot_user_payload(),
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "session_id": conn.session_id,
            "session_type": "normal",
            "resume_gateway_url": emu.gateway_url,
            "application": {"id": str(emu.application_id), "flags": emu.application_flags},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": [],
            "user_settings": {},
            "auth": {},
        }
        if "shard" in d:
            ready["shard"] = d["shard"]
        await conn.dispatch("READY", ready)
        for g in guilds:
            await conn.dispatch("GUILD_CREATE", emu.guild_payload(g))
        conn.ready = True
        self.sessions[conn.session_id] = conn.seq
        self.ready_count += 1
        emu.notify()

    async def _resume(self, conn: Connection, d: dict[str, Any]) -> None:
        sid = d.get("session_id")
        if d.get("token") != self.emu.token or sid not in self.sessions:
            await conn.send({"op": 9, "d": False, "s": None, "t": None})
            return
        old = next((c for c in self.connections if c.session_id == sid and c is not conn), None)
        conn.session_id, conn.seq = sid, int(d.get("seq") or 0)
        conn.intents, conn.shard_id = (old.intents, old.shard_id) if old else (0, 0)
        conn.ready = True
        self.shards[conn.shard_id] = conn
        self.resume_count += 1
        await conn.dispatch("RESUMED", {})
        self.emu.notify()

    async def _request_members(self, conn: Connection, d: dict[str, Any]) -> None:
        gids: Any = d.get("guild_id")
        for gid in gids if isinstance(gids, list) else [gids]:
            guild = self.emu.guild_by_id(int(gid)) if gid is not None else None
            if guild is None:
                continue
            members = [m.member_payload(with_permissions=False) for m in guild.members.values()]
            members.append(self.emu.bot_member_payload(guild))
            chunk: dict[str, Any] = {
                "guild_id": str(guild.id),
                "members": members,
                "chunk_index": 0,
                "chunk_count": 1,
                "not_found": [],
            }
            if d.get("nonce"):
                chunk["nonce"] = d["nonce"]
            await conn.dispatch("GUILD_MEMBERS_CHUNK", chunk)
