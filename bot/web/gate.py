"""The web page's connections (docs/WEB.md §Never slows the game): whatever a visitor's
socket does, the bot keeps the file descriptors it needs for Discord and the database.

* **A header deadline.** aiohttp's own ``keepalive_timeout`` (``HEADER_TIMEOUT``
  seconds, passed to its ``AppRunner``) closes a connection that waits that long for a
  request head: after its last answer, and (aiohttp 3.14) from the moment it opened.
  ``ConnectionGate`` closes a connection whose first request head is not complete
  ``HEADER_TIMEOUT`` seconds after it opened as well, whatever aiohttp's version.
* **A cap on open connections**: ``PER_ADDRESS`` per peer address (a reverse proxy on
  this machine, ``PROXY_PEERS``, excepted) and ``TOTAL`` in all.
  A connection beyond a cap closes the oldest connection still waiting for its first
  request head (of that address for the address's cap), so a flood of silent sockets
  gives way to a visitor who sends a request; when none waits (every connection is
  being answered) the new one is refused at once.
* **The descriptors checked at start** (``connection_room``): the open-file limit must
  leave ``RESERVED_FDS`` for the bot (Discord's gateway and REST connections, the
  database pool, the worker processes' pipes, logs) beside ``TOTAL`` connections. The
  soft limit is raised toward the hard one when that is needed; when it still falls
  short the cap shrinks to what fits (``WebServer`` warns), and below
  ``MIN_CONNECTIONS`` the bot refuses to start (``DescriptorShortage``).

aiohttp has no connection cap of its own: ``ConnectionGate.attach`` wraps the
``connection_made`` / ``connection_lost`` / ``request_factory`` hooks of its
``web.Server`` (the protocol factory that every connection's ``RequestHandler``
reports to).
"""

from __future__ import annotations

import asyncio
from collections import Counter, OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from aiohttp import web

HEADER_TIMEOUT = 5.0
"""Seconds a connection may wait for a whole request head (after it opened or after its
last answer) before it is closed."""
PER_ADDRESS = 32
"""Connections one peer address may hold open at once (a browser opens about 6). Not for
``PROXY_PEERS``: a reverse proxy on this machine speaks for every visitor."""
PROXY_PEERS = ("127.0.0.1", "::1")
"""Peers counted in ``TOTAL`` only (as ``bot/web/guard.py`` reads X-Forwarded-For from
them): a reverse proxy on this machine opens a connection per visitor's request."""
TOTAL = 256
"""Connections all visitors together may hold open at once."""
RESERVED_FDS = 256
"""File descriptors left to the bot beside the web page's connections: Discord (the
gateway, REST connections), the database (a pool of up to 100), the worker processes'
pipes, the SQLite files, logs."""
MIN_CONNECTIONS = 16
"""Below this many connections the web page is not worth starting: the bot refuses to."""


class DescriptorShortage(RuntimeError):
    """The open-file limit leaves too few descriptors for the web page (message: the
    limit, what is needed and how to raise it)."""


def connection_room(total: int = TOTAL, reserved: int = RESERVED_FDS) -> int:
    """How many connections the web page may hold (≤ ``total``) while ``reserved``
    descriptors stay for the bot, raising the soft RLIMIT_NOFILE toward the hard one when
    that is needed (process-wide). Raises DescriptorShortage below ``MIN_CONNECTIONS``.
    Without ``resource`` (Windows): ``total``."""
    try:
        import resource
    except ImportError:  # pragma: no cover - Windows
        return total
    infinity = resource.RLIM_INFINITY
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    needed = total + reserved
    if soft != infinity and soft < needed:
        wanted = needed if hard == infinity else min(hard, needed)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            soft = wanted
        except (ValueError, OSError):
            pass
    if soft == infinity:
        return total
    room = min(total, soft - reserved)
    if room < min(total, MIN_CONNECTIONS):
        raise DescriptorShortage(
            f"the open-file limit (RLIMIT_NOFILE) is {soft}: the web page needs at least"
            f" {reserved + MIN_CONNECTIONS} ({reserved} for the bot, {MIN_CONNECTIONS}"
            f" connections; {needed} for {total}); raise it (ulimit -n {needed},"
            f" LimitNOFILE= in systemd) or leave DDZ_WEB_PORT empty")
    return room


@dataclass
class _Open:
    address: str
    transport: asyncio.Transport
    deadline: asyncio.TimerHandle | None
    """Pending while the first request head has not arrived."""


class ConnectionGate:
    """The caps and the header deadline of the module docstring on one ``web.Server``
    (``attach``). ``per_address`` / ``total``: connections open at once; ``header_timeout``:
    seconds to the first request head. Counters for tests and the benchmark: ``refused``
    (beyond a cap, none waiting), ``evicted`` (a waiting one closed for a newcomer),
    ``timed_out`` (closed by the deadline)."""

    def __init__(self, per_address: int = PER_ADDRESS, total: int = TOTAL,
                 header_timeout: float = HEADER_TIMEOUT) -> None:
        self.per_address, self.total, self.header_timeout = per_address, total, header_timeout
        self._open: dict[Any, _Open] = {}
        self._waiting: OrderedDict[Any, None] = OrderedDict()
        """Connections without their first request head yet, oldest first."""
        self._per_address: Counter[str] = Counter()
        self.refused = self.evicted = self.timed_out = 0

    @property
    def open(self) -> int:
        """Connections open now (admitted, not yet closed)."""
        return len(self._open)

    @property
    def waiting(self) -> int:
        """Open connections still waiting for their first request head."""
        return len(self._waiting)

    def attach(self, server: web.Server) -> None:
        """Gate every connection ``server`` (aiohttp's protocol factory) makes."""
        made, lost, factory = (server.connection_made, server.connection_lost,
                               server.request_factory)

        def connection_made(handler: Any, transport: asyncio.Transport) -> None:
            made(handler, transport)
            self._admit(handler, transport)

        def connection_lost(handler: Any, exc: BaseException | None = None) -> None:
            self._release(handler)
            lost(handler, exc)

        def request_factory(message: Any, payload: Any, protocol: Any, writer: Any,
                            task: Any) -> web.BaseRequest:
            self._headed(protocol)
            return factory(message, payload, protocol, writer, task)

        server.connection_made = connection_made  # type: ignore[method-assign]  # aiohttp's hook, wrapped
        server.connection_lost = connection_lost  # type: ignore[method-assign]  # as above
        server.request_factory = request_factory

    def _admit(self, handler: Any, transport: asyncio.Transport) -> None:
        peer = transport.get_extra_info("peername")
        address = str(peer[0]) if isinstance(peer, tuple | list) and peer else "?"
        if (address not in PROXY_PEERS and self._per_address[address] >= self.per_address
                and not self._evict(lambda o: o.address == address)) or (
                len(self._open) >= self.total and not self._evict(lambda o: True)):
            self.refused += 1
            transport.abort()  # not counted: its connection_lost finds nothing
            return
        deadline = asyncio.get_running_loop().call_later(self.header_timeout, self._expire,
                                                         handler)
        self._open[handler] = _Open(address, transport, deadline)
        self._waiting[handler] = None
        self._per_address[address] += 1

    def _evict(self, which: Callable[[_Open], bool]) -> bool:
        """Close the oldest waiting connection that ``which`` picks; False: none."""
        for handler in self._waiting:
            if which(self._open[handler]):
                transport = self._open[handler].transport
                self._release(handler)
                transport.close()
                self.evicted += 1
                return True
        return False

    def _expire(self, handler: Any) -> None:
        if handler in self._waiting:
            transport = self._open[handler].transport
            self._release(handler)
            transport.close()
            self.timed_out += 1

    def _headed(self, handler: Any) -> None:
        """A request head arrived: the deadline is aiohttp's keep-alive from now on."""
        if handler in self._waiting:
            del self._waiting[handler]
            entry = self._open[handler]
            if entry.deadline is not None:
                entry.deadline.cancel()
                entry.deadline = None

    def _release(self, handler: Any) -> None:
        entry = self._open.pop(handler, None)
        if entry is None:
            return
        self._waiting.pop(handler, None)
        if entry.deadline is not None:
            entry.deadline.cancel()
        self._per_address[entry.address] -= 1
        if self._per_address[entry.address] <= 0:
            del self._per_address[entry.address]
