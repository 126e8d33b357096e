"""TableService and issue 26 §1-2: seats given up at Play again, members set free, the
private note for an absent member (docs/RULES.md §Timers). Fake clock, both backends."""

from __future__ import annotations

from bot.service import TableService
from bot.service.releases import ReleaseNote
from tests.support.service_clock import ALICE, BOB, CH, FakeClock, G, recorder, run


async def drive(service: TableService, clock: FakeClock, table_id: str) -> None:
    """Alice plays her own turns (bid 3, smallest lead, pass on a follow); everyone else's
    turns come from the computer or time out."""
    for _ in range(600):
        table = service.get(table_id)
        assert table is not None
        if table.phase != "playing":
            return
        seat = table.turn_seat
        assert seat is not None and table.hand is not None
        me = table.seats[seat]
        if me.user_id != ALICE or me.autoplay:
            await run(service, clock, 61)
            continue
        hand = table.hand
        if hand.phase == "bidding":
            await service.bid(table_id, ALICE, max(hand.allowed_bids(seat)), seq=table.seq)
        elif hand.to_beat_for(seat) is None:
            smallest = min(hand.legal_plays(seat), key=lambda c: (len(c.cards), c.rank))
            await service.play(table_id, ALICE, smallest, seq=table.seq)
        else:
            await service.pass_turn(table_id, ALICE, seq=table.seq)
    raise AssertionError("the hand did not end")


async def two_members_and_a_computer(service: TableService) -> str:
    table = await service.open_table(G, CH, ALICE, "Alice", "en", computers=1)
    await service.join(table.id, BOB, "Bob")
    await service.start(table.id, ALICE, seed=5)
    return table.id


async def test_an_absent_member_is_given_up_after_a_whole_hand_and_told_once(
    service: TableService, clock: FakeClock
) -> None:
    tid = await two_members_and_a_computer(service)
    await drive(service, clock, tid)  # Bob times out twice: auto-play from hand 1 on
    table = service.get(tid)
    assert table is not None and table.seats[2].autoplay and table.seats[2].timeout_hand == 1
    await service.play_again(tid, ALICE)
    assert service.get(tid).seats[2].user_id == BOB  # still absent, still his seat
    await drive(service, clock, tid)  # the whole of hand 2 on auto-play
    assert service.table_of_user(G, BOB) is not None  # not before Play again
    assert service.take_release_notes(G, BOB) == []
    table = await service.play_again(tid, ALICE)
    assert table.phase == "playing" and table.seats[2].computer == "normal"
    assert service.table_of_user(G, BOB) is None
    released = [e for e in recorder(service).events if e.kind == "released"]
    assert [(e.seat, e.params["reason"], e.params["fill"]) for e in released] == [
        (2, "timeouts", "computer")]
    assert service.take_release_notes(G, BOB) == [ReleaseNote(tid, CH, 2, "timeouts")]
    assert service.take_release_notes(G, BOB) == []  # told once


async def test_a_member_who_left_may_open_a_table_elsewhere_once_the_hand_is_settled(
    service: TableService, clock: FakeClock
) -> None:
    tid = await two_members_and_a_computer(service)
    await service.leave(tid, BOB)
    assert service.table_of_user(G, BOB) is not None  # the hand plays on for him
    await drive(service, clock, tid)
    assert service.get(tid).phase == "finished" and recorder(service).settlements
    assert recorder(service).settlements[-1].changes[2].user_id == BOB  # it counted for him
    assert service.table_of_user(G, BOB) is None
    other = await service.open_table(G, CH + 1, BOB, "Bob", "en", computers=2)
    assert service.table_of_user(G, BOB) == other
    table = await service.play_again(tid, ALICE)
    assert table.seats[2].computer == "normal" and table.seat_of(BOB) is None
    assert service.take_release_notes(G, BOB) == []  # he left himself: no note
