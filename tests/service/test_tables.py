"""TableService: locked actions, saving, timers, computer moves, settlement, restart.

Driven with a fake clock (no real waiting) and a temporary database of each backend
(SQLite, PostgreSQL: the ``database`` fixture).
"""

from __future__ import annotations

import asyncio

import pytest

from bot.game.errors import GameError
from bot.game.seat import Event
from bot.game.table import Table
from bot.service import TableService
from bot.storage.base import SqlRepository
from tests.support.databases import Database
from tests.support.service_clock import (
    ALICE,
    BOB,
    CARL,
    CH,
    HANDS,
    KITTY,
    FakeClock,
    G,
    Recorder,
    featured_service,
    play_out,
    recorder,
    run,
    saved,
    three_players,
)

# ----- a whole hand -----------------------------------------------------------------


async def test_three_members_play_a_full_hand_and_it_is_settled_once(
    service: TableService, store: SqlRepository
) -> None:
    table = await three_players(service)
    await service.bid(table.id, ALICE, 3, seq=table.seq)
    table = await play_out(service, table.id)
    assert table.phase == "finished" and table.hand is not None
    result = table.hand.result
    assert result is not None and result.landlord == 0
    [settlement] = recorder(service).settlements
    assert [c.points for c in settlement.changes] == list(result.points)
    assert sum(result.points) == 0
    standings = {s.user_id: s.total for s in (await store.match_standings(G)).standings}
    assert standings == {ALICE: result.points[0], BOB: result.points[1], CARL: result.points[2]}
    assert "settled" in recorder(service).kinds()
    assert await saved(store, table.id) == table
    again = await store.settle_hand(table, table.hand_id)
    assert again.replayed


async def test_computer_seats_play_to_the_end_without_anyone_clicking(
    service: TableService, clock: FakeClock, store: SqlRepository
) -> None:
    table = await service.open_table(G, CH, ALICE, "Alice", computers=2)
    table = await service.start(table.id, ALICE, seed=7)
    await service.set_autoplay(table.id, ALICE, True)
    await run(service, clock, 600.0)  # Alice's auto-play waits her pace (2 s) per move
    table = service.get(table.id)
    assert table is not None and table.phase == "finished"
    assert table.hand is not None and table.hand.result is not None
    [settlement] = recorder(service).settlements
    assert [c.total for c in settlement.changes] == [table.hand.result.points[0], None, None]
    assert await saved(store, table.id) == table


async def test_computers_answer_a_member_through_scheduled_moves(
    service: TableService, clock: FakeClock
) -> None:
    table = await service.open_table(G, CH, ALICE, "Alice", computers=2)
    table = await service.start(table.id, ALICE, hands=HANDS, kitty=KITTY, first_bidder=0)
    table = await service.bid(table.id, ALICE, 3)
    for _ in range(40):
        await run(service, clock)
        table = service.get(table.id)
        assert table is not None
        if table.phase == "finished":
            break
        assert table.turn_seat == 0  # computers have acted; the member is to play
        table = await play_out_one(service, table)
    assert table.phase == "finished"
    assert len(recorder(service).settlements) == 1


async def play_out_one(service: TableService, table: Table) -> Table:
    hand = table.hand
    assert hand is not None
    if hand.last_play is None or hand.last_play.seat == 0:
        play = min(hand.legal_plays(0), key=lambda c: (len(c.cards), c.rank))
        return await service.play(table.id, ALICE, play)
    return await service.pass_turn(table.id, ALICE)


# ----- timers -----------------------------------------------------------------------


async def test_bidding_timeout_passes_for_the_seat_and_counts_a_timeout(
    service: TableService, clock: FakeClock, store: SqlRepository
) -> None:
    table = await three_players(service)
    assert table.deadline == clock.now() + 30
    await run(service, clock, 29)
    assert service.get(table.id) == table  # nothing yet
    await run(service, clock, 1)
    after = service.get(table.id)
    assert after is not None and after.hand is not None
    assert after.hand.bids == [(0, 0)] and after.hand.history[0].auto
    assert after.seats[0].timeouts == 1 and not after.seats[0].autoplay
    assert after.turn_seat == 1 and after.deadline == clock.now() + 30
    assert "timeout" in recorder(service).kinds()
    assert await saved(store, table.id) == after


async def test_two_timeouts_in_a_row_put_the_seat_on_autoplay(
    service: TableService, clock: FakeClock
) -> None:
    table = await three_players(service)
    await run(service, clock, 30)  # Alice times out in bidding: pass
    table = await service.bid(table.id, BOB, 3)  # Bob is landlord and leads
    assert table.turn_seat == 1 and table.deadline == clock.now() + 60
    table = await service.play(table.id, BOB, "4")
    table = await service.pass_turn(table.id, CARL)
    assert table.turn_seat == 0
    await run(service, clock, 60)  # Alice times out in play: the computer acts for her
    table = service.get(table.id)
    assert table is not None and table.seats[0].timeouts == 2 and table.seats[0].autoplay
    assert table.hand is not None and table.hand.history[4].seat == 0
    assert table.hand.history[4].auto
    assert recorder(service).kinds().count("timeout") == 2
    assert "autoplay_on" in recorder(service).kinds()


async def test_a_member_acting_in_time_cancels_the_timer(
    service: TableService, clock: FakeClock
) -> None:
    table = await three_players(service)
    await run(service, clock, 20)
    table = await service.bid(table.id, ALICE, 1)
    await run(service, clock, 20)  # 40 s after the deal, 20 s into Bob's turn
    table = service.get(table.id)
    assert table is not None and table.hand is not None
    assert table.hand.bids == [(0, 1)] and table.seats[0].timeouts == 0


# ----- refusals -----------------------------------------------------------------------


async def test_double_click_with_one_seq_applies_once(
    service: TableService, store: SqlRepository
) -> None:
    table = await three_players(service)
    results = await asyncio.gather(
        service.bid(table.id, ALICE, 1, seq=table.seq),
        service.bid(table.id, ALICE, 1, seq=table.seq),
        return_exceptions=True,
    )
    errors = [r for r in results if isinstance(r, GameError)]
    assert len(errors) == 1 and errors[0].code == "stale"
    after = service.get(table.id)
    assert after is not None and after.hand is not None
    assert after.hand.bids == [(0, 1)] and after.seq == table.seq + 1
    assert await saved(store, table.id) == after


async def test_stale_seq_is_refused_and_changes_nothing(
    service: TableService, store: SqlRepository
) -> None:
    table = await three_players(service)
    with pytest.raises(GameError) as error:
        await service.bid(table.id, ALICE, 2, seq=table.seq - 1)
    assert error.value.code == "stale"
    assert service.get(table.id) == table == await saved(store, table.id)


@pytest.mark.parametrize(("user", "code"), [(999, "not_seated"), (BOB, "not_your_turn")])
async def test_outsiders_and_out_of_turn_members_are_refused(
    service: TableService, store: SqlRepository, user: int, code: str
) -> None:
    table = await three_players(service)
    events = len(recorder(service).events)
    with pytest.raises(GameError) as error:
        await service.bid(table.id, user, 1, seq=table.seq)
    assert error.value.code == code
    assert service.get(table.id) == table == await saved(store, table.id)
    assert len(recorder(service).events) == events


async def test_one_table_per_channel_and_one_seat_per_member(service: TableService) -> None:
    table = await service.open_table(G, CH, ALICE, "Alice")
    with pytest.raises(GameError, match="table_exists"):
        await service.open_table(G, CH, BOB, "Bob")
    with pytest.raises(GameError, match="already_seated") as seated:
        await service.open_table(G, CH + 1, ALICE, "Alice")
    assert seated.value.params == {"table": table.id, "channel": CH}  # where to find it
    other = await service.open_table(G, CH + 1, BOB, "Bob")
    with pytest.raises(GameError, match="already_seated") as seated:
        await service.join(table.id, BOB, "Bob")
    assert seated.value.params == {"table": other.id, "channel": CH + 1}
    assert service.table_in_channel(CH + 1) == other
    assert service.table_of_user(G, ALICE) == table


async def test_a_join_waits_only_for_seats_taken_in_its_own_server(service: TableService) -> None:
    """Racing joins are serialized per server (one seat per member per server), not
    across servers: a join held up in one server leaves the others free."""
    here = await service.open_table(G, CH, ALICE, "Alice")
    there = await service.open_table(G + 1, CH + 1, ALICE, "Alice")
    async with service._guild_lock(G):  # a seat being taken in server G
        waiting = asyncio.create_task(service.join(here.id, BOB, "Bob"))
        joined = await service.join(there.id, BOB, "Bob")
        assert joined.seat_of(BOB) == 1
        await asyncio.sleep(0)
        assert not waiting.done()
    assert (await waiting).seat_of(BOB) == 1
    assert service.table_of_user(G, BOB) == service.get(here.id)
    assert service.table_of_user(G + 1, BOB) == service.get(there.id)


async def test_last_member_leaving_the_lobby_closes_and_deletes_the_table(
    service: TableService, store: SqlRepository
) -> None:
    table = await service.open_table(G, CH, ALICE, "Alice", computers=1)
    await service.leave(table.id, ALICE)
    assert service.get(table.id) is None and await saved(store, table.id) is None
    with pytest.raises(GameError, match="table_closed"):
        await service.join(table.id, BOB, "Bob")


async def test_stopped_hand_adds_no_points_and_play_again_deals(
    service: TableService, store: SqlRepository
) -> None:
    table = await three_players(service)
    table = await service.stop_hand(table.id, ALICE)
    assert table.phase == "finished" and table.deadline is None
    assert recorder(service).settlements == []
    assert (await store.match_standings(G)).standings == []
    table = await service.play_again(table.id, BOB, seq=table.seq)
    assert table.phase == "playing" and table.hand_no == 2


# ----- robustness ---------------------------------------------------------------------


def failing_saves(store: SqlRepository, monkeypatch, failures: int) -> dict[str, int]:
    """Make the first ``failures`` calls of ``store.save_table`` raise OSError; returns
    the call counter (``{"n": calls so far}``)."""
    real = store.save_table
    calls = {"n": 0}

    async def flaky(t: Table) -> None:
        calls["n"] += 1
        if calls["n"] <= failures:
            raise OSError("storage down")
        await real(t)

    monkeypatch.setattr(store, "save_table", flaky)
    return calls


async def test_failing_save_in_a_timer_is_retried_and_the_table_not_stuck(
    service: TableService, clock: FakeClock, store: SqlRepository, monkeypatch
) -> None:
    table = await three_players(service)
    failing_saves(store, monkeypatch, 1)
    await run(service, clock, 30)
    assert service.get(table.id) == table  # the failed timeout changed nothing
    await run(service, clock, 5)  # RETRY_SECONDS later it goes through
    after = service.get(table.id)
    assert after is not None and after.hand is not None and after.hand.bids == [(0, 0)]


async def test_a_turn_task_that_keeps_failing_backs_off_5_10_20_seconds(
    service: TableService, clock: FakeClock, store: SqlRepository, monkeypatch
) -> None:
    table = await three_players(service)
    calls = failing_saves(store, monkeypatch, 3)
    await run(service, clock, 30)  # the bidding timeout fires and fails (1)
    await run(service, clock, 5)  # first retry after 5 s fails (2)
    assert calls["n"] == 2
    await run(service, clock, 9)  # the next waits 10 s: nothing yet
    assert calls["n"] == 2
    await run(service, clock, 1)  # fails (3)
    await run(service, clock, 19)
    assert calls["n"] == 3 and service.get(table.id) == table
    await run(service, clock, 1)  # 20 s later it goes through
    after = service.get(table.id)
    assert after is not None and after.hand is not None and after.hand.bids == [(0, 0)]


async def test_listener_errors_do_not_break_actions(store: SqlRepository, clock: FakeClock) -> None:
    class Broken(Recorder):
        async def on_table_changed(self, table: Table, events: list[Event]) -> None:
            raise RuntimeError("discord is down")

    svc = featured_service(store, clock=clock, listener=Broken(), ai_delay=0)
    table = await three_players(svc)
    table = await svc.bid(table.id, ALICE, 3)
    assert table.hand is not None and table.hand.landlord == 0
    await svc.close()


# ----- restart ----------------------------------------------------------------------


async def test_restart_restores_tables_and_deadlines_and_the_hand_settles(
    database: Database, clock: FakeClock
) -> None:
    store = await database.open()
    first = featured_service(store, clock=clock, listener=Recorder(), ai_delay=0)
    table = await three_players(first)
    table = await first.bid(table.id, ALICE, 2)
    table = await first.pass_turn(table.id, BOB)
    table = await first.pass_turn(table.id, CARL)  # Alice is landlord with bid 2
    table = await first.play(table.id, ALICE, "3333")  # a bomb
    await run(first, clock, 10)
    await first.close()
    await store.close()  # the process dies here

    store = await database.open()
    second = featured_service(store, clock=clock, listener=Recorder(), ai_delay=0)
    [restored] = await second.restore()
    assert restored == table and restored.deadline == table.deadline
    assert second.table_in_channel(CH) == restored
    await run(second, clock, 50)  # Bob's 60 s run out: the computer acts for him
    after = second.get(table.id)
    assert after is not None and after.seats[1].timeouts == 1
    after = await play_out(second, table.id)
    assert after.hand is not None and after.hand.result is not None
    assert after.hand.result.bombs >= 1 and after.hand.result.base == 2
    [settlement] = recorder(second).settlements
    totals = {s.user_id: s.total for s in (await store.match_standings(G)).standings}
    assert totals == dict(zip((ALICE, BOB, CARL), after.hand.result.points, strict=True))
    assert [c.points for c in settlement.changes] == list(after.hand.result.points)
    await second.close()
    await store.close()
