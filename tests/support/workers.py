"""What the suite needs to run in pytest-xdist's worker processes (``-n``, set in
pyproject.toml's ``addopts``; docs/CONTRIBUTING.md).

* **A PostgreSQL database per worker**: worker ``gwN`` creates ``<database>_gwN`` (e.g.
  ``ddz_test_gw3``) on the server of ``DDZ_TEST_DATABASE_URL`` and points the variable
  at it before any test runs, so the bot processes it starts inherit it too. Tests
  still take a fresh schema each (``tests/support/databases.py``); the database keeps
  workers apart in what a schema does not separate (the server's advisory locks and
  ``pg_locks``, which ``bot/storage/postgres.py``'s shard claims read).
* **One worker per module-scoped fixture**: a test that uses a module-, class- or
  package-scoped fixture (a bot shared by a module's tests) is put in its module's
  ``xdist_group`` (run with ``--dist loadgroup``), so that fixture is built once, on
  one worker; every other test is handed out on its own.
* **Slow tests first**: the workers take the end-to-end and browser tests, then the fast
  loop's longest, before the quick ones, so the run does not end waiting on one long
  test started last.
* **The fast loop collects no end-to-end file**: under ``-m "not e2e and not processes"``
  (or ``-m "not e2e"``) the files and folders of ``E2E_PATHS`` are not imported at all
  (``skipped_by_fast_loop``).
* **The collected heap frozen** (``freeze_collected``, after collection): the modules,
  test items and fixtures a worker holds all run long stay out of the collector's full
  scans, as the bot's own start-up heap does.
* **One summary**: each worker hands its response times and its OpenAPI tally
  (``tests/support/timing.py``, ``tests/support/openapi.py``) to the controller,
  which prints them once (``merge_into``) and fails the session on a mismatch no
  test reported.

Everything else a test touches is its own already: ``tmp_path`` is per worker, every
loopback Discord, web page and pooler listens on a port the system chose (port 0),
and Playwright gives each launched chromium a fresh temporary profile.
"""

from __future__ import annotations

import asyncio
import gc
import multiprocessing.process
import os
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import pytest

from tests.support.databases import URL_VARIABLE

GROUPED_SCOPES = ("module", "class", "package")
SLOW_FOLDERS = ("tests/e2e/", "tests/web/test_browser.py", "tests/sandbox/", "tests/web/",
                "tests/cogs/test_smoke_every_command.py", "tests/cogs/test_demo_feature.py",
                "tests/ai/test_value.py", "tests/ai/test_fixed_budget.py")
"""Tests handed out first, in this order of priority (the rest keep their order): the
end-to-end ones, then the fast loop's longest (10–13 s each on a quiet machine, waiting
on Discord's limits or searching), so that the run does not end on one of them."""


def freeze_collected() -> None:
    """``gc.collect()`` then ``gc.freeze()``: everything alive now stays out of the
    collector's sight (still freed by reference counting) for the rest of the run."""
    gc.collect()
    gc.freeze()


def worker_id() -> str | None:
    """This process's xdist worker id (``gw0``…), None in the controller or without xdist."""
    return os.environ.get("PYTEST_XDIST_WORKER") or None


def with_database(url: str, name: str) -> str:
    """``url`` naming database ``name`` instead of its own (query and credentials kept)."""
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path="/" + name))


async def _fresh_database(url: str, name: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await conn.execute(f'CREATE DATABASE "{name}"')
    finally:
        await conn.close()


def database_per_worker() -> None:
    """Point ``DDZ_TEST_DATABASE_URL`` at this worker's own fresh database (see the
    module's docstring); nothing without xdist or without the variable. A server that
    cannot be reached is left to the tests to report (they skip, or fail under CI)."""
    wid, url = worker_id(), os.environ.get(URL_VARIABLE, "").strip()
    if wid is None or not url:
        return
    base = urlsplit(url).path.lstrip("/") or "postgres"
    name = f"{base}_{wid}"
    for attempt in range(5):  # CREATE DATABASE copies template1: retried while it is busy
        try:
            asyncio.run(_fresh_database(url, name))
        except Exception:  # no server: the tests say so (databases.server_url)
            time.sleep(0.2 * (attempt + 1))
            continue
        os.environ[URL_VARIABLE] = with_database(url, name)
        return


E2E_PATHS = ("tests/e2e/", "tests/sandbox/", "tests/web/test_browser.py", "tests/test_startup.py")
E2E_FIXTURES = frozenset({"emulator", "bot_factory", "solo_table"})


def mark_e2e(items: Sequence[pytest.Item]) -> None:
    """Mark ``e2e`` every test that drives a bot or sandbox process or a browser: the
    files of ``E2E_PATHS`` and the tests taking ``E2E_FIXTURES``
    (``python -m pytest -m "not e2e"`` runs the others; docs/CONTRIBUTING.md). The
    ``processes`` marker, set by hand, is the fast loop's other exclusion."""
    for item in items:
        fixtures = set(getattr(item, "fixturenames", ()))
        if item.nodeid.startswith(E2E_PATHS) or fixtures & E2E_FIXTURES:
            item.add_marker(pytest.mark.e2e)


FAST_LOOP = "not e2e and not processes"
"""The fast loop's mark expression: the pure and in-process tests (``python -m pytest -m
"not e2e and not processes"``; the ``processes`` tests start Python processes of their
own: worker pools, the bot's command line, a second database writer)."""
WITHOUT_E2E = ("not e2e", FAST_LOOP)
"""Mark expressions that deselect every end-to-end test: the fast loop, and ``not e2e``
(the fast loop plus the ``processes`` tests)."""


def is_fast_loop(config: pytest.Config) -> bool:
    """Whether the run's mark expression is one of ``WITHOUT_E2E`` (spaces aside)."""
    return " ".join(str(config.option.markexpr or "").split()) in WITHOUT_E2E


def skipped_by_fast_loop(path: Path, config: pytest.Config) -> bool:
    """True for a file or folder of ``E2E_PATHS`` when the run is the fast loop: every test
    in it is marked ``e2e``, so the fast loop would deselect them all; it leaves them
    uncollected instead, sparing each worker their imports (Playwright, the sandbox) and
    their collection (docs/CONTRIBUTING.md §Measurements)."""
    if not is_fast_loop(config):
        return False
    try:
        rel = path.relative_to(config.rootpath).as_posix()
    except ValueError:
        return False
    return (rel + ("/" if path.is_dir() else "")).startswith(E2E_PATHS)


def _is_python(args: Any) -> bool:
    """Whether ``subprocess.Popen``'s ``args`` start Python (``sys.executable``, or a
    program named ``python…``)."""
    if isinstance(args, (str, bytes)):
        first = (os.fsdecode(args).split() or [""])[0]
    elif isinstance(args, os.PathLike):
        first = os.fsdecode(args)
    else:
        first = os.fsdecode(next(iter(args), ""))
    return bool(first) and (os.path.realpath(first) == os.path.realpath(sys.executable)
                            or os.path.basename(first).startswith("python"))


def guard_processes(item: pytest.Item, monkeypatch: pytest.MonkeyPatch) -> None:
    """Fail ``item`` when it starts a Python process (``sys.executable`` through
    ``subprocess``, or a ``multiprocessing`` process) without the ``processes`` or
    ``e2e`` marker: the fast loop stays in-process (docs/CONTRIBUTING.md). Other programs
    (``mount``, PostgreSQL's tools) are not Python processes and pass."""
    if item.get_closest_marker("processes") or item.get_closest_marker("e2e"):
        return
    where = item.nodeid

    def refuse(what: str) -> None:
        pytest.fail(f"{where} starts {what}: mark it @pytest.mark.processes "
                    "(docs/CONTRIBUTING.md)", pytrace=False)

    popen_init = subprocess.Popen.__init__
    start = multiprocessing.process.BaseProcess.start

    def checked_init(self: subprocess.Popen[Any], args: Any, *rest: Any, **kw: Any) -> None:
        if _is_python(args):
            refuse(f"a Python process ({args!r:.80})")
        popen_init(self, args, *rest, **kw)

    def checked_start(self: multiprocessing.process.BaseProcess) -> None:
        refuse(f"a multiprocessing process ({self.name})")
        start(self)

    monkeypatch.setattr(subprocess.Popen, "__init__", checked_init)
    monkeypatch.setattr(multiprocessing.process.BaseProcess, "start", checked_start)


def group_shared_fixtures(items: Sequence[pytest.Item]) -> None:
    """Put each test that uses a module-, class- or package-scoped fixture in its
    module's xdist group (``--dist loadgroup`` runs a group on one worker)."""
    for item in items:
        info = getattr(item, "_fixtureinfo", None)
        if info is None or item.get_closest_marker("xdist_group") is not None:
            continue
        scopes = {d.scope for defs in info.name2fixturedefs.values() for d in defs}
        if scopes.intersection(GROUPED_SCOPES):
            item.add_marker(pytest.mark.xdist_group(item.nodeid.split("::", 1)[0]))


def slow_first(items: list[pytest.Item]) -> None:
    """Reorder ``items`` (stable): end-to-end and browser tests first."""

    def rank(item: pytest.Item) -> int:
        path = item.nodeid
        return next((i for i, f in enumerate(SLOW_FOLDERS) if path.startswith(f)),
                    len(SLOW_FOLDERS))

    items.sort(key=rank)


def summary_state() -> dict[str, Any]:
    """This worker's timing lists and OpenAPI tally, as plain data for the controller."""
    from tests.support import openapi, timing

    openapi.drain()
    tally = openapi.TALLY
    return {
        "response": list(timing.RESPONSE_TIMES_MS),
        "answer": list(timing.ANSWER_TIMES_MS),
        "edits": list(timing.EDITS_PER_WINDOW),
        "rules": dict(timing.RULES),
        "requests": tally.requests,
        "responses": tally.responses,
        "allowed": dict(tally.allowed),
        "unchecked": dict(tally.unchecked),
        "mismatches": [(m.side, m.text) for m in tally.mismatches],
        "reported": tally.reported,
        "on_purpose": tally.on_purpose,
    }


def merge_into(state: dict[str, Any]) -> None:
    """Add a worker's ``summary_state`` to this process's timing lists and tally."""
    from tests.support import openapi, timing

    timing.RESPONSE_TIMES_MS.extend(state["response"])
    timing.ANSWER_TIMES_MS.extend(state["answer"])
    timing.EDITS_PER_WINDOW.extend(state["edits"])
    timing.RULES.update(state["rules"])
    tally = openapi.TALLY
    tally.requests += state["requests"]
    tally.responses += state["responses"]
    tally.allowed.update(state["allowed"])
    tally.unchecked.update(state["unchecked"])
    mismatches = [openapi.Mismatch(side, text) for side, text in state["mismatches"]]
    # the worker's reported ones first, then the ones no test reported (they fail the run)
    reported, unreported = mismatches[:state["reported"]], mismatches[state["reported"]:]
    tally.mismatches[tally.reported:tally.reported] = reported
    tally.reported += len(reported)
    tally.mismatches.extend(unreported)
    tally.on_purpose += state["on_purpose"]
