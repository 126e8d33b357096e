"""Click latency with and without visitors hammering the web page, side by side.

Run: ``python -m benchmarks.web_load [--tables 40] [--seconds 20] [--rounds 2]
[--visitors 8] [--slow-clients 1100]``. Each round runs the load of ``benchmarks/interaction.py`` (the real
bot on the fake of Discord, members playing at ``--tables`` tables) twice with the web
page on (``DDZ_WEB_PORT``): once with nobody visiting it (*quiet*), once while a
separate process (``--hammer``, so that its own CPU is not the bot's) keeps
``--visitors`` concurrent visitors fetching pages, each ``--pause`` seconds after its
last answer (0: as fast as the bot answers, a flood): the
replays of the hands settled so far (HTML and the preview PNG, both languages), a
tampered link, ``/healthz``, ``/metrics`` and the style sheet, each visitor from its
own address (``X-Forwarded-For``), so that the per-address limit does not stop them.
``--slow-clients N`` adds a slow-client flood beside them in the same process: ``N``
connections from loopback that each send half a request line and stop (a slowloris),
each opened again ``--slow-pause`` seconds after the bot closed it (15 s, the round of
the well-known slowloris script; 1 s makes it a connection flood as well). Printed per round and in all: the
first-response and full-answer p50 / p99 (ms) of the clicks, quiet and loaded, their
ratio, the pages the visitors got per second (by status) and what became of the slow
clients' connections. Targets: the loaded p99s within 1.25× of the quiet ones, 1.2×
with a slow-client flood (docs/WEB.md §Never slows the game).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import socket
import sys
import time
from collections import Counter
from typing import Any

from benchmarks import interaction
from bot.__main__ import loop_factory
from bot.service.links import WebLinks

SECRET = "bench-web-secret-0123456789"
TARGET_RATIO = 1.25
SLOW_TARGET_RATIO = 1.2
"""With ``--slow-clients`` (issue 36: the game never depends on a visitor's socket)."""
HALF_REQUEST = b"GET /healthz HTTP/1.1\r\nHost: ddz\r\nX-Slow: "


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def slow_clients(port: int, end: float, count: int, pause: float) -> Counter[str]:
    """``count`` connections that send half a request line and stop, until ``end``
    (monotonic); each opened again ``pause`` s after the bot closed it. What became of
    them."""
    fates: Counter[str] = Counter()

    async def one() -> None:
        while time.monotonic() < end:
            try:
                reader, writer = await asyncio.open_connection("127.0.0.1", port)
            except OSError as error:
                fates[f"connect failed ({type(error).__name__})"] += 1
                await asyncio.sleep(1.0)
                continue
            fates["opened"] += 1
            writer.write(HALF_REQUEST)
            try:
                await asyncio.wait_for(reader.read(), max(0.0, end - time.monotonic()))
                fates["closed by the bot"] += 1
            except TimeoutError:
                fates["still open at the end"] += 1
            except OSError:
                fates["reset by the bot"] += 1
            writer.close()
            await asyncio.sleep(pause)

    await asyncio.gather(*(one() for _ in range(count)))
    return fates


async def hammer(port: int, seconds: float, visitors: int, guilds: list[int],
                 pause: float, slow: int = 0, slow_pause: float = 15.0) -> dict[str, Any]:
    """``visitors`` concurrent clients for ``seconds``, each pausing ``pause`` s after
    each answer, and ``slow`` slow clients (``slow_clients``); answers by status, the
    slow clients' connections by fate."""
    import aiohttp

    links = WebLinks(SECRET, f"http://127.0.0.1:{port}")
    base = links.base_url
    statuses: Counter[str] = Counter()
    end = time.monotonic() + seconds
    settled: dict[int, int] = {g: 0 for g in guilds}  # highest hand number seen per guild

    async def visitor(number: int, session: aiohttp.ClientSession) -> None:
        rng = random.Random(number)
        address = f"10.{number // 250}.{number % 250}.{rng.randrange(1, 250)}"
        while time.monotonic() < end:
            guild = rng.choice(guilds)
            hand = rng.randint(1, settled[guild] + 1)  # one beyond: the next to settle
            token = links.replay_token(guild, hand)
            lang = rng.choice(("en", "es"))
            path = rng.choice((f"/r/{token}?lang={lang}", f"/r/{token}?lang={lang}",
                               f"/r/{token}/card.png?lang={lang}", f"/r/{token[:-2]}xx",
                               "/healthz", "/metrics", "/static/site.css"))
            try:
                async with session.get(base + path,
                                       headers={"X-Forwarded-For": address}) as response:
                    await response.read()
                    statuses[str(response.status)] += 1
                    if response.status == 200 and path.startswith("/r/") and hand > settled[guild]:
                        settled[guild] = hand
                if pause:
                    await asyncio.sleep(pause)
            except aiohttp.ClientError as error:
                statuses[type(error).__name__] += 1
                await asyncio.sleep(0.05)

    async with aiohttp.ClientSession() as session:
        _, fates = await asyncio.gather(
            asyncio.gather(*(visitor(i, session) for i in range(visitors))),
            slow_clients(port, end, slow, slow_pause))
    return {"statuses": dict(statuses), "seconds": seconds, "slow": dict(fates)}


async def _loaded(args: argparse.Namespace, port: int, load: bool) -> tuple[dict[str, Any], Any]:
    run_args = argparse.Namespace(**vars(args))
    run_args.worker_json = True
    proc = None
    if load:
        guilds = sorted({interaction.guild_of_table(n) for n in range(args.tables)})
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "benchmarks.web_load", "--hammer", "--port", str(port),
            "--seconds", str(args.ramp + args.seconds), "--visitors", str(args.visitors),
            "--pause", str(args.pause), "--slow-clients", str(args.slow_clients),
            "--slow-pause", str(args.slow_pause),
            "--guilds", ",".join(map(str, guilds)), stdout=asyncio.subprocess.PIPE)
    result = await interaction.run(run_args)
    pages = None
    if proc is not None:
        out, _ = await proc.communicate()
        line = next(x for x in out.decode().splitlines() if x.startswith("RESULT "))
        pages = json.loads(line[7:])
    assert isinstance(result, dict)
    return result, pages


def _figures(result: dict[str, Any]) -> tuple[float, float, float, float, int]:
    firsts = [first for _, first, _ in result["samples"]]
    fulls = [full for _, _, full in result["samples"]]
    pct = interaction.pct
    return pct(firsts, 0.5), pct(firsts, 0.99), pct(fulls, 0.5), pct(fulls, 0.99), len(firsts)


def _line(name: str, figs: tuple[float, float, float, float, int]) -> str:
    return (f"{name:>7}: first p50 {figs[0]:6.1f} p99 {figs[1]:6.1f} · full p50 {figs[2]:6.1f}"
            f" p99 {figs[3]:6.1f} ms over {figs[4]} clicks")


async def compare(args: argparse.Namespace) -> bool:
    port = _free_port()
    os.environ.update(DDZ_WEB_PORT=str(port), DDZ_WEB_SECRET=SECRET)
    quiet: list[Any] = []
    loaded: list[Any] = []
    lags: dict[bool, list[float]] = {False: [], True: []}
    cpu: dict[bool, float] = {False: 0.0, True: 0.0}
    pages: Counter[str] = Counter()
    page_seconds = 0.0
    for round_no in range(1, args.rounds + 1):
        for load in (False, True):
            result, hammered = await _loaded(args, port, load)
            (loaded if load else quiet).extend(result["samples"])
            lags[load].extend(result["lags"])
            cpu[load] += result["cpu"] - result["harness"]
            print(_line(f"{'loaded' if load else 'quiet'} {round_no}", _figures(result)))
            print(f"         bot CPU {result['cpu'] - result['harness']:.1f} s, event-loop lag"
                  f" p99 {interaction.pct(result['lags'], 0.99):.1f} ms")
            if hammered is not None:
                pages.update(hammered["statuses"])
                page_seconds += hammered["seconds"]
                rate = sum(hammered["statuses"].values()) / hammered["seconds"]
                print(f"         visitors got {rate:.0f} pages/s: {hammered['statuses']}")
                if args.slow_clients:
                    print(f"         {args.slow_clients} slow clients' connections:"
                          f" {hammered['slow']}")
    q, lo = _figures({"samples": quiet}), _figures({"samples": loaded})
    print(_line("quiet", q))
    print(_line("loaded", lo))
    print(f"ratios loaded/quiet: first p50 {lo[0] / q[0]:.2f} p99 {lo[1] / q[1]:.2f} · "
          f"full p50 {lo[2] / q[2]:.2f} p99 {lo[3] / q[3]:.2f}")
    n_quiet, n_loaded = max(1, len(quiet)), max(1, len(loaded))
    print(f"bot CPU per click (harness excluded, the web page's answers included): quiet"
          f" {cpu[False] / n_quiet * 1000:.1f} ms, loaded {cpu[True] / n_loaded * 1000:.1f} ms;"
          f" event-loop lag p99: quiet {interaction.pct(lags[False], 0.99):.1f} ms, loaded"
          f" {interaction.pct(lags[True], 0.99):.1f} ms")
    total = sum(pages.values())
    print(f"pages served while loaded: {total} ({total / page_seconds:.0f}/s), by status "
          f"{dict(sorted(pages.items()))}")
    target = SLOW_TARGET_RATIO if args.slow_clients else TARGET_RATIO
    met = lo[1] <= target * q[1] and lo[3] <= target * q[3]
    print(f"target loaded p99 ≤ {target}× quiet: {'met' if met else 'NOT met'}")
    return met


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=40)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--ramp", type=float, default=5.0)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--visitors", type=int, default=8)
    parser.add_argument("--pause", type=float, default=0.05,
                        help="seconds each visitor waits after an answer (0: a flood)")
    parser.add_argument("--slow-clients", type=int, default=0,
                        help="connections that send half a request line and stop (a"
                             " slowloris), beside the visitors")
    parser.add_argument("--slow-pause", type=float, default=15.0,
                        help="seconds a slow client waits to connect again once closed")
    parser.add_argument("--think", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--hammer", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--guilds", default="", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.hammer:
        guilds = [int(g) for g in args.guilds.split(",") if g]
        import resource  # the slow clients' sockets: this process's soft limit up to the hard
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        result = asyncio.run(hammer(args.port, args.seconds, args.visitors, guilds, args.pause,
                                    args.slow_clients, args.slow_pause))
        print("RESULT " + json.dumps(result))
        return
    defaults = dict(idle_factor=4.0, hint_share=0.3, try_no_hand_cache=False,
                    try_no_echo_parse=False, switch_interval=None, event_loop="auto",
                    profile=False, profile_out=None, processes=None, database=None,
                    shard_count=None, shard_id=0, worker_json=True)
    for name, value in defaults.items():
        setattr(args, name, value)
    import logging
    logging.basicConfig(level=logging.ERROR)
    with asyncio.Runner(loop_factory=loop_factory("auto")) as runner:
        ok = runner.run(compare(args))
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
