"""Copy every row between two databases (SQLite path or PostgreSQL URL, either way).

``python -m bot.storage copy SOURCE DEST`` (docs/SCALING.md). Both ends are opened
with the Repository (so both are migrated to the current schema); every table of the
schema is copied in creation order (parents before children), in primary-key order,
in batches, each batch one transaction on DEST. Rows are upserted on their primary
key, so a copy can be repeated (or resumed after an interruption) and gives the same
result; rows that exist only in DEST are kept. Stop the bot on SOURCE first so that
nothing changes during the copy.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from bot.storage.base import SqlRepository
from bot.storage.migrations import MIGRATIONS
from bot.storage.postgres import PostgresStorage
from bot.storage.sql import Sql, scalar

BATCH_ROWS = 500


@dataclass(frozen=True)
class TableShape:
    """One table of the schema: its columns in order and its primary-key columns."""

    name: str
    columns: tuple[str, ...]
    key: tuple[str, ...]


def schema_tables() -> list[TableShape]:
    """Every table of the current schema, in creation order (from the SQLite migrations;
    the PostgreSQL schema has the same tables and columns, a test checks it)."""
    raw = sqlite3.connect(":memory:")
    try:
        raw.executescript("".join(MIGRATIONS))
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


async def copy_database(
    source: SqlRepository,
    dest: SqlRepository,
    progress: Callable[[str, int], None] = lambda table, rows: None,
) -> dict[str, int]:
    """Copy every table of ``source`` into ``dest``; rows copied by table name.

    ``progress(table, rows)`` is called after each batch. Raises ValueError when the two
    schemas are at different versions (open both with this code first: it migrates).
    """
    versions = (await source.schema_version(), await dest.schema_version())
    if versions[0] != versions[1]:
        raise ValueError(f"schema versions differ: source {versions[0]}, dest {versions[1]}")
    to_postgres = isinstance(dest, PostgresStorage)
    copied: dict[str, int] = {}
    for table in schema_tables():
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


async def count_rows(store: SqlRepository) -> dict[str, int]:
    """Rows per table of the schema in ``store``."""
    counts = {}
    async with store._read() as db:
        for table in schema_tables():
            counts[table.name] = int(await scalar(db, f"SELECT count(*) FROM {table.name}"))
    return counts
