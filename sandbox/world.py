"""The sandbox's server: one guild with a few channels and members Alice, Bob, Carol …

Ids are fixed (the same on every run), so that ``--keep``'s database finds its
server, members and scores again.
"""

from __future__ import annotations

from dataclasses import dataclass

from sandbox.loopback.emulator import Emulator
from sandbox.loopback.members import SimMember
from sandbox.loopback.model import DISCORD_EPOCH_MS, SimChannel

NAMES = ("Alice", "Bob", "Carol", "Dave", "Erin", "Frank", "Grace", "Heidi", "Ivan", "Judy")
"""Member names in order; ``--members N`` takes the first N (1..10)."""
LOCALES = {"en": "en-US", "es": "es-ES", "zh-CN": "zh-CN", "zh-TW": "zh-TW"}
"""``--lang`` → the Discord locale of the server and of every member (Simplified and
Traditional Chinese are Discord's ``zh-CN`` and ``zh-TW``)."""
CHANNELS = ("ddz", "general", "off-topic")
GUILD_NAME = "Dou Dizhu sandbox"
_BASE_MS = 1_735_689_600_000 - DISCORD_EPOCH_MS  # 2025-01-01: before any fresh snowflake


def fixed_id(n: int) -> int:
    """The ``n``-th fixed snowflake (1..4M): a 2025 timestamp, never equal to a fresh one."""
    return (_BASE_MS << 22) | n


@dataclass
class World:
    """The sandbox's guild, its channels (``channels[0]`` is #ddz) and members."""

    emu: Emulator
    members: list[SimMember]

    @property
    def channels(self) -> list[SimChannel]:
        return self.emu.default_guild.channels

    def member(self, member_id: int) -> SimMember | None:
        return next((m for m in self.members if m.id == member_id), None)

    def channel(self, channel_id: int) -> SimChannel | None:
        return next((c for c in self.channels if c.id == channel_id), None)


def build_world(emu: Emulator, *, members: int = 3, lang: str = "en") -> World:
    """Rename ``emu``'s default guild, give it ``CHANNELS`` and ``members`` members (the
    first, Alice, may manage the server), all with fixed ids and locale ``LOCALES[lang]``.
    Call before the bot connects. ValueError for a count outside 1..10 or another lang."""
    if not 1 <= members <= len(NAMES):
        raise ValueError(f"--members must be 1..{len(NAMES)}")
    if lang not in LOCALES:
        raise ValueError(f"--lang must be one of {', '.join(LOCALES)}")
    locale = LOCALES[lang]
    guild = emu.default_guild
    guild.id, guild.name, guild.locale = fixed_id(1), GUILD_NAME, locale
    guild.roles[0].id = guild.id  # @everyone has the guild's id
    for n, role in enumerate(guild.roles[1:], start=2):
        role.id = fixed_id(n)
    guild.channels = [SimChannel(fixed_id(10 + n), name, guild) for n, name in enumerate(CHANNELS)]
    emu.default_channel = guild.channels[0]
    out = []
    for n, name in enumerate(NAMES[:members]):
        member = emu.member(guild, name.lower(), locale=locale, manage_guild=n == 0)
        del guild.members[member.id]
        member.id = fixed_id(100 + n)
        guild.members[member.id] = member
        out.append(member)
    return World(emu, out)
