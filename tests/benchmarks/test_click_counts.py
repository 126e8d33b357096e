"""benchmarks/click_counts.py counts what a click causes: worker calls by function with
their CPU in the worker, the same call sent again, and requests by kind (issue 54)."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

import pytest

import bot.service.hints as hints
from benchmarks.click_counts import ClickCounts
from bot.service.hints import HintCache
from bot.service.pool import WorkerPool
from bot.service.renderer import Renderer, draw_hand
from tests.support.fake_game import leading_table
from tests.support.gated_search import GatedSearch


def double(value: int) -> int:
    return 2 * value


def put_back(monkeypatch: pytest.MonkeyPatch) -> None:
    """What ``ClickCounts.install`` patches, put back after the test."""
    monkeypatch.setattr(WorkerPool, "run", WorkerPool.run)
    monkeypatch.setattr(Renderer, "hand", Renderer.hand)
    for name in ("_search", "now", "options"):
        monkeypatch.setattr(HintCache, name, getattr(HintCache, name))


async def test_hint_searches_started_ahead_are_counted_with_the_ones_a_hint_used(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # the AI worker's CPU a click depends on how many turns HintCache.prefetch searches
    # ahead of a Hint nobody presses (docs/PERFORMANCE.md §The same clicks on both trees?)
    put_back(monkeypatch)
    search = GatedSearch()
    monkeypatch.setattr(hints, "compute", search)
    counts = ClickCounts()
    counts.install(SimpleNamespace(on_rest=None, on_webhook=None))
    counts.active = True
    cache = HintCache()
    used, unused, asked = leading_table("a"), leading_table("b"), leading_table("c")
    cache.note_asked("a", 0)
    cache.note_asked("b", 0)
    cache.prefetch(used, 0)
    search.gate.set()
    await asyncio.sleep(0.01)
    assert cache.now(used, 0)[1] is None  # ready: the search ahead was used
    cache.prefetch(unused, 0)  # nobody presses Hint there
    await asyncio.sleep(0.01)
    _, later = cache.now(asked, 0)  # a Hint starts its own search
    assert later is not None
    await later
    assert counts.hint_searches == {"ahead": 2, "ahead used": 1, "asked": 1}
    assert counts.hint_answers == {"ready": 1, "searching": 1}
    assert counts.report(10).endswith(
        "  hint searches: 0.2000/click started ahead of a Hint, 50% of them used by one; "
        "0.1000/click started by a Hint\n"
        "  Hints answered: 1 with the search's pick ready, 1 with the quick answer and a "
        "search to follow, 0 with the quick answer alone (the searches at their cap)")


async def test_worker_calls_are_counted_by_function_and_repeats_apart(
        monkeypatch: pytest.MonkeyPatch) -> None:
    put_back(monkeypatch)
    fake = SimpleNamespace(on_rest=lambda route, body: None, on_webhook=lambda route, body: None)
    counts = ClickCounts()
    counts.install(fake)
    pool = WorkerPool("render", 0)  # threads: the same calls, counted the same way
    assert await pool.run(double, 4) == 8  # not active yet: not counted
    counts.active = True
    assert [await pool.run(double, n, urgent=True) for n in (1, 2, 1)] == [2, 4, 2]
    counts.record = []
    png = await pool.run(draw_hand, (0, 1, 2), frozenset(), "rank", "en")
    assert png.startswith(b"\x89PNG")
    await pool.run(draw_hand, (0, 1, 2), frozenset(), "rank", "en")
    assert counts.calls == {("render", "double urgent"): 3, ("render", "draw_hand (new fan)"): 1,
                            ("render", "draw_hand (fan seen)"): 1}
    assert counts.repeats == {("render", "double urgent"): 1, ("render", "draw_hand (fan seen)"): 1}
    assert counts.cpu[("render", "draw_hand (new fan)")] > 0
    assert len(counts.record) == 2
    report = counts.report(4)
    assert report.startswith("per click (4 clicks): hand images asked 0.000, uploads 0.000, "
                             "worker calls 1.250, worker CPU ")
    assert "call render double urgent" in report and "0.750/click" in report


def test_requests_are_counted_by_kind_with_new_files_apart() -> None:
    counts = ClickCounts()
    counts.active = True
    path = "REST POST /channels/{channel_id}/messages"
    counts._request(path, {"attachments": [{"id": 0, "filename": "table.png"}]})
    counts._request(path, {"attachments": [{"id": "55", "filename": "table.png"}]})
    counts.active = False
    counts._request(path, {})
    assert counts.requests == {path: 2}
    assert counts.uploads == 1  # id 0: files[0], a new file; "55": an attachment kept
