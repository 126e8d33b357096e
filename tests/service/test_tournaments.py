"""TournamentService over the real repository (both backends) and a fake clock: every
step once, whatever calls ``reconcile`` or ``tick`` again, and after a restart (a second
service over the same storage) docs/RULES.md §Tournaments."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Sequence

import pytest

from bot.features.tournaments.scoring import StandingRow
from bot.features.tournaments.service import NullPoster, ThreadRefused
from bot.features.tournaments.values import TournamentEntrant, TournamentInfo, TournamentTable
from bot.game.errors import GameError
from bot.game.hand import Hand
from bot.game.happy import HappyHand
from bot.rules import RuleSet
from bot.service import TableService
from bot.service.pings import turn_start
from bot.storage.base import SqlRepository
from bot.values import NO_ORGANISER
from tests.support.service_clock import CH, FakeClock, G, featured_service, run

MEMBERS = (11, 12, 13, 14)


class Poster(NullPoster):
    """Notes what the service asks Discord for."""

    def __init__(self) -> None:
        self.threads: list[tuple[int, int]] = []
        self.rounds: list[int] = []
        self.finals: list[list[int]] = []

    async def open_thread(self, info: TournamentInfo, table: TournamentTable) -> int:
        self.threads.append((table.round_no, table.table_no))
        return 9000 + len(self.threads)

    async def round_seated(self, info: TournamentInfo, round_no: int,
                           tables: Sequence[TournamentTable]) -> None:
        self.rounds.append(round_no)

    async def finished(self, info: TournamentInfo, rows: Sequence[StandingRow],
                       entrants: Sequence[TournamentEntrant]) -> None:
        self.finals.append([row.user_id for row in rows])


async def drain(service: TableService, clock: FakeClock, seconds: float = 5.0) -> None:
    """Let the tournament's tasks and the tables' turns run ``seconds`` of fake time."""
    for _ in range(int(seconds)):
        await run(service, clock, 1.0)
        for _ in range(100):
            if all(t.done() for t in service.tournaments._tasks):
                break
            await asyncio.sleep(0.005)


def serviced(store: SqlRepository, clock: FakeClock, poster: Poster) -> TableService:
    service = featured_service(store, clock=clock, ai_delay=0, pace_scale=0)
    service.tournaments.poster = poster
    return service


async def test_every_step_happens_once_across_repeated_passes_and_a_restart(
        store: SqlRepository, clock: FakeClock) -> None:
    poster = Poster()
    service = serviced(store, clock, poster)
    cups = service.tournaments
    info = await cups.create(G, CH, 1, "Cup", rounds=2, hands=1, level="easy")
    with pytest.raises(GameError) as busy:
        await cups.create(G, CH, 1, "Other", rounds=1, hands=1)
    assert busy.value.code == "tournament_exists"
    for user in MEMBERS[:2]:
        await cups.join(G, user, f"u{user}")
    with pytest.raises(GameError) as few:
        await cups.start(G)
    assert (few.value.code, few.value.params["count"]) == ("tournament_too_few", "2")
    for user in MEMBERS[2:]:
        await cups.join(G, user, f"u{user}")
    await cups.start(G)
    await drain(service, clock)
    assert poster.threads == [(1, 1), (1, 2)] and poster.rounds == [1]  # 4: 2+C and 2+C
    for _ in range(3):
        await cups.reconcile(info.tournament_id)
        await cups.tick()
    assert poster.threads == [(1, 1), (1, 2)] and poster.rounds == [1]
    tables = [t for t in service.tables() if t.kind == "tournament"]
    assert sorted(t.channel_id for t in tables) == [9001, 9002]
    assert all(t.phase == "playing" for t in tables)

    await service.close()  # a restart: a new service over the same storage
    service = serviced(store, clock, poster)
    await service.restore()
    await service.tournaments.tick()
    assert poster.threads == [(1, 1), (1, 2)] and poster.rounds == [1]
    for table in service.tables():
        for seat in table.seats:
            if seat.user_id is not None:
                await service.set_autoplay(table.id, seat.user_id, True)
    for _ in range(60):
        await drain(service, clock, 10.0)
        await service.tournaments.tick()
        if poster.finals:
            break
    assert poster.rounds == [1, 2] and len(poster.threads) == 4
    assert len(poster.finals) == 1 and sorted(poster.finals[0]) == list(MEMBERS)
    await service.tournaments.tick()
    assert len(poster.finals) == 1 and service.tables() == []
    final = await service.tournaments.standings(G)
    assert final.info.status == "finished" and len(final.rows) == 4
    assert sum(row.tables for row in final.rows) == 8  # four members, two tables each
    await service.close()


async def test_forget_waits_until_the_member_is_out_of_the_live_tournament(
        store: SqlRepository, clock: FakeClock) -> None:
    """``/ddz forget`` of a member in the open or running tournament is refused (they
    leave it first, as a table); once out, it goes through and their line stays with no
    name (docs/RULES.md §Tournaments)."""
    service = serviced(store, clock, Poster())
    cups = service.tournaments
    info = await cups.create(G, CH, 1, "Cup", rounds=1, hands=1, level="easy")
    for user in MEMBERS[:3]:
        await cups.join(G, user, f"u{user}")
    for attempt in (service.check_can_forget, service.forget_user):
        with pytest.raises(GameError) as entered:
            await attempt(G, MEMBERS[0])
        assert entered.value.code == "forget_while_tournament"
    await service.check_can_forget(G, MEMBERS[3])  # not entered: asked nothing
    assert await cups.leave(G, MEMBERS[0]) == "left"
    await service.forget_user(G, MEMBERS[0])
    await cups.join(G, MEMBERS[3], f"u{MEMBERS[3]}")
    assert await store.start_tournament(info.tournament_id, clock.now())  # no table yet
    with pytest.raises(GameError) as running:
        await service.forget_user(G, MEMBERS[1])
    assert running.value.code == "forget_while_tournament"
    assert await cups.leave(G, MEMBERS[1]) == "withdrawn"
    await service.forget_user(G, MEMBERS[1])
    board = await cups.standings(G)
    assert [(e.user_id, e.name, e.status) for e in board.entrants] == [
        (-1, None, "withdrawn"), (MEMBERS[2], f"u{MEMBERS[2]}", "in"),
        (MEMBERS[3], f"u{MEMBERS[3]}", "in")]
    await service.close()


async def test_an_organiser_who_forgets_is_gone_from_the_tournament_and_its_tables(
        store: SqlRepository, clock: FakeClock) -> None:
    """``/ddz forget`` of the organiser (not an entrant) used to leave their id as the
    tournament's ``created_by`` and the starter of its tables, open ones (saved state)
    and those of the next rounds: now ``NO_ORGANISER`` everywhere, and the admins'
    ``cancel`` still closes everything (docs/RULES.md §Tournaments)."""
    service = serviced(store, clock, Poster())
    cups = service.tournaments
    organiser = 1
    info = await cups.create(G, CH, organiser, "Cup", rounds=2, hands=1, level="easy")
    for user in MEMBERS:
        await cups.join(G, user, f"u{user}")
    await cups.start(G)
    await drain(service, clock)
    tables = [t for t in service.tables() if t.kind == "tournament"]
    assert len(tables) == 2 and {t.starter_id for t in tables} == {organiser}

    await service.forget_user(G, organiser)
    await drain(service, clock)

    stored = await store.tournament(info.tournament_id)
    assert stored is not None and stored.created_by == NO_ORGANISER
    assert {t.starter_id for t in service.tables() if t.kind == "tournament"} == {
        NO_ORGANISER}
    assert {t.starter_id for t in await store.load_open_tables()} == {NO_ORGANISER}
    assert all(t.phase == "playing" for t in service.tables())  # play goes on
    await cups.cancel(G)
    assert service.tables() == []

    later = await cups.create(G, CH, organiser, "Cup 2", rounds=1, hands=1, level="easy")
    for user in MEMBERS:
        await cups.join(G, user, f"u{user}")
    await service.forget_user(G, organiser)  # before the start: the tables deal without
    await cups.start(G)
    await drain(service, clock)
    assert (await store.tournament(later.tournament_id)).created_by == NO_ORGANISER  # type: ignore[union-attr]
    assert {t.starter_id for t in service.tables()} == {NO_ORGANISER}
    await service.close()


async def test_a_rounds_first_bid_timer_waits_its_grace_then_counts_as_usual(
        store: SqlRepository, clock: FakeClock) -> None:
    """Issue 48: a table's first bid timer started while its members were still finding the
    new thread. Each table a round opens adds ``grace`` to its first bidder's timer (its
    turn ping counts from the end of the grace too, ``bot.service.pings.turn_start``)."""
    service = serviced(store, clock, Poster())
    cups = service.tournaments
    cups.grace = 45.0
    await cups.create(G, CH, 1, "Cup", rounds=1, hands=2, level="easy")
    for user in MEMBERS[:3]:
        await cups.join(G, user, f"u{user}")
    started = clock.now()
    await cups.start(G)
    await drain(service, clock, 1.0)
    [table] = [t for t in service.tables() if t.kind == "tournament"]
    assert table.hand is not None and table.hand.phase == "bidding"
    assert table.deadline is not None
    dealt = table.deadline - table.turn_seconds_bid - 45.0  # the deal: within drain's 1 s
    assert started <= dealt <= started + 1.0 and turn_start(table) == dealt + 45.0
    first_bidder = table.turn_seat
    await drain(service, clock, table.turn_seconds_bid + 30.0)  # past the timer alone
    waiting = service.get(table.id)
    assert waiting is not None and waiting.turn_seat == first_bidder and waiting.move_seq == (
        table.move_seq)  # nobody timed out: the grace is not over
    await drain(service, clock, 20.0)
    moved = service.get(table.id)
    assert moved is not None and moved.move_seq > table.move_seq  # timed out: a pass
    await service.close()


class FullServer(Poster):
    """A server at its active-thread limit while ``full``: every thread is refused."""

    def __init__(self) -> None:
        super().__init__()
        self.full = True
        self.refusals: list[float] = []
        self.told: list[tuple[str, float]] = []
        self.closed: list[tuple[int, tuple[str, int] | None]] = []
        self.clock: FakeClock | None = None

    async def open_thread(self, info: TournamentInfo, table: TournamentTable) -> int:
        if self.full:
            assert self.clock is not None
            self.refusals.append(self.clock.now())
            raise ThreadRefused("limit", "160006")
        return await super().open_thread(info, table)

    async def thread_refused(self, info: TournamentInfo, reason: str, retry_in: float) -> None:
        self.told.append((reason, retry_in))

    async def close_thread(self, info: TournamentInfo, thread_id: int,
                           shown: tuple[str, int] | None) -> None:
        self.closed.append((thread_id, shown))


async def test_refused_threads_back_off_tell_the_organiser_once_and_warn_once_a_step(
        store: SqlRepository, clock: FakeClock, caplog: pytest.LogCaptureFixture) -> None:
    """Issue 48: at the server's active-thread limit a round stayed "running", every 10 s
    tick a refusal (160006) and a traceback, nothing said in the channel. Now the tries
    back off (30 s doubling to 10 minutes), each refusal one warning, the organiser is told
    once; when threads free up, the round opens and its finished tables' threads close."""
    poster = FullServer()
    poster.clock = clock
    service = serviced(store, clock, poster)
    cups = service.tournaments
    await cups.create(G, CH, 1, "Cup", rounds=1, hands=1, level="easy")
    for user in MEMBERS[:3]:
        await cups.join(G, user, f"u{user}")
    caplog.set_level("WARNING", logger="bot.features.tournaments.service")
    started = clock.now()
    await cups.start(G)
    for _ in range(250):  # the ticker's 10 s, for 41 minutes of fake time
        await drain(service, clock, 10.0)
        await cups.tick()
    gaps = [round(b - a) for a, b in itertools.pairwise(poster.refusals)]
    assert poster.refusals[0] - started < 2
    waits = [30, 60, 120, 240, 480] + [600] * (len(gaps) - 5)  # doubling, then at most 600 s
    assert len(gaps) >= 7 and all(w <= g < w + 10 for g, w in zip(gaps, waits, strict=True)), (
        gaps)  # each try at the first 10 s tick after its wait
    warnings = [r for r in caplog.records if "refused a table's thread" in r.getMessage()]
    assert len(warnings) == len(poster.refusals) and all(r.exc_info is None for r in warnings)
    assert not [r for r in caplog.records if r.exc_info], caplog.text  # no traceback
    assert poster.told == [("limit", 30.0)]  # once, with the first wait

    poster.full = False
    for _ in range(70):  # the next try: at most 600 s and a tick away
        await drain(service, clock, 10.0)
        await cups.tick()
        if poster.threads:
            break
    assert poster.threads == [(1, 1)] and len(poster.told) == 1
    [table] = [t for t in service.tables() if t.kind == "tournament"]
    for seat in table.seats:
        if seat.user_id is not None:
            await service.set_autoplay(table.id, seat.user_id, True)
    for _ in range(60):
        await drain(service, clock, 10.0)
        if poster.finals:
            break
    assert len(poster.finals) == 1
    assert [(thread, shown is not None) for thread, shown in poster.closed] == [(9001, True)]
    await service.close()


async def test_a_member_dropped_before_the_tournament_notes_the_dealt_table_leaves_it(
        store: SqlRepository, clock: FakeClock, monkeypatch: pytest.MonkeyPatch) -> None:
    """Found with issue 48 (tests/e2e/test_tournament.py, now and then): ``drop`` right
    after the thread opened, while the dealt game table was not noted in the tournament's
    tables yet, left the member in the seat. The hand-over now finds the table by its
    fixed id (``game_table_id``)."""
    service = serviced(store, clock, Poster())
    cups = service.tournaments
    await cups.create(G, CH, 1, "Cup", rounds=1, hands=1, level="easy")
    for user in MEMBERS[:3]:
        await cups.join(G, user, f"u{user}")
    await cups.start(G)
    await drain(service, clock, 1.0)
    [table] = [t for t in service.tables() if t.kind == "tournament"]
    noted = cups.store.tournament_tables

    async def not_noted_yet(*args: object, **kwargs: object) -> list[TournamentTable]:
        return [t.model_copy(update={"table_id": None}) for t in await noted(*args, **kwargs)]

    monkeypatch.setattr(cups.store, "tournament_tables", not_noted_yet)
    assert await cups.drop(G, MEMBERS[1]) == "dropped"
    now = service.get(table.id)
    assert now is not None and now.seat_of(MEMBERS[1]) is None
    assert sum(seat.computer is not None for seat in now.seats) == 1
    await service.close()


async def test_the_organisers_rules_are_the_tables_classic_by_default_on_a_happy_server(
        store: SqlRepository, clock: FakeClock) -> None:
    """Issue 52: the organiser picks the rules at creation (``variant``); the tables play
    them with the server's cap, dealt shuffled; without a choice they play classic even on
    a server whose tables default to Happy no-shuffle. Each table then plays its hands to the
    end on auto-play and the tournament finishes."""
    service = serviced(store, clock, Poster())
    cups = service.tournaments
    settings = await service.settings(G)
    happy = RuleSet(variant="happy", deal="no-shuffle", cap=32)
    await service.save_settings(G, settings.model_copy(update={"rules": happy}))
    with pytest.raises(GameError) as forged:
        await cups.create(G, CH, 1, "Cup", rounds=1, hands=1, variant="poker")
    assert forged.value.code == "tournament_bad_option"
    for variant, hand_type in (("happy", HappyHand), ("classic", Hand)):
        kwargs = {"variant": variant} if variant == "happy" else {}
        info = await cups.create(G, CH, 1, "Cup", rounds=1, hands=2, level="easy", **kwargs)
        assert info.rules is not None and (info.rules.variant, info.rules.deal) == (
            variant, "shuffled")
        for user in MEMBERS[:3]:
            await cups.join(G, user, f"u{user}")
        await cups.start(G)
        await drain(service, clock, 1.0)
        [table] = [t for t in service.tables() if t.kind == "tournament"]
        assert type(table.hand) is hand_type
        assert (table.rules.variant, table.rules.deal, table.rules.cap) == (
            variant, "shuffled", 32)
        for seat in table.seats:
            if seat.user_id is not None:
                await service.set_autoplay(table.id, seat.user_id, True)
        for _ in range(60):
            await drain(service, clock, 10.0)
            await cups.tick()
            if (await cups.standings(G)).info.status == "finished":
                break
        final = await cups.standings(G)
        assert final.info.status == "finished" and sum(r.tables for r in final.rows) == 3
        assert sum(row.points for row in final.rows) == 0  # Happy stakes add up to zero too
    await service.close()
