"""DailyService over TableService: one deal per server and day, once per member, fair
computers, no peeking, the day's roll-over, a restart mid-hand, nothing in table
totals (docs/RULES.md §Daily deal). A fake clock; both storage backends."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.features.daily.rules import DAILY_SEAT, daily_table
from bot.features.daily.service import POST_GRACE, DailyService
from bot.features.daily.values import DailySettings
from bot.game.errors import GameError
from bot.game.table import Table
from bot.rules import DEFAULT_RULES
from bot.service import TableService
from bot.storage import open_repository
from bot.storage.base import SqlRepository
from tests.support.service_clock import FakeClock, Recorder, featured_service, run

G = 1
ANA, BEN, CAL = 101, 102, 103
NOON = 1_796_126_400.0  # 2026-12-01 12:00 UTC
DAY = 24 * 3600.0


@pytest.fixture
def clock() -> FakeClock:
    """The shared fixture's fake clock, at noon UTC on 2026-12-01."""
    return FakeClock(NOON)


async def new_service(store: SqlRepository, clock: FakeClock, level: str = "normal"
                      ) -> TableService:
    svc = featured_service(store, clock=clock, listener=Recorder(), ai_delay=0)
    settings = DailySettings.changed(await svc.settings(G), level=level)
    await svc.save_settings(G, settings)
    return svc


@pytest.fixture
async def service(store: SqlRepository, clock: FakeClock) -> AsyncIterator[TableService]:
    svc = await new_service(store, clock)
    yield svc
    await svc.close()


def member_move(table: Table) -> tuple[str, object]:
    """The test member's fixed way to play: the first legal play that may be made (on a
    free lead or to beat), else a pass."""
    hand = table.hand
    assert hand is not None
    plays = hand.legal_plays(DAILY_SEAT)
    return ("play", plays[0].cards) if plays else ("pass", None)


async def play_daily(service: TableService, clock: FakeClock, table_id: str, user: int,
                     *, stop_after: int | None = None) -> Table:
    """Play the member's seat with ``member_move`` until the hand ends (the last table
    seen) or ``stop_after`` member moves."""
    moves = 0
    for _ in range(300):
        await run(service, clock)
        table = service.get(table_id)
        if table is None:
            assert isinstance(service.listener, Recorder)
            return service.listener.latest[table_id]
        if table.turn_seat == DAILY_SEAT and not table.seats[DAILY_SEAT].automatic:
            if stop_after is not None and moves == stop_after:
                return table
            kind, cards = member_move(table)
            if kind == "play":
                await service.play(table_id, user, cards, seq=table.seq)  # type: ignore[arg-type]
            else:
                await service.pass_turn(table_id, user, seq=table.seq)
            moves += 1
    raise AssertionError("the daily hand never ended")


def daily(service: TableService) -> DailyService:
    return service.daily


async def test_every_member_gets_the_same_deal_as_landlord_at_bid_3(
        service: TableService) -> None:
    ana = await daily(service).open(G, ANA, "Ana")
    ben = await daily(service).open(G, BEN, "Ben")
    assert ana.fresh and ben.fresh and ana.day == ben.day == "2026-12-01"
    assert ana.table is not None and ben.table is not None and ana.table.id != ben.table.id
    assert ana.table.hand is not None and ben.table.hand is not None
    assert ana.table.hand.dealt == ben.table.hand.dealt
    assert ana.table.hand.landlord == 0 and ana.table.hand.winning_bid == 3
    assert [s.computer for s in ana.table.seats] == [None, "normal", "normal"]
    # a daily table is no channel's table and no seat at the server's tables
    assert service.table_of_user(G, ANA) is None and service.table_in_channel(0) is None


async def test_same_moves_get_the_same_answers_at_hard(tmp_path: Path, clock: FakeClock,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    from bot.ai import search

    # The Hint's 1,000 steps for every hard search instead of STEP_BUDGET's 3,500: the
    # fixed budget ignores the clock at any size, and the test took 2-3 s of CPU at 3,500.
    monkeypatch.setattr(search, "STEP_BUDGET", 1_000)
    store = await open_repository(str(tmp_path / "daily.sqlite3"))  # one backend is enough
    service = await new_service(store, clock, "hard")  # type: ignore[arg-type]
    try:
        first = await daily(service).open(G, ANA, "Ana")
        ana = await play_daily(service, clock, first.table.id, ANA, stop_after=4)  # type: ignore[union-attr]
        # Ben plays later on a machine whose clock always runs out: a wall-clock cap
        # would cut every search at once; the daily's fixed budget does not notice.
        monkeypatch.setattr(search, "TIME_CAP", 0.0)
        second = await daily(service).open(G, BEN, "Ben")
        ben = await play_daily(service, clock, second.table.id, BEN, stop_after=4)  # type: ignore[union-attr]
        assert ana.hand is not None and ben.hand is not None
        answers = [a for a in ana.hand.history if a.seat != DAILY_SEAT]
        assert len(answers) >= 6
        assert ana.hand.history == ben.hand.history  # every computer answer, card for card
    finally:
        await service.close()
        await store.close()


async def test_once_a_day_then_the_result_and_the_board(service: TableService,
                                                        clock: FakeClock) -> None:
    opened = await daily(service).open(G, ANA, "Ana")
    assert opened.table is not None
    again = await daily(service).open(G, ANA, "Ana")  # while playing: the same table
    assert again.table is not None and again.table.id == opened.table.id and not again.fresh
    end = await play_daily(service, clock, opened.table.id, ANA)
    assert end.hand is not None and end.hand.result is not None
    assert service.get(opened.table.id) is None  # done: no open table left
    assert all(t.id != opened.table.id for t in await service.storage.load_open_tables())
    done = await daily(service).open(G, ANA, "Ana")
    assert done.table is None and done.entry is not None and done.entry.finished
    assert done.entry.points == end.hand.result.points[0]
    assert done.entry.won == (end.hand.result.winner == "landlord")
    board = await daily(service).board(G, "2026-12-01")
    assert [(r.place, r.entry.user_id, r.entry.points) for r in board.rows] == [
        (1, ANA, end.hand.result.points[0])]
    # nothing of it in the table play: no match totals, stats, ratings
    assert await service.storage.player_stats(G, ANA) is None
    assert (await service.storage.match_standings(G)).standings == []
    assert await service.storage.rating_board(G) == []
    summary = await daily(service).summary(G, ANA)
    assert (summary.played, summary.won) == (1, int(done.entry.won))


async def test_nobody_sees_todays_deal_before_playing_it(service: TableService,
                                                         clock: FakeClock) -> None:
    opened = await daily(service).open(G, ANA, "Ana")
    assert opened.table is not None
    assert not await daily(service).may_see(G, "2026-12-01", ANA)  # playing, not finished
    await play_daily(service, clock, opened.table.id, ANA)
    svc = daily(service)
    assert await svc.may_see(G, "2026-12-01", ANA)
    assert not await svc.may_see(G, "2026-12-01", BEN)
    assert await svc.hand(G, "2026-12-01", ANA, BEN) is None  # replay refused to Ben
    assert await svc.visible_board(G, "2026-12-01", BEN) is None
    assert await svc.played_count(G, "2026-12-01") == 1
    own = await svc.hand(G, "2026-12-01", ANA, ANA)
    assert own is not None and own.result is not None
    await run(service, clock, DAY)  # the day is over: everybody may see it
    assert await svc.may_see(G, "2026-12-01", BEN)
    seen = await svc.hand(G, "2026-12-01", ANA, BEN)
    assert seen is not None and seen.history == own.history
    assert await svc.visible_board(G, "2026-12-01", BEN) is not None
    assert not await svc.may_see(G, "2026-12-02", BEN)


async def test_the_day_rolls_over_to_a_new_deal(service: TableService, clock: FakeClock) -> None:
    first = await daily(service).open(G, ANA, "Ana")
    assert first.table is not None and first.table.hand is not None
    await play_daily(service, clock, first.table.id, ANA)
    clock.t = NOON + 12 * 3600 - 1  # 23:59:59 UTC: still the same day
    assert (await daily(service).open(G, ANA, "Ana")).table is None
    clock.t = NOON + 12 * 3600  # midnight
    second = await daily(service).open(G, ANA, "Ana")
    assert second.fresh and second.day == "2026-12-02" and second.table is not None
    assert second.table.hand is not None and second.table.hand.dealt != first.table.hand.dealt


async def test_the_servers_time_zone_decides_the_day(service: TableService) -> None:
    settings = (await service.settings(G)).with_changes(timezone="Pacific/Kiritimati")
    await service.save_settings(G, settings)  # UTC+14: already 2 December at noon UTC
    opened = await daily(service).open(G, ANA, "Ana")
    assert opened.day == "2026-12-02"
    assert (await service.settings(G)).timezone == "Pacific/Kiritimati"
    with pytest.raises(ValueError):
        settings.with_changes(timezone="Nowhere/Atlantis")


async def test_a_restart_mid_hand_goes_on(store: SqlRepository, clock: FakeClock) -> None:
    service = await new_service(store, clock)
    opened = await daily(service).open(G, ANA, "Ana")
    assert opened.table is not None
    middle = await play_daily(service, clock, opened.table.id, ANA, stop_after=2)
    await service.close()  # the bot stops here
    restarted = featured_service(store, clock=clock, listener=Recorder(), ai_delay=0)
    try:
        restored = await restarted.restore()
        assert [t.id for t in restored] == [opened.table.id]
        back = await daily(restarted).open(G, ANA, "Ana")
        assert back.table is not None and back.table.id == opened.table.id and not back.fresh
        assert back.table.seq == middle.seq and back.table.hand == middle.hand
        end = await play_daily(restarted, clock, opened.table.id, ANA)
        assert end.hand is not None and end.hand.result is not None
        entry = await store.daily_entry(G, "2026-12-01", ANA)
        assert entry is not None and entry.points == end.hand.result.points[0]
    finally:
        await restarted.close()


async def test_leaving_counts_as_the_result_of_auto_play(service: TableService,
                                                         clock: FakeClock) -> None:
    opened = await daily(service).open(G, ANA, "Ana")
    assert opened.table is not None
    await service.leave(opened.table.id, ANA)
    for _ in range(100):
        await run(service, clock, 5)
        if service.get(opened.table.id) is None:
            break
    entry = await service.storage.daily_entry(G, "2026-12-01", ANA)
    assert entry is not None and entry.finished


async def test_another_members_table_refuses_their_moves(service: TableService) -> None:
    opened = await daily(service).open(G, ANA, "Ana")
    assert opened.table is not None and opened.table.hand is not None
    lead = opened.table.hand.legal_plays(0)[0]
    with pytest.raises(GameError) as refused:
        await service.play(opened.table.id, BEN, lead.cards, seq=opened.table.seq)
    assert refused.value.code == "not_seated"
    assert service.get(opened.table.id) == opened.table  # nothing changed


async def test_standings_order_and_streaks(service: TableService, clock: FakeClock) -> None:
    for day in range(3):  # Ana plays three days, Ben and Cal the last one
        clock.t = NOON + day * DAY
        for user in ((ANA,) if day < 2 else (ANA, BEN, CAL)):
            opened = await daily(service).open(G, user, f"u{user}")
            assert opened.table is not None
            await play_daily(service, clock, opened.table.id, user)
    board = await daily(service).board(G, "2026-12-03")
    assert [r.place for r in board.rows] == [1, 2, 3]
    keys = [(-r.entry.points, r.entry.moves, r.entry.finished_at) for r in board.rows]
    assert keys == sorted(keys)
    rows = {r.entry.user_id: r for r in board.rows}
    won = {d: (await service.storage.daily_entry(G, d, ANA)).won  # type: ignore[union-attr]
           for d in ("2026-12-01", "2026-12-02", "2026-12-03")}
    run_length = 0
    for d in ("2026-12-01", "2026-12-02", "2026-12-03"):
        run_length = run_length + 1 if won[d] else 0
    assert rows[ANA].streak == run_length  # a lost last day ends it (seeds: any outcome)
    summary = await daily(service).summary(G, ANA)
    assert (summary.streak, summary.played) == (run_length, 3)


async def test_forget_waits_for_the_daily_hand_then_deletes_its_plays(
        service: TableService, clock: FakeClock) -> None:
    opened = await daily(service).open(G, ANA, "Ana")
    assert opened.table is not None
    with pytest.raises(GameError) as refused:
        await service.forget_user(G, ANA)
    assert refused.value.code == "forget_while_private"  # no leaving it: finish it
    await play_daily(service, clock, opened.table.id, ANA)
    assert await service.forget_user(G, ANA) >= 1
    assert await service.storage.daily_entry(G, "2026-12-01", ANA) is None
    assert (await daily(service).summary(G, ANA)).played == 0


async def test_a_lost_day_ends_the_streak_on_the_board_and_in_stats(
        service: TableService, clock: FakeClock) -> None:
    # the input that broke it: won, won, then lost today → streak 0 (it showed 2)
    store = service.storage
    for n, (day, won) in enumerate((("2026-11-29", True), ("2026-11-30", True),
                                    ("2026-12-01", False))):
        table, _ = daily_table(G, ANA, "Ana", "en", day=day, seed=n, level="normal",
                               rules=DEFAULT_RULES, turn_seconds=60, now=clock.now())
        assert await store.begin_daily(table, ANA, "Ana")
        assert await store.finish_daily(table, ANA, 6 if won else -6, 5, won)
    (row,) = (await daily(service).board(G, "2026-12-01")).rows
    assert (row.streak, row.best_streak) == (0, 2)
    (row,) = (await daily(service).board(G, "2026-11-30")).rows
    assert (row.streak, row.best_streak) == (2, 2)
    summary = await daily(service).summary(G, ANA)
    assert (summary.played, summary.won, summary.points, summary.streak,
            summary.best_streak) == (3, 2, 6, 0, 2)


async def test_forget_after_playing_buys_no_second_play_nor_a_look(
        service: TableService, clock: FakeClock) -> None:
    # the input that broke it: Ana plays today's deal, /ddz forget, /ddz daily again →
    # a fresh table of the same deal (she knew every card) and, once played, a second result
    svc = daily(service)
    opened = await svc.open(G, ANA, "Ana")
    assert opened.table is not None
    await play_daily(service, clock, opened.table.id, ANA)
    ben = await svc.open(G, BEN, "Ben")
    assert ben.table is not None
    await play_daily(service, clock, ben.table.id, BEN)
    await service.forget_user(G, ANA)
    with pytest.raises(GameError) as refused:
        await svc.open(G, ANA, "Ana")
    assert refused.value.code == "daily_forgotten"
    assert svc.table_of(G, ANA, "2026-12-01") is None
    # nor a look at today's deal: she is a member who has not played it
    assert not await svc.may_see(G, "2026-12-01", ANA)
    assert await svc.hand(G, "2026-12-01", BEN, ANA) is None
    # what is kept names nobody: one unfinished row, no id, table, result or hand
    rows = await stored(service, "SELECT user_id, table_id, level, finished_at, points, hand"
                              " FROM daily_plays WHERE guild_id = ? AND user_id <> ?", (G, BEN))
    assert len(rows) == 1 and rows[0][0] < 0 and tuple(rows[0][1:]) == ("", "", None, None, None)
    board = await svc.board(G, "2026-12-01")
    assert [r.entry.user_id for r in board.rows] == [BEN]
    assert await svc.played_count(G, "2026-12-01") == 1
    assert (await svc.summary(G, ANA)).played == 0
    # the next day she plays as anyone, and the mark of the day that is over goes
    clock.t = NOON + DAY
    fresh = await svc.open(G, ANA, "Ana")
    assert fresh.fresh and fresh.day == "2026-12-02"
    assert await stored(service, "SELECT day FROM daily_plays WHERE user_id < 0") == []


async def stored(service: TableService, sql: str, args: tuple = ()) -> list:
    async with service.storage._read() as db:  # type: ignore[attr-defined]
        return await db.fetch(sql, args)


async def test_a_daily_hand_is_a_record_the_replay_service_pages_and_reviews(
        service: TableService, clock: FakeClock) -> None:
    from bot.service.replays import ReplayService

    svc = daily(service)
    opened = await svc.open(G, ANA, "Ana")
    assert opened.table is not None
    assert await svc.record(G, "2026-12-01", ANA, ANA) is None  # not finished: nothing
    end = await play_daily(service, clock, opened.table.id, ANA)
    assert end.hand is not None and end.hand.result is not None
    assert await svc.record(G, "2026-12-01", ANA, BEN) is None  # Ben has not played it
    record = await svc.record(G, "2026-12-01", ANA, ANA)
    assert record is not None
    assert (record.hand_no, record.hand_id, record.channel_id) == (0, f"daily:{G}:2026-12-01:{ANA}",
                                                                   None)
    assert record.user_ids == (ANA, None, None) and record.seat_of(ANA) == 0
    assert [(c.name, c.role, c.points) for c in record.settlement.changes] == [
        ("Ana", "landlord", end.hand.result.points[0]),
        ("Bot 2", "peasant", end.hand.result.points[1]),
        ("Bot 3", "peasant", end.hand.result.points[2])]
    replays = ReplayService(service.storage)
    found = await replays.rebuilt(record)
    assert found.hand.history == end.hand.history and found.steps[-1].kind == "result"
    assert replays.reviewer_seat(found, ANA) == 0
    with pytest.raises(GameError):
        replays.reviewer_seat(found, BEN)
    await run(service, clock, DAY)  # the day is over: Ben sees it, a record like Ana's
    assert await svc.record(G, "2026-12-01", ANA, BEN) == record
    assert await svc.record(G, "2026-12-01", BEN, BEN) is None  # Ben never played it


async def test_a_deal_begun_before_midnight_stays_hidden_comes_back_and_holds_the_podium(
        service: TableService, clock: FakeClock) -> None:
    """Issue 36 §7: Ana still plays yesterday's deal at 00:00:10. She could replay Ben's
    whole hand of it (``may_see`` said yes to everyone for a past day), ``/ddz daily``
    dealt her today's deal instead of giving hers back, and yesterday's podium went out
    without her result, which still counts on yesterday's board."""
    svc = daily(service)
    ben = await svc.open(G, BEN, "Ben")
    assert ben.table is not None
    await play_daily(service, clock, ben.table.id, BEN)
    clock.t = NOON + 12 * 3600 - 60  # 23:59:00 UTC: Ana begins the deal of 2026-12-01
    ana = await svc.open(G, ANA, "Ana")
    assert ana.table is not None and ana.day == "2026-12-01"
    await play_daily(service, clock, ana.table.id, ANA, stop_after=2)
    clock.t = NOON + 12 * 3600 + 10  # 00:00:10 on 2026-12-02
    assert await svc.today(G) == "2026-12-02"
    assert not await svc.may_see(G, "2026-12-01", ANA)
    assert await svc.record(G, "2026-12-01", BEN, ANA) is None  # Ben's hand: not for her
    assert await svc.hand(G, "2026-12-01", BEN, ANA) is None
    assert await svc.visible_board(G, "2026-12-01", ANA) is None
    assert await svc.may_see(G, "2026-12-01", CAL)  # never played it: the day is over
    back = await svc.open(G, ANA, "Ana")  # yesterday's table first, not a new deal
    assert (back.day, back.fresh) == ("2026-12-01", False)
    assert back.table is not None and back.table.id == ana.table.id
    assert await svc.storage.daily_entry(G, "2026-12-02", ANA) is None
    assert not await svc.podium_ready(G, "2026-12-01")  # the post waits for her
    end = await play_daily(service, clock, ana.table.id, ANA)
    assert end.hand is not None and end.hand.result is not None
    assert await svc.podium_ready(G, "2026-12-01")
    assert await svc.may_see(G, "2026-12-01", ANA)
    board = await svc.board(G, "2026-12-01")
    assert {r.entry.user_id: r.entry.points for r in board.rows}[ANA] == \
        end.hand.result.points[DAILY_SEAT]
    today = await svc.open(G, ANA, "Ana")  # then today's deal
    assert today.fresh and today.day == "2026-12-02"


async def test_the_podium_waits_for_an_open_play_at_most_the_grace_period(
        service: TableService, clock: FakeClock) -> None:
    """A play of yesterday whose table is gone (lost) holds the podium back only
    ``POST_GRACE`` seconds after the day's end (docs/RULES.md §Daily deal)."""
    svc = daily(service)
    clock.t = NOON + 12 * 3600 - 60
    ana = await svc.open(G, ANA, "Ana")
    assert ana.table is not None
    midnight = NOON + 12 * 3600
    clock.t = midnight + POST_GRACE - 1
    assert not await svc.podium_ready(G, "2026-12-01")
    clock.t = midnight + POST_GRACE
    assert await svc.podium_ready(G, "2026-12-01")
    assert await svc.podium_ready(G, "2026-11-30")  # nobody played: nothing to wait for


async def test_a_days_level_and_rules_are_those_of_its_first_deal(
        service: TableService, clock: FakeClock) -> None:
    """Issue 36 §8: after an admin changed ``daily_level`` (and ``kickers``) mid-day, later
    players of the same daily deal met other computers under another rule."""
    svc = daily(service)
    ana = await svc.open(G, ANA, "Ana")  # the day's first deal: normal computers, default
    assert ana.table is not None
    assert ana.table.seats[1].computer == "normal" and ana.table.rules.kickers == "default"
    changed = DailySettings.changed((await service.settings(G)).with_changes(kickers="distinct"),
                                    level="easy")
    await service.save_settings(G, changed)
    ben = await svc.open(G, BEN, "Ben")
    assert ben.table is not None
    assert [s.computer for s in ben.table.seats[1:]] == ["normal", "normal"]
    assert ben.table.rules == ana.table.rules and ben.table.rules.kickers == "default"
    assert ben.table.hand is not None and ana.table.hand is not None
    assert ben.table.hand.dealt == ana.table.hand.dealt
    await run(service, clock, DAY)  # the next day takes the new settings
    cal = await svc.open(G, CAL, "Cal")
    assert cal.table is not None and cal.day == "2026-12-02"
    assert cal.table.seats[1].computer == "easy" and cal.table.rules.kickers == "distinct"
