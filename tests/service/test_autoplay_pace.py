"""Auto-play at the member's pace through the TableService's locked path (fake clock)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.service.tables import TableService
from bot.storage.sqlite import SqliteStorage
from tests.support.service_clock import (
    ALICE,
    BOB,
    CARL,
    FakeClock,
    Recorder,
    featured_service,
    recorder,
    run,
    three_players,
)


@pytest.fixture
async def service(tmp_path: Path, clock: FakeClock) -> AsyncIterator[TableService]:
    store = await SqliteStorage.open(tmp_path / "pace.sqlite3")
    svc = featured_service(store, clock=clock, listener=Recorder(), ai_delay=0)
    yield svc
    await svc.close()
    await store.close()


def bids(service: TableService, table_id: str) -> list[tuple[int, int]]:
    table = service.get(table_id)
    assert table is not None and table.hand is not None
    return table.hand.bids


def moves(service: TableService, table_id: str) -> int:
    table = service.get(table_id)
    assert table is not None and table.hand is not None
    return len(table.hand.history)


async def test_a_member_on_auto_play_acts_only_once_their_pace_has_passed(
    service: TableService, clock: FakeClock
) -> None:
    table = await three_players(service)
    await service.set_autoplay(table.id, ALICE, True, 5.0)
    await run(service, clock, 4.9)
    assert bids(service, table.id) == []
    await run(service, clock, 0.2)
    assert [seat for seat, _ in bids(service, table.id)] == [0]
    done = service.get(table.id)
    assert done is not None and done.hand is not None and done.hand.history[0].auto


async def test_another_seats_toggle_does_not_restart_a_pending_auto_move(
    service: TableService, clock: FakeClock
) -> None:
    table = await three_players(service)
    await service.set_autoplay(table.id, ALICE, True, 5.0)
    await run(service, clock, 3.0)
    await service.set_autoplay(table.id, CARL, True)  # Carl is not to act: no move changed
    await service.set_autoplay(table.id, CARL, False)
    await run(service, clock, 2.1)  # 5.1 s after Alice's toggle, not 5 s after Carl's
    assert [seat for seat, _ in bids(service, table.id)] == [0]


async def test_turning_auto_play_off_before_its_pace_cancels_the_auto_move(
    service: TableService, clock: FakeClock
) -> None:
    table = await three_players(service)
    await service.set_autoplay(table.id, ALICE, True, 3.0)
    await run(service, clock, 2.0)
    await service.set_autoplay(table.id, ALICE, False)
    await run(service, clock, 10.0)
    assert bids(service, table.id) == []
    await service.bid(table.id, ALICE, 2)
    assert bids(service, table.id) == [(0, 2)]


async def test_changing_the_pace_while_on_rearms_the_move_at_the_new_pace(
    service: TableService, clock: FakeClock
) -> None:
    table = await three_players(service)
    await service.set_autoplay(table.id, ALICE, True, 10.0)
    await run(service, clock, 1.0)
    await service.set_autoplay(table.id, ALICE, True, 1.0)
    await run(service, clock, 1.1)
    assert [seat for seat, _ in bids(service, table.id)] == [0]


async def test_the_pace_counts_from_the_previous_move_for_each_auto_move(
    service: TableService, clock: FakeClock
) -> None:
    table = await three_players(service)
    for member in (ALICE, BOB, CARL):
        await service.set_autoplay(table.id, member, True, 2.0)
    await run(service, clock, 1.9)
    assert moves(service, table.id) == 0
    await run(service, clock, 0.2)
    assert moves(service, table.id) == 1
    await run(service, clock, 1.7)  # 1.8 s after the first move (made at 2.0 s)
    assert moves(service, table.id) == 1  # the next seat waits its own 2 s
    await run(service, clock, 0.3)
    assert moves(service, table.id) == 2
    kinds = recorder(service).kinds()
    assert kinds.count("autoplay_on") == 3 and "timeout" not in kinds
