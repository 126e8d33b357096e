"""The one contract of a feature: what it may contribute to the core, stated once
(docs/ARCHITECTURE.md §Features).

A feature is an object with a ``name`` (its key among the installed features and its
wing's folder, ``bot/features/<name>/``) that

* ``install(service)``: builds its own service over the ``TableService`` and plugs it into
  the service's seams — a kind of table and what ends or follows it
  (``TableService.register``: a ``PrivateDeal``'s ``finish``, a ``PublicKind``'s
  ``settled``, a ``TitledKind``'s ``hand_title``, the first line of a member's hand view at
  such a table; a kind without one shows a channel table's), its part of ``/ddz forget`` (``Forgetting.add_step``: its rows of the member, the marks it keeps), a refusal
  of it (``add_check``) or a step after it (``listeners``), a shutdown step
  (``TableService.closing``) — and returns that service (``bot.service.features.Features``
  keeps it; the adapters find it by its type, ``CogContext.feature``);
* ``migrations()``: the tables of its own store, by backend (``{"sqlite": [...],
  "postgres": [...]}``, one statement each, appended to, never edited), applied by
  ``migrate_features`` before it is installed (``Repository.migrate_feature``, its version
  kept per feature); its store reads and writes them through ``Repository.transaction``
  and ``reading``. (The tables of the four features that came before this contract are
  still created by the core's migrations, ``bot/storage/migrations.py``: they return
  ``{}``.)
* ``commands``: its command mixin, one of the ``/ddz`` cog's bases (a command or a group of
  subcommands; contract ``ctx``), or None;
* ``attach(host)``: its Discord side (``cogs.wing.Wing``): what a change of its private
  tables does, its background tasks, the objects its commands find (``CogContext.part``).

Its texts are keys of the gettext catalogs (bot/i18n/locales), which stay one per language.
The core — ``TableService``, the ``/ddz`` cog, ``CogContext``, the hand view — iterates the
``FEATURES`` list (``bot.features.installed``) and never names a feature; a new feature is
a new wing and one entry in that list.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

from bot.service.features import Features
from bot.service.tables import TableService
from bot.settings import Settings
from bot.storage.repository import Repository
from bot.web.routes import WebFeature
from cogs.wing import DiscordFeature


class Feature(DiscordFeature, WebFeature, Protocol):
    """A feature (the module docstring): ``name``, ``migrations``, ``install``, ``commands``,
    ``attach``, ``web``."""

    def migrations(self) -> Mapping[str, Sequence[str]]:
        """Its store's migrations by backend (``"sqlite"``, ``"postgres"``), or ``{}``."""
        ...

    def install(self, service: TableService, settings: Settings | None) -> object:
        """Build the feature's service over ``service`` and plug it into the service's
        seams (once per service); return it. ``settings``: the bot's (its own
        ``DDZ_…`` settings among them), None in the tests: the feature's defaults."""
        ...


async def migrate_features(storage: Repository, features: Sequence[Feature]) -> None:
    """Apply each feature's pending migrations to ``storage`` (before ``install_features``:
    the Bot's ``setup_hook``)."""
    for feature in features:
        migrations = feature.migrations()
        if migrations:
            await storage.migrate_feature(feature.name, migrations)


def install_features(service: TableService, features: Sequence[Feature],
                     settings: Settings | None = None) -> Features:
    """Install each of ``features`` on ``service``, in order (the Bot does it right after
    building the service, bot/client.py, with its ``settings``; so do the tests and the
    benchmarks)."""
    installed: dict[str, object] = {}
    for feature in features:
        if feature.name in installed:
            raise ValueError(f"two features named {feature.name!r}")
        installed[feature.name] = feature.install(service, settings)
    return Features(installed)
