"""Every kind of row the storage holds (``fill``), and every row read back (``dump``):
shared by the copy tests (tests/storage/test_copy.py) and the database written by an
earlier ``main`` that the migration tests open (tests/storage/main_db/)."""

from __future__ import annotations

from typing import Any

from bot.features.daily.rules import daily_table
from bot.features.daily.values import DailySettings
from bot.features.events.rules import event_table
from bot.features.events.values import EventInfo
from bot.features.puzzles.values import PuzzleAttempt, PuzzleRating
from bot.features.tournaments.seating import TableSeats
from bot.features.tournaments.values import TournamentHand, TournamentInfo
from bot.rules import RuleSet
from bot.storage.base import SqlRepository
from bot.storage.copy import schema_tables
from bot.values import GuildSettings, SentPing
from tests.support.feature_stores import FeatureStores
from tests.support.storage_fakes import finished_table


async def fill(store: SqlRepository) -> None:
    """Settings, open tables, finished hands (a whole match), ledgers, stats, names,
    ratings of members and computers, a member's auto-play pace, and a forgotten
    member's anonymized hand, a member's /ddz notify and a turn ping sent, the daily
    deal's, an event's, a tournament's and a puzzle attempt's rows."""
    if not isinstance(store, FeatureStores):  # the features' rows go through their stores
        store = FeatureStores(store)  # type: ignore[assignment]  # a SqlRepository by delegation
    await store.save_settings(1, DailySettings.changed(GuildSettings(
        turn_seconds_play=45, language="es", counter=False, timezone="Europe/Madrid"),
        level="normal", channel=7))
    await store.save_autoplay_pace(1, 101, 4.5)
    await store.save_notify(1, 101, False)  # turn pings: a member's choice, a ping sent
    await store.save_sent_ping(SentPing(table_id="open", guild_id=3 << 22, channel_id=8,
                                        user_id=101, move_seq=3, message_id=99))
    await store.save_settings(
        2 << 22, GuildSettings(rules=RuleSet(target_points=10, kickers="distinct"))
    )
    for n in range(2):  # peasants reach 30: match 1 ends, match_results and winners
        table = finished_table(base=2, bombs_by=(1, 2, 1), winner="peasants", table_id="t")
        await store.settle_hand(table, f"t-{n}")
    await store.settle_hand(finished_table(spring=True), "t-2")
    await store.settle_hand(
        finished_table(table_id="c", guild_id=2 << 22, users=(None, 201, None), landlord=1),
        "c-1",
    )
    await store.settle_hand(finished_table(table_id="f", users=(301, 302, 303)), "f-1")
    await store.forget_user(1, 302)
    await store.remember_name(1, 101, "Renamed")
    await store.save_table(finished_table(table_id="open", guild_id=3 << 22, seq=3))
    daily, _ = daily_table(1, 101, "Ana", "en", day="2026-12-01", seed=5, level="hard",
                           rules=RuleSet(), turn_seconds=60, now=0.0)  # the daily deal's rows
    await store.server_key(1, "ab" * 32)
    assert await store.begin_daily(daily, 101, "Ana")
    assert await store.finish_daily(daily, 101, -12, 3, False)
    assert await store.claim_daily_post(1, "2026-12-01")
    await store.freeze_daily_day(1, "2026-12-01", "hard", RuleSet().model_dump_json())
    event = EventInfo(event_id="ev01", guild_id=1, channel_id=7, name="Cup", deals=2,
                      level="hard", created_by=101, created_at=0.0, closes_at=3600.0,
                      rules=RuleSet(kickers="distinct"))
    assert await store.create_event(event)  # a duplicate event's rows
    played, _ = event_table(1, 101, "Ana", "en", event_id="ev01", deal=1, seed=5,
                            level="easy", rules=RuleSet(), turn_seconds=60, now=0.0)
    assert await store.begin_event_play(played, event, 1, 101, "Ana", 1.0)
    assert await store.finish_event_play(played, "ev01", 1, 101, 6, 4)
    await store.save_event_standin("ev01", 2, -3, "{}")
    tournament = TournamentInfo(tournament_id="to1", guild_id=1, channel_id=7, name="Cup",
                                rounds=2, hands=1, level="normal", created_by=101,
                                created_at=0.0, starts_at=600.0, seed=5, rules=RuleSet())
    assert await store.create_tournament(tournament)  # a tournament's rows
    for user in (101, 102, 103):
        assert await store.join_tournament("to1", user, f"u{user}", float(user)) == "joined"
    assert await store.start_tournament("to1", 200.0)
    assert await store.seat_tournament_round("to1", 1, [TableSeats(1, (101, 102, 103))], 201.0)
    assert await store.claim_tournament_table("to1", 1, 1, 202.0)
    await store.set_tournament_table("to1", 1, 1, 9001, "tt1")
    assert await store.record_tournament_hand("to1", TournamentHand(
        round_no=1, table_no=1, hand=1, hand_no=3, points=(4, -2, -2)))
    assert await store.finish_tournament_table("to1", 1, 1, (4, -2, -2), 203.0)
    assert await store.finish_tournament_round("to1", 1, 204.0)
    puzzle = PuzzleAttempt(attempt_id="pz1", guild_id=1, user_id=101, puzzle_id="p1",
                           mode="daily", day="2026-12-01", started_at=5.0)
    assert await store.begin_puzzle(puzzle)  # an endgame puzzle's rows (issue 39)
    begun = await store.puzzle_attempt("pz1")
    assert begun is not None
    assert await store.finish_puzzle(
        begun, begun.model_copy(update={"finished_at": 9.0, "solved": True, "moves": 1}),
        PuzzleRating(rating=1600.0, attempts=1, solved=1), PuzzleRating(attempts=1))


async def dump(store: SqlRepository) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table, in key order."""
    out = {}
    async with store._read() as db:
        for table in schema_tables():
            columns = ", ".join(table.columns)
            out[table.name] = await db.fetch(
                f"SELECT {columns} FROM {table.name} ORDER BY {', '.join(table.key)}"
            )
    return out
