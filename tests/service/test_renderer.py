"""Images drawn in worker processes (bot.service.renderer, bot.service.pool)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.service.renderer import Renderer
from rendering import render_hand, render_result, render_table
from tools.samples import landlord_hand, mid_game_table, selected_three, spring_result


def worker_pid() -> int:
    """The id of the process that runs the call."""
    return os.getpid()


@pytest.mark.processes
async def test_worker_processes_draw_the_same_bytes_as_the_renderers() -> None:
    renderer = Renderer(workers=1)
    try:
        assert await renderer.pool.wait_ready()
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


@pytest.mark.processes
async def test_the_stats_chart_replay_pages_and_the_gif_are_drawn_in_the_worker() -> None:
    # Issue 23 §1: every image goes through the Renderer (cogs drew these in threads).
    from rendering.replay import page_image, render_replay_animation, render_replay_page_cached
    from rendering.stats import render_stats
    from tests.support.replay_samples import sample_page
    from tools.samples import stats_chart

    renderer = Renderer(workers=1)
    try:
        assert await renderer.pool.wait_ready()
        assert await renderer.stats(stats_chart(), locale="es") == render_stats(
            stats_chart(), locale="es")
        page = sample_page()
        assert await renderer.replay_page(page) == render_replay_page_cached(page, "en")
        gif = await renderer.animation([page, page], spring_result())
        frames = [page_image(page, locale="en"), page_image(page, locale="en"),
                  render_result(spring_result())]
        assert gif[:6] == b"GIF89a" and gif == render_replay_animation(frames)
        assert renderer.drawn == 3 and renderer.pool.pending == 0
    finally:
        renderer.shutdown()


@pytest.mark.processes
def test_a_render_worker_imports_neither_the_ai_nor_the_storage_nor_discord() -> None:
    """What a spawned render worker imports to unpickle its functions: ``bot.service``'s
    public names are imported at first use, so the worker loads the renderer, the pool,
    the rules, the catalogs and the drawing (0.2 s of CPU), not the AI, the game, the
    storage, the features or numpy (0.35 s with them, before)."""
    code = ("import sys, bot.service.renderer, bot.service.pool; "
            "print(' '.join(sorted(sys.modules)))")
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True, cwd=Path(__file__).parents[2]).stdout.split()
    tops = {".".join(m.split(".")[:2]) if m.startswith("bot.") else m.split(".")[0]
            for m in loaded}
    assert {"bot.service", "bot.rules", "rendering"} <= tops
    assert tops.isdisjoint({"bot.ai", "bot.game", "bot.storage", "bot.features", "discord",
                            "aiosqlite", "numpy"})
