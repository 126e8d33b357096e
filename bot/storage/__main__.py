"""``python -m bot.storage copy SOURCE DEST``: copy all data between databases.

SOURCE and DEST are each a SQLite file path or a ``postgresql://`` URL (docs/SCALING.md).
Idempotent (rows are upserted on their primary key); a progress bar shows on a
terminal. Exit codes: 0 done, 1 the copy failed (one line on stderr; a SOURCE file that
does not exist is refused before anything is opened or created), 2 bad usage.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

from tqdm import tqdm

from bot.storage import is_postgres_url, open_repository
from bot.storage.base import SqlRepository
from bot.storage.copy import copy_database, count_rows, shown


async def copy_command(source: str, dest: str, *, quiet: bool = False) -> dict[str, int]:
    """Copy SOURCE into DEST with a progress bar (on a terminal); rows copied by table."""
    src = await open_repository(source)
    try:
        dst = await open_repository(dest)
        try:
            assert isinstance(src, SqlRepository) and isinstance(dst, SqlRepository)
            total = sum((await count_rows(src)).values())
            with tqdm(
                total=total, unit="row", desc="copy", disable=quiet or None, file=sys.stderr
            ) as bar:

                def advance(table: str, rows: int) -> None:
                    bar.set_postfix_str(table, refresh=False)
                    bar.update(rows)

                return await copy_database(src, dst, advance)
        finally:
            await dst.close()
    finally:
        await src.close()


def main(argv: list[str] | None = None) -> int:
    """Entry point; returns the exit code."""
    parser = argparse.ArgumentParser(prog="python -m bot.storage", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    copy = commands.add_parser("copy", help="copy every row from SOURCE into DEST")
    copy.add_argument("source", help="SQLite file path or postgresql:// URL")
    copy.add_argument("dest", help="SQLite file path or postgresql:// URL")
    copy.add_argument("--quiet", action="store_true", help="no progress bar")
    args = parser.parse_args(argv)
    if not is_postgres_url(args.source) and not Path(args.source).is_file():
        print(f"ddz-bot: copy failed: SOURCE {args.source} does not exist", file=sys.stderr)
        return 1
    try:
        copied = asyncio.run(copy_command(args.source, args.dest, quiet=args.quiet))
    except Exception as error:  # one line, no traceback, no password
        print(f"ddz-bot: copy failed: {type(error).__name__}: {error}", file=sys.stderr)
        return 1
    parts = ", ".join(f"{name} {rows}" for name, rows in copied.items() if rows)
    print(
        f"copied {sum(copied.values())} rows from {shown(args.source)} to {shown(args.dest)}"
        f" ({parts or 'nothing to copy'})"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
