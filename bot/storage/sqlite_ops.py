"""SQLite-only steps: the schema version (``PRAGMA user_version``) and migrations.

The SQL shared with PostgreSQL lives in ``bot/storage/ops.py``.
"""

from __future__ import annotations

import aiosqlite

from bot.storage.migrations import MIGRATIONS


async def user_version(db: aiosqlite.Connection) -> int:
    """The applied schema version (``PRAGMA user_version``, 0 for a new file)."""
    rows = await db.execute_fetchall("PRAGMA user_version")
    return int(list(rows)[0][0])


async def migrate(db: aiosqlite.Connection) -> None:
    """Apply MIGRATIONS[version:] in order, each in its own transaction."""
    version = await user_version(db)
    for number, script in enumerate(MIGRATIONS[version:], start=version + 1):
        try:
            await db.executescript(
                f"BEGIN IMMEDIATE;\n{script}\nPRAGMA user_version = {number};\nCOMMIT;"
            )
        except BaseException:
            if db.in_transaction:
                await db.execute("ROLLBACK")
            raise
