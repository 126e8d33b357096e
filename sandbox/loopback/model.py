"""Plain records the loopback Discord emulator keeps: guilds, channels, messages, errors.

Everything here is test data, mutated in place by the emulator so that a test
holding a :class:`SimMessage` always reads the message's latest state (older
states are kept in ``SimMessage.history``).
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Protocol

DISCORD_EPOCH_MS = 1420070400000

# Message flags (Discord API v10 "Message Flags").
FLAG_SUPPRESS_EMBEDS = 1 << 2
FLAG_EPHEMERAL = 1 << 6
FLAG_LOADING = 1 << 7
FLAG_SUPPRESS_NOTIFICATIONS = 1 << 12
FLAG_COMPONENTS_V2 = 1 << 15

# Permission bits (Discord API v10 "Permissions").
PERM_ADMINISTRATOR = 1 << 3
PERM_MANAGE_GUILD = 1 << 5
PERM_VIEW_CHANNEL = 1 << 10
PERM_SEND_MESSAGES = 1 << 11
PERM_EMBED_LINKS = 1 << 14
PERM_ATTACH_FILES = 1 << 15
PERM_READ_HISTORY = 1 << 16
PERM_USE_APP_COMMANDS = 1 << 31
PERM_MANAGE_THREADS = 1 << 34
PERM_CREATE_PUBLIC_THREADS = 1 << 35
PERM_SEND_IN_THREADS = 1 << 38
EVERYONE_PERMISSIONS = (
    PERM_VIEW_CHANNEL
    | PERM_SEND_MESSAGES
    | PERM_EMBED_LINKS
    | PERM_ATTACH_FILES
    | PERM_READ_HISTORY
    | PERM_USE_APP_COMMANDS
)

_counter = itertools.count(1)


def snowflake() -> int:
    """A fresh Discord snowflake (ms since the Discord epoch << 22 | counter), unique per process."""
    ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
    return (ms << 22) | (next(_counter) & 0x3FFFFF)


def iso_now() -> str:
    """The current UTC time as Discord's ISO-8601 timestamp string."""
    return datetime.now(UTC).isoformat()


@dataclass
class SimRole:
    """A guild role; ``permissions`` is the Discord permission bit field."""

    id: int
    name: str
    permissions: int
    position: int = 0

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "name": self.name,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "icon": None,
            "unicode_emoji": None,
            "position": self.position,
            "permissions": str(self.permissions),
            "managed": False,
            "mentionable": False,
            "flags": 0,
        }


@dataclass
class SimAttachment:
    """A file the bot attached: raw ``data`` bytes and its alt text ``description``."""

    id: int
    filename: str
    data: bytes
    description: str | None = None
    content_type: str = "application/octet-stream"

    @property
    def size(self) -> int:
        return len(self.data)

    @property
    def is_png(self) -> bool:
        return self.data.startswith(b"\x89PNG\r\n\x1a\n")

    @property
    def media_type(self) -> str:
        """The file's type as Discord reports it, sniffed from its bytes for the images
        the bot sends (a PNG, an animated GIF), else ``content_type``."""
        if self.is_png:
            return "image/png"
        if self.data[:6] in (b"GIF87a", b"GIF89a"):
            return "image/gif"
        return self.content_type

    def payload(self, base_url: str) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": str(self.id),
            "filename": self.filename,
            "size": self.size,
            "url": f"{base_url}/attachments/{self.id}/{self.filename}",
            "proxy_url": f"{base_url}/attachments/{self.id}/{self.filename}",
            "content_type": self.media_type,
        }
        if self.description is not None:
            out["description"] = self.description
        return out


@dataclass
class SimChannel:
    """A guild text channel; ``messages`` holds every message ever posted (incl. deleted).

    ``bot_denied``: permission bits the bot lacks here (a channel overwrite); the REST
    routes answer 403 (50001 Missing Access without View Channel, else 50013 Missing
    Permissions) and interactions carry ``app_permissions`` without them.
    """

    id: int
    name: str
    guild: SimGuild
    messages: list[SimMessage] = field(default_factory=list)
    bot_denied: int = 0
    parent: SimChannel | None = None  # set for a public thread (type 11)
    owner_id: int | None = None
    """A thread's creator (the bot for the threads it starts; None: the guild's owner)."""
    auto_archive_duration: int = 1440
    """A thread's minutes of inactivity before Discord archives it (not modelled beyond
    being shown)."""
    archived: bool = False
    """A thread archived (``PATCH /channels/{id}``, docs/DISCORD.md row 26): not active, so
    not counted against the guild's active threads; its messages can no longer be edited."""
    locked: bool = False
    """A thread locked: only Manage Threads unarchives it by a post."""

    @property
    def is_thread(self) -> bool:
        return self.parent is not None

    @property
    def active_thread(self) -> bool:
        """A thread that counts against the guild's active threads: not archived."""
        return self.parent is not None and not self.archived

    @property
    def denied(self) -> int:
        """The bits the bot lacks here: a thread's own and its parent's (a thread takes its
        parent channel's permissions, docs/DISCORD.md row 18)."""
        return self.bot_denied | (self.parent.bot_denied if self.parent is not None else 0)

    @property
    def public_messages(self) -> list[SimMessage]:
        """Messages everyone sees: not ephemeral, not deleted, oldest first."""
        return [m for m in self.messages if m.visible_to is None and not m.deleted]

    @property
    def last_public(self) -> SimMessage | None:
        msgs = self.public_messages
        return msgs[-1] if msgs else None

    def payload(self, bot_id: int | None = None) -> dict[str, Any]:
        """Discord's channel object; with ``bot_id``, ``bot_denied`` is shown as that
        member's permission overwrite (as Discord shows a channel's denials)."""
        if self.parent is not None:
            return {
                "id": str(self.id), "type": 11, "guild_id": str(self.guild.id),
                "parent_id": str(self.parent.id),
                "owner_id": str(self.owner_id or self.guild.owner_id),
                "name": self.name, "last_message_id": None, "rate_limit_per_user": 0,
                "message_count": len(self.messages), "member_count": 1, "flags": 0,
                "total_message_sent": len(self.messages),
                "thread_metadata": {"archived": self.archived,
                                    "auto_archive_duration": self.auto_archive_duration,
                                    "archive_timestamp": iso_now(), "locked": self.locked},
            }
        return {
            "id": str(self.id),
            "type": 0,
            "guild_id": str(self.guild.id),
            "name": self.name,
            "position": self.guild.channels.index(self) if self in self.guild.channels else 0,
            "permission_overwrites": [] if not (bot_id and self.bot_denied) else [
                {"id": str(bot_id), "type": 1, "allow": "0", "deny": str(self.bot_denied)}],
            "nsfw": False,
            "parent_id": None,
            "topic": None,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "flags": 0,
        }


class Member(Protocol):
    """What these records and their readers use of a member (``members.SimMember``, which
    builds on this module: a protocol here, so that no import closes a circle)."""

    @property
    def id(self) -> int: ...

    @property
    def name(self) -> str: ...

    @property
    def ephemerals(self) -> list[SimMessage]: ...

    def member_payload(self, *, with_permissions: bool = True) -> dict[str, Any]: ...


@dataclass
class SimGuild:
    """A test guild: roles (``roles[0]`` is @everyone), text channels and members."""

    id: int
    name: str
    locale: str
    owner_id: int
    roles: list[SimRole] = field(default_factory=list)
    channels: list[SimChannel] = field(default_factory=list)
    members: dict[int, Member] = field(default_factory=dict)

    @property
    def everyone(self) -> SimRole:
        return self.roles[0]

    def channel(self, name: str) -> SimChannel:
        """The text channel called ``name``; KeyError if absent."""
        for ch in self.channels:
            if ch.name == name:
                return ch
        raise KeyError(name)

    def role(self, name: str) -> SimRole:
        for r in self.roles:
            if r.name == name:
                return r
        raise KeyError(name)


@dataclass
class ApiError:
    """One non-2xx answer the emulator gave to the bot (status, Discord error code, why)."""

    status: int
    code: int
    method: str
    path: str
    message: str
    problems: list[str] = field(default_factory=list)

    def __str__(self) -> str:
        extra = f" {self.problems}" if self.problems else ""
        return f"{self.status} code={self.code} {self.method} {self.path}: {self.message}{extra}"


@dataclass
class SimMessage:
    """A message as the emulator stores it; updated in place on every edit.

    ``visible_to`` is None for a public message, else the only member who sees it
    (ephemeral). ``history`` holds snapshots (dicts) of earlier states, oldest first.
    ``components`` and ``embeds`` are the raw API dicts the bot sent.
    """

    id: int
    channel: SimChannel
    author_id: int
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[SimAttachment] = field(default_factory=list)
    flags: int = 0
    visible_to: Member | None = None
    interaction_id: int | None = None
    type: int = 0
    created_at: str = field(default_factory=iso_now)
    edited_at: str | None = None
    deleted: bool = False
    history: list[dict[str, Any]] = field(default_factory=list)
    allowed_mentions: dict[str, Any] | None = None
    """The ``allowed_mentions`` the message was created with (None: none sent)."""
    born: float = 0.0
    """When it was created on the emulator's clock (``Emulator.now``): edits of a message
    older than an hour answer 30046 (docs/DISCORD.md row 14)."""
    notified: list[int] = field(default_factory=list)
    """Members this message notified when it was created (docs/DISCORD.md row 19)."""

    @property
    def ephemeral(self) -> bool:
        return self.visible_to is not None

    @property
    def loading(self) -> bool:
        """True while this is a deferred "thinking…" message not yet filled in."""
        return bool(self.flags & FLAG_LOADING)

    def snapshot(self) -> dict[str, Any]:
        return {
            "content": self.content,
            "embeds": list(self.embeds),
            "components": list(self.components),
            "attachments": list(self.attachments),
            "flags": self.flags,
        }

    def all_components(self) -> list[dict[str, Any]]:
        """Every component (rows, buttons, selects, v2 containers) flattened depth-first."""
        out: list[dict[str, Any]] = []

        def walk(items: list[dict[str, Any]]) -> None:
            for c in items:
                out.append(c)
                walk(c.get("components") or [])
                if isinstance(c.get("accessory"), dict):
                    walk([c["accessory"]])

        walk(self.components)
        return out

    @property
    def buttons(self) -> list[dict[str, Any]]:
        """Button dicts (type 2) in display order: ``label``, ``custom_id``, ``style``, ``disabled``."""
        return [c for c in self.all_components() if c.get("type") == 2]

    @property
    def selects(self) -> list[dict[str, Any]]:
        """Select menu dicts (types 3, 5-8) in display order."""
        return [c for c in self.all_components() if c.get("type") in (3, 5, 6, 7, 8)]

    @property
    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for c in self.all_components() if "custom_id" in c]

    def component(
        self, custom_id: str | None = None, *, label: str | None = None
    ) -> dict[str, Any]:
        """The component with this custom_id (or button label); KeyError listing what exists."""
        for c in self.all_components():
            if custom_id is not None and c.get("custom_id") == custom_id:
                return c
            if label is not None and c.get("label") == label:
                return c
        known = [
            (c.get("custom_id"), c.get("label"))
            for c in self.all_components()
            if c.get("type") != 1
        ]
        raise KeyError(
            f"no component custom_id={custom_id!r} label={label!r} in message {self.id}; has {known}"
        )

    @property
    def text(self) -> str:
        """Content plus every embed's title/description/field/footer text, newline separated."""
        parts = [self.content] if self.content else []
        for e in self.embeds:
            for key in ("title", "description"):
                if e.get(key):
                    parts.append(str(e[key]))
            for f in e.get("fields") or []:
                parts.append(f"{f.get('name', '')}: {f.get('value', '')}")
            if (e.get("footer") or {}).get("text"):
                parts.append(e["footer"]["text"])
            if (e.get("author") or {}).get("name"):
                parts.append(e["author"]["name"])
        for c in self.all_components():
            if c.get("type") == 10 and c.get("content"):  # components v2 text display
                parts.append(c["content"])
        return "\n".join(parts)

    def __repr__(self) -> str:
        vis = f"ephemeral->{self.visible_to.name}" if self.visible_to else "public"
        return (
            f"<SimMessage {self.id} {vis} content={self.content[:60]!r} embeds={len(self.embeds)} "
            f"buttons={len(self.buttons)} files={[a.filename for a in self.attachments]}"
            f"{' DELETED' if self.deleted else ''}>"
        )
