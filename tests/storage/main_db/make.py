"""Write the database fixtures of this folder with the code of the checkout it runs in:
``python -m tests.storage.main_db.make OUT_DIR [POSTGRES_URL]``.

``main.sqlite3``: a SQLite database holding every kind of row (``tests.support.every_row``
``fill``); ``main.postgres.sql``: the same on PostgreSQL, dumped by ``pg_dump --inserts``
with its schema's name replaced by ``__SCHEMA__``. The files kept here were written by
``main`` at 87289a3 (before issue 49's feature wings); tests/storage/test_main_db.py opens
them with today's code and checks that every row is still there. Do not regenerate them:
they stand for a server's data written by that older code.
"""

from __future__ import annotations

import asyncio
import glob
import subprocess
import sys
from pathlib import Path

from bot.storage.postgres import PostgresStorage
from bot.storage.sqlite import SqliteStorage
from tests.support.databases import create_schema, drop_schema, with_search_path
from tests.support.every_row import fill


async def make(out: Path, url: str | None) -> None:
    """Write ``main.sqlite3`` (and ``main.postgres.sql`` when ``url`` is given) in ``out``."""
    lite = out / "main.sqlite3"
    lite.unlink(missing_ok=True)
    store = await SqliteStorage.open(lite)
    await fill(store)
    await store.close()
    if url is None:
        return
    schema = await create_schema(url, prefix="main_")
    try:
        pg = await PostgresStorage.open(with_search_path(url, schema))
        await fill(pg)
        await pg.close()
        pg_dump = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_dump"))[-1]
        dumped = subprocess.run(
            [pg_dump, "--inserts", "--no-owner", "--no-privileges", "--schema", schema, url],
            check=True, capture_output=True, text=True).stdout
        lines = [line for line in dumped.splitlines()
                 if not line.startswith(("CREATE SCHEMA", "SET ", "SELECT pg_catalog.set_config",
                                         "\\restrict", "\\unrestrict", "--"))]
        text = "\n".join(lines).replace(schema, "__SCHEMA__")
        (out / "main.postgres.sql").write_text(text.strip() + "\n")
    finally:
        await drop_schema(url, schema)


if __name__ == "__main__":
    asyncio.run(make(Path(sys.argv[1]), sys.argv[2] if len(sys.argv) > 2 else None))
