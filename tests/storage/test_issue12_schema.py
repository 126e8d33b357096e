"""Schema version 4: the card counter setting, how matches ended, members' auto-play pace."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from bot.rules import RuleSet
from bot.storage.migrations import MIGRATIONS
from bot.storage.sqlite import SqliteStorage
from bot.values import GuildSettings


async def test_the_counter_setting_defaults_on_and_round_trips(store: SqliteStorage) -> None:
    assert (await store.get_settings(1)).counter is True
    await store.save_settings(1, GuildSettings(counter=False, rules=RuleSet(match_hands=8)))
    saved = await store.get_settings(1)
    assert saved.counter is False and saved.rules.match_hands == 8
    await store.save_settings(1, saved.model_copy(update={"counter": True}))
    assert (await store.get_settings(1)).counter is True


async def test_a_version_1_database_keeps_its_settings_and_gets_the_counter_on(
        db_path: Path) -> None:
    raw = sqlite3.connect(db_path)
    raw.executescript(MIGRATIONS[0] + "\nPRAGMA user_version = 1;")
    raw.execute("INSERT INTO guild_settings VALUES (7, 45, 20, ?, 'es')",
                (RuleSet(target_points=50).model_dump_json(),))
    raw.execute("INSERT INTO match_results VALUES (7, 1, 30, 4, 1.0)")
    raw.commit()
    raw.close()
    store = await SqliteStorage.open(db_path)
    try:
        assert await store.schema_version() == len(MIGRATIONS) >= 2
        settings = await store.get_settings(7)
        assert (settings.turn_seconds_play, settings.language, settings.counter) == (45, "es", True)
        assert settings.rules.target_points == 50
        async with store._read() as db:
            rows = await db.fetch("SELECT ended_by, match_hands FROM match_results")
        assert [tuple(r) for r in rows] == [("target", None)]
    finally:
        await store.close()
