"""What a feature contributes to the web page (docs/ARCHITECTURE.md §Features, docs/WEB.md):
its pages (``WebRoute``: an aiohttp path and what builds the page) and the folder of their
templates, both in a ``WebPart`` that its ``Feature.web()`` returns.

The site (``bot.web.site.Site``) mounts whatever the installed features give, after its own
routes, and builds their pages over a ``WebHost``: the signed links, whether a server's
admins turned the page on, the services (the table service, each feature's by type), the
page cache and the templates. A feature's templates are named ``<feature name>/<file>`` and
may extend the site's own (``base.html``, ``macros.html``). A feature's signed links use an
HMAC domain of its own (``WebLinks.token``), never ``r`` or ``s``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Coroutine, Hashable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, TypeVar

from bot.service.links import WebLinks

T = TypeVar("T")


@dataclass(frozen=True)
class Page:
    """A built page: ``body`` and its ``content_type``."""

    body: bytes
    content_type: str


class WebHost(Protocol):
    """What a feature's page is built over (``bot.web.site.Site``)."""

    links: WebLinks
    service: Any
    """The ``TableService`` (None: a site without one, whose servers' pages are all off)."""

    async def public(self, guild_id: int) -> bool:
        """Whether the server's admins turned its pages on (``/ddz config web``)."""
        ...

    def feature(self, kind: type[T]) -> T:
        """The installed feature service of type ``kind`` (KeyError: none)."""
        ...

    async def cached(self, key: Hashable, guild_id: int | None, ttl: float,
                     build: Callable[[], Coroutine[Any, Any, Page | None]]) -> Page | None:
        """The page ``key``, built once per ``ttl`` seconds (dropped with its server's pages)."""
        ...

    async def render(self, template: str, **context: Any) -> bytes:
        """``template`` rendered off the loop, UTF-8."""
        ...


PageBuild = Callable[[WebHost, Mapping[str, str], str], Awaitable[Page | None]]
"""``(host, the path's parts by name, language) → the page``, or None: the 404 page."""


@dataclass(frozen=True)
class WebRoute:
    """One page of a feature: ``path`` an aiohttp route (``/t/{token:[A-Za-z0-9_-]{1,48}}``),
    ``name`` its route name (unique on the site), ``page`` what builds it."""

    path: str
    name: str
    page: PageBuild


@dataclass(frozen=True)
class WebPart:
    """A feature's part of the web page: its ``routes`` and the folder of its ``templates``
    (None: it has none)."""

    routes: Sequence[WebRoute] = ()
    templates: Path | None = None


class WebFeature(Protocol):
    """The web side of a feature (``bot.features.contract.Feature``): ``name`` (its
    templates' prefix) and ``web()``."""

    @property
    def name(self) -> str:
        """Its name."""
        ...

    def web(self) -> WebPart:
        """Its pages and templates (``WebPart()``: none)."""
        ...
