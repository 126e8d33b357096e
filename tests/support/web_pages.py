"""Settled hands and a running web page for the web tests (no Discord)."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from typing import Any

from bot.ai import choose_bid, choose_play
from bot.features.installed import FEATURES
from bot.game.selfplay import seeded_hand
from bot.service.links import WebLinks
from bot.service.metrics import Metrics
from bot.service.replays import ReplayService
from bot.values import FinishedHand, SeatChange, Settlement
from bot.web.app import WebServer, build_app
from bot.web.gate import ConnectionGate
from bot.web.guard import RateLimit
from bot.web.routes import WebFeature
from bot.web.site import Site

SECRET = "test-secret-0123456789"
GUILD = 4242
NAMES = ("Ana", "Bo", "Carmen")


CHANNEL = 5_000
"""The channel the test hands were played in."""


def settled(seed: int, hand_no: int, guild_id: int = GUILD,
            users: tuple[int | None, int | None, int | None] = (101, None, 103),
            channel_id: int | None = CHANNEL) -> FinishedHand:
    """A settled self-play hand as stored (seat 1 a computer), played in ``channel_id``
    (None: settled before hands recorded their channel)."""
    rng = random.Random(seed)
    hand = seeded_hand(seed, lambda o: choose_bid(o, "normal", rng).action,
                       lambda o: choose_play(o, "normal", rng).action)
    result = hand.result
    assert result is not None
    changes = [SeatChange(seat=i, user_id=u, name=NAMES[i] if u else f"Bot {i + 1}",
                          points=result.points[i],
                          role="landlord" if i == hand.landlord else "peasant",
                          total=result.points[i] if u else None)
               for i, u in enumerate(users)]
    settlement = Settlement(hand_id=f"h{seed}", guild_id=guild_id, table_id="t", match_no=1,
                            changes=changes, winner=result.winner, hand_no=hand_no)
    return FinishedHand(hand_no=hand_no, hand_id=f"h{seed}", guild_id=guild_id, finished_at=1.0,
                        hand_json=hand.model_dump_json(), settlement=settlement, user_ids=users,
                        channel_id=channel_id)




async def png_of(view: Any, *, locale: str = "en") -> bytes:
    """``Renderer.result`` in a thread (the tests start no worker processes)."""
    import asyncio

    import rendering
    return await asyncio.to_thread(rendering.render_result, view, locale=locale)


async def healthy() -> str | None:
    return None


@asynccontextmanager
async def running_site(storage: Any, *, health: Callable[[], Awaitable[str | None]] = healthy,
                       limit: RateLimit | None = None, total: RateLimit | None = None,
                       metrics: Metrics | None = None, service: Any = None,
                       gate: ConnectionGate | None = None,
                       features: Sequence[WebFeature] = FEATURES,
                       ) -> AsyncIterator[tuple[str, Site, WebLinks]]:
    """The web page on a free loopback port: (base URL, Site, WebLinks), with the pages of
    ``features`` (their services: ``service.installed``, ``featured_service``)."""
    links = WebLinks(SECRET, "http://127.0.0.1")
    site = Site(ReplayService(storage), links, draw_result=png_of, service=service,
                features=features, installed=getattr(service, "installed", None))
    app = build_app(site, health, metrics or Metrics(), limit=limit, total=total)
    server = WebServer(app, "127.0.0.1", 0, gate)
    await server.start()
    base = f"http://127.0.0.1:{server.bound_port}"
    links.base_url = base
    try:
        yield base, site, links
    finally:
        await server.stop()


async def standings_store(path: Any, guild_id: int = GUILD) -> tuple[Any, Any]:
    """A SQLite store with three settled hands of members 101-103 in ``guild_id`` (named
    "user101"…), and a TableService on it: (storage, service)."""
    from bot.storage import open_repository
    from tests.support.service_clock import featured_service
    from tests.support.storage_fakes import finished_table

    storage = await open_repository(str(path))
    for n, (landlord, winner) in enumerate(((0, "landlord"), (1, "peasants"), (2, "landlord"))):
        await storage.settle_hand(finished_table(table_id=f"t{n}", guild_id=guild_id,
                                                 landlord=landlord, winner=winner, seq=n + 1),
                                  f"hand{n}")
    return storage, featured_service(storage)
