"""Duplicate events' storage on both backends (docs/RULES.md §Events): one event not yet
announced per server, once per member per deal, no play after the close, a result
recorded once, deals in progress, the announcement claimed once, stand-ins kept,
forget."""

from __future__ import annotations

from bot.features.events.rules import event_table
from bot.features.events.values import EventInfo
from bot.rules import DEFAULT_RULES, RuleSet
from bot.storage.base import SqlRepository
from bot.storage.migrations import MIGRATIONS
from bot.storage.pg_migrations import PG_MIGRATIONS
from bot.values import NO_ORGANISER

G, CH = 1, 10
ANA, BEN = 101, 102
NOW = 1_796_126_400.0


def event(event_id: str = "ev01", guild: int = G, closes: float = NOW + 3600) -> EventInfo:
    return EventInfo(event_id=event_id, guild_id=guild, channel_id=CH, name="Cup", deals=2,
                     level="hard", created_by=ANA, created_at=NOW, closes_at=closes)


def table(user: int, deal: int = 1, event_id: str = "ev01"):
    made, _ = event_table(G, user, "x", "en", event_id=event_id, deal=deal, seed=5,
                          level="easy", rules=DEFAULT_RULES, turn_seconds=60, now=NOW)
    return made


def test_migration_8_exists_on_both_backends() -> None:
    assert len(MIGRATIONS) == len(PG_MIGRATIONS) >= 8  # later issues append more
    assert "CREATE TABLE event_plays" in MIGRATIONS[7] and "event_plays" in PG_MIGRATIONS[7]


async def test_one_event_not_yet_announced_per_server(store: SqlRepository) -> None:
    assert await store.create_event(event("ev01"))
    assert not await store.create_event(event("ev02"))  # ev01 is not announced
    assert await store.create_event(event("ev03", guild=G + 1))
    assert (await store.current_event(G)).event_id == "ev01"  # type: ignore[union-attr]
    assert await store.close_event("ev01", NOW + 10)
    assert not await store.close_event("ev01", NOW + 20)  # once
    assert [e.event_id for e in await store.events_due(NOW + 10)] == ["ev01"]
    assert await store.claim_event_announcement("ev01", NOW + 30)
    assert not await store.claim_event_announcement("ev01", NOW + 40)  # once
    assert await store.events_due(NOW + 10 ** 6) == [
        e for e in await store.events_due(NOW + 10 ** 6) if e.guild_id == G + 1]
    assert await store.create_event(event("ev04"))
    assert (await store.current_event(G)).event_id == "ev04"  # type: ignore[union-attr]
    stored = await store.event("ev01")
    assert stored is not None and stored.closed_at == NOW + 10 and stored.announced_at == NOW + 30


async def test_a_play_is_claimed_once_and_recorded_once(store: SqlRepository) -> None:
    ev = event()
    assert await store.create_event(ev)
    first = table(ANA)
    assert await store.begin_event_play(first, ev, 1, ANA, "Ana", NOW)
    assert not await store.begin_event_play(table(ANA), ev, 1, ANA, "Ana", NOW)  # twice
    assert [user for user, _ in await store.event_entrants("ev01")] == [ANA]  # entered
    assert await store.event_entrants("ev01") == [(ANA, "Ana")]
    assert await store.event_in_progress("ev01") == 1
    assert [t.id for t in await store.load_open_tables()] == [first.id]
    (play,) = await store.event_plays("ev01")
    assert (play.deal, play.user_id, play.name, play.finished) == (1, ANA, "Ana", False)
    assert await store.finish_event_play(first, "ev01", 1, ANA, -6, 4)
    assert not await store.finish_event_play(first, "ev01", 1, ANA, 12, 9)  # once
    (play,) = await store.event_plays("ev01")
    assert (play.points, play.moves, play.finished) == (-6, 4, True)
    assert await store.load_open_tables() == [] and await store.event_in_progress("ev01") == 0
    assert await store.event_hand("ev01", 1, ANA) is not None
    assert await store.event_hand("ev01", 2, ANA) is None


async def test_no_play_begins_after_the_close(store: SqlRepository) -> None:
    ev = event(closes=NOW + 100)
    assert await store.create_event(ev)
    assert not await store.begin_event_play(table(ANA), ev, 1, ANA, "Ana", NOW + 100)  # by time
    assert await store.begin_event_play(table(BEN), ev, 1, BEN, "Ben", NOW + 99)
    assert await store.close_event("ev01", NOW + 99)
    assert not await store.begin_event_play(table(BEN, 2), ev, 2, BEN, "Ben", NOW + 99)
    assert await store.load_open_tables() != []  # Ben's deal 1 goes on


async def test_a_lost_table_is_not_in_progress(store: SqlRepository) -> None:
    ev = event()
    assert await store.create_event(ev)
    lost = table(ANA)
    assert await store.begin_event_play(lost, ev, 1, ANA, "Ana", NOW)
    await store.delete_table(lost.id)  # the table is gone without a result
    assert await store.event_in_progress("ev01") == 0


async def test_stand_ins_keep_the_first_result(store: SqlRepository) -> None:
    await store.save_event_standin("ev01", 1, 6, "{}")
    await store.save_event_standin("ev01", 1, -12, "{}")
    await store.save_event_standin("ev01", 2, -3, "{}")
    assert await store.event_standins("ev01") == {1: 6, 2: -3}


async def test_forget_deletes_the_members_entries_and_plays(store: SqlRepository) -> None:
    ev = event()
    assert await store.create_event(ev)
    mine = table(ANA)
    assert await store.begin_event_play(mine, ev, 1, ANA, "Ana", NOW)
    assert await store.finish_event_play(mine, "ev01", 1, ANA, 6, 3)
    assert await store.join_event(ev, BEN, "Ben")
    assert await store.forget_user(G, ANA) >= 2
    assert await store.event_plays("ev01") == []
    assert await store.event_entrants("ev01") == [(BEN, "Ben")]


async def test_forget_leaves_no_organiser_id_on_the_events_they_created(
        store: SqlRepository) -> None:
    """``/ddz forget`` used to leave the creator's id as the events' ``created_by``: now
    ``NO_ORGANISER`` there, in that server only (None: in every server)."""
    assert await store.create_event(event("ev01"))
    assert await store.create_event(event("ev02", guild=G + 1))
    assert await store.forget_user(G, ANA) == 1  # the event's row: nothing else of Ana
    mine, other = await store.event("ev01"), await store.event("ev02")
    assert mine is not None and mine.created_by == NO_ORGANISER == 0
    assert other is not None and other.created_by == ANA
    await store.forget_user(None, ANA)
    assert (await store.event("ev02")).created_by == NO_ORGANISER  # type: ignore[union-attr]
    assert (await store.current_event(G)).event_id == "ev01"  # type: ignore[union-attr]


async def test_an_events_rules_and_a_days_level_and_rules_are_kept(store: SqlRepository) -> None:
    """Issue 36 §8 (migration 9, both backends): an event's rules as created; a day's
    level and rules as first given, whatever is given later."""
    (mine,) = [k for k, script in enumerate(MIGRATIONS) if "CREATE TABLE daily_days" in script]
    assert "CREATE TABLE daily_days" in PG_MIGRATIONS[mine]
    assert await store.create_event(event("ev01").model_copy(
        update={"rules": RuleSet(kickers="distinct")}))
    assert await store.create_event(event("ev02", guild=G + 1))  # no rules: None
    stored, plain = await store.event("ev01"), await store.event("ev02")
    assert stored is not None and stored.rules == RuleSet(kickers="distinct")
    assert plain is not None and plain.rules is None
    assert (await store.current_event(G)).rules == RuleSet(kickers="distinct")  # type: ignore[union-attr]
    first = RuleSet().model_dump_json()
    assert await store.freeze_daily_day(G, "2026-12-01", "normal", first) == ("normal", first)
    later = RuleSet(kickers="distinct").model_dump_json()
    assert await store.freeze_daily_day(G, "2026-12-01", "easy", later) == ("normal", first)
    assert await store.freeze_daily_day(G, "2026-12-02", "easy", later) == ("easy", later)
    assert await store.freeze_daily_day(G + 1, "2026-12-01", "hard", later) == ("hard", later)
