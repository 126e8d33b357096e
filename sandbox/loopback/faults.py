"""Fault injection for the loopback Discord (off by default): rate limits and outages.

``emu.faults`` (a :class:`Faults`) answers selected REST requests with an error
*before* the route runs, the way Discord does:

* ``fail(method, path_regex, status, count=1, ...)``: the next ``count`` matching
  requests get ``status`` (500/502/503 bursts, 403/50013 …). With status 429 the
  answer is a rate limit with ``retry_after`` (``is_global`` for the global one):
  body ``{"message", "retry_after", "global"[, "code"]}``, headers ``Retry-After``,
  ``X-RateLimit-Global``/``-Scope`` and ``Via`` (discord.py treats a 429 without
  ``Via`` as a Cloudflare ban).
* ``edit_limit = (n, seconds)``: Discord's per-channel bucket for message edits
  (``PATCH /channels/{cid}/messages/{mid}``, about 5 per 5 s). Every edit answer
  then carries ``X-RateLimit-Limit/-Remaining/-Reset/-Reset-After/-Bucket``; an
  edit beyond the budget gets a 429 with the time left in the window.
* ``global_limit = (n, seconds)``: Discord's global limit (50 per 1 s for one bot token,
  shared by every process using it): a global-limited request (``emulator.is_global_limited``)
  beyond ``n`` in the last ``seconds`` gets a 429 with ``global: true`` and the time
  left; ``global_429`` counts them.

Every injected answer is recorded in ``emu.errors`` like any other error, and
``Faults.injected`` counts them by status.
"""

from __future__ import annotations

import json
import re
import time
from collections import Counter, deque
from dataclasses import dataclass
from typing import Protocol

from aiohttp import web

from sandbox.loopback.discord_rules import DiscordRules
from sandbox.loopback.model import ApiError


class Emulator(Protocol):
    """What the faults use of the loopback Discord (the ``Emulator``, which builds on this module: a protocol here, so that no import closes a circle)."""

    @property
    def rules(self) -> DiscordRules: ...

    def record_error(self, status: int, code: int, method: str, path: str, message: str,
                     problems: list[str] | None = None) -> ApiError: ...


def is_global_limited(path: str) -> bool:
    """True for a REST path that counts against the bot's global rate limit (every
    route but the interaction callback and the interaction webhook)."""
    return path.startswith("/api/v10/") and EXEMPT_ROUTE.match(path) is None

EXEMPT_ROUTE = re.compile(r"^/api/v10/(interactions/\d+/[^/]+/callback|webhooks/\d+/[^/]+(/.*)?)$")
"""Routes outside Discord's global rate limit: the interaction callback and webhook."""
EDIT_ROUTE = re.compile(r"^/api/v10/channels/(\d+)/messages/\d+$")
HAND_VIEW_EDIT = r"^/api/v10/webhooks/\d+/[^/]+/messages/@original$"
TABLE_EDIT = EDIT_ROUTE.pattern
TABLE_TOKEN_EDIT = r"^/api/v10/webhooks/\d+/[^/]+/messages/\d+$"
"""The table message edited with the token that posted it (cogs/delivery.py)."""
MESSAGES = {500: "500: Internal Server Error", 502: "502: Bad Gateway",
            503: "503: Service Unavailable", 429: "You are being rate limited."}


@dataclass
class Rule:
    """``count`` more answers of ``status`` to ``method`` requests whose path matches."""

    method: str
    path: re.Pattern[str]
    status: int
    count: int
    code: int = 0
    retry_after: float = 0.2
    is_global: bool = False
    message: str = ""


class Faults:
    """The emulator's fault switchboard (see the module docstring)."""

    def __init__(self, emu: Emulator) -> None:
        self.emu = emu
        self.rules: list[Rule] = []
        self.edit_limit: tuple[int, float] | None = None
        self.global_limit: tuple[int, float] | None = None
        self.global_429 = 0
        self.injected: Counter[int] = Counter()
        self._edits: dict[int, deque[float]] = {}
        self._global: deque[float] = deque()

    def fail(self, method: str, path: str, status: int, count: int = 1, *, code: int = 0,
             retry_after: float = 0.2, is_global: bool = False, message: str = "") -> Rule:
        """Answer the next ``count`` matching requests with ``status`` (see module doc)."""
        rule = Rule(method.upper(), re.compile(path), status, count, code, retry_after,
                    is_global, message or MESSAGES.get(status, f"{status}: error"))
        self.rules.append(rule)
        return rule

    def clear(self) -> None:
        """Switch every fault off (rules and the edit limit)."""
        self.rules.clear()
        self.edit_limit = self.global_limit = None

    @property
    def pending(self) -> int:
        """Injections still armed."""
        return sum(r.count for r in self.rules)

    def intercept(self, request: web.Request) -> web.Response | None:
        """The injected answer to ``request``, or None to let the route run."""
        for rule in self.rules:
            if rule.count > 0 and rule.method in ("*", request.method) \
                    and rule.path.search(request.path):
                rule.count -= 1
                return self._error(request, rule.status, rule.code, rule.message,
                                   rule.retry_after, rule.is_global)
        if self.global_limit is not None and is_global_limited(request.path):
            limit, window = self.global_limit
            now = time.monotonic()
            while self._global and now - self._global[0] >= window:
                self._global.popleft()
            if len(self._global) >= limit:
                self.global_429 += 1
                wait = round(self._global[0] + window - now, 3)
                return self._error(request, 429, 0, MESSAGES[429], max(wait, 0.001), True)
            self._global.append(now)
        m = EDIT_ROUTE.match(request.path)
        if self.edit_limit is not None and m is not None and request.method == "PATCH":
            limit, window = self.edit_limit
            now = time.monotonic()
            times = self._edits.setdefault(int(m.group(1)), deque())
            while times and now - times[0] >= window:
                times.popleft()
            if len(times) >= limit:
                wait = round(times[0] + window - now, 3)
                return self._error(request, 429, 0, MESSAGES[429], wait, False)
            times.append(now)
        return None

    def headers(self, request: web.Request) -> dict[str, str]:
        """X-RateLimit headers for a successful answer (edits, with ``edit_limit`` set)."""
        m = EDIT_ROUTE.match(request.path)
        if self.edit_limit is None or m is None or request.method != "PATCH":
            return {}
        limit, window = self.edit_limit
        times = self._edits.get(int(m.group(1))) or deque([time.monotonic()])
        reset_after = max(0.0, times[0] + window - time.monotonic())
        return {
            "X-RateLimit-Limit": str(limit),
            "X-RateLimit-Remaining": str(max(0, limit - len(times))),
            "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": "edit-" + m.group(1),
            "X-RateLimit-Scope": "user",
        }

    def _error(self, request: web.Request, status: int, code: int, message: str,
               retry_after: float, is_global: bool) -> web.Response:
        self.injected[status] += 1
        self.emu.record_error(status, code, request.method, request.path, f"injected: {message}")
        headers = {"Via": "1.1 google"}
        body: dict[str, object] = {"message": message, "code": code}
        if status == 429:
            body = {"message": message, "retry_after": retry_after, "global": is_global}
            if is_global:
                headers["X-RateLimit-Global"] = "true"
            headers["X-RateLimit-Scope"] = "global" if is_global else "user"
            headers["Retry-After"] = f"{retry_after:.3f}"
            if not is_global:
                headers.update({"X-RateLimit-Limit": "5", "X-RateLimit-Remaining": "0",
                                "X-RateLimit-Reset-After": f"{retry_after:.3f}"})
        self.emu.rules.answered(status, headers)
        return web.Response(body=json.dumps(body).encode(), status=status, headers=headers,
                            content_type="application/json")
