"""Images drawn in worker processes, off the bot's GIL, with the latest hand images kept.

Drawing and encoding a PNG costs 3–15 ms of CPU (``rendering``); in a thread of
the bot process it holds the GIL and delays every other interaction, and it never
uses the second core (docs/PERFORMANCE.md). ``Renderer`` sends ``rendering``'s
pure functions to a ``WorkerPool`` of spawned processes (each draws the card
faces once when it starts) and keeps the last ``HAND_CACHE_SIZE`` hand images by
what they show, so a hand view redrawn with the same cards and selection costs
no drawing and no round trip. With ``workers=0`` (tests, a one-core host) the same
functions run in threads. Same input → same PNG bytes either way.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from typing import Any

import rendering
from bot.rules import Card
from bot.service.lru import Lru
from bot.service.pool import WorkerPool
from rendering import ResultView, TableView
from rendering.replay import page_image, render_replay_animation, render_replay_page_cached
from rendering.replay_models import ReplayPage
from rendering.stats import StatsView, render_stats

HAND_CACHE_SIZE = 256
"""Hand images kept in the bot process (≈ 12 KB each as palette PNGs: ≈ 3 MB at most)."""

BOARD_BACKLOG_FREE = 10
"""Calls the render backlog may hold before a table's board waits longer than its base
interval (``board_interval``): a few bursting clicks leave every board as it was
(docs/PERFORMANCE.md §Fewer table images while the render backlog is long)."""
BOARD_SECONDS_PER_QUEUED = 0.01
"""Seconds a board's next redraw waits for each call queued beyond ``BOARD_BACKLOG_FREE``:
2–8 times what a queued call takes the two workers (a table image 2.3–2.9 ms of CPU,
longer under others' load), so a board waits about as long as the backlog would have held
its image, but sleeping rather than queued; 100 queued calls add 0.9 s
(docs/PERFORMANCE.md §Fewer table images while the render backlog is long)."""
BOARD_MAX_INTERVAL = 4.0
"""Seconds at most between two redraws of a board while a hand is played, however long
the backlog (from 310 queued calls on with the default 1 s base): the moves of those
seconds show in one image (docs/PERFORMANCE.md §Fewer table images while the render
backlog is long)."""

BOARD_ROOM = 8
"""Non-urgent calls (table images) the render backlog holds before a board waits for room
(``Renderer.board_room``) and reads its table's newest state only then: two for each of
the two workers' two pipe slots, so a worker never waits for a board to compose its
image (docs/PERFORMANCE.md §Fewer table images while the render backlog is long)."""


def board_interval(base: float, queued: int) -> float:
    """Seconds a table's board waits after its last redraw before the next one, for a
    board whose base interval is ``base`` seconds while the render pool's backlog holds
    ``queued`` calls: ``base`` up to ``BOARD_BACKLOG_FREE`` calls, then
    ``BOARD_SECONDS_PER_QUEUED`` more per call, at most ``BOARD_MAX_INTERVAL`` (never
    below ``base``). E.g. base 1 s: 10 calls → 1.0 s, 110 → 2.0 s, 800 → 4.0 s
    (docs/PERFORMANCE.md §Fewer table images while the render backlog is long)."""
    extra = max(0, queued - BOARD_BACKLOG_FREE) * BOARD_SECONDS_PER_QUEUED
    return max(base, min(BOARD_MAX_INTERVAL, base + extra))


ShownKey = tuple[tuple[str, tuple[int, ...]], ...]
"""Hands other seats show face up (Happy rules): (title, card indices) each."""
HandKey = tuple[tuple[int, ...], frozenset[int], str, str, tuple[int, ...] | None, ShownKey]
"""(card indices, selected indices, sort, locale, card counter, shown hands): everything a
hand view image shows."""


def hand_key(cards: Sequence[Card], selected: Collection[int], sort: str, locale: str,
             counter: Sequence[int] | None = None,
             shown: Sequence[tuple[str, Sequence[Card]]] = ()) -> HandKey:
    """The cache key of a hand image (order of ``cards`` and ``selected`` ignored)."""
    return (tuple(sorted(c.index for c in cards)), frozenset(selected), sort, locale,
            None if counter is None else tuple(counter),
            tuple((title, tuple(sorted(c.index for c in face_up))) for title, face_up in shown))


def draw_hand(indices: tuple[int, ...], selected: frozenset[int], sort: str, locale: str,
              counter: tuple[int, ...] | None = None, shown: ShownKey = ()) -> bytes:
    """The hand view's image (no position labels) from card indices: what a worker runs;
    ``counter``: the 15 counts of the card counter strip (docs/RULES.md §Card counter);
    ``shown``: the hands other seats show face up (docs/RULES.md §Happy rules)."""
    from bot.rules import DECK

    return rendering.render_hand([DECK[i] for i in indices], selected=selected,
                                 sort=sort, locale=locale, show_indices=False,  # type: ignore[arg-type]  # sort: "rank" or "groups" from the view state
                                 counter=counter,
                                 shown=[(title, [DECK[i] for i in face_up])
                                        for title, face_up in shown])


class Renderer:
    """The bot's images, every one of them: ``await hand(...)``, ``table``, ``result``,
    ``stats``, ``replay_page`` → PNG bytes, ``animation`` → GIF bytes, a feature's own
    (``draw``), drawn by ``workers`` processes (0: threads)."""

    def __init__(self, workers: int = 2, cache_size: int = HAND_CACHE_SIZE) -> None:
        self.pool = WorkerPool("render", workers, initializer=rendering.warm_up)
        self._hands: Lru[HandKey, bytes] = Lru(cache_size)
        self.drawn = 0
        """Images drawn so far (cache hits not counted), for benchmarks and tests."""

    @property
    def cache_size(self) -> int:
        """Hand images kept (the last ones drawn)."""
        return self._hands.size

    @cache_size.setter
    def cache_size(self, size: int) -> None:
        self._hands.size = size

    def board_interval(self, base: float) -> float:
        """Seconds a public board playing a hand waits between two redraws now
        (``board_interval`` of ``base`` and the workers' backlog): longer while the
        workers are behind, so that a board's moves coalesce into fewer table images."""
        return board_interval(base, self.pool.queued)

    async def board_room(self) -> None:
        """Until the render backlog holds fewer than ``BOARD_ROOM`` table images, boards
        served oldest first (``WorkerPool.room``): a board reads its table's state after
        this, so its image shows the moves made while it waited."""
        await self.pool.room(BOARD_ROOM)

    def start(self) -> None:
        """Spawn the worker processes now (they draw the card faces while the bot logs in)."""
        self.pool.start()

    def shutdown(self) -> None:
        """Stop the worker processes (the next image starts them again)."""
        self.pool.shutdown()

    async def hand(self, cards: Sequence[Card], *, selected: Collection[int] = (),
                   sort: str = "rank", locale: str = "en",
                   counter: Sequence[int] | None = None, urgent: bool = False,
                   shown: Sequence[tuple[str, Sequence[Card]]] = ()) -> bytes:
        """The hand view's image (``rendering.render_hand`` without position labels, with
        the card counter strip when ``counter`` holds its 15 counts, and the hands other
        seats show, ``shown``); ``urgent``: a member waits for it (``WorkerPool.run``)."""
        key = hand_key(cards, selected, sort, locale, counter, shown)
        png = self._hands.get(key)
        if png is not None:
            return png
        # the same cards to the same worker, which keeps their fan (docs/PERFORMANCE.md
        # §Images from kept bands)
        png = await self.pool.run(draw_hand, *key, urgent=urgent, affinity=key[0])
        self.drawn += 1
        self._hands.put(key, png)
        return png

    async def table(self, view: TableView, *, locale: str = "en") -> bytes:
        """The public table image (``rendering.render_table``)."""
        self.drawn += 1
        # the same players to the same worker, which keeps their name rows
        return await self.pool.run(_draw_table, view, locale,
                                   affinity=tuple(seat.name for seat in view.seats))

    async def result(self, view: ResultView, *, locale: str = "en", urgent: bool = False) -> bytes:
        """A settled hand's image (``rendering.render_result``); ``urgent``: ahead of the
        table images in the workers' backlog (``WorkerPool.run``)."""
        self.drawn += 1
        return await self.pool.run(_draw_result, view, locale, urgent=urgent)

    async def stats(self, view: StatsView, *, locale: str = "en") -> bytes:
        """``/ddz stats``' chart (``rendering.stats.render_stats``), PNG bytes."""
        self.drawn += 1
        return await self.pool.run(_draw_stats, view, locale)

    async def replay_page(self, page: ReplayPage, *, locale: str = "en") -> bytes:
        """One replay page (``rendering.replay.render_replay_page_cached``), PNG bytes."""
        self.drawn += 1
        return await self.pool.run(_draw_replay_page, page, locale)

    async def draw(self, draw: Callable[..., bytes], *args: Any, urgent: bool = False) -> bytes:
        """A feature's image: ``draw(*args)`` in the workers, PNG bytes. ``draw``: a
        module-level function of its wing's images (``bot/features/<name>/rendering.py``,
        or a ``functools.partial`` of one), pure; ``args`` and its bytes pickle (the
        pool's contract, ``WorkerPool.run``); ``urgent``: a member waits for it."""
        self.drawn += 1
        return await self.pool.run(draw, *args, urgent=urgent)

    async def animation(self, pages: Sequence[ReplayPage], result: ResultView, *,
                        locale: str = "en") -> bytes:
        """A hand's replay as an animated GIF: every page, then the result
        (``rendering.replay.render_replay_animation``), GIF bytes."""
        self.drawn += 1
        return await self.pool.run(_draw_animation, tuple(pages), result, locale)


def _draw_table(view: TableView, locale: str) -> bytes:
    return rendering.render_table(view, locale=locale)


def _draw_result(view: ResultView, locale: str) -> bytes:
    return rendering.render_result(view, locale=locale)


def _draw_stats(view: StatsView, locale: str) -> bytes:
    return render_stats(view, locale=locale)


def _draw_replay_page(page: ReplayPage, locale: str) -> bytes:
    return render_replay_page_cached(page, locale)


def _draw_animation(pages: tuple[ReplayPage, ...], result: ResultView, locale: str) -> bytes:
    frames: list[Any] = [page_image(p, locale=locale) for p in pages]
    frames.append(rendering.render_result(result, locale=locale))
    return render_replay_animation(frames)
