"""What every response of the web page goes through (docs/WEB.md §Safety).

* only GET and HEAD (anything else: 405), no cookies, no forms;
* security headers on every answer: a Content-Security-Policy that allows only the
  page's own styles, script and images (no inline script, no frames: frame-ancestors
  'none'), ``X-Content-Type-Options: nosniff``, ``Referrer-Policy: no-referrer``;
* a per-address request limit (``RateLimit``: a token bucket per address, bounded
  memory), 429 beyond it, and one for all addresses together (``total``), beyond
  which a plain 503 answers at once;
* an unknown path, a tampered id or an error: a small 404 (or 500) page, never a stack
  trace.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable

from aiohttp import web
from aiohttp.typedefs import Middleware

from bot.service.lru import Lru
from bot.service.metrics import Metrics

log = logging.getLogger("bot.web")

CSP = ("default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self' data:; "
       "base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
SECURITY_HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Server": "ddz-bot",
}
ALLOWED_METHODS = ("GET", "HEAD")
BURST = 40
"""Requests an address may make at once (a page, its style, script and image: 4)."""
PER_SECOND = 4.0
"""Requests per second an address may keep up."""
ADDRESSES = 10_000
"""Addresses remembered by the limit (least recently seen forgotten first)."""
TOTAL_BURST = 200
"""Requests all visitors together may make at once."""
TOTAL_PER_SECOND = 100.0
"""Requests per second all visitors together may keep up: beyond it the page answers a
plain 503 at once, so that many addresses together never take the event loop from the
game (benchmarks/web_load.py)."""
TOTAL = "*"
MAX_PATH = 256
"""Longer request paths are answered 404 without routing (a signed id is ≤ 48)."""

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
ErrorPage = Callable[[web.Request, int], Awaitable[web.Response]]


class RateLimit:
    """A token bucket per address: ``BURST`` at once, ``PER_SECOND`` sustained.

    ``allow(address)`` takes one token (False: none left). Memory is bounded by
    ``ADDRESSES``. ``clock``: seconds (monotonic).
    """

    def __init__(self, burst: int = BURST, per_second: float = PER_SECOND,
                 clock: Callable[[], float] = time.monotonic, size: int = ADDRESSES) -> None:
        self.burst, self.per_second, self.clock, self.size = burst, per_second, clock, size
        self._buckets: Lru[str, tuple[float, float]] = Lru(size)
        """(tokens, when) by address, the least recently seen dropped first."""

    def allow(self, address: str) -> bool:
        now = self.clock()
        tokens, then = self._buckets.peek(address) or (float(self.burst), now)
        tokens = min(float(self.burst), tokens + (now - then) * self.per_second)
        allowed = tokens >= 1.0
        self._buckets.put(address, (tokens - 1.0 if allowed else tokens, now))
        return allowed


def client_address(request: web.Request) -> str:
    """The visitor's address: the peer, or the last ``X-Forwarded-For`` entry when the
    peer is a reverse proxy on this machine (loopback)."""
    peer = request.remote or "?"
    if peer in ("127.0.0.1", "::1"):
        forwarded = request.headers.get("X-Forwarded-For", "")
        last = forwarded.split(",")[-1].strip()
        if last:
            return last[:64]
    return peer


def page_name(request: web.Request) -> str:
    """A low-cardinality name of the page for the metrics (``replay``, ``static``…)."""
    route = request.match_info.route.name if request.match_info.route else None
    return route or "other"


def guard(limit: RateLimit, metrics: Metrics, error_page: ErrorPage,
          total: RateLimit | None = None) -> Middleware:
    """The middleware of the list above (``error_page(request, status)`` draws 404/429/500;
    ``total``: the limit of all addresses together, default ``TOTAL_BURST`` /
    ``TOTAL_PER_SECOND``)."""
    everyone = total or RateLimit(TOTAL_BURST, TOTAL_PER_SECOND, size=1)

    @web.middleware
    async def middleware(request: web.Request, handler: Handler) -> web.StreamResponse:
        response: web.StreamResponse
        if not everyone.allow(TOTAL):
            response = web.Response(status=503, text="503: busy, try again in a second\n",
                                    headers={"Retry-After": "1"})
        elif request.method not in ALLOWED_METHODS:
            response = web.Response(status=405, text="405: only GET and HEAD\n",
                                    headers={"Allow": ", ".join(ALLOWED_METHODS)})
        elif not limit.allow(client_address(request)):
            response = await error_page(request, 429)
            response.headers["Retry-After"] = "5"
        elif len(request.raw_path) > MAX_PATH:
            response = await error_page(request, 404)
        else:
            try:
                response = await handler(request)
            except web.HTTPException as http:
                if http.status in (403, 404, 405):
                    response = await error_page(request, 404)
                else:
                    raise
            except Exception:
                log.exception("web page failed: %s", request.rel_url.path[:80])
                response = await error_page(request, 500)
        for name, value in SECURITY_HEADERS.items():
            response.headers[name] = value
        response.headers.popall("Set-Cookie", None)
        metrics.web_requests.labels(page_name(request), str(response.status)).inc()
        return response

    return middleware
