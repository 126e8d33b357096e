"""Opening the database: pragmas, migrations, settings and open tables (both backends)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import asyncpg
import pytest

from bot.rules import RuleSet
from bot.storage import Repository
from bot.storage.base import SqlRepository
from bot.storage.migrations import MIGRATIONS
from bot.storage.pg_migrations import PG_MIGRATIONS
from bot.storage.sqlite import SqliteStorage
from bot.values import GuildSettings
from tests.support.databases import Database, postgres_schema
from tests.support.storage_fakes import FakeTable, finished_table


async def test_open_applies_every_migration_and_enables_wal(db_path: Path) -> None:
    store = await SqliteStorage.open(db_path)
    assert await store.schema_version() == len(MIGRATIONS)
    async with store._read() as db:
        assert (await db.fetch("PRAGMA journal_mode"))[0][0] == "wal"
        assert (await db.fetch("PRAGMA foreign_keys"))[0][0] == 1
    await store.close()


async def test_reopening_keeps_data_and_does_not_migrate_again(database: Database) -> None:
    first = await database.open()
    await first.save_settings(5, GuildSettings(turn_seconds_play=45))
    await first.close()
    for _ in range(2):
        again = await database.open()
        assert await again.schema_version() == len(MIGRATIONS)  # type: ignore[attr-defined]
        assert (await again.get_settings(5)).turn_seconds_play == 45
        await again.close()


async def test_a_failing_sqlite_migration_is_rolled_back_and_reported(
    db_path: Path, monkeypatch
) -> None:
    await (await SqliteStorage.open(db_path)).close()
    monkeypatch.setattr(
        "bot.storage.sqlite_ops.MIGRATIONS",
        [*MIGRATIONS, "CREATE TABLE extra (x INTEGER); CREATE TABLE extra (y INTEGER);"],
    )
    with pytest.raises(sqlite3.OperationalError):
        await SqliteStorage.open(db_path)
    raw = sqlite3.connect(db_path)
    assert raw.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)
    assert raw.execute("SELECT name FROM sqlite_master WHERE name = 'extra'").fetchall() == []
    raw.close()


async def test_a_failing_postgres_migration_is_rolled_back_and_reported(
    postgres_database: Database, monkeypatch
) -> None:
    database = postgres_database
    await (await database.open()).close()
    monkeypatch.setattr(
        "bot.storage.postgres.PG_MIGRATIONS",
        [*PG_MIGRATIONS, "CREATE TABLE extra (x INTEGER); CREATE TABLE extra (y INTEGER);"],
    )
    with pytest.raises(asyncpg.DuplicateTableError):
        await database.open()
    conn = await asyncpg.connect(database.location)
    assert await conn.fetchval("SELECT version FROM schema_version") == len(PG_MIGRATIONS)
    assert await conn.fetchval("SELECT to_regclass('extra')") is None
    await conn.close()


async def test_both_backends_have_the_same_schema_versions_tables_and_columns(
    postgres_database: Database,
) -> None:
    """A migration added to one backend must be added to the other (same columns, order)."""
    database = postgres_database
    assert len(PG_MIGRATIONS) == len(MIGRATIONS)
    raw = sqlite3.connect(":memory:")
    raw.executescript("".join(MIGRATIONS))
    tables = [r[0] for r in raw.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    lite = {t: [c[1] for c in raw.execute(f"PRAGMA table_info({t})")] for t in tables}
    raw.close()
    store = await database.open()
    await store.close()
    conn = await asyncpg.connect(database.location)
    rows = await conn.fetch(
        "SELECT table_name, column_name FROM information_schema.columns"
        " WHERE table_schema = current_schema() AND table_name <> 'schema_version'"
        " ORDER BY table_name, ordinal_position"
    )
    await conn.close()
    pg: dict[str, list[str]] = {}
    for row in rows:
        pg.setdefault(row["table_name"], []).append(row["column_name"])
    assert pg == lite


async def test_storage_satisfies_the_repository_protocol(store: SqlRepository) -> None:
    assert isinstance(store, Repository)


async def test_settings_default_then_saved_values_round_trip(store: SqlRepository) -> None:
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


async def test_saved_table_reloads_equal_and_upserts(database: Database) -> None:
    store = await database.open()
    table = finished_table(table_id="abc123", bombs_by=(2,))
    await store.save_table(table)
    table.seq = 8
    await store.save_table(table)
    await store.save_table(finished_table(table_id="zzz", guild_id=2))
    await store.close()
    reopened = await database.open()
    states = [FakeTable.model_validate_json(s) for s in await reopened.load_table_states()]
    assert states[0] == table
    assert [t.id for t in states] == ["abc123", "zzz"]
    await reopened.delete_table("abc123")
    await reopened.delete_table("unknown")
    assert [FakeTable.model_validate_json(s).id for s in await reopened.load_table_states()] == [
        "zzz"
    ]
    await reopened.close()


async def test_a_failed_sqlite_table_save_rolls_back_and_the_next_one_commits(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``SqliteStorage.save_table`` runs its whole transaction in one hand-off to the
    connection's thread: a failing statement must not leave that transaction open."""
    import bot.storage.ops as ops

    store = await SqliteStorage.open(db_path)
    table = finished_table(table_id="abc123")
    right = ops.SAVE_TABLE
    monkeypatch.setattr(ops, "SAVE_TABLE", right.replace("open_tables", "no_such_table", 1))
    with pytest.raises(sqlite3.OperationalError):
        await store.save_table(table)
    assert not store._db.in_transaction
    monkeypatch.setattr(ops, "SAVE_TABLE", right)
    await store.save_table(table)
    assert not store._db.in_transaction
    other = sqlite3.connect(db_path)  # committed: visible to another connection
    try:
        rows = other.execute("SELECT table_id FROM open_tables").fetchall()
    finally:
        other.close()
    assert rows == [("abc123",)]
    await store.close()


async def test_a_sqlite_transaction_step_that_waits_on_anything_else_is_refused(
    db_path: Path,
) -> None:
    """The step runs in the connection's thread, where nothing else can be awaited: one
    that tries is rolled back with a clear error rather than half-run."""
    import asyncio

    store = await SqliteStorage.open(db_path)

    async def waits(db: object) -> None:
        await db.execute("DELETE FROM open_tables")  # type: ignore[attr-defined]
        await asyncio.sleep(0)

    await store.save_table(finished_table(table_id="kept"))
    with pytest.raises(RuntimeError, match="waited for something else"):
        await store._transaction(waits)
    assert not store._db.in_transaction
    assert [FakeTable.model_validate_json(s).id for s in await store.load_table_states()] == ["kept"]
    await store.close()


async def test_sqlite_steps_queued_together_commit_together_and_fail_alone(db_path: Path) -> None:
    """Group commit: writes queued meanwhile share one transaction, each in a savepoint,
    so a failing one is rolled back alone and raises to its own caller only."""
    import asyncio

    store = await SqliteStorage.open(db_path)

    async def half_then_fail(db: object) -> None:
        await db.execute("DELETE FROM open_tables")  # type: ignore[attr-defined]
        raise ValueError("refused")

    saved = [finished_table(table_id=f"t{n}", guild_id=n) for n in range(3)]
    results = await asyncio.gather(
        store.save_table(saved[0]), store._transaction(half_then_fail),
        store.save_table(saved[1]), store.save_table(saved[2]), return_exceptions=True)
    assert [type(r).__name__ for r in results] == ["NoneType", "ValueError", "NoneType", "NoneType"]
    assert not store._db.in_transaction
    states = [FakeTable.model_validate_json(s) for s in await store.load_table_states()]
    assert sorted(t.id for t in states) == ["t0", "t1", "t2"]
    await store.close()


def _sqlite_shape(raw: sqlite3.Connection) -> tuple[dict[str, list[str]], set[str]]:
    """(table → its columns in order, the names of the indexes made by CREATE INDEX)."""
    tables = [r[0] for r in raw.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    columns = {t: [c[1] for c in raw.execute(f"PRAGMA table_info({t})")] for t in tables}
    indexes = {r[0] for r in raw.execute(
        "SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL")}
    return columns, indexes


async def _postgres_shape(conn: asyncpg.Connection) -> tuple[dict[str, list[str]], set[str]]:
    """``_sqlite_shape`` of the connection's current schema (indexes behind a primary key
    or unique constraint left out, as SQLite makes those without CREATE INDEX)."""
    rows = await conn.fetch(
        "SELECT table_name, column_name FROM information_schema.columns"
        " WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position")
    columns: dict[str, list[str]] = {}
    for row in rows:
        columns.setdefault(row["table_name"], []).append(row["column_name"])
    indexes = {r["indexname"] for r in await conn.fetch(
        "SELECT indexname FROM pg_indexes WHERE schemaname = current_schema()"
        " AND indexname NOT IN (SELECT conname FROM pg_constraint"
        " WHERE connamespace = current_schema()::regnamespace)")}
    return columns, indexes


async def test_each_migration_leaves_the_same_tables_columns_and_indexes_on_both_backends(
) -> None:
    """Version by version, not only after the last: migration ``i`` of
    bot/storage/migrations.py and of bot/storage/pg_migrations.py leave the same tables,
    their columns in the same order, and the same named indexes (issue 34)."""
    assert len(PG_MIGRATIONS) == len(MIGRATIONS)
    raw = sqlite3.connect(":memory:")
    async with postgres_schema() as url:
        conn = await asyncpg.connect(url)
        try:
            for version, (lite, pg) in enumerate(zip(MIGRATIONS, PG_MIGRATIONS, strict=True), 1):
                raw.executescript(lite)
                await conn.execute(pg)
                assert (version, await _postgres_shape(conn)) == (version, _sqlite_shape(raw))
        finally:
            await conn.close()
            raw.close()
