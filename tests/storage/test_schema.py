"""Opening the database: pragmas, migrations, settings and open tables."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from bot.rules import RuleSet
from bot.storage import GuildSettings, Repository
from bot.storage.migrations import MIGRATIONS
from bot.storage.sqlite import SqliteStorage
from tests.storage.fakes import FakeTable, finished_table


async def test_open_applies_every_migration_and_enables_wal(store: SqliteStorage) -> None:
    assert await store.schema_version() == len(MIGRATIONS)
    async with store._read() as db:
        assert (await db.execute_fetchall("PRAGMA journal_mode"))[0][0] == "wal"
        assert (await db.execute_fetchall("PRAGMA foreign_keys"))[0][0] == 1


async def test_reopening_keeps_data_and_does_not_migrate_again(db_path: Path) -> None:
    first = await SqliteStorage.open(db_path)
    await first.save_settings(5, GuildSettings(turn_seconds_play=45))
    await first.close()
    for _ in range(2):
        again = await SqliteStorage.open(db_path)
        assert await again.schema_version() == len(MIGRATIONS)
        assert (await again.get_settings(5)).turn_seconds_play == 45
        await again.close()


async def test_a_failing_migration_is_rolled_back_and_reported(db_path: Path, monkeypatch) -> None:
    await (await SqliteStorage.open(db_path)).close()
    monkeypatch.setattr(
        "bot.storage.sqlite_ops.MIGRATIONS",
        [*MIGRATIONS, "CREATE TABLE extra (x INTEGER); CREATE TABLE extra (y INTEGER);"],
    )
    try:
        await SqliteStorage.open(db_path)
    except sqlite3.OperationalError:
        pass
    else:
        raise AssertionError("the broken migration should fail")
    raw = sqlite3.connect(db_path)
    assert raw.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)
    assert raw.execute("SELECT name FROM sqlite_master WHERE name = 'extra'").fetchall() == []
    raw.close()


async def test_storage_satisfies_the_repository_protocol(store: SqliteStorage) -> None:
    assert isinstance(store, Repository)


async def test_settings_default_then_saved_values_round_trip(store: SqliteStorage) -> None:
    assert await store.get_settings(1) == GuildSettings()
    saved = GuildSettings(
        turn_seconds_play=90,
        turn_seconds_bid=20,
        rules=RuleSet(kickers="distinct", bidding="until_two_passes", target_points=50),
        language="es",
    )
    await store.save_settings(1, saved)
    await store.save_settings(2, GuildSettings(language="en"))
    assert await store.get_settings(1) == saved
    assert (await store.get_settings(2)).language == "en"


async def test_saved_table_reloads_equal_and_upserts(store: SqliteStorage, db_path: Path) -> None:
    table = finished_table(table_id="abc123", bombs_by=(2,))
    await store.save_table(table)
    table.seq = 8
    await store.save_table(table)
    await store.save_table(finished_table(table_id="zzz", guild_id=2))
    await store.close()
    reopened = await SqliteStorage.open(db_path)
    states = [FakeTable.model_validate_json(s) for s in await reopened.load_table_states()]
    assert states[0] == table
    assert [t.id for t in states] == ["abc123", "zzz"]
    await reopened.delete_table("abc123")
    await reopened.delete_table("unknown")
    assert [FakeTable.model_validate_json(s).id for s in await reopened.load_table_states()] == [
        "zzz"
    ]
    await reopened.close()
