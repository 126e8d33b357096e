"""A tiny unmodified-discord.py bot used to prove the emulator (``python tests/support/echo_bot.py``).

Honours the same environment as the real bot: DISCORD_TOKEN, DISCORD_API_BASE
(→ ``discord.http.Route.BASE``), DISCORD_GATEWAY_URL (→ ``DiscordWebSocket.DEFAULT_GATEWAY``),
DDZ_DEV_GUILD_ID (commands synced to that guild). Commands, all under ``/ddz``:
``ping`` (ephemeral reply with a PNG and a persistent ``echo:<n>`` button), ``say text times``
(deferred public reply), ``double`` (answers twice; the second must fail 40060),
``menu`` (public string select), ``post`` (a channel message, then edited),
``slow seconds`` (sleeps before answering).
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import os
import re
import struct
import zlib

import discord
import yarl
from discord import app_commands
from discord.ext import commands

log = logging.getLogger("echo_bot")


def apply_env_overrides() -> None:
    """Point discord.py at DISCORD_API_BASE / DISCORD_GATEWAY_URL when they are set."""
    base = os.environ.get("DISCORD_API_BASE")
    gateway = os.environ.get("DISCORD_GATEWAY_URL")
    if base:
        discord.http.Route.BASE = base.rstrip("/")
    if gateway:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)


def make_png(n: int) -> bytes:
    """A valid 2x1 RGB PNG whose pixels encode ``n`` (bytes differ for each n < 256)."""

    def chunk(kind: bytes, body: bytes) -> bytes:
        return (
            struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
        )

    raw = b"\x00" + bytes([n % 256, 0, 0, 0, n % 256, 0])
    ihdr = struct.pack(">IIBBBBB", 2, 1, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", ihdr)
        + chunk(b"IDAT", zlib.compress(raw))
        + chunk(b"IEND", b"")
    )


class EchoButton(discord.ui.DynamicItem[discord.ui.Button], template=r"echo:(?P<count>\d+)"):
    """Persistent button: state lives in the custom_id, so it survives a restart."""

    def __init__(self, count: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=f"Clicked {count}",
                custom_id=f"echo:{count}",
                style=discord.ButtonStyle.primary,
            )
        )
        self.count = count

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> EchoButton:
        return cls(int(match["count"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        n = self.count + 1
        view = discord.ui.View(timeout=None)
        view.add_item(EchoButton(n))
        await interaction.response.edit_message(content=f"clicks={n} pid={os.getpid()}", view=view)
        file = discord.File(
            io.BytesIO(make_png(n)), filename="echo.png", description=f"echo image {n}"
        )
        await interaction.followup.send(f"image {n}", file=file, ephemeral=True)


class Picker(discord.ui.View):
    @discord.ui.select(
        custom_id="echo:pick",
        options=[discord.SelectOption(label=c.title(), value=c) for c in ("red", "green", "blue")],
        max_values=2,
    )
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        await interaction.response.send_message(f"picked {','.join(select.values)}", ephemeral=True)


class Ddz(app_commands.Group, name="ddz", description="Echo commands"):
    @app_commands.command(description="Ephemeral pong with a button")
    async def ping(self, interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(EchoButton(0))
        file = discord.File(io.BytesIO(make_png(0)), filename="ping.png", description="ping image")
        await interaction.response.send_message(
            f"pong {interaction.locale.value}", view=view, file=file, ephemeral=True
        )

    @app_commands.command(description="Deferred public echo")
    @app_commands.describe(text="What to say", times="How often")
    async def say(
        self, interaction: discord.Interaction, text: str, times: app_commands.Range[int, 1, 5] = 1
    ) -> None:
        await interaction.response.defer(thinking=True)
        await interaction.followup.send(text * times)

    @app_commands.command(description="Answers twice")
    async def double(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("first", ephemeral=True)
        with contextlib.suppress(discord.InteractionResponded):
            await interaction.response.send_message("second", ephemeral=True)
        adapter = discord.webhook.async_.async_context.get()
        params = discord.webhook.async_.interaction_message_response_params(
            type=4, content="raw second"
        )
        try:
            await adapter.create_interaction_response(
                interaction.id, interaction.token, session=interaction._session, params=params
            )
        except discord.HTTPException as exc:
            log.info("second initial response failed: %s %s", exc.status, exc.code)
            await interaction.followup.send(f"second failed: {exc.code}", ephemeral=True)

    @app_commands.command(description="Public select menu")
    async def menu(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("pick colours", view=Picker())

    @app_commands.command(description="Channel message, then edit")
    async def post(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("posting", ephemeral=True)
        assert interaction.channel is not None
        msg = await interaction.channel.send("public post")  # type: ignore[union-attr]
        await msg.edit(content="public post (edited)")

    @app_commands.command(description="Sleeps before answering")
    async def slow(self, interaction: discord.Interaction, seconds: float) -> None:
        await asyncio.sleep(seconds)
        try:
            await interaction.response.send_message("too late?", ephemeral=True)
        except discord.HTTPException as exc:
            log.info("slow reply failed: %s %s", exc.status, exc.code)


class EchoBot(commands.Bot):
    def __init__(self) -> None:
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents.default())

    async def setup_hook(self) -> None:
        self.add_dynamic_items(EchoButton)
        self.tree.add_command(Ddz())
        guild_id = os.environ.get("DDZ_DEV_GUILD_ID")
        if guild_id:
            guild = discord.Object(int(guild_id))
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
        else:
            synced = await self.tree.sync()
        log.info("synced %d commands", len(synced))

    async def on_ready(self) -> None:
        log.info("echo bot ready as %s (pid %d)", self.user, os.getpid())


def main() -> None:
    apply_env_overrides()
    discord.utils.setup_logging(level=logging.INFO)
    EchoBot().run(os.environ["DISCORD_TOKEN"], log_handler=None)


if __name__ == "__main__":
    main()
