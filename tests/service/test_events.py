"""EventService over TableService: create / join / play / standings / close, seats by
deal, the same cards for every entrant, duplicate scores against the field, no peeking,
the close by time on a fake clock, stand-ins for unplayed deals, the announcement once,
a restart mid-deal, another member refused, nothing in table totals (docs/RULES.md
§Events). Both storage backends."""

from __future__ import annotations

from collections.abc import AsyncIterator
from fractions import Fraction

import pytest

from bot.features.events.rules import EVENT_SEAT, landlord_seat
from bot.features.events.service import EventService
from bot.game.errors import GameError
from bot.game.table import Table
from bot.service import TableService
from bot.storage.base import SqlRepository
from tests.support.service_clock import FakeClock, Recorder, featured_service, run

G, CH = 1, 10
ADMIN, ANA, BEN, CAL = 100, 101, 102, 103
NOON = 1_796_126_400.0  # 2026-12-01 12:00 UTC
HOUR = 3600.0


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(NOON)


@pytest.fixture
async def service(store: SqlRepository, clock: FakeClock) -> AsyncIterator[TableService]:
    svc = featured_service(store, clock=clock, listener=Recorder(), ai_delay=0)
    yield svc
    await svc.close()


def events(service: TableService) -> EventService:
    return service.events


async def create(service: TableService, deals: int = 3, hours: float = 24) -> str:
    event = await events(service).create(G, CH, ADMIN, "Winter cup", deals, "easy", hours)
    return event.event_id


async def play_deal(service: TableService, clock: FakeClock, user: int, *,
                    stop_after: int | None = None, greedy: bool = True) -> Table:
    """Open the member's next deal and play seat 0 (first legal play, or the last when not
    ``greedy``) to the end (the last table seen) or ``stop_after`` member moves."""
    opened = await events(service).play(G, user, f"u{user}")
    assert opened.table is not None
    table_id = opened.table.id
    moves = 0
    for _ in range(300):
        await run(service, clock)
        table = service.get(table_id)
        if table is None:
            assert isinstance(service.listener, Recorder)
            return service.listener.latest[table_id]
        if table.turn_seat == EVENT_SEAT and not table.seats[EVENT_SEAT].automatic:
            if stop_after is not None and moves == stop_after:
                return table
            assert table.hand is not None
            plays = table.hand.legal_plays(EVENT_SEAT)
            free = table.hand.to_beat_for(EVENT_SEAT) is None
            if plays and (free or greedy):
                await service.play(table_id, user, plays[0 if greedy else -1].cards,
                                   seq=table.seq)
            else:
                await service.pass_turn(table_id, user, seq=table.seq)
            moves += 1
    raise AssertionError("the deal never ended")


async def test_create_checks_its_options_and_one_event_at_a_time(service: TableService) -> None:
    svc = events(service)
    for deals, hours, name, code in ((0, 24, "x", "event_deals"), (13, 24, "x", "event_deals"),
                                     (3, 0.5, "x", "event_hours"),
                                     (3, 24 * 15, "x", "event_hours"),
                                     (3, 24, "   ", "event_name"), (3, 24, "x" * 61, "event_name"),
                                     # invisible: zero-width space, word joiner, a control
                                     (3, 24, "\u200b", "event_name"),
                                     (3, 24, "\u200b\u2060 \x07", "event_name")):
        with pytest.raises(GameError) as refused:
            await svc.create(G, CH, ADMIN, name, deals, "hard", hours)
        assert refused.value.code == code
    odd = await svc.create(G + 2, CH, ADMIN, "@everyone 🎉 مرحبا **x**", 1, "hard", 1)
    assert odd.name == "@everyone 🎉 مرحبا **x**"  # shown escaped, sent mentioning no one
    event = await svc.create(G, CH, ADMIN, "  Winter   cup ", 12, "hard", 48)
    assert (event.name, event.deals, event.level, event.channel_id) == ("Winter cup", 12,
                                                                       "hard", CH)
    assert event.closes_at == NOON + 48 * HOUR
    with pytest.raises(GameError) as refused:
        await svc.create(G, CH, ADMIN, "Another", 3, "hard", 24)
    assert refused.value.code == "event_exists"
    other = await svc.create(G + 1, CH, ADMIN, "Elsewhere", 3, "hard", 24)  # another server
    assert other.event_id != event.event_id


async def test_entrants_play_every_deal_from_the_same_seat_with_the_same_cards(
        service: TableService, clock: FakeClock) -> None:
    await create(service, deals=3)
    svc = events(service)
    event, joined = await svc.join(G, ANA, "Ana")
    assert joined and not (await svc.join(G, ANA, "Ana"))[1]  # joining twice: no change
    hands = {}
    for user in (ANA, BEN):
        for deal in (1, 2, 3):
            opened = await svc.play(G, user, f"u{user}")
            assert opened.fresh and opened.deal == deal and opened.table is not None
            table = opened.table
            assert table.hand is not None and table.private
            assert table.hand.landlord == landlord_seat(deal) and table.hand.winning_bid == 3
            assert table.seats[EVENT_SEAT].user_id == user
            hands[(user, deal)] = table.hand.dealt
            again = await svc.play(G, user, f"u{user}")  # while playing: the same table
            assert again.table is not None and again.table.id == table.id and not again.fresh
            await play_deal(service, clock, user)
        done = await svc.play(G, user, f"u{user}")
        assert done.table is None and done.deal is None  # every deal played
    assert all(hands[(ANA, d)] == hands[(BEN, d)] for d in (1, 2, 3))
    assert hands[(ANA, 1)] != hands[(ANA, 2)]
    # a private table is no channel's and no seat at the server's tables
    assert service.table_of_user(G, ANA) is None and service.table_in_channel(0) is None
    # nothing in table play
    assert await service.storage.player_stats(G, ANA) is None
    assert (await service.storage.match_standings(G)).standings == []
    assert await service.storage.rating_board(G) == []


async def test_same_moves_get_the_same_answers(service: TableService, clock: FakeClock) -> None:
    await create(service, deals=2)
    ana = [await play_deal(service, clock, ANA) for _ in range(2)]
    ben = [await play_deal(service, clock, BEN) for _ in range(2)]
    for a, b in zip(ana, ben, strict=True):
        assert a.hand is not None and b.hand is not None
        assert a.hand.history == b.hand.history and a.hand.result == b.hand.result


async def test_standings_score_each_deal_against_the_field(service: TableService,
                                                           clock: FakeClock) -> None:
    await create(service, deals=1)
    ana = await play_deal(service, clock, ANA, greedy=True)
    ben = await play_deal(service, clock, BEN, greedy=False)
    cal = await play_deal(service, clock, CAL, greedy=True)
    points = {u: t.hand.result.points[EVENT_SEAT]  # type: ignore[union-attr]
              for u, t in ((ANA, ana), (BEN, ben), (CAL, cal))}
    mean = Fraction(sum(points.values()), 3)
    board = await events(service).standings(G, ANA)
    assert board is not None and not board.final and board.deals_seen == [1]
    scores = {r.user_id: Fraction(r.exact) for r in board.rows}
    assert scores == {u: p - mean for u, p in points.items()}
    assert sum(scores.values()) == 0
    assert [r.place for r in board.rows] == sorted(r.place for r in board.rows)


async def test_no_peeking_before_playing_a_deal(service: TableService, clock: FakeClock) -> None:
    event_id = await create(service, deals=2)
    svc = events(service)
    await play_deal(service, clock, ANA)  # Ana finished deal 1
    await svc.join(G, BEN, "Ben")
    event = await service.storage.event(event_id)
    assert event is not None
    assert await svc.may_see(event, 1, ANA) and not await svc.may_see(event, 2, ANA)
    assert not await svc.may_see(event, 1, BEN)
    assert await svc.hand(event, 1, ANA, BEN) is None  # replay of Ana's deal refused to Ben
    assert await svc.hand(event, 1, ANA, ANA) is not None
    ben = await svc.standings(G, BEN)
    assert ben is not None and ben.rows == [] and ben.deals_seen == []  # nothing of deal 1
    opened = await svc.play(G, BEN, "Ben")  # playing it is not having played it
    assert opened.table is not None and not await svc.may_see(event, 1, BEN)
    assert (await svc.standings(G, BEN)).rows == []  # type: ignore[union-attr]
    # once closed, everybody sees everything but their own deal still being played
    clock.t = event.closes_at
    assert await svc.may_see(event, 1, CAL) and await svc.hand(event, 1, ANA, CAL) is not None
    assert not await svc.may_see(event, 1, BEN) and await svc.hand(event, 1, ANA, BEN) is None
    assert await svc.may_see(event, 2, BEN)


async def test_a_deal_still_played_after_the_close_stays_hidden_from_its_player(
        service: TableService, clock: FakeClock) -> None:
    # the input that showed it: Ana finished deal 1, Ben began it, the admin closed the
    # event: Ben's standings said "Final" (all 0) and he could replay Ana's deal 1
    event_id = await create(service, deals=1)
    svc = events(service)
    ana = await play_deal(service, clock, ANA)
    ben = await play_deal(service, clock, BEN, stop_after=1)  # one move in, still playing
    await svc.join(G, CAL, "Cal")  # joined, played nothing
    closed = await svc.close(G)
    assert not await svc.may_see(closed, 1, BEN)  # his own play of deal 1 goes on
    assert await svc.hand(closed, 1, ANA, BEN) is None
    assert await svc.hand_record(closed, 1, ANA, BEN) is None
    assert await svc.may_see(closed, 1, ANA) and await svc.may_see(closed, 1, ADMIN)
    assert await svc.due() == []
    for viewer, seen in ((BEN, []), (ANA, [1]), (ADMIN, [1])):
        board = await svc.standings(G, viewer)
        assert board is not None and not board.final and board.provisional, viewer
        assert board.deals_seen == seen, viewer
    board = await svc.standings(G, ANA)
    assert board is not None
    rows = {r.user_id: r for r in board.rows}
    standin = (await service.storage.event_standins(event_id))[1]
    points = ana.hand.result.points[EVENT_SEAT]  # type: ignore[union-attr]
    # Ben is out of deal 1's field until he finishes; Cal has the stand-in
    mean = Fraction(points + standin, 2)
    assert {u: Fraction(r.exact) for u, r in rows.items()} == {
        ANA: points - mean, CAL: standin - mean, BEN: 0}
    assert (rows[ANA].played, rows[BEN].played, rows[CAL].played) == (1, 0, 0)
    await service.set_autoplay(ben.id, BEN, True)  # Ben's deal ends
    for _ in range(100):
        await run(service, clock, 5)
        if service.get(ben.id) is None:
            break
    assert await svc.may_see(closed, 1, BEN) and await svc.hand(closed, 1, ANA, BEN) is not None
    final = await svc.standings(G, BEN)
    assert final is not None and final.final and not final.provisional
    (due,) = await svc.due()
    assert (await svc.announce(due)) is not None and await svc.announce(due) is None


async def test_close_by_time_on_a_fake_clock_then_stand_ins_and_one_announcement(
        service: TableService, clock: FakeClock) -> None:
    event_id = await create(service, deals=2, hours=2)
    svc = events(service)
    first = await play_deal(service, clock, ANA)
    await play_deal(service, clock, ANA)
    await svc.join(G, BEN, "Ben")  # Ben joins and plays nothing
    clock.t = NOON + 2 * HOUR - 1
    assert await svc.due() == []  # one second before the closing time: open
    assert (await svc.play(G, CAL, "Cal")).table is not None  # Cal begins deal 1
    clock.t = NOON + 2 * HOUR
    with pytest.raises(GameError) as refused:
        await svc.play(G, BEN, "Ben")
    assert refused.value.code == "event_closed"
    assert await svc.due() == []  # Cal's deal begun before the close is played to its end
    cal_table = next(t for t in service.tables() if t.seats[0].user_id == CAL)
    await service.leave(cal_table.id, CAL)  # walks away: auto-play ends it
    for _ in range(100):
        await run(service, clock, 5)
        if service.get(cal_table.id) is None:
            break
    (due,) = await svc.due()
    assert due.event_id == event_id
    final = await svc.announce(due)
    assert final is not None and final.final and final.deals_seen == [1, 2]
    assert await svc.announce(due) is None  # never twice
    assert await svc.due() == []
    standins = await service.storage.event_standins(event_id)
    assert set(standins) == {1, 2}  # Ben played neither deal, Cal not deal 2
    rows = {r.user_id: r for r in final.rows}
    assert set(rows) == {ANA, BEN, CAL}
    assert (rows[ANA].played, rows[BEN].played, rows[CAL].played) == (2, 0, 1)
    plays = {(p.user_id, p.deal): p.points for p in await service.storage.event_plays(event_id)}
    assert plays[(ANA, 1)] == first.hand.result.points[0]  # type: ignore[union-attr]
    for deal in (1, 2):
        field = {ANA: plays[(ANA, deal)], BEN: standins[deal],
                 CAL: plays.get((CAL, deal), standins[deal])}
        mean = Fraction(sum(field.values()), 3)
        assert Fraction(0) == sum(v - mean for v in field.values())
    totals = {u: sum(plays.get((u, d), standins[d]) - Fraction(
        plays[(ANA, d)] + standins[d] + plays.get((CAL, d), standins[d]), 3)
        for d in (1, 2)) for u in (ANA, BEN, CAL)}
    assert {u: Fraction(r.exact) for u, r in rows.items()} == totals
    # the stand-in is what walking away from the first move gives: Cal's deal 1 result
    assert standins[1] == plays[(CAL, 1)]
    summary = await svc.summary(G, ANA)
    assert (summary.events, summary.deals) == (1, 2)
    assert summary.won == int(rows[ANA].place == 1)
    assert summary.score == pytest.approx(float(totals[ANA]))


async def test_an_early_close_is_for_admins_in_the_cog_and_happens_once(
        service: TableService, clock: FakeClock) -> None:
    await create(service, deals=1)
    svc = events(service)
    closed = await svc.close(G)
    assert closed.closed_at == NOON
    with pytest.raises(GameError) as refused:
        await svc.close(G)
    assert refused.value.code == "event_closed"
    with pytest.raises(GameError) as refused:
        await svc.join(G, ANA, "Ana")
    assert refused.value.code == "event_closed"
    (due,) = await svc.due()
    final = await svc.announce(due)
    assert final is not None and final.rows == []  # nobody entered: nothing to post but the name
    with pytest.raises(GameError) as refused:
        await svc.play(G, ANA, "Ana")
    assert refused.value.code == "no_event"
    await create(service, deals=1)  # announced: the next one may begin


async def test_a_restart_mid_deal_goes_on(store: SqlRepository, clock: FakeClock) -> None:
    service = featured_service(store, clock=clock, listener=Recorder(), ai_delay=0)
    await create(service, deals=2)
    await play_deal(service, clock, ANA)
    middle = await play_deal(service, clock, ANA, stop_after=2)  # deal 2, two moves in
    await service.close()  # the bot stops here
    restarted = featured_service(store, clock=clock, listener=Recorder(), ai_delay=0)
    try:
        restored = await restarted.restore()
        assert [t.id for t in restored] == [middle.id]
        back = await restarted.events.play(G, ANA, "Ana")
        assert back.table is not None and back.table.id == middle.id and not back.fresh
        assert back.deal == 2 and back.table.hand == middle.hand
        end = await play_deal(restarted, clock, ANA)
        assert end.id == middle.id and end.hand is not None and end.hand.result is not None
        plays = [p for p in await store.event_plays(back.event.event_id) if p.deal == 2]
        assert plays[0].finished and plays[0].points == end.hand.result.points[0]
    finally:
        await restarted.close()


async def test_another_members_event_table_refuses_their_moves(service: TableService) -> None:
    await create(service, deals=1)
    opened = await events(service).play(G, ANA, "Ana")
    table = opened.table
    assert table is not None and table.hand is not None
    lead = table.hand.legal_plays(0)[0]
    for act in (lambda: service.play(table.id, BEN, lead.cards, seq=table.seq),
                lambda: service.pass_turn(table.id, BEN, seq=table.seq)):
        with pytest.raises(GameError) as refused:
            await act()
        assert refused.value.code == "not_seated"
    assert service.get(table.id) == table  # nothing changed


async def test_a_restart_neither_skips_nor_repeats_the_announcement(
        store: SqlRepository, clock: FakeClock) -> None:
    first = featured_service(store, clock=clock, listener=Recorder(), ai_delay=0)
    await create(first, deals=1, hours=1)
    await play_deal(first, clock, ANA)
    await first.close()  # the bot is down when the closing time passes
    clock.t = NOON + 2 * HOUR
    second = featured_service(store, clock=clock, listener=Recorder(), ai_delay=0)
    try:
        await second.restore()
        (due,) = await second.events.due()  # not skipped: due after the restart
        final = await second.events.announce(due)
        assert final is not None and [r.user_id for r in final.rows] == [ANA]
    finally:
        await second.close()
    third = featured_service(store, clock=clock, listener=Recorder(), ai_delay=0)
    try:
        assert await third.events.due() == []  # announced: never again
        assert await third.events.announce(due) is None
    finally:
        await third.close()


async def test_forget_after_playing_a_deal_buys_no_second_entry(
        service: TableService, clock: FakeClock) -> None:
    # the input that broke it: Ana plays deal 1, /ddz forget, /ddz event play again →
    # a fresh table of deal 1 (she knew every card) and, once played, a second result
    event_id = await create(service, deals=2)
    svc = events(service)
    await play_deal(service, clock, ANA)
    await play_deal(service, clock, BEN)
    await service.forget_user(G, ANA)
    for act in (lambda: svc.play(G, ANA, "Ana"), lambda: svc.join(G, ANA, "Ana")):
        with pytest.raises(GameError) as refused:
            await act()
        assert refused.value.code == "event_forgotten"
        assert refused.value.params == {"name": "Winter cup"}
    assert svc.table_of(G, ANA, event_id) is None
    assert [p.user_id for p in await service.storage.event_plays(event_id)] == [BEN]
    # what is kept names nobody: one entry below 0, no name, outside the entrants
    rows = await stored(service, "SELECT user_id FROM event_entries WHERE event_id = ?"
                                 " AND user_id <> ?", (event_id, BEN))
    assert len(rows) == 1 and rows[0][0] < 0
    assert await service.storage.event_entrants(event_id) == [(BEN, f"u{BEN}")]
    ben = await svc.standings(G, BEN)
    assert ben is not None and ben.entrants == 1 and [r.user_id for r in ben.rows] == [BEN]
    # a member who only joined, then forgot, saw no card: they may enter again
    await svc.join(G, CAL, "Cal")
    await service.forget_user(G, CAL)
    assert (await svc.join(G, CAL, "Cal"))[1]
    # the results announced, the mark goes; the next event is open to Ana
    clock.t = NOON + 25 * HOUR
    (due,) = await svc.due()
    final = await svc.announce(due)
    assert final is not None and {r.user_id for r in final.rows} == {BEN, CAL}
    assert await stored(service, "SELECT user_id FROM event_entries WHERE user_id < 0") == []
    await create(service, deals=1)
    assert (await svc.play(G, ANA, "Ana")).fresh


async def stored(service: TableService, sql: str, args: tuple = ()) -> list:
    async with service.storage._read() as db:  # type: ignore[attr-defined]
        return await db.fetch(sql, args)


async def test_tied_lines_are_listed_by_who_joined_first_not_by_user_id(
        service: TableService, clock: FakeClock) -> None:
    """Issue 36 §9: tied lines came in user id order; docs/RULES.md §Events says raw
    points, then who joined first. Cal (id 103) joins before Ana (id 101); both make the
    same moves on the one deal, so the same points."""
    await create(service, deals=1)
    svc = events(service)
    await svc.join(G, CAL, "Cal")
    await svc.join(G, ANA, "Ana")
    await play_deal(service, clock, ANA)
    await play_deal(service, clock, CAL)
    for viewer in (ANA, CAL):
        open_rows = (await svc.standings(G, viewer)).rows  # type: ignore[union-attr]
        assert [(r.user_id, r.place) for r in open_rows] == [(CAL, 1), (ANA, 1)]
    await svc.close(G)
    final = await svc.standings(G, ANA)
    assert final is not None and final.final
    assert [(r.user_id, r.place, r.points) for r in final.rows] == [
        (CAL, 1, final.rows[0].points), (ANA, 1, final.rows[0].points)]


async def test_an_event_of_one_entrant_is_not_a_win_in_stats(
        service: TableService, clock: FakeClock) -> None:
    """Issue 36 §9: a lone entrant counted as having won, even with a negative score."""
    await create(service, deals=1)
    svc = events(service)
    await play_deal(service, clock, ANA, greedy=False)
    await svc.close(G)
    (due,) = await svc.due()
    final = await svc.announce(due)
    assert final is not None and [(r.user_id, r.place) for r in final.rows] == [(ANA, 1)]
    summary = await svc.summary(G, ANA)
    assert (summary.events, summary.won, summary.deals) == (1, 0, 1)


async def test_an_events_rules_are_those_of_its_creation(
        service: TableService, clock: FakeClock) -> None:
    """Issue 36 §8: after ``kickers`` changed, a running event's later entrants played its
    deals under the other rule. The level is the event's own already."""
    event_id = await create(service, deals=2)
    svc = events(service)
    first = await svc.play(G, ANA, "Ana")
    assert first.table is not None and first.table.rules.kickers == "default"
    changed = (await service.settings(G)).with_changes(kickers="distinct")
    await service.save_settings(G, changed)
    later = await svc.play(G, BEN, "Ben")
    assert later.table is not None and later.table.rules.kickers == "default"
    assert [s.computer for s in later.table.seats[1:]] == ["easy", "easy"]
    stored = await service.storage.event(event_id)
    assert stored is not None and stored.rules is not None and stored.rules.kickers == "default"
    await svc.close(G)
    await play_deal(service, clock, ANA)
    await play_deal(service, clock, BEN)
    (due,) = await svc.due()
    assert await svc.announce(due) is not None
    new = await svc.create(G, CH, ADMIN, "Spring cup", 1, "hard", 24)  # the next event: new rules
    assert new.rules is not None and new.rules.kickers == "distinct"
    opened = await svc.play(G, ANA, "Ana")
    assert opened.table is not None and opened.table.rules.kickers == "distinct"
