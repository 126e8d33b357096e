"""``python -m bot.storage copy SOURCE DEST``: copy all data between databases (the
features' own tables too when run as ``python -m bot storage copy``, which gives the
installed features; ``bot.storage.copy``);
``python -m bot.storage rerate DB``: re-rate every server from its stored hands.

SOURCE, DEST and DB are each a SQLite file path or a ``postgresql://`` URL
(docs/SCALING.md). ``copy`` is idempotent (rows are upserted on their primary key);
``rerate`` too (docs/RATINGS.md §Re-rating: the ratings follow from the stored hands
alone). Both show a progress bar on a terminal; stop the bot first. Exit codes: 0 done,
1 the command failed (one line on stderr; a SOURCE or DB file that does not exist is
refused before anything is opened or created), 2 bad usage.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Sequence
from pathlib import Path

from tqdm import tqdm

from bot.storage import is_postgres_url, open_repository
from bot.storage.base import SqlRepository
from bot.storage.copy import FeatureTables, copy_database, count_rows, migrate_features, shown
from bot.storage.rerate import Rerated, guild_ids, rerate_database


async def copy_command(source: str, dest: str, *, quiet: bool = False,
                       features: Sequence[FeatureTables] = ()) -> dict[str, int]:
    """Copy SOURCE into DEST with a progress bar (on a terminal), the tables of
    ``features`` too (``bot.storage.copy``); rows copied by table."""
    src = await open_repository(source)
    try:
        dst = await open_repository(dest)
        try:
            assert isinstance(src, SqlRepository) and isinstance(dst, SqlRepository)
            await migrate_features(src, dst, features)
            total = sum((await count_rows(src, features)).values())
            with tqdm(
                total=total, unit="row", desc="copy", disable=quiet or None, file=sys.stderr
            ) as bar:

                def advance(table: str, rows: int) -> None:
                    bar.set_postfix_str(table, refresh=False)
                    bar.update(rows)

                return await copy_database(src, dst, advance, features)
        finally:
            await dst.close()
    finally:
        await src.close()


async def rerate_command(location: str, *, quiet: bool = False) -> Rerated:
    """Re-rate every server of the database at ``location`` with a progress bar (hands)."""
    store = await open_repository(location)
    try:
        assert isinstance(store, SqlRepository)
        total = sum(n for _, n in await guild_ids(store))
        with tqdm(
            total=total, unit="hand", desc="rerate", disable=quiet or None, file=sys.stderr
        ) as bar:
            return await rerate_database(store, bar.update)
    finally:
        await store.close()


def _count(n: int, noun: str) -> str:
    """``1 hand``, ``2 hands``."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def main(argv: list[str] | None = None, features: Sequence[FeatureTables] = (),
         prog: str = "python -m bot.storage") -> int:
    """Entry point; returns the exit code. ``features``: the installed features' names and
    migrations, whose own tables ``copy`` copies too (``python -m bot storage`` gives the
    bot's, bot/__main__.py; this package cannot import them, it sits below them)."""
    parser = argparse.ArgumentParser(prog=prog, description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    copy = commands.add_parser("copy", help="copy every row from SOURCE into DEST")
    copy.add_argument("source", help="SQLite file path or postgresql:// URL")
    copy.add_argument("dest", help="SQLite file path or postgresql:// URL")
    copy.add_argument("--quiet", action="store_true", help="no progress bar")
    rerate = commands.add_parser(
        "rerate", help="re-rate every server from its stored hands (docs/RATINGS.md)"
    )
    rerate.add_argument("db", help="SQLite file path or postgresql:// URL")
    rerate.add_argument("--quiet", action="store_true", help="no progress bar")
    args = parser.parse_args(argv)
    if args.command == "rerate":
        if not is_postgres_url(args.db) and not Path(args.db).is_file():
            print(f"ddz-bot: rerate failed: DB {args.db} does not exist", file=sys.stderr)
            return 1
        try:
            done = asyncio.run(rerate_command(args.db, quiet=args.quiet))
        except Exception as error:  # one line, no traceback, no password
            print(f"ddz-bot: rerate failed: {type(error).__name__}: {error}", file=sys.stderr)
            return 1
        print(f"re-rated {_count(done.hands, 'hand')} in {_count(done.guilds, 'server')} of"
              f" {shown(args.db)} ({_count(done.ratings, 'rating')})")
        return 0
    if not is_postgres_url(args.source) and not Path(args.source).is_file():
        print(f"ddz-bot: copy failed: SOURCE {args.source} does not exist", file=sys.stderr)
        return 1
    try:
        copied = asyncio.run(copy_command(args.source, args.dest, quiet=args.quiet,
                                          features=features))
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
