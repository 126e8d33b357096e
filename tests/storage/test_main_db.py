"""A server's database written by an earlier ``main`` (87289a3, before issue 49 moved each
feature into a wing of its own, each with its own store and migrations) opens with today's
code on both backends, migrated, with every row it held still there, unchanged.

The fixtures (tests/storage/main_db/) were written by that code through
``tests/storage/main_db/make.py``: every kind of row the storage holds."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path
from typing import Any

import asyncpg

from bot.storage.postgres import PostgresStorage
from bot.storage.sqlite import SqliteStorage
from tests.support.databases import create_schema, drop_schema, server_url, with_search_path

HERE = Path(__file__).parent / "main_db"
TABLES = 31
"""The tables of that database, ``schema_version`` included (the SQLite file keeps its
version in ``PRAGMA user_version``)."""

Rows = dict[str, set[tuple[Any, ...]]]


def sqlite_rows(path: Path) -> tuple[Rows, list[str]]:
    """Every row of every table of the SQLite file (each table's columns in name order),
    and each table's column names."""
    raw = sqlite3.connect(path)
    try:
        names = [r[0] for r in raw.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")]
        out: Rows = {}
        for name in names:
            columns = sorted(r[1] for r in raw.execute(f"PRAGMA table_info({name})"))
            out[name] = {tuple(zip(columns, row, strict=True)) for row in raw.execute(
                f"SELECT {', '.join(columns)} FROM {name}")}
        return out, names
    finally:
        raw.close()


def kept(before: Rows, after: Rows) -> dict[str, int]:
    """Each table of ``before`` with how many of its rows ``after`` lacks: a row is kept
    when ``after`` has the same table with a row holding the same value in every column
    the row had (a migration may add columns)."""
    lost = {}
    for name, rows in before.items():
        newer = after.get(name, set())
        lost[name] = sum(1 for row in rows
                         if not any(set(row) <= set(new) for new in newer))
    return lost


async def test_a_sqlite_database_of_the_earlier_main_migrates_and_keeps_every_row(
        tmp_path: Path) -> None:
    path = tmp_path / "server.sqlite3"
    shutil.copy(HERE / "main.sqlite3", path)
    before, _ = sqlite_rows(path)
    assert sum(1 for rows in before.values() if rows) == len(before) == TABLES - 1
    store = await SqliteStorage.open(path)
    assert (await store.match_standings(1)) != []
    await store.close()
    after, _ = sqlite_rows(path)
    assert kept(before, after) == {name: 0 for name in before}


async def postgres_rows(url: str) -> Rows:
    """Every row of every table of the schema ``url`` selects (columns in name order)."""
    conn = await asyncpg.connect(url)
    try:
        names = [r[0] for r in await conn.fetch(
            "SELECT table_name FROM information_schema.tables"
            " WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'")]
        out: Rows = {}
        for name in names:
            rows = await conn.fetch(f"SELECT * FROM {name}")
            out[name] = {tuple(sorted(dict(row).items())) for row in rows}
        return out
    finally:
        await conn.close()


async def test_a_postgres_database_of_the_earlier_main_migrates_and_keeps_every_row() -> None:
    server = server_url()
    schema = await create_schema(server, prefix="main_")
    url = with_search_path(server, schema)
    try:
        conn = await asyncpg.connect(server)
        try:
            await conn.execute((HERE / "main.postgres.sql").read_text().replace(
                "__SCHEMA__", schema))
        finally:
            await conn.close()
        before = await postgres_rows(url)
        assert len(before) == TABLES and all(before.values())
        store = await PostgresStorage.open(url)
        assert (await store.match_standings(1)) != []
        await store.close()
        after = await postgres_rows(url)
        lost = kept({k: v for k, v in before.items() if k != "schema_version"}, after)
        assert lost == {name: 0 for name in before if name != "schema_version"}
    finally:
        await drop_schema(server, schema)
