"""Where an interaction happened and who may do what there: the server it came from
(``guild_id``), Manage Server (``is_admin``), and the channel permissions the bot needs
to run a table, checked before ``/ddz start``.

A table needs, in its channel: View Channel, Send Messages (Send Messages in
Threads inside a thread), Attach Files (the table and result images) and Embed
Links (``/ddz score``, ``/ddz rules``). ``interaction.app_permissions`` tells the
bot's own permissions where the interaction happened, without any request.
"""

from __future__ import annotations

import discord

from bot.game.errors import GameError
from bot.i18n import t

REQUIRED: tuple[str, ...] = ("view_channel", "send_messages", "attach_files", "embed_links")
IN_THREAD: tuple[str, ...] = ("view_channel", "send_messages_in_threads", "attach_files",
                              "embed_links")


def guild_id(interaction: discord.Interaction) -> int:
    """The server the interaction came from; raises GameError ``guild_only`` in a DM."""
    if interaction.guild_id is None:
        raise GameError("guild_only")
    return interaction.guild_id


def channel_id(interaction: discord.Interaction) -> int:
    """The channel the interaction came from (Discord sends it with every command and
    click in a server); raises GameError ``guild_only`` without one."""
    if interaction.channel_id is None:
        raise GameError("guild_only")
    return interaction.channel_id


def is_admin(interaction: discord.Interaction) -> bool:
    """Manage Server (or Administrator) in this channel, from Discord's own permissions."""
    perms = interaction.permissions
    return bool(perms and (perms.manage_guild or perms.administrator))


def is_thread(interaction: discord.Interaction) -> bool:
    """True when the interaction comes from a thread."""
    channel = interaction.channel
    return isinstance(channel, discord.Thread) or getattr(channel, "type", None) in (
        discord.ChannelType.public_thread, discord.ChannelType.private_thread,
        discord.ChannelType.news_thread)


def missing(interaction: discord.Interaction) -> list[str]:
    """Names (``Permissions`` attributes) of the needed permissions the bot lacks here."""
    perms = interaction.app_permissions
    needed = IN_THREAD if is_thread(interaction) else REQUIRED
    return [name for name in needed if not getattr(perms, name)]


def missing_text(names: list[str], locale: object) -> str:
    """The refusal naming each missing permission as Discord's settings show it."""
    listed = t("sep.list", locale).join(t(f"perm.{name}", locale) for name in names)
    return t("error.missing_permissions", locale, perms=listed)
