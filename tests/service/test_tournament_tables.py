"""A tournament's table in the table service (docs/RULES.md §Tournaments): a public kind
registered with ``TableService.register`` is told of each settled hand after the lock; the
table deals on without Play again; a withdrawn or dropped member's seat plays on."""

from __future__ import annotations

import pytest

from bot.features.tournaments.rules import hand_over
from bot.features.tournaments.values import TournamentKey
from bot.game.errors import GameError
from bot.game.seat import Seat, computer_seat
from bot.game.table import Table
from bot.service import TableService
from bot.storage.base import SqlRepository
from bot.values import Settlement
from tests.support.service_clock import (
    ALICE,
    BOB,
    CARL,
    CH,
    HANDS,
    KITTY,
    G,
    play_out,
    recorder,
)


class Told:
    """A public kind that notes what it is told (``bot.service.host.PublicKind``)."""

    def __init__(self, service: TableService) -> None:
        self.service = service
        self.seen: list[tuple[str, int, bool]] = []

    async def settled(self, table: Table, settlement: Settlement) -> None:
        lock = self.service._locks.get(table.id)
        self.seen.append((table.id, table.hand_no, bool(lock and lock.locked())))


def cup_table(users: tuple[int | None, int | None, int | None] = (ALICE, BOB, CARL)) -> Table:
    table = Table(guild_id=G, channel_id=CH, starter_id=999,
                  computer_level="easy")
    TournamentKey(tournament_id="cup", round_no=1, table_no=2).mark(table)
    for i, user in enumerate(users):
        table.seats[i] = (computer_seat(i, "easy") if user is None
                          else Seat(user_id=user, name=f"u{user}"))
    return table


async def dealt(service: TableService, table: Table) -> Table:
    table.deal_next(0.0, seed=None)
    table.hand = None
    table.phase = "lobby"

    async def claim() -> bool:
        await service.storage.save_table(table)
        return True

    await service.add_private(table, claim, [])
    return await service.start(table.id, ALICE, hands=HANDS, kitty=KITTY, first_bidder=0)


async def test_a_registered_public_kind_hears_of_each_settled_hand_after_the_lock(
        service: TableService, store: SqlRepository) -> None:
    told = service.register("tournament", Told(service))
    assert service.public["tournament"] is told and "tournament" not in service.private
    table = await dealt(service, cup_table())
    assert table.kind == "tournament" and not table.private
    await service.bid(table.id, ALICE, 3, seq=table.seq)
    table = await play_out(service, table.id)
    assert told.seen == [(table.id, table.hand_no, False)]
    [settlement] = recorder(service).settlements
    assert [c.total for c in settlement.changes] == [None, None, None]
    assert (await store.match_standings(G)).standings == []
    with pytest.raises(GameError) as refused:
        await service.play_again(table.id, ALICE)
    assert refused.value.code == "tournament_table"
    again = await service._act(table.id, lambda t, now: t.deal_next(now))
    assert again.phase == "playing" and again.hand_no == table.hand_no + 1
    assert [s.user_id for s in again.seats] == [ALICE, BOB, CARL]


def test_a_withdrawn_member_plays_on_auto_play_a_dropped_one_gives_the_seat_away() -> None:
    table = cup_table()
    table.deal_next(0.0, seed=3)
    seq = table.seq
    hand_over(table, BOB, computer=False)
    bob = table.seats[1]
    assert (bob.user_id, bob.autoplay, bob.away, bob.computer) == (BOB, True, True, None)
    hand_over(table, CARL, computer=True)
    assert table.seats[2].user_id is None and table.seats[2].computer == "easy"
    assert table.move_seq == seq  # nobody's buttons went stale
    with pytest.raises(GameError) as absent:
        hand_over(table, CARL, computer=True)
    assert absent.value.code == "not_seated"
    with pytest.raises(GameError) as playing:
        table.deal_next(0.0)
    assert playing.value.code == "wrong_phase"


def test_leaving_a_tournament_table_between_its_hands_keeps_the_seat_on_auto_play() -> None:
    table = cup_table()
    table.phase = "finished"  # between two hands: a channel's table would free the seat
    table.leave(BOB)
    bob = table.seats[1]
    assert (bob.user_id, bob.autoplay, bob.away) == (BOB, True, True)
    assert table.phase == "finished"
    table.deal_next(0.0, seed=5)
    assert table.phase == "playing" and table.seats[1].user_id == BOB


def test_each_registered_kind_names_its_hand_view_and_one_without_a_name_still_has_one(
        service: TableService) -> None:
    """Issue 48: a tournament table's hand view had no title (``KeyError: 'tournament'``);
    the title now comes from the registered kind (``TitledKind``), else a channel table's."""
    assert service.kinds == ["daily", "event", "table", "tournament"]
    table = cup_table()
    assert service.hand_title(table) == ("tournament.hand_title",
                                         {"round": "1", "table": "2", "hand": table.hand_no})
    del service.titled["tournament"]  # a kind registered without a title of its own
    assert service.hand_title(table) == ("hand.title", {"table": table.id})
