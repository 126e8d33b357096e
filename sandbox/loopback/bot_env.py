"""The environment that points an unmodified ``python -m bot`` at a loopback Discord."""

from __future__ import annotations

from pathlib import Path
from typing import Protocol

from sandbox.loopback.model import SimGuild


class Emulator(Protocol):
    """What the environment reads of the loopback Discord (``emulator.Emulator``)."""

    @property
    def token(self) -> str: ...

    @property
    def api_base(self) -> str: ...

    @property
    def gateway_url(self) -> str: ...

    @property
    def default_guild(self) -> SimGuild: ...


def bot_env(emu: Emulator, *, db_path: Path, guild_id: int | None = None) -> dict[str, str]:
    """``DISCORD_TOKEN`` (the emulator's fake token), ``DISCORD_API_BASE``,
    ``DISCORD_GATEWAY_URL``, ``DDZ_DATABASE_PATH`` (SQLite file ``db_path``) and
    ``DDZ_DEV_GUILD_ID`` (commands synced to ``guild_id``, default the emulator's
    default guild), as strings to merge into a child's environment."""
    return {
        "DISCORD_TOKEN": emu.token,
        "DISCORD_API_BASE": emu.api_base,
        "DISCORD_GATEWAY_URL": emu.gateway_url,
        "DDZ_DATABASE_PATH": str(db_path),
        "DDZ_DEV_GUILD_ID": str(guild_id if guild_id is not None else emu.default_guild.id),
    }
