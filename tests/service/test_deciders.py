"""TableService's injectable decider: computer and auto-play moves go through it."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator

import pytest

from bot.game.computer import AutoAction, decide, seat_level
from bot.game.table import Table
from bot.service import TableService, thread_decide
from bot.storage.sqlite import SqliteStorage
from tests.support.service_clock import ALICE, CH, FakeClock, G, Recorder, featured_service, run


class RecordingDecider:
    """Decides like the default (``decide``) and remembers who it decided for."""

    def __init__(self, fail: bool = False) -> None:
        self.calls: list[tuple[int, str, str]] = []  # (seat, level, hand phase)
        self.fail = fail

    async def __call__(self, table: Table, rng: random.Random) -> AutoAction:
        assert table.turn_seat is not None and table.hand is not None
        self.calls.append((table.turn_seat, seat_level(table), table.hand.phase))
        if self.fail:
            raise RuntimeError("decider broke")
        return decide(table, rng)


@pytest.fixture
async def clock_store(tmp_path) -> AsyncIterator[tuple[FakeClock, SqliteStorage]]:
    storage = await SqliteStorage.open(tmp_path / "dec.sqlite3")
    yield FakeClock(), storage
    await storage.close()


async def test_every_computer_and_autoplay_move_is_asked_of_the_injected_decider(
        clock_store: tuple[FakeClock, SqliteStorage]) -> None:
    clock, store = clock_store
    decider = RecordingDecider()
    service = featured_service(store, clock=clock, listener=Recorder(), ai_delay=0, decider=decider)
    try:
        table = await service.open_table(G, CH, ALICE, "Alice", computers=2, level="easy")
        table = await service.start(table.id, ALICE, seed=7)
        await service.set_autoplay(table.id, ALICE, True)
        await run(service, clock, 600.0)  # Alice's auto-play waits her pace (2 s) per move
        table = service.get(table.id)
        assert table is not None and table.phase == "finished"
        assert table.hand is not None
        listener = service.listener
        assert isinstance(listener, Recorder)
        moves = [e for e in listener.events if e.kind in ("bid", "play", "pass")]
        assert len(decider.calls) == len(moves) > 3
        assert {seat for seat, _, _ in decider.calls} == {0, 1, 2}
        assert {(seat, level) for seat, level, _ in decider.calls} == {
            (0, "normal"), (1, "easy"), (2, "easy")}  # Alice's auto-play plays at normal
        assert {phase for _, _, phase in decider.calls} == {"bidding", "playing"}
    finally:
        await service.close()


async def test_a_failing_decider_falls_back_to_a_safe_move(
        clock_store: tuple[FakeClock, SqliteStorage]) -> None:
    clock, store = clock_store
    decider = RecordingDecider(fail=True)
    service = featured_service(store, clock=clock, listener=Recorder(), ai_delay=0, decider=decider)
    try:
        table = await service.open_table(G, CH, ALICE, "Alice", computers=2, level="hard")
        table = await service.start(table.id, ALICE, seed=7, first_bidder=1)
        await run(service, clock)
        table = service.get(table.id)
        assert table is not None and table.hand is not None
        assert decider.calls[:2] == [(1, "hard", "bidding"), (2, "hard", "bidding")]
        # fallback_action opens the bidding with 1 and the next computer passes
        assert table.hand.bids[:2] == [(1, 1), (2, 0)] and table.turn_seat == 0
    finally:
        await service.close()


def test_the_default_decider_is_the_thread_path() -> None:
    assert TableService(None).decider is thread_decide  # type: ignore[arg-type]
