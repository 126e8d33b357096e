"""What the ``/ddz`` cog needs of a feature (its Discord side; the whole contract is
``bot.features.contract.Feature``, docs/ARCHITECTURE.md §Features): its command mixin, and
what ``attach`` gives the cog once it is built — what a change of its private tables does, its background tasks, and the
objects its commands and clicks find again through ``CogContext.part``.

The cog iterates the features it is given; it never names one.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from bot.game.seat import Event
from bot.game.table import Table
from bot.service.links import WebLinks
from bot.values import GuildSettings
from cogs.background import Background
from cogs.context import CogContext
from cogs.delivery import Delivery
from cogs.items import ClickRoute

PrivateChange = Callable[[Table, list[Event]], Awaitable[None]]
"""What a change of a private table of one kind does (the member's view, the feature's own)."""
TableClosing = Callable[[Table], Awaitable[None]]
"""What the closing of a public table of one kind does before the members' views of it are
forgotten (a feature that closes its table right after the last hand shows that hand's end
first)."""
StatsFields = Callable[[int, int, str], Awaitable[list[tuple[str, str]]]]
"""(guild id, member id, language) → the fields of ``/ddz stats`` about the member, as
(name, value) (none before the member took part in the feature)."""
SettingsLines = Callable[[GuildSettings, str], list[str]]
"""(the server's settings, language) → the lines of ``/ddz config``'s answer about the
feature's own settings (its ``FeatureSettings``), after the core's time zone line."""
Language = Callable[[int], Awaitable[str]]
"""``async (guild_id) -> locale``: a server's public language (``ServerLanguages.language``)."""


@dataclass(frozen=True)
class WingHost:
    """What a feature's Discord side is built over: the bot (its guilds and shards), the
    cog's ``CogContext``, the one ``Delivery`` of channel requests, each server's public
    language and the web page's signed links (None while it is off)."""

    bot: Any
    ctx: CogContext
    delivery: Delivery
    language: Language
    web_links: WebLinks | None = None


@dataclass(frozen=True)
class Wing:
    """A feature's Discord side once attached: ``private`` by ``Table.kind`` (what a change
    of its private tables does), ``tasks`` started with the cog and closed with it,
    ``parts``, the objects its commands and clicks find through ``CogContext.part``,
    ``closing`` by ``Table.kind`` (what the closing of its public tables does first),
    ``stats``, its fields of ``/ddz stats`` about a member (after the core's, in the order
    of the features), ``settings``, its lines of ``/ddz config``'s answer (in the order of
    the features), and ``routes``, the templates of
    its own components with their handlers (``cogs.items.ClickRoute``: routed by the cog,
    no core file edited), and ``rules``, the catalog keys of its parts of ``/ddz rules``
    (``**Heading.** text`` each, after the core's parts, in the order of the features)."""

    private: Mapping[str, PrivateChange] = field(default_factory=dict)
    tasks: Sequence[Background] = ()
    parts: Sequence[object] = ()
    closing: Mapping[str, TableClosing] = field(default_factory=dict)
    stats: StatsFields | None = None
    settings: SettingsLines | None = None
    routes: Sequence[ClickRoute] = ()
    rules: Sequence[str] = ()


class DiscordFeature(Protocol):
    """The Discord side of a feature (``bot.features.contract.Feature``): ``name``,
    ``commands`` (its command mixin, among the ``/ddz`` cog's bases: a command or a group
    of subcommands, contract ``ctx``; None when it has none) and ``attach``."""

    @property
    def name(self) -> str:
        """Its name (its key among the installed features, its wing's folder)."""
        ...

    @property
    def commands(self) -> type | None:
        """Its command mixin, or None."""
        ...

    def attach(self, host: WingHost) -> Wing:
        """Build its Discord side over ``host`` (once per cog)."""
        ...
