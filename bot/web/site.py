"""The web page's data: pages built from stored data through the services, cached.

``Site`` answers each page as bytes (HTML or PNG) or None (→ 404). Reads go through
``ReplayService`` (a settled hand of one server: never a hand still being played) and
``TableService``; templates render in a thread and images in the render workers
(``Renderer``), so a page never holds the event loop. Pages are cached (LRU, ``ttl``
seconds) and concurrent requests for the same page share one build; ``drop_guild``
forgets every cached page of a server (``/ddz forget``, a settled hand, a change of
its settings), so a forgotten member is gone from the next request on. A feature's pages
(``bot.web.routes``) are built over the same cache, templates and checks (``public``,
``feature``).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Coroutine, Hashable, Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar

import aiohttp_jinja2
import jinja2
from aiohttp import web

from bot.game.errors import GameError
from bot.i18n import available_locales, superscript, t, tn
from bot.rules import format_cards
from bot.service.features import Features
from bot.service.links import WebLinks
from bot.service.lru import Lru
from bot.service.replays import ReplayService
from bot.web import views
from bot.web.routes import Page, WebFeature, WebRoute
from rendering import replay_pages as rp

log = logging.getLogger("bot.web")
T = TypeVar("T")

TEMPLATES = Path(__file__).with_name("templates")
STATIC = Path(__file__).with_name("static")
CACHE_SIZE = 256
"""Pages kept (replay HTML ≈ 60-120 KB, images ≈ 40-80 KB)."""
STANDINGS_TTL = 30.0
"""Seconds a standings or player page is kept (a settled hand or ``/ddz forget`` of the
server drops it at once)."""
CHART_HANDS = 50
"""Hands on a player page's chart (the most recent), as ``/ddz stats``."""
MAX_ID = 2**63 - 1
"""The largest member id that can exist: ids are stored as signed 64-bit integers in both
databases, so a larger one (the route takes 20 digits) is a 404 without a query (a query
would fail: SQLite's OverflowError, PostgreSQL's DataError)."""
REPLAY_TTL = 600.0
"""Seconds a replay page is kept (a settled hand changes only by ``/ddz forget``,
which drops it at once)."""


def environment(app: web.Application | None = None,
                features: Mapping[str, Path] | None = None) -> jinja2.Environment:
    """The Jinja2 environment of the templates (autoescaped, undefined names fail),
    registered on ``app`` through aiohttp-jinja2 when given; ``features``: each feature's
    templates folder by its name, its templates named ``<name>/<file>``."""
    loader: jinja2.BaseLoader = jinja2.FileSystemLoader(TEMPLATES)
    if features:
        loader = jinja2.ChoiceLoader([loader, jinja2.PrefixLoader(
            {name: jinja2.FileSystemLoader(folder) for name, folder in features.items()})])
    options: dict[str, Any] = dict(
        loader=loader,
        autoescape=jinja2.select_autoescape(("html", "svg")),
        undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True)
    if app is not None:
        env = aiohttp_jinja2.setup(app, default_helpers=False, **options)
    else:
        env = jinja2.Environment(**options)
    env.globals.update(t=t, tn=tn, superscript=superscript, langs=available_locales(), card_view=views.card_view, line_verb=views.line_verb,
                       cards_left=views.cards_left, notation=format_cards)
    return env


class Site:
    """Pages of the web page. ``replays``: the ReplayService; ``links``: signing;
    ``draw_result``: ``Renderer.result`` (a ResultView and a locale → PNG bytes, off the
    loop); ``clock``: monotonic seconds (tests); ``service``: the TableService (server
    standings); ``features``: the installed features, whose pages it serves
    (``bot.web.routes.WebPart``: ``routes``, mounted by ``bot.web.app.build_app``), and
    ``installed``, their services (``feature``)."""

    def __init__(self, replays: ReplayService, links: WebLinks,
                 draw_result: Callable[..., Awaitable[bytes]] | None = None,
                 env: jinja2.Environment | None = None,
                 clock: Callable[[], float] = time.monotonic, service: Any = None,
                 features: Sequence[WebFeature] = (), installed: Features | None = None,
                 ) -> None:
        self.replays = replays
        self.service = service
        self.links = links
        self.draw_result = draw_result
        self.installed = installed
        parts = [(feature.name, feature.web()) for feature in features]
        self.routes: tuple[WebRoute, ...] = tuple(r for _, part in parts for r in part.routes)
        """The features' pages, in the order of ``features``."""
        self.templates = {name: part.templates for name, part in parts
                          if part.templates is not None}
        """Each feature's templates folder by its name (``environment``)."""
        self.env = env or environment(features=self.templates)
        self.clock = clock
        self._cache: Lru[Hashable, tuple[int | None, float, Page]] = Lru(CACHE_SIZE)
        """(guild id, expiry, page) by key, the least recently used dropped first."""
        self._building: dict[Hashable, asyncio.Task[Page | None]] = {}
        self._generation = 0
        """Bumped by ``drop_guild``: a build that began before is answered, not kept."""
        self.built = 0
        """Pages built so far (cache misses), for tests and the benchmark."""

    # ----- cache -------------------------------------------------------------------------

    async def cached(self, key: Hashable, guild_id: int | None, ttl: float,
                     build: Callable[[], Coroutine[Any, Any, Page | None]]) -> Page | None:
        """The page ``key`` (``build()`` once per ``ttl``; concurrent callers share it).
        None (not found) is not cached."""
        hit = self._cache.peek(key)
        now = self.clock()
        if hit is not None and hit[1] > now:
            self._cache.get(key)  # a use
            return hit[2]
        generation = self._generation
        task = self._building.get(key)
        if task is None:
            task = asyncio.create_task(build())
            self._building[key] = task
            task.add_done_callback(lambda _: self._building.pop(key, None))
        page = await asyncio.shield(task)
        if page is not None and generation == self._generation:
            self._cache.put(key, (guild_id, now + ttl, page))
        return page

    def drop_guild(self, guild_id: int) -> None:
        """Forget every cached page of ``guild_id`` (and builds under way)."""
        for key, (guild, _, _) in self._cache.items():
            if guild == guild_id:
                self._cache.pop(key)
        self._generation += 1
        self._building.clear()  # a build under way may hold what was just deleted

    async def render(self, template: str, **context: Any) -> bytes:
        """``template`` rendered in a thread, UTF-8."""
        tpl = self.env.get_template(template)
        text = await asyncio.to_thread(tpl.render, **context)
        self.built += 1
        return text.encode()

    # ----- replays -----------------------------------------------------------------------

    async def _found(self, token: str) -> tuple[int, Any] | None:
        read = self.links.read_replay(token)
        if read is None:
            return None
        guild_id, hand_no = read
        try:
            # The hand is re-read: only a settled hand of that server that Share could
            # link to (ReplayService.find / check_access, docs/REPLAY.md §Who may see a hand).
            return guild_id, await self.replays.find(guild_id, 0, hand_no, channel_id=None,
                                                     link=True)
        except GameError:
            return None

    async def replay(self, token: str, lang: str) -> Page | None:
        """The viewer of the hand behind ``token`` in ``lang``; None: tampered or unknown."""
        read = self.links.read_replay(token)
        if read is None:
            return None

        async def build() -> Page | None:
            found = await self._found(token)
            if found is None:
                return None
            _, replay = found
            players = rp.players_of(replay.record)
            view = views.replay_view(replay.hand, replay.steps, players, replay.record.hand_no,
                                     lang)
            base = self.links.base_url
            body = await self.render("replay.html", view=view, lang=lang,
                                     page_url=f"{base}/r/{token}",
                                     image_url=f"{base}/r/{token}/card.png?lang={lang}")
            return Page(body, "text/html; charset=utf-8")

        return await self.cached(("replay", token, lang), read[0], REPLAY_TTL, build)

    async def replay_image(self, token: str, lang: str) -> Page | None:
        """The preview image (Open Graph) of a replay: its result image (PNG)."""
        read = self.links.read_replay(token)
        if read is None or self.draw_result is None:
            return None
        draw = self.draw_result

        async def build() -> Page | None:
            found = await self._found(token)
            if found is None:
                return None
            replay = found[1]
            view = rp.result_view(replay.hand, rp.players_of(replay.record),
                                  replay.record.hand_no, lang)
            self.built += 1
            return Page(await draw(view, locale=lang), "image/png")

        return await self.cached(("image", token, lang), read[0], REPLAY_TTL, build)

    # ----- what a feature's page is built over (bot.web.routes.WebHost) -----------------

    async def public(self, guild_id: int) -> bool:
        """Whether ``guild_id``'s admins turned its pages on (``/ddz config web``); False
        without a service."""
        if self.service is None:
            return False
        settings = await self.service.settings(guild_id)  # cached by the service
        return bool(settings.web)

    def feature(self, kind: type[T]) -> T:
        """The installed feature service of type ``kind``; KeyError when none is."""
        if self.installed is None:
            raise KeyError(kind.__name__)
        return self.installed.get(kind)

    # ----- standings ---------------------------------------------------------------------

    async def _public_guild(self, token: str) -> int | None:
        """The guild of a genuine standings token whose admins turned the page on."""
        guild_id = self.links.read_server(token)
        if guild_id is None:
            return None
        return guild_id if await self.public(guild_id) else None

    async def standings(self, token: str, lang: str) -> Page | None:
        """The server's current match, all-time standings and ratings; None (→ 404) for
        a tampered token or a server whose ``/ddz config web`` is off."""
        guild_id = await self._public_guild(token)
        if guild_id is None:
            return None
        records = self.service.records

        async def build() -> Page | None:
            match = await records.match_standings(guild_id)
            leaders = await records.leaderboard(guild_id)
            ratings = await records.rating_board(guild_id)
            body = await self.render("standings.html", lang=lang, match=match, leaders=leaders,
                                     ratings=ratings, token=token)
            return Page(body, "text/html; charset=utf-8")

        return await self.cached(("standings", guild_id, lang), guild_id, STANDINGS_TTL, build)

    async def player(self, token: str, member: str, lang: str) -> Page | None:
        """A member's record and chart on a public server's page; None (→ 404) for an
        unknown or forgotten member, or an id no member can have (``MAX_ID``)."""
        guild_id = await self._public_guild(token)
        if guild_id is None or not member.isascii() or not member.isdigit() or len(member) > 20:
            return None
        user_id = int(member)
        if user_id > MAX_ID:
            return None
        records = self.service.records

        async def build() -> Page | None:
            stats = await records.player_stats(guild_id, user_id)
            if stats is None or not stats.hands:
                return None
            history = await records.hand_history(guild_id, user_id, CHART_HANDS)
            chart = views.chart_svg(history, lang)
            body = await self.render("player.html", lang=lang, stats=stats, chart=chart,
                                     hands=len(history), token=token)
            return Page(body, "text/html; charset=utf-8")

        return await self.cached(("player", guild_id, user_id, lang), guild_id, STANDINGS_TTL,
                                 build)

    def forget(self, guild_id: int, user_id: int) -> None:
        """``/ddz forget`` of a member: every page of that server is built again."""
        self.drop_guild(guild_id)

    async def error(self, status: int, lang: str) -> Page:
        """The 404 / 429 / 500 page."""
        key = {404: "web.not_found", 429: "web.too_many"}.get(status, "web.not_found")
        page = await self.cached(("error", status, lang), None, 3600.0, lambda: self._error(
            status, key, lang))
        assert page is not None  # an error page is always built
        return page

    async def _error(self, status: int, key: str, lang: str) -> Page:
        body = await self.render("error.html", lang=lang, status=status, message=t(key, lang))
        return Page(body, "text/html; charset=utf-8")
