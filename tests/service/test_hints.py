"""Hint suggestions at once, the hard search's pick when ready (bot.service.hints)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

import bot.service.hints as hints
from bot.ai.choices import choices
from bot.service import TableService
from bot.service.hints import MAX_SEARCHES, HintCache
from bot.storage.sqlite import SqliteStorage
from tests.support.fake_game import HANDS, KITTY, leading_table
from tests.support.gated_search import GatedSearch, searched
from tests.support.service_clock import featured_service


@pytest.fixture
def search(monkeypatch: pytest.MonkeyPatch) -> GatedSearch:
    gated = GatedSearch()
    monkeypatch.setattr(hints, "compute", gated)
    return gated


async def test_a_hint_is_answered_at_once_then_the_search_is_ready(search: GatedSearch) -> None:
    cache, table = HintCache(), leading_table()
    quick, later = cache.now(table, 0)
    assert quick == list(choices(table.hand.observation(0)).suggestions) and later is not None
    again, same = cache.now(table, 0)  # a second click while it runs: same search
    await asyncio.sleep(0)
    assert again == quick and same is later and len(search.calls) == 1
    search.gate.set()
    full = await later
    assert full == searched(table, 0)
    assert cache.now(table, 0) == (full, None)
    assert await cache.options(table, 0) == full and len(search.calls) == 1
    assert cache.answered == {"ready": 1, "quick": 2, "dropped": 0}


async def test_beyond_the_bound_a_hint_keeps_the_quick_answer(search: GatedSearch) -> None:
    cache = HintCache()
    running = [cache.now(leading_table(f"t{n}"), 0)[1] for n in range(MAX_SEARCHES)]
    quick, later = cache.now(leading_table("late"), 0)
    await asyncio.sleep(0)
    assert later is None and quick and len(search.calls) == MAX_SEARCHES
    assert cache.answered["dropped"] == 1
    search.gate.set()
    await asyncio.gather(*running)  # type: ignore[arg-type]


async def test_a_prefetch_runs_only_while_no_search_runs_and_stops_when_the_table_moves(
        search: GatedSearch) -> None:
    cache = HintCache()
    cache.note_asked("a", 0)
    cache.note_asked("b", 0)
    cache.prefetch(leading_table("a", seq=5), 0)
    cache.prefetch(leading_table("b", seq=5), 0)  # one search is running: not started
    await asyncio.sleep(0)
    assert search.calls == [("a", 5, 0)]
    cache.forget_table("a", 6)  # the position changed before anyone asked for it
    await asyncio.sleep(0)
    assert cache.now(leading_table("b"), 0)[1] is not None  # the bound is free again
    search.gate.set()
    await asyncio.sleep(0.05)
    assert cache.now(leading_table("a", seq=5), 0)[1] is not None  # cancelled: not cached


async def test_a_prefetch_asked_for_by_a_click_is_kept(search: GatedSearch) -> None:
    cache, table = HintCache(), leading_table()
    cache.note_asked(table.id, 0)
    cache.prefetch(table, 0)
    _, later = cache.now(table, 0)
    cache.forget_table(table.id, table.seq + 1)  # a click waits for it: not cancelled
    search.gate.set()
    assert later is not None and await later == searched(table, 0)


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[TableService]:
    store = await SqliteStorage.open(tmp_path / "ddz.sqlite3")
    made = featured_service(store, prefetch_hints=True)
    yield made
    await made.close()
    await store.close()


async def test_the_service_searches_ahead_only_the_turns_of_a_member_who_asked_for_a_hint(
        service: TableService, search: GatedSearch) -> None:
    """A search nobody uses costs the AI worker 70–130 ms
    (docs/PERFORMANCE.md §Searched ahead only for who asks): Ana's first turn is not
    searched ahead; once she pressed Hint, her next turn is; Bo, who never did, is never
    searched ahead."""
    table = await service.open_table(1, 10, 101, "Ana")
    for user, name in ((102, "Bo"), (103, "Cy")):
        table = await service.join(table.id, user, name)
    table = await service.start(table.id, 101, hands=list(HANDS), kitty=KITTY, first_bidder=0)
    assert search.calls == []  # no search while bidding
    table = await service.bid(table.id, 101, 3)
    assert table.turn_seat == 0
    await asyncio.sleep(0)
    assert search.calls == []  # she never asked for a Hint at this table
    _, later = service.hint_now(table, 0)  # she presses Hint: its search starts
    assert later is not None
    search.gate.set()
    assert await later == searched(table, 0)
    first = (table.id, table.seq, 0)
    table = await service.play(table.id, 101, "3")
    await asyncio.sleep(0)
    assert search.calls == [first]  # Bo's turn: he never asked
    table = await service.pass_turn(table.id, 102)
    table = await service.pass_turn(table.id, 103)
    assert table.turn_seat == 0
    await asyncio.sleep(0.05)
    assert search.calls == [first, (table.id, table.seq, 0)]  # her turn, searched ahead
    options, later = service.hint_now(table, 0)
    assert later is None and options == searched(table, 0)


async def test_nothing_is_searched_ahead_without_prefetch(tmp_path: Path,
                                                         search: GatedSearch) -> None:
    store = await SqliteStorage.open(tmp_path / "ddz.sqlite3")
    service = featured_service(store)
    try:
        table = await service.open_table(1, 10, 101, "Ana")
        for user, name in ((102, "Bo"), (103, "Cy")):
            table = await service.join(table.id, user, name)
        table = await service.start(table.id, 101, hands=list(HANDS), kitty=KITTY, first_bidder=0)
        await service.bid(table.id, 101, 3)
        await asyncio.sleep(0)
        assert search.calls == []
    finally:
        await service.close()
        await store.close()




async def test_a_position_whose_full_list_is_empty_is_searched_once(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # the kept list is [] (falsy): the next Hint reads it, it does not search again
    calls: list[int] = []

    async def empty(table: object, seat: int, pool: object = None) -> list[object]:
        calls.append(seat)
        return []

    monkeypatch.setattr(hints, "compute", empty)
    cache, table = HintCache(), leading_table()
    assert await cache.options(table, 0) == []
    assert await cache.options(table, 0) == [] and cache.now(table, 0) == ([], None)
    assert calls == [0]
