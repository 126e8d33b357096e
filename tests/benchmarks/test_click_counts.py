"""benchmarks/click_counts.py counts what a click causes: worker calls by function with
their CPU in the worker, the same call sent again, and requests by kind (issue 54)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from benchmarks.click_counts import ClickCounts
from bot.service.pool import WorkerPool
from bot.service.renderer import Renderer, draw_hand


def double(value: int) -> int:
    return 2 * value


async def test_worker_calls_are_counted_by_function_and_repeats_apart(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(WorkerPool, "run", WorkerPool.run)  # put back after the test
    monkeypatch.setattr(Renderer, "hand", Renderer.hand)
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
