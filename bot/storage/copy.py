"""Copy every row between two databases (SQLite path or PostgreSQL URL, either way).

``python -m bot.storage copy SOURCE DEST`` (docs/SCALING.md). Both ends are opened
with the Repository (so both are migrated to the current schema); every table of the
schema is copied in creation order (parents before children), in primary-key order,
in batches, each batch one transaction on DEST. Rows are upserted on their primary
key, so a copy can be repeated (or resumed after an interruption) and gives the same
result; rows that exist only in DEST are kept. Stop the bot on SOURCE first so that
nothing changes during the copy.

A feature's own tables (its ``migrations()``, docs/ARCHITECTURE.md §Features) come with it
when it is given (``features``: each installed feature's name and migrations; ``python -m
bot storage copy`` gives the bot's): both ends get its pending migrations first
(``Repository.migrate_feature``), then ``feature_schema`` and its tables are copied after the
core's. A SOURCE that holds the tables of a feature not given is refused (they would be
left behind).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from bot.storage.base import SqlRepository
from bot.storage.migrations import MIGRATIONS
from bot.storage.postgres import PostgresStorage
from bot.storage.sql import Sql, scalar

BATCH_ROWS = 500
FEATURE_SCHEMA = ("CREATE TABLE IF NOT EXISTS feature_schema"
                  " (feature TEXT PRIMARY KEY, version INTEGER NOT NULL)")
"""The table of the features' schema versions (``Repository.migrate_feature`` creates it)."""

FeatureTables = tuple[str, Mapping[str, Sequence[str]]]
"""A feature's name and its migrations by backend (``Feature.migrations()``)."""


@dataclass(frozen=True)
class TableShape:
    """One table of the schema: its columns in order and its primary-key columns."""

    name: str
    columns: tuple[str, ...]
    key: tuple[str, ...]


def schema_tables(features: Sequence[FeatureTables] = ()) -> list[TableShape]:
    """Every table of the current schema, in creation order (from the SQLite migrations;
    the PostgreSQL schema has the same tables and columns, a test checks it), then, when
    one of ``features`` has tables of its own, ``feature_schema`` and theirs."""
    raw = sqlite3.connect(":memory:")
    try:
        raw.executescript("".join(MIGRATIONS))
        own = [statement for _, migrations in features for statement in migrations.get("sqlite", ())]
        if own:
            raw.execute(FEATURE_SCHEMA)
        for statement in own:
            raw.execute(statement)
        names = [
            row[0]
            for row in raw.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY rowid"
            )
        ]
        shapes = []
        for name in names:
            info = raw.execute(f"PRAGMA table_info({name})").fetchall()
            key = tuple(row[1] for row in sorted(info, key=lambda r: r[5]) if row[5])
            shapes.append(TableShape(name, tuple(row[1] for row in info), key))
        return shapes
    finally:
        raw.close()


def shown(location: str) -> str:
    """``location`` fit to print: a URL's password is masked."""
    parts = urlsplit(location)
    if parts.password:
        netloc = parts.netloc.replace(f":{parts.password}@", ":***@")
        return urlunsplit(parts._replace(netloc=netloc))
    return location


def upsert_sql(table: TableShape) -> str:
    """The statement that writes one row of ``table`` whether or not its key exists."""
    columns = ", ".join(table.columns)
    marks = ", ".join("?" for _ in table.columns)
    others = [c for c in table.columns if c not in table.key]
    action = (
        "DO UPDATE SET " + ", ".join(f"{c} = excluded.{c}" for c in others)
        if others
        else "DO NOTHING"
    )
    return (
        f"INSERT INTO {table.name} ({columns}) VALUES ({marks})"
        f" ON CONFLICT ({', '.join(table.key)}) {action}"
    )


def page_sql(table: TableShape, after: bool) -> str:
    """The next batch of ``table`` in key order (``after``: past a given key)."""
    key = ", ".join(table.key)
    where = f" WHERE ({key}) > ({', '.join('?' for _ in table.key)})" if after else ""
    return (
        f"SELECT {', '.join(table.columns)} FROM {table.name}{where}"
        f" ORDER BY {key} LIMIT {BATCH_ROWS}"
    )


async def float_columns(db: Sql, table: TableShape, postgres: bool) -> set[int]:
    """Indexes of ``table``'s floating-point columns on a PostgreSQL destination (SQLite
    may hold an int in a REAL column; asyncpg wants a float there)."""
    if not postgres:
        return set()
    rows = await db.fetch(
        "SELECT column_name FROM information_schema.columns WHERE table_schema ="
        " current_schema() AND table_name = ? AND data_type = 'double precision'",
        (table.name,),
    )
    names = {r[0] for r in rows}
    return {i for i, c in enumerate(table.columns) if c in names}


async def feature_versions(store: SqlRepository) -> dict[str, int]:
    """The schema version of each feature with tables of its own in ``store`` (its
    ``feature_schema``; none before the first)."""
    exists = ("SELECT count(*) FROM information_schema.tables WHERE table_schema ="
              " current_schema() AND table_name = 'feature_schema'"
              if isinstance(store, PostgresStorage) else
              "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'feature_schema'")
    async with store._read() as db:
        if not await scalar(db, exists):
            return {}
        return {str(name): int(version) for name, version in
                await db.fetch("SELECT feature, version FROM feature_schema")}


async def migrate_features(source: SqlRepository, dest: SqlRepository,
                           features: Sequence[FeatureTables]) -> None:
    """Bring both ends to the schema of ``features`` (their pending migrations); raises
    ValueError when ``source`` holds tables of a feature not given, or a feature is at
    another version on each end (one of them newer than this code)."""
    given = {name for name, _ in features}
    unknown = sorted(set(await feature_versions(source)) - given)
    if unknown:
        raise ValueError(f"SOURCE holds the tables of features not given: {', '.join(unknown)}"
                         " (copy with them installed: python -m bot storage copy)")
    for name, migrations in features:
        if migrations:
            versions = (await source.migrate_feature(name, migrations),
                        await dest.migrate_feature(name, migrations))
            if versions[0] != versions[1]:
                raise ValueError(f"schema versions of {name} differ: source {versions[0]},"
                                 f" dest {versions[1]}")


async def copy_database(
    source: SqlRepository,
    dest: SqlRepository,
    progress: Callable[[str, int], None] = lambda table, rows: None,
    features: Sequence[FeatureTables] = (),
) -> dict[str, int]:
    """Copy every table of ``source`` into ``dest``, the tables of ``features`` too;
    rows copied by table name.

    ``progress(table, rows)`` is called after each batch. Raises ValueError when the two
    schemas are at different versions (open both with this code first: it migrates), or
    when ``source`` holds tables of a feature not in ``features`` (``migrate_features``).
    """
    versions = (await source.schema_version(), await dest.schema_version())
    if versions[0] != versions[1]:
        raise ValueError(f"schema versions differ: source {versions[0]}, dest {versions[1]}")
    await migrate_features(source, dest, features)
    to_postgres = isinstance(dest, PostgresStorage)
    copied: dict[str, int] = {}
    for table in schema_tables(features):
        async with dest._read() as db:
            floats = await float_columns(db, table, to_postgres)
        statement = upsert_sql(table)
        last: tuple[Any, ...] | None = None
        copied[table.name] = 0
        while True:
            async with source._read() as db:
                rows = await db.fetch(page_sql(table, last is not None), last or ())
            if not rows:
                break
            if floats:
                rows = [
                    tuple(float(v) if i in floats and v is not None else v for i, v in enumerate(r))
                    for r in rows
                ]
            async with dest._write() as db:
                await db.executemany(statement, rows)
            copied[table.name] += len(rows)
            progress(table.name, len(rows))
            key_at = [table.columns.index(c) for c in table.key]
            last = tuple(rows[-1][i] for i in key_at)
    return copied


async def count_rows(store: SqlRepository,
                     features: Sequence[FeatureTables] = ()) -> dict[str, int]:
    """Rows per table of the schema (with the tables of ``features``) in ``store``."""
    counts = {}
    async with store._read() as db:
        for table in schema_tables(features):
            counts[table.name] = int(await scalar(db, f"SELECT count(*) FROM {table.name}"))
    return counts
