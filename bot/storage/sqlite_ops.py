"""SQLite-only steps: the schema version (``PRAGMA user_version``) and migrations.

The SQL shared with PostgreSQL lives in ``bot/storage/ops.py``.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

import aiosqlite

from bot.storage.migrations import MIGRATIONS


async def user_version(db: aiosqlite.Connection) -> int:
    """The applied schema version (``PRAGMA user_version``, 0 for a new file)."""
    rows = await db.execute_fetchall("PRAGMA user_version")
    return int(list(rows)[0][0])


async def migrate(db: aiosqlite.Connection, scripts: Sequence[str] | None = None) -> None:
    """Apply the pending ``scripts`` (MIGRATIONS) in order, each in its own transaction.

    The version is read inside each script's ``BEGIN IMMEDIATE`` (SQLite's write lock),
    so processes or connections opening a new file at once migrate it once: the others
    wait (``busy_timeout``) and then find the script applied. A failing script is rolled
    back and raises sqlite3.Error; earlier ones stay applied.
    """
    pending = list(MIGRATIONS if scripts is None else scripts)
    await db._execute(_migrate, db._conn, pending)  # type: ignore[no-untyped-call]  # noqa: SLF001  aiosqlite's own thread; its private _execute has no annotations


def _migrate(conn: sqlite3.Connection, scripts: list[str]) -> None:
    while True:
        conn.execute("BEGIN IMMEDIATE")
        try:
            version = int(conn.execute("PRAGMA user_version").fetchone()[0])
            if version >= len(scripts):
                conn.execute("COMMIT")
                return
            for statement in statements(scripts[version]):
                conn.execute(statement)
            conn.execute(f"PRAGMA user_version = {version + 1}")
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise


def statements(script: str) -> list[str]:
    """The SQL statements of ``script``, one per entry (``executescript`` would commit the
    open transaction first). Raises ValueError on a trailing incomplete statement."""
    found, current = [], ""
    for piece in script.split(";"):
        current += piece + ";"
        if sqlite3.complete_statement(current):
            if not _blank(current[:-1]):
                found.append(current.strip())
            current = ""
    if not _blank(current[:-1]):
        raise ValueError(f"incomplete SQL statement at the end of a migration: {current[:60]!r}")
    return found


def _blank(sql: str) -> bool:
    """Whether ``sql`` holds nothing but white space and ``--`` comments."""
    return all(not line.strip() or line.strip().startswith("--") for line in sql.splitlines())
