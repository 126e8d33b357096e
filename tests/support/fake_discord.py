"""The recording fake of Discord shared by the cog tests and the benchmarks.

It replaces ``HTTPClient.request`` (channel messages) and
``AsyncWebhookAdapter.request`` (interaction callbacks, ``@original`` edits,
followups), keeps every message as Discord would (content, components,
attachments with their descriptions, ephemeral flag) and feeds interactions to
the real ``ConnectionState.parse_interaction_create`` — so the real command tree
and DynamicItem routing run. ``Member.slash`` / ``Member.click`` return the
``Reply`` messages that interaction produced.
"""

from __future__ import annotations

import asyncio
import itertools
import json
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import discord
from discord.webhook.async_ import AsyncWebhookAdapter

APP_ID = 900_000_000_000_000_001
BOT_ID = 900_000_000_000_000_002
_ids = itertools.count(1_000_000_000_000_000_000)
BACKGROUND = ("ddz-turn-", "ddz-ping-", "ddz-view-expiry-", "ddz-shard-locks", "ddz-daily-poster",
              "ddz-event-announcer", "ddz-tournaments")


QUIET_TICK = 0.002
"""Seconds between two looks of ``FakeDiscord.idle``. All the bot's work in flight is a
task (a thread's or a worker process's answer is awaited by one, a click's handler is one
from its dispatch), so a few turns of the event loop without one are enough. At 0.02 s the
looks alone cost every slash command and click 60 ms: 348 of them made most of the smoke
pass's 28 s a language (tests/cogs/test_smoke_every_command.py; docs/CONTRIBUTING.md
§Measurements)."""
QUIET_TICKS = 3
"""Looks in a row that must find nothing running."""
BUSY_TICK = 0.01
"""Seconds between two looks once ``BUSY_LOOKS`` in a row found work running: a wait of
seconds (a board waiting for the channel's edit bucket, auto-play's pace) is looked at
100 times a second, not 500. Each look walks every task: at 2 ms the looks were 40 % of the
CPU of tests that wait so (``test_match_length``, ``test_new_match``,
``test_table_lasting``, ``test_demo_feature``: 3.5 -> 2.0 s at 8 ms, the same wall time),
and more on a quiet machine, whose event loop wakes on time."""
BUSY_LOOKS = 25
"""Looks at ``QUIET_TICK`` (50 ms) before ``BUSY_TICK``: a click's own work, which ends
sooner, is still seen to end within 2 ms."""


def snowflake() -> int:
    return next(_ids)


@dataclass
class Message:
    """A message as the fake Discord holds it."""

    id: int
    channel_id: int
    content: str = ""
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[dict[str, Any]] = field(default_factory=list)
    embeds: list[dict[str, Any]] = field(default_factory=list)
    ephemeral: bool = False
    loading: bool = False
    allowed_mentions: dict[str, Any] | None = None
    edits: int = 0

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id), "channel_id": str(self.channel_id), "content": self.content,
            "components": self.components, "embeds": self.embeds, "type": 0, "tts": False,
            "attachments": [{"id": str(i), "filename": a.get("filename", "f.png"),
                             "description": a.get("description"), "size": 1,
                             "url": f"https://cdn.invalid/{i}", "proxy_url": f"https://cdn.invalid/{i}"}
                            for i, a in enumerate(self.attachments)],
            "author": {"id": str(BOT_ID), "username": "ddz", "discriminator": "0", "avatar": None,
                       "bot": True},
            "mention_everyone": False, "mentions": [], "mention_roles": [], "pinned": False,
            "timestamp": "2024-01-01T00:00:00+00:00", "edited_timestamp": None,
            "flags": 64 if self.ephemeral else 0,
        }

    def buttons(self) -> dict[str, dict[str, Any]]:
        """Every component by label (select menus by their custom_id)."""
        out: dict[str, dict[str, Any]] = {}
        for row in self.components:
            for comp in row.get("components", []):
                out[comp.get("label") or comp["custom_id"]] = comp
        return out

    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for row in self.components for c in row.get("components", [])]

    @property
    def alt_texts(self) -> list[str]:
        return [a.get("description") or "" for a in self.attachments]


class KeepPatched:
    """A stand-in for pytest's ``monkeypatch`` that never undoes (benchmarks)."""

    def setattr(self, target: Any, name: str, value: Any) -> None:
        setattr(target, name, value)


async def boot(bot: Any) -> None:
    """Start ``bot`` as a login would, without a gateway: discord.py's own
    ``_async_setup_hook``, the bot user and application id, then ``setup_hook``
    (storage, service, cogs, restore). Call after ``FakeDiscord.install``."""
    await bot._async_setup_hook()  # noqa: SLF001
    bot._connection.user = discord.ClientUser(state=bot._connection, data={  # noqa: SLF001
        "id": str(BOT_ID), "username": "ddz", "discriminator": "0", "avatar": None, "bot": True,
        "global_name": None})
    bot._connection.application_id = APP_ID  # noqa: SLF001
    await bot.setup_hook()


def _response(status: int, reason: str) -> Any:
    """What ``discord.HTTPException`` reads of aiohttp's response (``status``,
    ``reason``), for the errors this fake raises."""
    return SimpleNamespace(status=status, reason=reason)


def _body(payload: Any, form: Any) -> dict[str, Any]:
    if payload is not None:
        body: dict[str, Any] = payload
        return body
    for part in form or []:
        if part.get("name") == "payload_json":
            body = json.loads(part["value"])
            return body
    return {}


class FakeDiscord:
    """Messages, interactions and a log of every request the bot made."""

    def __init__(self, bot: Any, guild_id: int, channel_id: int) -> None:
        self.bot = bot
        self.guild_id, self.channel_id = guild_id, channel_id
        self.messages: dict[int, Message] = {}
        self.channel: list[int] = []  # public messages in post order
        self.posted: set[int] = set()  # the same, posted in the channel or as follow-ups
        self.originals: dict[str, int] = {}  # interaction token -> message id
        self.replies: dict[str, list[int]] = {}  # token -> messages created/edited for it
        self.interactions: dict[str, dict[str, Any]] = {}
        self.requests: list[tuple[str, str]] = []
        self.deleted: set[int] = set()  # message ids a moderator deleted: edits get 10008
        self.refused_edits: list[int] = []  # the edits of deleted messages, in order
        self.old: set[int] = set()  # messages out of edits (older than an hour): 429/30046
        self.global_limited = 0  # requests Discord counts against the global rate limit
        self.exempt = 0  # interaction callbacks and webhooks (outside it)

    # ----- patching -------------------------------------------------------------

    def install(self, monkeypatch: Any) -> None:
        fake = self

        async def http_request(_self: Any, route: Any, *, files: Any = None, form: Any = None,
                               **kwargs: Any) -> Any:
            return fake.on_rest(route, _body(kwargs.get("json"), form))

        async def hook_request(_self: Any, route: Any, session: Any = None, *, payload: Any = None,
                               multipart: Any = None, **kwargs: Any) -> Any:
            return fake.on_webhook(route, _body(payload, multipart))

        monkeypatch.setattr(discord.http.HTTPClient, "request", http_request)
        monkeypatch.setattr(AsyncWebhookAdapter, "request", hook_request)

    # ----- REST -------------------------------------------------------------------

    def _apply(self, message: Message, body: dict[str, Any]) -> None:
        if "content" in body:
            message.content = body["content"] or ""
        if "components" in body:
            message.components = body["components"] or []
        if "attachments" in body:
            message.attachments = body["attachments"] or []
        if "embeds" in body:
            message.embeds = body["embeds"] or []
        if "allowed_mentions" in body:
            message.allowed_mentions = body["allowed_mentions"]
        if body.get("flags", 0) & 64:
            message.ephemeral = True

    def _new(self, channel_id: int, body: dict[str, Any], ephemeral: bool = False) -> Message:
        message = Message(snowflake(), channel_id, ephemeral=ephemeral)
        self._apply(message, body)
        self.messages[message.id] = message
        return message

    def _refuse(self, message: Message) -> None:
        """Discord's answer to an edit of a deleted message (10008) or of one older than
        an hour out of edits (429 with code 30046, as discord.py raises it after its own
        retries): recorded in ``refused_edits``."""
        if message.id in self.deleted:
            self.refused_edits.append(message.id)
            raise discord.NotFound(_response(404, "Not Found"),
                                   {"code": 10008, "message": "Unknown Message"})
        if message.id in self.old:
            self.refused_edits.append(message.id)
            raise discord.HTTPException(
                _response(429, "Too Many Requests"),
                {"code": 30046, "global": False, "retry_after": 1.0, "message":
                 "Maximum number of edits to messages older than 1 hour reached."})

    def on_rest(self, route: Any, body: dict[str, Any]) -> Any:
        self.requests.append((route.method, route.path))
        self.global_limited += 1
        if route.method == "POST" and route.path == "/channels/{channel_id}/messages":
            message = self._new(int(route.channel_id), body)
            self.channel.append(message.id)
            self.posted.add(message.id)
            return message.payload()
        if route.method == "PATCH" and route.path == "/channels/{channel_id}/messages/{message_id}":
            message = self.messages[int(route.url.rsplit("/", 1)[1])]
            self._refuse(message)
            self._apply(message, body)
            message.edits += 1
            return message.payload()
        if route.method == "DELETE" and route.path == "/channels/{channel_id}/messages/{message_id}":
            return self._delete(int(route.url.rsplit("/", 1)[1]))
        if route.method == "GET" and route.path == "/channels/{channel_id}/messages":
            newest = [self.messages[i] for i in reversed(self.channel)]
            return [m.payload() for m in newest if m.channel_id == int(route.channel_id)][:50]
        raise AssertionError(f"unexpected REST call {route.method} {route.path}")

    def on_webhook(self, route: Any, body: dict[str, Any]) -> Any:
        self.requests.append((route.method, route.path))
        self.exempt += 1
        token = route.webhook_token
        if route.path.endswith("/callback"):
            kind, data = body["type"], body.get("data") or {}
            inter = self.interactions[token]
            message: Message | None = None
            if kind in (4, 5):
                message = self._new(self.channel_id, data, ephemeral=bool(data.get("flags", 0) & 64))
                message.loading = kind == 5
                self.originals[token] = message.id
            elif kind == 7:
                message = self.messages[int(inter["message"]["id"])]
                self._apply(message, data)
                message.edits += 1
            if message is not None:
                self.replies.setdefault(token, []).append(message.id)
            out: dict[str, Any] = {"interaction": {
                "id": inter["id"], "type": inter["type"],
                "response_message_id": str(message.id) if message else None,
                "response_message_loading": kind == 5,
                "response_message_ephemeral": bool(message and message.ephemeral)}}
            if message is not None:
                out["resource"] = {"type": kind, "message": message.payload()}
            return out
        if route.method == "PATCH" and "/messages/" in route.path:
            target = route.url.rsplit("/", 1)[1]
            if target == "@original":
                mid = self.originals.get(token) or int(self.interactions[token]["message"]["id"])
            else:
                mid = int(target)
            message = self.messages[mid]
            self._refuse(message)
            self._apply(message, body)
            message.loading = False
            message.edits += 1
            if message.id not in self.posted:  # the table message is no one's answer
                self.replies.setdefault(token, []).append(message.id)
            return message.payload()
        if route.method == "DELETE" and "/messages/" in route.path:
            target = route.url.rsplit("/", 1)[1]
            return self._delete(self.originals[token] if target == "@original" else int(target))
        if route.method == "POST" and route.path.startswith("/webhooks/"):
            channel = int(self.interactions[token].get("channel_id") or self.channel_id)
            message = self._new(channel, body, ephemeral=bool(body.get("flags", 0) & 64))
            if not message.ephemeral:  # a public follow-up (the table message): in the
                self.channel.append(message.id)  # channel, and no one's answer
                self.posted.add(message.id)
                return message.payload()
            self.replies.setdefault(token, []).append(message.id)
            return message.payload()
        raise AssertionError(f"unexpected webhook call {route.method} {route.path}")

    def _delete(self, message_id: int) -> None:
        """A message deleted (turn pings): kept in ``messages``, noted in ``deleted``;
        a second deletion answers 404 / 10008."""
        if message_id in self.deleted or message_id not in self.messages:
            raise discord.NotFound(_response(404, "Not Found"),
                                   {"code": 10008, "message": "Unknown Message"})
        self.deleted.add(message_id)
        return None

    # ----- interactions -------------------------------------------------------------

    def dispatch(self, data: dict[str, Any]) -> str:
        # What the answers need later (id, type, the clicked message's id), not the
        # whole payload: the benchmark dispatches thousands, and kept payloads would
        # swell the bot process's heap that every full garbage collection scans.
        kept: dict[str, Any] = {"id": data["id"], "type": data["type"],
                                "channel_id": data.get("channel_id")}
        if data.get("message"):
            kept["message"] = {"id": data["message"]["id"]}
        self.interactions[data["token"]] = kept
        self.bot._connection.parse_interaction_create(data)
        token: str = data["token"]
        return token

    def public(self) -> list[Message]:
        return [self.messages[i] for i in self.channel]

    def last_public(self) -> Message:
        return self.messages[self.channel[-1]]

    def table_message(self) -> Message:
        """The newest public message that has buttons (the live table message)."""
        for mid in reversed(self.channel):
            if self.messages[mid].components:
                return self.messages[mid]
        raise AssertionError("no table message")

    async def idle(self, timeout: float = 20.0) -> None:
        """Wait until every interaction, redraw and computer move has finished: no task
        left but the background ones, and no computer to act, for ``QUIET_TICKS`` looks
        in a row ``QUIET_TICK`` apart (``BUSY_TICK`` apart while a long wait lasts)."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        quiet = busy_looks = 0
        while quiet < QUIET_TICKS:
            await asyncio.sleep(BUSY_TICK if busy_looks >= BUSY_LOOKS else QUIET_TICK)
            busy = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()
                    and not t.get_name().startswith(BACKGROUND)]
            service = self.bot.service
            thinking = any(tb.computer_to_act for tb in service.tables()) if service else False
            if busy or thinking:
                quiet, busy_looks = 0, busy_looks + 1
            else:
                quiet, busy_looks = quiet + 1, 0
            if loop.time() > end:
                raise AssertionError(f"not idle: {busy} thinking={thinking}")


@dataclass
class Reply:
    """What one interaction produced: its messages (in order) and their contents."""

    messages: list[Message]

    @property
    def last(self) -> Message:
        return self.messages[-1]

    @property
    def text(self) -> str:
        return "\n".join(m.content for m in self.messages)


class Member:
    """A simulated guild member who runs slash commands and clicks components."""

    def __init__(self, fake: FakeDiscord, user_id: int, name: str, locale: str = "en-US",
                 guild_locale: str = "en-US", admin: bool = False) -> None:
        self.fake, self.id, self.name = fake, user_id, name
        self.locale, self.guild_locale, self.admin = locale, guild_locale, admin

    def _base(self, kind: int) -> dict[str, Any]:
        user = {"id": str(self.id), "username": self.name.lower(), "global_name": self.name,
                "discriminator": "0", "avatar": None}
        return {
            "id": str(snowflake()), "application_id": str(APP_ID), "type": kind,
            "token": f"tok-{snowflake()}", "version": 1, "guild_id": str(self.fake.guild_id),
            "channel_id": str(self.fake.channel_id), "locale": self.locale,
            "guild_locale": self.guild_locale, "app_permissions": str((1 << 10) | (1 << 11) | (1 << 14) | (1 << 15) | (1 << 38)), "entitlements": [],
            "channel": {"id": str(self.fake.channel_id), "type": 0, "name": "general",
                        "guild_id": str(self.fake.guild_id), "position": 0,
                        "permission_overwrites": [], "nsfw": False, "parent_id": None},
            "attachment_size_limit": 10_485_760, "context": 0, "authorizing_integration_owners": {},
            "member": {"user": user, "roles": [], "joined_at": "2024-01-01T00:00:00+00:00",
                       "deaf": False, "mute": False, "nick": None, "flags": 0,
                       "permissions": str(32 if self.admin else 0)},
        }

    def slash_payload(self, sub: str, **options: Any) -> dict[str, Any]:
        data = self._base(2)
        types = {bool: 5, int: 4, str: 3}
        users = {str(v.id): v._base(2)["member"]["user"] for v in options.values()
                 if isinstance(v, Member)}  # a user option: its id, the user resolved
        opts = [{"name": k, "type": 6, "value": str(v.id)} if isinstance(v, Member)
                else {"name": k, "type": types[type(v)], "value": v} for k, v in options.items()]
        group, _, name = sub.rpartition(" ")  # "event play": a subcommand of a group
        command: dict[str, Any] = {"name": name, "type": 1, "options": opts}
        if group:
            command = {"name": group, "type": 2, "options": [command]}
        data["data"] = {"id": "1", "name": "ddz", "type": 1, "options": [command]}
        if users:
            data["data"]["resolved"] = {"users": users}
        return data

    def click_payload(self, message: Message, custom_id: str, values: list[str] | None = None) -> dict[str, Any]:
        assert custom_id in message.custom_ids(), (custom_id, message.custom_ids())
        data = self._base(3)
        comp_type = 3 if values is not None else 2
        data["data"] = {"custom_id": custom_id, "component_type": comp_type}
        if values is not None:
            data["data"]["values"] = values
        data["message"] = message.payload()
        return data

    async def slash(self, sub: str, **options: Any) -> Reply:
        token = self.fake.dispatch(self.slash_payload(sub, **options))
        await self.fake.idle()
        return self._reply(token)

    async def click(self, message: Message, label_or_id: str, values: list[str] | None = None) -> Reply:
        comp = message.buttons().get(label_or_id)
        custom_id = comp["custom_id"] if comp else label_or_id
        token = self.fake.dispatch(self.click_payload(message, custom_id, values))
        await self.fake.idle()
        return self._reply(token)

    def _reply(self, token: str) -> Reply:
        ids = list(dict.fromkeys(self.fake.replies.get(token, [])))
        return Reply([self.fake.messages[i] for i in ids])
