"""``CogContext``: what the ``/ddz`` cog hands every item handler and router.

One way from a click to the bot's state: ``cogs.items.route_click`` parses the
custom_id and calls the cog's handler, which passes its ``CogContext`` on (never
``bot.get_cog`` or an attribute looked up on ``interaction.client``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypeVar

import discord

from bot.service import TableService
from bot.service.features import Features
from bot.service.links import WebLinks
from bot.service.records import RecordsService
from bot.service.replays import ReplayService
from bot.values import GuildSettings
from cogs import permissions
from cogs.hand_screens import HandScreens
from cogs.languages import ServerLanguages

if TYPE_CHECKING:  # annotations only: cogs.board imports cogs.replay, which imports this
    from cogs.board import Board

T = TypeVar("T")

# The base of the ``/ddz`` GroupCog's command mixins (cogs/config.py, cogs/records.py,
# cogs/replay.py and each feature's, ``cogs.wing.DiscordFeature.commands``): a plain ``object`` at run time; for the
# type checker the Cog they are always mixed into, so ``app_commands.command`` takes their
# methods as the GroupCog's (as they are bound at run time).
if TYPE_CHECKING:
    from discord.ext import commands

    CommandMixin = commands.Cog
else:
    CommandMixin = object


@dataclass(frozen=True)
class CogContext:
    """``service``: the only writer of tables (and their reads); ``records``: the
    server's standings, stats and history (read-only); ``replays``: finished hands and
    reviews; ``board``: the public table messages; ``languages``: each server's public
    language (cogs/languages.py); ``hands``: the private hand screens
    (cogs/hand_screens.py: draw, answer with and refresh a hand view); ``web_links``: signed links to the web page
    (docs/WEB.md), None while it is off;
    ``features``: the services of the installed features (``bot.service.features``), each
    found by its type (``feature``); ``parts``: what their Discord sides keep for their
    commands and clicks (``cogs.wing.Wing.parts``), found the same way (``part``);
    ``stats``: their fields of ``/ddz stats`` (``cogs.wing.Wing.stats``); ``settings``:
    their lines of ``/ddz config``'s answer (``cogs.wing.Wing.settings``)."""

    service: TableService
    records: RecordsService
    replays: ReplayService
    board: Board
    features: Features
    languages: ServerLanguages
    hands: HandScreens
    web_links: WebLinks | None = None
    parts: list[object] = field(default_factory=list)
    stats: list[Callable[[int, int, str], Awaitable[list[tuple[str, str]]]]] = field(
        default_factory=list)
    settings: list[Callable[[GuildSettings, str], list[str]]] = field(default_factory=list)

    def feature(self, kind: type[T]) -> T:
        """The installed feature service of type ``kind`` (KeyError: none installed)."""
        return self.features.get(kind)

    def part(self, kind: type[T]) -> T:
        """The object of type ``kind`` a feature's Discord side keeps (KeyError: none)."""
        for part in self.parts:
            if isinstance(part, kind):
                return part
        raise KeyError(kind.__name__)

    def seen(self, interaction: discord.Interaction) -> None:
        """Note what any interaction tells: the server's locale (public texts) and, when
        the bot has its permissions in the channel again, that the board may post there."""
        self.languages.remember(interaction.guild_id, interaction.guild_locale)
        if interaction.channel_id is not None and not permissions.missing(interaction):
            self.board.backoff.back(interaction.channel_id)
