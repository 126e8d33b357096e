"""Turn pings (docs/RULES.md §Turn pings): when a member whose turn waits is sent a
message mentioning them, and when it is deleted; on a fake clock, both backends.

The sender stands for the cogs (``cogs/pings.py``): it records what it was asked to
post and delete."""

from __future__ import annotations

import asyncio

from bot.game.table import Table
from bot.service import TableService
from bot.storage.base import SqlRepository
from bot.values import GuildSettings, SentPing
from tests.support.databases import Database
from tests.support.service_clock import (
    ALICE,
    BOB,
    CARL,
    FakeClock,
    G,
    Recorder,
    featured_service,
    run,
    three_players,
)


class Sender:
    """Records the pings asked for (``sent``: (table id, user, move_seq)), gives each a
    message id from 1000 on, and the deletions (message ids). ``hold``: sends wait for it."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, int, int]] = []
        self.deleted: list[int] = []
        self.hold: asyncio.Event | None = None

    async def send_ping(self, table: Table, user_id: int) -> int | None:
        if self.hold is not None:
            await self.hold.wait()
        self.sent.append((table.id, user_id, table.move_seq))
        return 999 + len(self.sent)

    async def delete_ping(self, ping: SentPing) -> None:
        self.deleted.append(ping.message_id)


def pinged(service: TableService) -> Sender:
    sender = Sender()
    service.pings.sender = sender
    return sender


async def test_a_member_whose_turn_waits_ten_seconds_is_pinged_once_and_it_ends_with_the_turn(
        service: TableService, clock: FakeClock, store: SqlRepository) -> None:
    sender = pinged(service)
    table = await three_players(service)  # Alice bids first
    await run(service, clock, 9.9)
    assert sender.sent == []
    await run(service, clock, 0.1)
    assert sender.sent == [(table.id, ALICE, table.move_seq)]
    await run(service, clock, 15)  # still her turn (30 s to bid): one ping, not two
    assert len(sender.sent) == 1 and sender.deleted == []
    assert [p.message_id for p in await store.sent_pings()] == [1000]
    table = await service.bid(table.id, ALICE, 1, seq=table.seq)
    await run(service, clock)
    assert sender.deleted == [1000] and await store.sent_pings() == []
    await run(service, clock, 5)  # Bob answers within 10 s: never pinged
    table = await service.pass_turn(table.id, BOB, seq=table.seq)
    await run(service, clock, 30)  # Carl waits: pinged at 10 s, then the timer passes for him
    assert sender.sent[1:] == [(table.id, CARL, table.move_seq)]
    assert sender.deleted == [1000, 1001]
    assert service.pings.sent == 2 and service.pings.deleted == 2


async def test_now_pings_as_the_turn_begins_and_off_never(
        service: TableService, clock: FakeClock) -> None:
    sender = pinged(service)
    await service.save_settings(G, GuildSettings(turn_ping="now"))
    table = await three_players(service)
    await run(service, clock)
    assert sender.sent == [(table.id, ALICE, table.move_seq)]
    await service.save_settings(G, GuildSettings(turn_ping="off"))
    table = await service.bid(table.id, ALICE, 1, seq=table.seq)
    await run(service, clock, 29)
    assert len(sender.sent) == 1 and sender.deleted == [1000]


async def test_notify_off_spares_that_member_only(
        service: TableService, clock: FakeClock, store: SqlRepository) -> None:
    sender = pinged(service)
    await service.pings.set_notify(G, ALICE, False)
    assert await store.notify(G, ALICE) is False
    table = await three_players(service)
    await run(service, clock, 25)
    assert sender.sent == []
    table = await service.bid(table.id, ALICE, 1, seq=table.seq)
    await run(service, clock, 10)
    assert sender.sent == [(table.id, BOB, table.move_seq)]


async def test_auto_play_ends_a_ping_and_an_auto_played_seat_is_never_pinged(
        service: TableService, clock: FakeClock) -> None:
    sender = pinged(service)
    table = await three_players(service)
    await run(service, clock, 10)
    assert len(sender.sent) == 1
    await service.set_autoplay(table.id, ALICE, True, 1)
    await run(service, clock)
    assert sender.deleted == [1000]
    await run(service, clock, 1)  # the computer bids for her
    after = service.get(table.id)
    assert after is not None and after.hand is not None and after.hand.bids[0][0] == 0
    await run(service, clock, 12)  # whoever is to act next: Bob, or Alice the landlord on auto
    users = [user for _, user, _ in sender.sent]
    assert users[0] == ALICE and ALICE not in users[1:] and users[1:] == [BOB]


async def test_stopping_the_hand_or_closing_the_table_deletes_the_ping(
        service: TableService, clock: FakeClock) -> None:
    sender = pinged(service)
    table = await three_players(service)
    await run(service, clock, 10)
    await service.stop_hand(table.id, ALICE)
    await run(service, clock)
    assert sender.deleted == [1000]
    table = await service.play_again(table.id, ALICE)
    await run(service, clock, 10)
    await service.cancel(table.id, ALICE)
    await run(service, clock, 60)
    assert sender.deleted == [1000, 1001] and len(sender.sent) == 2


async def test_a_turn_ending_while_its_ping_is_posted_deletes_it_right_after(
        service: TableService, clock: FakeClock, store: SqlRepository) -> None:
    sender = pinged(service)
    sender.hold = asyncio.Event()
    table = await three_players(service)
    await run(service, clock)
    clock.t += 10
    [due] = [s for s in clock.sleepers if s[0] <= clock.t]  # the ping's delay, not the timer's
    due[2].set_result(None)
    for _ in range(100):  # until it is being posted
        if service.pings._by_table[table.id].state == "sending":
            break
        await asyncio.sleep(0.01)
    await service.bid(table.id, ALICE, 1, seq=table.seq)
    sender.hold.set()
    await run(service, clock)
    assert sender.sent == [(table.id, ALICE, table.move_seq)] and sender.deleted == [1000]
    assert await store.sent_pings() == []


async def test_one_ping_per_member_a_newer_turn_elsewhere_replaces_it(
        service: TableService, clock: FakeClock) -> None:
    sender = pinged(service)
    await three_players(service)  # Alice's turn in guild 1
    other = await service.open_table(2, 20, ALICE, "Alice", "en", computers=2)
    await run(service, clock, 10)
    assert len(sender.sent) == 1
    other = await service.start(other.id, ALICE, seed=1, first_bidder=0)
    await run(service, clock)
    assert sender.deleted == [1000]  # the older turn's ping gave way
    await run(service, clock, 10)
    assert sender.sent[1] == (other.id, ALICE, other.move_seq)


async def test_a_restart_deletes_a_sent_ping_when_its_turn_ends_and_rearms_a_waiting_one(
        database: Database, clock: FakeClock) -> None:
    store = await database.open()
    first = featured_service(store, clock=clock, listener=Recorder(), ai_delay=0)
    sender = pinged(first)
    table = await three_players(first)
    await run(first, clock, 12)  # Alice pinged at 10 s
    await first.close()
    await store.close()  # the process dies with the ping posted

    store = await database.open()
    second = featured_service(store, clock=clock, listener=Recorder(), ai_delay=0)
    sender = pinged(second)
    await second.restore()
    await run(second, clock, 5)
    assert sender.sent == [] and sender.deleted == []  # her turn goes on: kept, not sent again
    table = await second.bid(table.id, ALICE, 1, seq=table.seq)  # her turn ends
    await run(second, clock, 4)  # Bob's turn, 4 s of 10
    assert sender.deleted == [1000] and await store.sent_pings() == []
    await second.close()
    await store.close()

    store = await database.open()  # restarted again, 4 s into Bob's turn
    third = featured_service(store, clock=clock, listener=Recorder(), ai_delay=0)
    sender = pinged(third)
    await third.restore()
    await run(third, clock, 5.9)
    assert sender.sent == []
    await run(third, clock, 0.1)  # what was left of his 10 s
    assert sender.sent == [(table.id, BOB, table.move_seq)]
    await third.close()
    await store.close()


async def test_a_ping_whose_turn_ended_while_the_bot_was_down_is_deleted_at_start(
        database: Database, clock: FakeClock) -> None:
    store = await database.open()
    ended = SentPing(table_id="gone", guild_id=G, channel_id=99, user_id=CARL, move_seq=1,
                     message_id=77)
    await store.save_sent_ping(ended)
    service = featured_service(store, clock=clock, listener=Recorder(), ai_delay=0)
    sender = pinged(service)
    await service.restore()
    await run(service, clock)
    assert sender.deleted == [77] and await store.sent_pings() == []
    await service.close()
    await store.close()


async def test_a_gone_channel_takes_its_ping_with_it_and_no_deletion_is_asked(
        service: TableService, clock: FakeClock, store: SqlRepository) -> None:
    sender = pinged(service)
    table = await three_players(service)
    await run(service, clock, 10)
    assert len(sender.sent) == 1 and len(await store.sent_pings()) == 1
    service.pings.abandon(table.id)  # cogs/gone.py: channel deleted or bot kicked
    await service.cancel(table.id, ALICE, True)
    await run(service, clock, 30)
    assert sender.deleted == [] and await store.sent_pings() == []
