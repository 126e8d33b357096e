"""Tournaments' storage on both backends (docs/RULES.md §Tournaments): one open or
running tournament per server, numbered per server; the sign-up (join once, full at
``MAX_ENTRANTS``, leave before the start, withdraw or drop after it); every step that
must happen once claimed once (start, a round seated, a table opened and finished, a
hand recorded, a round finished, the end, the cancellation, the final post); the
tables' seats, threads and results read back; a member's tournaments."""

from __future__ import annotations

import asyncio

from bot.features.tournaments.limits import MAX_ENTRANTS
from bot.features.tournaments.scoring import standings
from bot.features.tournaments.seating import TableSeats, seat_round
from bot.features.tournaments.values import TournamentHand, TournamentInfo
from bot.rules import DEFAULT_RULES
from bot.storage.base import SqlRepository
from bot.storage.migrations import MIGRATIONS
from bot.storage.pg_migrations import PG_MIGRATIONS
from bot.values import NO_ORGANISER

G, CH = 1, 10
ANA, BEN, CAL, DEE, EVE, FAY, GUS = range(101, 108)
SEVEN = [ANA, BEN, CAL, DEE, EVE, FAY, GUS]
NOW = 1_796_126_400.0


def cup(tid: str = "t1", guild: int = G, **changes: object) -> TournamentInfo:
    fields: dict[str, object] = dict(
        tournament_id=tid, guild_id=guild, channel_id=CH, name="Cup", rounds=2, hands=1,
        level="normal", created_by=ANA, created_at=NOW, seed=12345, rules=DEFAULT_RULES)
    fields.update(changes)
    return TournamentInfo.model_validate(fields)


def test_migration_12_exists_on_both_backends() -> None:
    assert len(MIGRATIONS) == len(PG_MIGRATIONS) >= 12  # later issues append more
    assert "CREATE TABLE tournament_tables" in MIGRATIONS[11]
    assert "CREATE TABLE tournament_tables" in PG_MIGRATIONS[11]


async def test_one_live_tournament_per_server_numbered_per_server(store: SqlRepository) -> None:
    first = await store.create_tournament(cup("t1", starts_at=NOW + 600))
    assert first is not None and first.number == 1 and first.status == "open"
    assert first.starts_at == NOW + 600 and first.rules == DEFAULT_RULES and first.seed == 12345
    assert await store.create_tournament(cup("t2")) is None  # t1 is open
    other = await store.create_tournament(cup("t3", guild=G + 1))
    assert other is not None and other.number == 1  # numbers are per server
    assert [t.tournament_id for t in await store.live_tournaments()] == ["t1", "t3"]
    assert await store.cancel_tournament("t1", NOW + 5)
    assert not await store.cancel_tournament("t1", NOW + 6)  # once
    second = await store.create_tournament(cup("t2", created_at=NOW + 10))
    assert second is not None and second.number == 2
    assert (await store.current_tournament(G)).tournament_id == "t2"  # type: ignore[union-attr]
    assert (await store.tournament_by_number(G, 1)).status == "cancelled"  # type: ignore[union-attr]
    assert await store.tournament_by_number(G, 3) is None
    assert await store.tournament_by_number(G + 1, 2) is None
    await store.set_tournament_signup("t2", 555)
    assert (await store.tournament("t2")).signup_message_id == 555  # type: ignore[union-attr]
    assert await store.tournament("nope") is None


async def test_sign_up_join_once_leave_before_the_start(store: SqlRepository) -> None:
    await store.create_tournament(cup())
    assert await store.join_tournament("t1", ANA, "Ana", NOW) == "joined"
    assert await store.join_tournament("t1", ANA, "Ana", NOW + 1) == "already"
    assert await store.join_tournament("t1", BEN, "Ben", NOW + 2) == "joined"
    assert not await store.start_tournament("t1", NOW + 3)  # 2 entrants: stays open
    assert await store.leave_tournament("t1", BEN, NOW + 4) == "left"
    assert await store.leave_tournament("t1", BEN, NOW + 5) == "absent"
    for i, user in enumerate([CAL, DEE, BEN]):
        assert await store.join_tournament("t1", user, f"u{user}", NOW + 10 + i) == "joined"
    entrants = await store.tournament_entrants("t1")
    assert [(e.user_id, e.name, e.status) for e in entrants] == [
        (ANA, "Ana", "in"), (CAL, f"u{CAL}", "in"), (DEE, f"u{DEE}", "in"),
        (BEN, f"u{BEN}", "in")]  # Ben joined again: last
    assert await store.start_tournament("t1", NOW + 20)
    assert not await store.start_tournament("t1", NOW + 21)  # once
    started = await store.tournament("t1")
    assert started is not None and started.status == "running" and started.started_at == NOW + 20
    assert await store.join_tournament("t1", EVE, "Eve", NOW + 22) == "closed"
    assert await store.join_tournament("nope", EVE, "Eve", NOW + 22) == "closed"


async def test_after_the_start_leave_withdraws_and_drop_drops(store: SqlRepository) -> None:
    await store.create_tournament(cup())
    for i, user in enumerate(SEVEN):
        await store.join_tournament("t1", user, f"u{user}", NOW + i)
    assert await store.start_tournament("t1", NOW + 10)
    assert await store.leave_tournament("t1", BEN, NOW + 11) == "withdrawn"
    assert await store.leave_tournament("t1", BEN, NOW + 12) == "absent"
    assert await store.drop_tournament_entrant("t1", CAL, NOW + 13) == "dropped"
    assert await store.drop_tournament_entrant("t1", CAL, NOW + 14) == "absent"
    assert await store.leave_tournament("t1", 999, NOW + 15) == "absent"
    entrants = await store.tournament_entrants("t1")
    assert [(e.user_id, e.status, e.left_at) for e in entrants][:3] == [
        (ANA, "in", None), (BEN, "withdrawn", NOW + 11), (CAL, "dropped", NOW + 13)]
    assert len(entrants) == 7  # still listed in the standings
    assert await store.finish_tournament("t1", NOW + 20)
    assert await store.leave_tournament("t1", DEE, NOW + 21) == "closed"


async def test_the_sign_up_is_full_at_ninety(store: SqlRepository) -> None:
    await store.create_tournament(cup())
    for user in range(1, MAX_ENTRANTS + 1):
        assert await store.join_tournament("t1", user, "x", NOW + user) == "joined"
    assert await store.join_tournament("t1", 1000, "late", NOW + 100) == "full"
    assert await store.leave_tournament("t1", 5, NOW + 101) == "left"
    assert await store.join_tournament("t1", 1000, "late", NOW + 102) == "joined"


async def test_concurrent_joins_never_pass_ninety(store: SqlRepository) -> None:
    await store.create_tournament(cup())
    for user in range(1, MAX_ENTRANTS - 1):
        await store.join_tournament("t1", user, "x", NOW + user)
    answers = await asyncio.gather(*(store.join_tournament("t1", 500 + i, "y", NOW + 200)
                                     for i in range(6)))
    assert sorted(answers) == ["full"] * 4 + ["joined"] * 2
    assert len(await store.tournament_entrants("t1")) == MAX_ENTRANTS


async def test_a_round_is_seated_once_and_in_order(store: SqlRepository) -> None:
    await store.create_tournament(cup())
    for i, user in enumerate(SEVEN):
        await store.join_tournament("t1", user, f"u{user}", NOW + i)
    r1 = seat_round(1, SEVEN, [], [], 12345)
    assert not await store.seat_tournament_round("t1", 1, r1, NOW)  # not running yet
    assert await store.start_tournament("t1", NOW + 10)
    assert not await store.seat_tournament_round("t1", 2, r1, NOW)  # round 1 first
    results = await asyncio.gather(*(store.seat_tournament_round("t1", 1, r1, NOW + 11)
                                     for _ in range(3)))
    assert sorted(results) == [False, False, True]  # exactly once
    assert (await store.tournament("t1")).current_round == 1  # type: ignore[union-attr]
    tables = await store.tournament_tables("t1", 1)
    assert [(t.round_no, t.table_no, t.seats) for t in tables] == [
        (1, 1, (GUS, EVE, BEN)), (1, 2, (CAL, ANA, None)), (1, 3, (FAY, DEE, None))]
    assert all(t.opened_at is None and t.points is None for t in tables)


async def test_tables_are_opened_played_and_finished_once(store: SqlRepository) -> None:
    await store.create_tournament(cup())
    for i, user in enumerate(SEVEN):
        await store.join_tournament("t1", user, f"u{user}", NOW + i)
    await store.start_tournament("t1", NOW + 10)
    r1 = seat_round(1, SEVEN, [], [], 12345)
    await store.seat_tournament_round("t1", 1, r1, NOW + 11)
    claims = await asyncio.gather(*(store.claim_tournament_table("t1", 1, 2, NOW + 12)
                                    for _ in range(3)))
    assert sorted(claims) == [False, False, True]
    await store.set_tournament_table("t1", 1, 2, 9002, "tab-2")
    found = await store.tournament_table_of("tab-2")
    assert found is not None and (found.table_no, found.thread_id) == (2, 9002)
    assert found.opened_at == NOW + 12
    assert await store.tournament_table_of("tab-x") is None
    hand = TournamentHand(round_no=1, table_no=2, hand=1, hand_no=17, points=(4, -2, -2))
    assert await store.record_tournament_hand("t1", hand)
    assert not await store.record_tournament_hand("t1", hand.model_copy(update={"hand_no": 18}))
    assert await store.tournament_hands("t1") == [hand]
    results = {1: (6, -3, -3), 2: (4, -2, -2), 3: (-2, 4, -2)}
    assert await store.finish_tournament_table("t1", 1, 1, results[1], NOW + 20)
    assert not await store.finish_tournament_round("t1", 1, NOW + 21)  # tables 2, 3 play on
    assert await store.finish_tournament_table("t1", 1, 2, results[2], NOW + 22)
    assert not await store.finish_tournament_table("t1", 1, 2, (0, 0, 0), NOW + 23)  # once
    assert await store.finish_tournament_table("t1", 1, 3, results[3], NOW + 24)
    assert await store.tournament_rounds_finished("t1") == []
    ends = await asyncio.gather(*(store.finish_tournament_round("t1", 1, NOW + 25)
                                  for _ in range(3)))
    assert sorted(ends) == [False, False, True]
    assert await store.tournament_rounds_finished("t1") == [1]
    tables = await store.tournament_tables("t1")
    assert [t.points for t in tables] == [results[1], results[2], results[3]]
    # the standings from what storage gives back (docs/RULES.md §Tournaments example)
    entrants = [e.user_id for e in await store.tournament_entrants("t1")]
    rows = standings(entrants, tables)
    assert [(r.user_id, float(r.match_points)) for r in rows] == [
        (GUS, 3.0), (CAL, 3.0), (DEE, 3.0), (ANA, 0.5), (FAY, 0.5), (BEN, 0.5), (EVE, 0.5)]
    r2 = seat_round(2, entrants, [r.user_id for r in rows], [t.seats for t in tables], 12345)
    assert await store.seat_tournament_round("t1", 2, r2, NOW + 30)
    assert not await store.seat_tournament_round("t1", 2, r2, NOW + 31)
    assert [t.seats for t in await store.tournament_tables("t1", 2)] == [
        (GUS, CAL, DEE), (ANA, BEN, None), (FAY, EVE, None)]


async def test_the_end_and_the_final_post_are_claimed_once(store: SqlRepository) -> None:
    await store.create_tournament(cup())
    for i, user in enumerate(SEVEN[:3]):
        await store.join_tournament("t1", user, f"u{user}", NOW + i)
    assert not await store.claim_tournament_post("t1", NOW + 1)  # still open
    assert not await store.finish_tournament("t1", NOW + 2)  # not running
    await store.start_tournament("t1", NOW + 3)
    await store.seat_tournament_round("t1", 1, [TableSeats(1, (ANA, BEN, CAL))], NOW + 4)
    ends = await asyncio.gather(*(store.finish_tournament("t1", NOW + 5) for _ in range(3)))
    assert sorted(ends) == [False, False, True]
    assert not await store.cancel_tournament("t1", NOW + 6)  # finished already
    posts = await asyncio.gather(*(store.claim_tournament_post("t1", NOW + 7) for _ in range(3)))
    assert sorted(posts) == [False, False, True]
    done = await store.tournament("t1")
    assert done is not None and (done.status, done.ended_at, done.announced_at) == (
        "finished", NOW + 5, NOW + 7)
    assert await store.live_tournaments() == []
    assert not await store.seat_tournament_round("t1", 2, [TableSeats(1, (ANA, BEN, CAL))],
                                                 NOW + 8)
    assert [t.tournament_id for t in await store.tournaments_of_user(G, BEN)] == ["t1"]
    assert await store.tournaments_of_user(G, DEE) == []
    assert await store.tournaments_of_user(G + 1, BEN) == []


async def test_forget_keeps_a_finished_tournament_s_standings_without_the_member(
        store: SqlRepository) -> None:
    """``/ddz forget`` used to leave the member's id in a tournament's entrants and tables
    (their stats still listed it, its web page named them by id): now the line stays
    under a stand-in id below 0 with no name, so the standings do not move, and an open
    tournament's entry goes."""
    await store.create_tournament(cup())
    for i, user in enumerate(SEVEN):
        await store.join_tournament("t1", user, f"u{user}", NOW + i)
    await store.start_tournament("t1", NOW + 10)
    await store.seat_tournament_round("t1", 1, seat_round(1, SEVEN, [], [], 12345), NOW + 11)
    for table_no, points in {1: (6, -3, -3), 2: (4, -2, -2), 3: (-2, 4, -2)}.items():
        await store.finish_tournament_table("t1", 1, table_no, points, NOW + 20)
    await store.leave_tournament("t1", BEN, NOW + 21)  # withdrawn: listed all the same
    await store.finish_tournament("t1", NOW + 30)
    before = standings([e.user_id for e in await store.tournament_entrants("t1")],
                       await store.tournament_tables("t1"))
    await store.create_tournament(cup("t2", created_at=NOW + 40))
    await store.join_tournament("t2", CAL, f"u{CAL}", NOW + 41)
    await store.join_tournament("t2", ANA, f"u{ANA}", NOW + 42)

    assert await store.forget_user(G, CAL) >= 3  # entry, seat, next entry at least
    await store.forget_user(G, BEN)

    entrants = await store.tournament_entrants("t1")
    tables = await store.tournament_tables("t1")
    stand_in = {CAL: -1, BEN: -2}  # new in the tournament, one after the other
    assert [(e.user_id, e.name, e.status) for e in entrants] == [
        (stand_in.get(u, u), None if u in stand_in else f"u{u}",
         "withdrawn" if u == BEN else "in") for u in SEVEN]
    assert not {CAL, BEN} & {seat for t in tables for seat in t.seats}
    after = standings([e.user_id for e in entrants], tables)
    assert [(r.place, stand_in.get(r.user_id, r.user_id), r.match_points, r.points,
             r.buchholz, r.tables) for r in before] == [
        (r.place, r.user_id, r.match_points, r.points, r.buchholz, r.tables)
        for r in after]  # nobody moved
    assert [r.user_id for r in before if r.user_id in stand_in] == [CAL, BEN]
    assert await store.tournaments_of_user(G, CAL) == []
    assert [t.tournament_id for t in await store.tournaments_of_user(G, ANA)] == ["t1"]
    assert [e.user_id for e in await store.tournament_entrants("t2")] == [ANA]  # left
    assert await store.join_tournament("t2", CAL, "Cal", NOW + 50) == "joined"


async def test_forget_leaves_no_organiser_id_on_the_tournaments_they_created(
        store: SqlRepository) -> None:
    """``/ddz forget`` used to leave the organiser's id as the tournaments'
    ``created_by``: now ``NO_ORGANISER`` there, in that server only (None: in every
    server), whether they entered or not."""
    await store.create_tournament(cup("t1"))
    await store.create_tournament(cup("t2", guild=G + 1))
    await store.join_tournament("t2", BEN, "Ben", NOW)
    assert await store.forget_user(G, ANA) == 1  # the tournament's row
    mine, other = await store.tournament("t1"), await store.tournament("t2")
    assert mine is not None and mine.created_by == NO_ORGANISER == 0
    assert other is not None and other.created_by == ANA
    await store.join_tournament("t2", ANA, "Ana", NOW + 1)
    await store.forget_user(None, ANA)
    other = await store.tournament("t2")
    assert other is not None and other.created_by == NO_ORGANISER
    assert [e.user_id for e in await store.tournament_entrants("t2")] == [BEN]


async def test_forget_in_every_server_withdraws_a_running_tournament_s_stand_in(
        store: SqlRepository) -> None:
    """``forget_user(None, …)`` asks no service check: a member still in a running
    tournament used to become a stand-in still "in", seated again in the next rounds.
    Now the stand-in is withdrawn (at the forget), as by ``leave``: never seated again;
    the line and the tables played stay."""
    await store.create_tournament(cup())
    for i, user in enumerate(SEVEN):
        await store.join_tournament("t1", user, f"u{user}", NOW + i)
    await store.start_tournament("t1", NOW + 10)
    await store.seat_tournament_round("t1", 1, seat_round(1, SEVEN, [], [], 12345), NOW + 11)

    await store.forget_user(None, CAL)

    entrants = await store.tournament_entrants("t1")
    (stand_in,) = [e for e in entrants if e.user_id < 0]
    assert (stand_in.user_id, stand_in.name, stand_in.status) == (-1, None, "withdrawn")
    assert stand_in.left_at is not None and stand_in.left_at > NOW
    assert [e.user_id for e in entrants if e.status == "in"] == [
        u for u in SEVEN if u != CAL]  # who the next round seats
    assert -1 in {seat for t in await store.tournament_tables("t1") for seat in t.seats}
    assert await store.leave_tournament("t1", -1, NOW + 20) == "absent"  # already out
