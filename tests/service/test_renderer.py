"""Images drawn in worker processes (bot.service.renderer, bot.service.pool)."""

from __future__ import annotations

import multiprocessing
import os

from bot.service.pool import WorkerPool
from bot.service.renderer import Renderer
from rendering import render_hand, render_result, render_table
from rendering.samples import landlord_hand, mid_game_table, selected_three, spring_result


def crash_in_a_worker(value: int) -> int:
    """Kills a worker process (breaking its pool); in the main process just answers."""
    if multiprocessing.parent_process() is not None:
        os._exit(3)
    return value * 2


def worker_pid() -> int:
    return os.getpid()


async def test_worker_processes_draw_the_same_bytes_as_the_renderers() -> None:
    renderer = Renderer(workers=1)
    try:
        hand = await renderer.hand(landlord_hand(), selected=selected_three(), sort="groups",
                                   locale="es")
        assert hand == render_hand(landlord_hand(), selected=selected_three(), sort="groups",
                                   locale="es", show_indices=False)
        assert await renderer.table(mid_game_table(), locale="es") == render_table(
            mid_game_table(), locale="es")
        assert await renderer.result(spring_result()) == render_result(spring_result())
        assert renderer.pool.started and renderer.pool.pending == 0
        assert await renderer.pool.run(worker_pid) != os.getpid()  # really another process
    finally:
        renderer.shutdown()
    assert not renderer.pool.started


async def test_the_same_hand_image_is_drawn_once() -> None:
    renderer = Renderer(workers=0)
    cards = landlord_hand()
    first = await renderer.hand(cards, selected=selected_three())
    again = await renderer.hand(list(reversed(cards)), selected=set(selected_three()))
    other = await renderer.hand(cards)
    assert first == again != other
    assert renderer.drawn == 2


async def test_the_hand_cache_keeps_only_the_latest_images() -> None:
    renderer = Renderer(workers=0, cache_size=2)
    cards = landlord_hand()
    for card in cards[:3]:  # three distinct selections: the first falls out
        await renderer.hand(cards, selected=[card.index])
    await renderer.hand(cards, selected=[cards[0].index])
    assert renderer.drawn == 4


async def test_without_workers_no_process_is_started() -> None:
    pool = WorkerPool("test", 0)
    assert await pool.run(worker_pid) == os.getpid()
    pool.start()
    assert not pool.started


async def test_a_broken_pool_falls_back_to_a_thread_and_stays_off_for_a_while() -> None:
    pool = WorkerPool("test", 1)
    try:
        assert await pool.run(crash_in_a_worker, 21) == 42  # the worker died: thread answer
        assert not pool.started
        assert await pool.run(worker_pid) == os.getpid()  # not retried at once
    finally:
        pool.shutdown()
