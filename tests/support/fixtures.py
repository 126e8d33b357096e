"""The fixtures every test package shares, loaded once through ``pytest_plugins`` in
tests/conftest.py (no conftest is imported as a module).

* ``database``: one test database per backend (``sqlite``, ``postgres``; see
  ``tests/support/databases.py``); a test that takes it runs once per backend.
  ``postgres_database``: a PostgreSQL one only (PostgreSQL-specific behaviour).
* ``store``: an open repository on ``database`` (both backends); ``db_path``: a SQLite
  file path under ``tmp_path`` (not created).
* ``clock``: a ``FakeClock`` (``tests/support/service_clock.py``); ``service``: a
  TableService on ``store`` and ``clock``, its listener a ``Recorder``, computers
  without a pause; ``seated``: a hand of three members dealt on ``service``.
* ``fake``: the real bot (storage, service, cog, command tree) on the fake Discord
  (``tests/support/fake_discord.py``), dealing ``fake.deal``
  (``tests/support/fake_game.py``); its images and searches run in threads, not worker
  processes.
* ``emulator``: a started loopback Discord (``sandbox/loopback/emulator.py``), closed after
  the test; ``bot_factory(argv=None, **kw) -> BotProcess`` (a ``BotFactory``): not
  started yet, every process it made is killed at teardown (before the emulator
  closes); ``solo_table``: a started bot, the member alice and her table with two
  computers, Start pressed (``tests/support/solo.py``).

The terminal summary prints ddz-bot's response-time percentiles of the end-to-end
tests (``tests/support/timing.py``) and the counts of Discord's OpenAPI check
(``tests/support/openapi.py``): every REST request and answer of every loopback Discord
is validated against Discord's spec, and a mismatch fails the test that made it
(``openapi_check``, autouse; ``DDZ_OPENAPI_CHECK=0`` switches it off, ``=inline`` checks
in the loopback's loop instead of a checking process of its own). A test that starts a
Python process without the ``processes`` or ``e2e`` marker fails
(``in_process_unless_marked``, autouse).
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bot.client import DdzBot
from bot.game.table import Table
from bot.service import TableService
from bot.service.worker import ai_pool
from bot.settings import Settings
from bot.storage.base import SqlRepository
from sandbox.loopback.emulator import Emulator, SimMember
from tests.support import openapi, properties, timing, workers
from tests.support.botproc import BotFactory, BotProcess
from tests.support.databases import BACKENDS, Database, postgres_schema
from tests.support.ddz_driver import FAST_ENV
from tests.support.fake_discord import FakeDiscord, boot
from tests.support.fake_game import CHANNEL_ID, GUILD_ID, HANDS, KITTY
from tests.support.service_clock import FakeClock, Recorder, featured_service, three_players
from tests.support.solo import open_with_computers

if os.environ.get("DDZ_OPENAPI_CHECK", "1") != "0":
    openapi.install(inline=os.environ.get("DDZ_OPENAPI_CHECK") == "inline")


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Print ddz-bot's first-response time percentiles over the game tests and the
    OpenAPI check's counts."""
    text = timing.summary_line()
    for line in (text or "").splitlines():
        terminalreporter.write_line(line)
    openapi.drain()
    tally = openapi.TALLY
    if tally.requests or tally.responses or tally.mismatches:
        terminalreporter.write_line(tally.summary())
    for text in sorted({m.text for m in tally.mismatches})[:30]:
        terminalreporter.write_line("  " + text)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "openapi_invalid_requests: the test sends requests that break Discord's spec on "
        "purpose (the loopback's limits); only the loopback's answers are checked",
    )
    workers.database_per_worker()
    properties.use_fast_loop(workers.is_fast_loop(config))  # before any test module's import


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto`` (pyproject.toml's addopts): two workers a core, at least 4 and at most
    16; three a core for the fast loop (``-m "not e2e and not processes"``, or ``-m "not
    e2e"``). The suite mostly waits (on bot processes, timers, the loopback Discord), so
    a 2-core machine runs 4, and 6 for the fast loop, whose processes start no bot
    (docs/CONTRIBUTING.md §Measurements: 4, 6 and 8 workers compared)."""
    per_core = 3 if workers.is_fast_loop(config) else 2
    return min(16, max(4, per_core * (os.cpu_count() or 1)))


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark the end-to-end tests ``e2e``; in an xdist worker, module-scoped fixtures keep
    their module on one worker and the slow tests go first (tests/support/workers.py)."""
    workers.mark_e2e(items)
    if workers.worker_id() is not None:
        workers.group_shared_fixtures(items)
        workers.slow_first(items)


def pytest_collection_finish(session: pytest.Session) -> None:
    """Freeze what collection left (modules, test items, fixtures: the process's
    long-lived heap) out of the collector's full scans, as the bot does at start-up
    (``bot.client``, docs/PERFORMANCE.md §Collector). Without it, each full collection of a
    test that allocates much walked them all: ``test_seating``'s Hypothesis test took
    1.2 s of CPU after ``tests/service/test_daily.py`` in one process, 0.3 s so; the
    in-process bot's tests froze the heap already, the others did not."""
    workers.freeze_collected()


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """The fast loop (``-m "not e2e and not processes"``, or ``-m "not e2e"``) leaves the
    end-to-end files uncollected (tests/support/workers.py)."""
    return True if workers.skipped_by_fast_loop(collection_path, config) else None


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: Any) -> None:
    """In the xdist controller: add a finished worker's timings and OpenAPI tally."""
    state = getattr(node, "workeroutput", {}).get("ddz_summary")
    if state is not None:
        workers.merge_into(state)


@pytest.fixture(autouse=True)
def in_process_unless_marked(request: pytest.FixtureRequest,
                             monkeypatch: pytest.MonkeyPatch) -> None:
    """A test that starts a Python process is marked ``processes`` or ``e2e``
    (tests/support/workers.py, ``guard_processes``)."""
    workers.guard_processes(request.node, monkeypatch)


@pytest.fixture(autouse=True)
def openapi_check(request: pytest.FixtureRequest) -> Iterator[None]:
    """Fail the test when a loopback exchange broke Discord's OpenAPI spec since the last
    test's check (its own, or a shared fixture's set up for it)."""
    yield
    openapi.drain()
    tally = openapi.TALLY
    new = tally.mismatches[tally.reported:]
    if request.node.get_closest_marker("openapi_invalid_requests") is not None:
        kept = [m for m in new if m.side != "request"]
        tally.on_purpose += len(new) - len(kept)
        del tally.mismatches[tally.reported:]
        tally.mismatches.extend(new := kept)
    tally.reported = len(tally.mismatches)
    if new:
        shown = "\n".join(sorted({m.text for m in new})[:20])
        pytest.fail(f"{len(new)} exchanges broke Discord's OpenAPI spec:\n{shown}")


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Mismatches no test reported (a fixture's teardown) fail the session; an xdist
    worker hands its timings and tally to the controller, which decides."""
    openapi.drain()
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:
        workeroutput["ddz_summary"] = workers.summary_state()
        return
    tally = openapi.TALLY
    if tally.mismatches[tally.reported:] and exitstatus == 0:
        session.exitstatus = 1


# ----- storage ------------------------------------------------------------------------


@pytest.fixture(params=BACKENDS)
async def database(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Database]:
    if request.param == "sqlite":
        yield Database("sqlite", str(tmp_path / "ddz.sqlite3"))
        return
    async with postgres_schema() as url:
        yield Database("postgres", url)


@pytest.fixture
async def postgres_database() -> AsyncIterator[Database]:
    async with postgres_schema() as url:
        yield Database("postgres", url)


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "ddz.sqlite3"


@pytest.fixture
async def store(database: Database) -> AsyncIterator[SqlRepository]:
    storage = await database.open()
    yield storage
    await storage.close()


# ----- the service ----------------------------------------------------------------------


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
async def service(store: SqlRepository, clock: FakeClock) -> AsyncIterator[TableService]:
    svc = featured_service(store, clock=clock, listener=Recorder(), ai_delay=0)
    yield svc
    await svc.close()


@pytest.fixture
async def seated(service: TableService) -> Table:
    return await three_players(service)


# ----- the bot on the fake Discord ----------------------------------------------------------


@pytest.fixture
async def fake(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[FakeDiscord]:
    settings = Settings(discord_token="test-token", database_path=tmp_path / "ddz.sqlite3",
                        computer_delay=(0.0, 0.0), render_workers=0,  # images in threads
                        hint_prefetch=False,  # a Hint's search starts at the click
                        autoplay_pace_scale=0.0,  # auto-play without its pace
                        deal_seed=20261130)  # Play again deals the same hands every run
    bot = DdzBot(settings)
    # Searches in threads too, like the images (render_workers=0): the tests on the fake
    # stay in this process, and the answers are the same (WorkerPool's contract, checked
    # on the real worker by tests/service/test_worker.py); a worker process would cost
    # each test that searches half a second of CPU to import the AI.
    bot.ai = ai_pool(0)
    fake = FakeDiscord(bot, GUILD_ID, CHANNEL_ID)
    fake.install(monkeypatch)
    await boot(bot)
    bot.get_cog("ddz").board.interval = 0.0
    service = bot.service
    original_start = service.start

    fake.deal = {"hands": HANDS, "kitty": KITTY, "first_bidder": 0}

    async def start(table_id: str, user_id: int, seq: int | None = None, **deal: Any) -> Any:
        return await original_start(table_id, user_id, seq, **{**fake.deal, **deal})

    service.start = start
    yield fake
    await fake.idle()
    await bot.close()


# ----- end to end: the bot's process on the loopback Discord ----------------------------


@pytest.fixture
async def emulator() -> AsyncIterator[Emulator]:
    emu = Emulator()
    await emu.start()
    try:
        yield emu
    finally:
        await emu.close()


@pytest.fixture
async def bot_factory(emulator: Emulator, tmp_path: Path) -> AsyncIterator[BotFactory]:
    made: list[BotProcess] = []

    def make(argv: list[str] | None = None, **kw: Any) -> BotProcess:
        n = len(made)
        kw.setdefault("db_path", tmp_path / f"bot{n}.sqlite3")
        kw.setdefault("log_path", tmp_path / f"bot{n}.log")
        bot = BotProcess(emulator, argv=argv, **kw)
        made.append(bot)
        return bot

    try:
        yield make
    finally:
        for bot in made:
            await bot.kill()


@dataclass
class SoloTable:
    """A started bot where ``alice`` opened a table with two computers and pressed Start."""

    emu: Emulator
    bot: BotProcess
    alice: SimMember


@pytest.fixture
async def solo_table(emulator: Emulator, bot_factory: BotFactory) -> SoloTable:
    bot = await bot_factory(extra_env=FAST_ENV).start(timeout=30)
    alice = emulator.member(name="alice")
    await open_with_computers(emulator, alice)
    return SoloTable(emulator, bot, alice)
