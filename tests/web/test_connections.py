"""The web page's connections never take the bot's file descriptors (bot/web/gate.py,
docs/WEB.md §Never slows the game): header-less connections are capped per address and
in all and closed by the header deadline, while the game's own path (a database opened,
a request to "Discord", ``/healthz``) keeps working; the open-file limit is checked at
start."""

from __future__ import annotations

import asyncio
import os
import resource
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import aiohttp
import pytest
from aiohttp import web

from bot.__main__ import main
from bot.storage import open_repository
from bot.web import gate as gate_module
from bot.web.gate import RESERVED_FDS, ConnectionGate, DescriptorShortage, connection_room
from tests.support.fake_records import Records
from tests.support.web_pages import running_site

HALF_REQUEST = b"GET /healthz HTTP/1.1\r\nHost: ddz\r\nX-Slow: "
"""Half a request head, never finished (a slowloris)."""
FLOOD_FROM_ONE = 200
"""Half-request connections from 127.0.0.1 (the address the checks come from too)."""
OTHERS = [f"127.0.0.{n}" for n in range(2, 6)]
PER_OTHER = 25
"""Half-request connections from each other loopback address."""
FLOOD = FLOOD_FROM_ONE + PER_OTHER * len(OTHERS)
HEADROOM = 60
"""Descriptors left beside the flood's own client sockets when the limit is lowered: the
server side of the flood must fit in it, with a database and a "Discord" connection."""


def open_fds() -> int:
    return len(os.listdir("/proc/self/fd"))


@contextmanager
def open_file_limit(soft: int) -> Iterator[None]:
    """This process's soft RLIMIT_NOFILE lowered to ``soft`` for the block."""
    before = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (soft, before[1]))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, before)


async def half_request(port: int, source: str) -> tuple[asyncio.StreamReader,
                                                         asyncio.StreamWriter] | None:
    """A connection from ``source`` that sends half a request line and stops; None when
    this process could not even open it."""
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port,
                                                       local_addr=(source, 0))
    except OSError:
        return None
    writer.write(HALF_REQUEST)
    return reader, writer


async def closed_by_server(reader: asyncio.StreamReader, within: float) -> bool:
    try:
        return await asyncio.wait_for(reader.read(), within) == b""
    except (ConnectionResetError, BrokenPipeError):
        return True
    except TimeoutError:
        return False


async def discord_stand_in() -> tuple[web.AppRunner, str]:
    """A loopback HTTP server standing for Discord's REST API."""
    async def gateway(_: web.Request) -> web.Response:
        return web.json_response({"url": "wss://gateway.discord.gg"})

    app = web.Application()
    app.router.add_get("/api/v10/gateway", gateway)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    return runner, f"http://127.0.0.1:{port}/api/v10/gateway"


async def test_a_slowloris_flood_leaves_the_game_its_descriptors_and_is_closed_in_time(
    tmp_path: Path,
) -> None:
    """300 connections that send half a request line and stop, with the open-file limit
    just above what the flood's own client sockets take: before the gate the server
    accepted them all (aiohttp kept each for about an hour), the descriptors ran out and
    the database, "Discord" and /healthz failed with "Too many open files"."""
    discord_runner, discord_url = await discord_stand_in()
    gate = ConnectionGate(per_address=24, total=40, header_timeout=1.5)
    clients: list[tuple[asyncio.StreamReader, asyncio.StreamWriter]] = []
    try:
        async with running_site(Records(), gate=gate) as (base, _, _):
            port = int(base.rsplit(":", 1)[1])
            with open_file_limit(open_fds() + FLOOD + HEADROOM):
                for source in ["127.0.0.1"] * FLOOD_FROM_ONE + OTHERS * PER_OTHER:
                    opened = await half_request(port, source)
                    if opened is not None:
                        clients.append(opened)
                await asyncio.sleep(0.2)  # the server has seen every connection

                # The game's path while the flood holds its connections.
                store = await open_repository(str(tmp_path / "ddz.sqlite3"))
                try:
                    assert await store.get_settings(1) is not None
                finally:
                    await store.close()
                async with aiohttp.ClientSession() as session:
                    async with session.get(discord_url) as response:
                        assert response.status == 200
                    # /healthz from the flood's own address: it evicts a silent socket.
                    async with session.get(f"{base}/healthz") as response:
                        assert response.status == 200 and await response.text() == "ok\n"

                assert len(clients) == FLOOD  # none refused by this process's own limit
                assert gate.open <= 40 and gate.waiting == gate.open, (gate.open, gate.waiting)
                assert gate.refused + gate.evicted >= FLOOD - 40

                # The header deadline closes every flood connection still open.
                closed = await asyncio.gather(*(closed_by_server(r, 3.0) for r, _ in clients))
                assert all(closed), closed.count(False)
                assert gate.open == 0 and gate.timed_out >= 1
                assert gate.refused + gate.evicted + gate.timed_out == FLOOD
    finally:
        for _, writer in clients:
            writer.close()
        await discord_runner.cleanup()


async def test_a_request_being_answered_is_never_evicted_and_none_waiting_means_refused(
) -> None:
    """At the cap with every connection busy, a newcomer is refused, not a visitor."""
    gate = ConnectionGate(per_address=2, total=2, header_timeout=5.0)
    async with running_site(Records(), gate=gate) as (base, _, _), aiohttp.ClientSession(
            connector=aiohttp.TCPConnector(limit=2, force_close=False)) as session:
        for _ in range(2):  # two keep-alive connections, each past its first head
            await asyncio.gather(*(session.get(f"{base}/healthz") for _ in range(2)))
        assert gate.open == 2 and gate.waiting == 0
        port = int(base.rsplit(":", 1)[1])
        opened = await half_request(port, "127.0.0.1")
        assert opened is not None
        assert await closed_by_server(opened[0], 1.0)  # refused at once
        opened[1].close()
        assert gate.refused == 1 and gate.evicted == 0 and gate.open == 2


async def test_one_address_is_capped_but_the_reverse_proxy_only_by_the_total() -> None:
    gate = ConnectionGate(per_address=3, total=100, header_timeout=5.0)
    clients = []
    try:
        async with running_site(Records(), gate=gate) as (base, _, _):
            port = int(base.rsplit(":", 1)[1])
            for source in ["127.0.0.2"] * 5 + ["127.0.0.1"] * 5:
                opened = await half_request(port, source)
                assert opened is not None
                clients.append(opened)
            await asyncio.sleep(0.2)
            assert (gate.open, gate.evicted, gate.refused) == (3 + 5, 2, 0)
            first_two = [await closed_by_server(r, 0.5) for r, _ in clients[:2]]
            assert first_two == [True, True]  # the oldest of that address gave way
    finally:
        for _, writer in clients:
            writer.close()


def fake_limits(monkeypatch: pytest.MonkeyPatch, soft: int, hard: int) -> list[tuple[int, int]]:
    """RLIMIT_NOFILE as ``(soft, hard)``; setrlimit recorded (and honoured up to hard)."""
    state = {"soft": soft}
    calls: list[tuple[int, int]] = []

    def setrlimit(which: int, limits: tuple[int, int]) -> None:
        calls.append(limits)
        if limits[0] > hard:
            raise ValueError("not allowed to raise maximum limit")
        state["soft"] = limits[0]

    monkeypatch.setattr(resource, "getrlimit", lambda which: (state["soft"], hard))
    monkeypatch.setattr(resource, "setrlimit", setrlimit)
    return calls


def test_the_soft_limit_is_raised_toward_the_hard_one(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = fake_limits(monkeypatch, 256, 4096)
    assert connection_room() == gate_module.TOTAL
    assert calls == [(gate_module.TOTAL + RESERVED_FDS, 4096)]


def test_a_limit_too_low_for_the_cap_shrinks_it(monkeypatch: pytest.MonkeyPatch) -> None:
    fake_limits(monkeypatch, 300, 300)
    assert connection_room() == 300 - RESERVED_FDS


async def test_the_web_server_warns_and_shrinks_its_cap(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    fake_limits(monkeypatch, 300, 300)
    gate = ConnectionGate()
    async with running_site(Records(), gate=gate):
        assert gate.total == 300 - RESERVED_FDS
    warned = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
    assert warned == [f"web page: the open-file limit (RLIMIT_NOFILE) leaves room for"
                      f" {300 - RESERVED_FDS} connections, not {gate_module.TOTAL}: raise it"
                      f" (ulimit -n {gate_module.TOTAL + RESERVED_FDS}) for the full cap"]


def test_a_limit_with_no_room_refuses_to_start_in_one_line(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        tmp_path: Path) -> None:
    fake_limits(monkeypatch, 200, 200)
    with pytest.raises(DescriptorShortage):
        connection_room()
    monkeypatch.chdir(tmp_path)
    for name, value in (("DISCORD_TOKEN", "t"), ("DDZ_WEB_PORT", "8088"),
                        ("DDZ_WEB_SECRET", "s" * 16),
                        ("DDZ_DATABASE_PATH", str(tmp_path / "ddz.sqlite3"))):
        monkeypatch.setenv(name, value)
    monkeypatch.setattr("bot.__main__.check_web_address", lambda settings: None)
    assert main([]) == 6
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith("ddz-bot: the web page cannot start: the open-file limit"
                          " (RLIMIT_NOFILE) is 200: the web page needs at least 272")
    assert not (tmp_path / "ddz.sqlite3").exists()  # refused before the database opened
