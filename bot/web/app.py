"""The aiohttp application of the web page and the server that runs it in the bot.

Routes (docs/WEB.md): ``/r/<token>`` a replay, ``/r/<token>/card.png`` its preview
image, ``/s/<token>`` a server's standings and ``/s/<token>/p/<member id>`` a player's
page (only when its admins turned them on), ``/healthz``, ``/metrics``, ``/static/…``,
then the pages of the installed features (``Site.routes``, ``bot.web.routes.WebRoute``);
everything else is the 404 page.
``WebServer`` starts it on the bot's event loop (``start`` / ``stop``), listening on
``DDZ_WEB_HOST:DDZ_WEB_PORT``.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from aiohttp import web

from bot.i18n import find_locale
from bot.service.metrics import CONTENT_TYPE, METRICS, Metrics
from bot.web.gate import RESERVED_FDS, ConnectionGate, connection_room
from bot.web.guard import Handler, RateLimit, guard
from bot.web.routes import Page, WebRoute
from bot.web.site import STATIC, Site, environment

log = logging.getLogger("bot.web")

Health = Callable[[], Awaitable[str | None]]
"""The health probe: None when healthy, else a one-line reason."""
HEALTH_TIMEOUT = 3.0
"""Seconds ``/healthz`` waits for the probe before answering 503."""
PAGE_CACHE = "no-cache"
"""Pages may be stored by browsers and proxies but are asked for again each time: a page
turned off by the admins, or a member who used ``/ddz forget``, is gone at the next
request (the page's own cache makes asking again cheap)."""


def choose_language(request: web.Request) -> str:
    """``?lang=`` when it names a catalog (``es``, ``zh_TW``, ``zh-tw``), else the best of
    ``Accept-Language`` (by q; ``zh-Hant-HK`` → zh_TW as ``bot.i18n.find_locale`` says),
    else English."""
    asked = find_locale(request.query.get("lang", "").strip()[:16])
    if asked is not None:
        return asked
    best: tuple[float, int, str] | None = None
    for order, part in enumerate(request.headers.get("Accept-Language", "")[:200].split(",")):
        name, _, params = part.strip().partition(";")
        lang = find_locale(name.strip()[:16])
        q = 1.0
        if params.strip().startswith("q="):
            try:
                q = float(params.strip()[2:])
            except ValueError:
                q = 0.0
        if lang is not None and q > 0 and (best is None or (q, -order) > (best[0], best[1])):
            best = (q, -order, lang)
    return best[2] if best else "en"


def _answer(page: Page) -> web.Response:
    return web.Response(body=page.body, content_type=page.content_type.split(";")[0],
                        charset="utf-8" if "charset" in page.content_type else None,
                        headers={"Cache-Control": PAGE_CACHE})


def build_app(site: Site, health: Health, metrics: Metrics = METRICS,
              limit: RateLimit | None = None, total: RateLimit | None = None) -> web.Application:
    """The application: routes, the guard middleware (``limit``: per address; ``total``:
    all addresses together), templates and static files."""

    async def error_page(request: web.Request, status: int) -> web.Response:
        page = await site.error(status, choose_language(request))
        response = _answer(page)
        response.set_status(status)
        return response

    app = web.Application(middlewares=[guard(limit or RateLimit(), metrics, error_page, total)],
                          client_max_size=1024)
    site.env = environment(app, site.templates)  # aiohttp-jinja2's, shared with the builds

    def page_of(build: Callable[..., Awaitable[Page | None]], *names: str) -> Handler:
        """A route answering ``build(*match_info[names], language)``, or the 404 page."""

        async def handler(request: web.Request) -> web.Response:
            page = await build(*(request.match_info[n] for n in names), choose_language(request))
            return _answer(page) if page is not None else await error_page(request, 404)

        return handler

    replay = page_of(site.replay, "token")
    replay_image = page_of(site.replay_image, "token")
    standings = page_of(site.standings, "token")
    player = page_of(site.player, "token", "member")

    async def healthz(request: web.Request) -> web.Response:
        try:
            reason = await asyncio.wait_for(health(), HEALTH_TIMEOUT)
        except TimeoutError:
            reason = f"the health check took longer than {HEALTH_TIMEOUT:g} s"
        except Exception as error:
            reason = f"the health check failed: {type(error).__name__}"
        if reason is None:
            return web.Response(text="ok\n", headers={"Cache-Control": "no-store"})
        return web.Response(status=503, text=reason.splitlines()[0][:200] + "\n",
                            headers={"Cache-Control": "no-store"})

    async def metrics_page(request: web.Request) -> web.Response:
        body = await asyncio.to_thread(metrics.exposition)
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE,
                                                "Cache-Control": "no-store"})

    token = r"{token:[A-Za-z0-9_-]{1,48}}"
    app.router.add_get(f"/r/{token}", replay, name="replay")
    app.router.add_get(f"/r/{token}/card.png", replay_image, name="replay_image")
    app.router.add_get(f"/s/{token}", standings, name="standings")
    app.router.add_get(f"/s/{token}/p/{{member:[0-9]{{1,20}}}}", player, name="player")
    app.router.add_get("/healthz", healthz, name="healthz")
    app.router.add_get("/metrics", metrics_page, name="metrics")
    files = {path.name: path for path in STATIC.iterdir() if path.is_file()}

    async def static(request: web.Request) -> web.StreamResponse:
        # Only the files of bot/web/static, named as they are: no path outside it, and a
        # missing one is the 404 page (aiohttp's static route answered an empty
        # octet-stream 404 from a response the guard had already counted as 200).
        path = files.get(request.match_info["name"])
        if path is None:
            return await error_page(request, 404)
        return web.FileResponse(path)

    app.router.add_get("/static/{name}", static, name="static")

    def feature_page(route: WebRoute) -> Handler:
        async def handler(request: web.Request) -> web.Response:
            page = await route.page(site, request.match_info, choose_language(request))
            return _answer(page) if page is not None else await error_page(request, 404)

        return handler

    for route in site.routes:  # a name taken twice: aiohttp's ValueError, at start
        app.router.add_get(route.path, feature_page(route), name=route.name)
    return app


class WebServer:
    """The web page on ``host:port`` inside the bot process (aiohttp ``AppRunner``), its
    connections capped and deadlined by ``gate`` (``bot/web/gate.py``)."""

    def __init__(self, app: web.Application, host: str, port: int,
                 gate: ConnectionGate | None = None) -> None:
        self.app, self.host, self.port = app, host, port
        self.gate = gate or ConnectionGate()
        self._runner: web.AppRunner | None = None

    async def start(self) -> None:
        """Listen (raises OSError when the address is taken, DescriptorShortage when the
        open-file limit leaves no room for the page: ``connection_room``)."""
        gate = self.gate
        room = connection_room(gate.total)
        if room < gate.total:
            log.warning("web page: the open-file limit (RLIMIT_NOFILE) leaves room for %d"
                        " connections, not %d: raise it (ulimit -n %d) for the full cap",
                        room, gate.total, gate.total + RESERVED_FDS)
            gate.total = room
        # aiohttp's keep-alive timeout is the header deadline: a connection waiting for a
        # request head closes after it (its default is about an hour).
        runner = web.AppRunner(self.app, access_log=None, handle_signals=False,
                               keepalive_timeout=gate.header_timeout)
        await runner.setup()
        assert runner.server is not None
        gate.attach(runner.server)
        site = web.TCPSite(runner, self.host, self.port, reuse_address=True)
        try:
            await site.start()
        except BaseException:
            await runner.cleanup()
            raise
        self._runner = runner
        log.info("web page on http://%s:%s", self.host, self.port)

    @property
    def bound_port(self) -> int | None:
        """The port actually listened on (``port`` 0 picks a free one: tests)."""
        if self._runner is None:
            return None
        for server in self._runner.sites:
            sockets = getattr(getattr(server, "_server", None), "sockets", None) or []
            for sock in sockets:
                return int(sock.getsockname()[1])
        return None

    async def stop(self) -> None:
        """Stop listening and close open connections."""
        runner, self._runner = self._runner, None
        if runner is not None:
            await runner.cleanup()
