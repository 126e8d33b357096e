"""``python -m sandbox`` / ``ddz-sandbox``: the real bot, without Discord, in a browser.

Starts the loopback Discord (``sandbox/loopback``), the **unmodified**
``python -m bot`` as a child process pointed at it (fake token, a throwaway SQLite
file), and the web client on ``http://127.0.0.1:<port>``. Ctrl-C, SIGTERM or SIGHUP (a
closed terminal) stops the bot (SIGTERM, then SIGKILL of its whole process group after
``STOP_WAIT`` seconds) and the emulator. Nothing outlives the sandbox even when it is
killed (SIGKILL) and cannot stop the bot itself: on Linux the bot is started with the
parent-death signal set to SIGTERM (``prctl(PR_SET_PDEATHSIG)``, ``die_with_parent``),
so it shuts down as on a Ctrl-C; its worker processes end when their pipes to it close,
and its shard lock (an ``flock``) is released with it, so the next ``--keep`` run
starts. Exit codes: 0 after Ctrl-C/SIGTERM/SIGHUP, 1 when the bot stops or fails to
start, 2 for a bad option or a port in use (one line on stderr).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import ctypes
import errno
import os
import shutil
import signal
import socket
import sys
import tempfile
import time
import webbrowser
from collections.abc import Callable
from pathlib import Path

from aiohttp import web

from sandbox.loopback.bot_env import bot_env
from sandbox.web import SandboxEmulator, WebClient
from sandbox.world import LOCALES, NAMES, build_world

DEFAULT_PORT = 8765
START_TIMEOUT = 90.0
"""Seconds the bot may take to log in and sync its commands."""
STOP_WAIT = 10.0
"""Seconds the bot has to exit after SIGTERM before its process group is killed."""
KEEP_DIR = Path.home() / ".ddz-sandbox"
PACKAGE_ROOT = Path(__file__).resolve().parents[1]
"""The folder holding the ``bot`` package beside ``sandbox`` (a checkout or site-packages):
first on the bot's ``PYTHONPATH``, so that a checkout's sandbox runs that checkout's bot."""


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        prog="ddz-sandbox",
        description="Run the real ddz-bot against a loopback Discord and play it in a browser.")
    p.add_argument("--lang", choices=sorted(LOCALES), default="en",
                   help="language of the server and its members (default en)")
    p.add_argument("--members", type=int, default=3, metavar="N",
                   help=f"members to switch between, 1..{len(NAMES)} (default 3)")
    p.add_argument("--port", type=int, default=DEFAULT_PORT,
                   help=f"port of the web client on 127.0.0.1 (default {DEFAULT_PORT})")
    p.add_argument("--keep", action="store_true",
                   help=f"keep the database between runs (in {KEEP_DIR})")
    p.add_argument("--no-browser", action="store_true", help="do not open a browser")
    args = p.parse_args(argv)
    if not 1 <= args.members <= len(NAMES):
        p.error(f"--members must be 1..{len(NAMES)}")
    if not 0 <= args.port <= 65535:
        p.error("--port must be 0..65535")
    return args


def listen(port: int) -> socket.socket:
    """A socket bound to 127.0.0.1:``port`` (0: any free port); OSError when taken."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if os.name != "nt":
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(("127.0.0.1", port))
        sock.listen(128)
    except OSError:
        sock.close()
        raise
    return sock


PASS_THROUGH = ("DDZ_COMPUTER_DELAY", "DDZ_AUTOPLAY_PACE_SCALE", "DDZ_DEAL_SEED",
                "DDZ_EVENT_LOOP", "DDZ_RENDER_WORKERS", "DDZ_HINT_PREFETCH")
"""The shell's DDZ_* settings the bot still gets: the pace of play, not where it connects."""


def child_env(emu: SandboxEmulator, db_path: Path) -> dict[str, str]:
    """The bot's environment: ours without the shell's DISCORD_* and DDZ_* settings
    (no real token, no production database) but ``PASS_THROUGH``, plus the loopback's."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("DISCORD_", "DDZ_")) or k in PASS_THROUGH}
    env.update(bot_env(emu, db_path=db_path))
    env.update(DDZ_LOG_LEVEL="INFO", PYTHONUNBUFFERED="1", PYTHONPATH=os.pathsep.join(
        p for p in (str(PACKAGE_ROOT), os.environ.get("PYTHONPATH")) if p))
    return env


PR_SET_PDEATHSIG = 1
"""prctl(2) option: the signal a process gets when the thread that started it ends."""


def die_with_parent() -> Callable[[], None] | None:
    """A ``preexec_fn`` that makes the child get SIGTERM when this process dies, however
    it dies (SIGKILL included): ``prctl(PR_SET_PDEATHSIG, SIGTERM)``, kept across the
    exec of ``python -m bot``; a child whose parent is already gone stops at once.
    None where prctl is missing (not Linux): there, SIGHUP, SIGTERM and Ctrl-C still stop
    the bot, a SIGKILL of the sandbox does not."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None
    parent = os.getpid()

    def guard() -> None:  # runs in the child between fork and exec: no locks, no imports
        prctl(PR_SET_PDEATHSIG, int(signal.SIGTERM), 0, 0, 0)
        if os.getppid() != parent:  # the sandbox died before prctl took effect
            os._exit(1)

    return guard


class Sandbox:
    """One run: emulator, bot child process and web client (see the module docstring)."""

    def __init__(self, args: argparse.Namespace, sock: socket.socket) -> None:
        self.args = args
        self.sock = sock
        self.emu = SandboxEmulator(guild_locale=LOCALES[args.lang])
        self.world = build_world(self.emu, members=args.members, lang=args.lang)
        self.web = WebClient(self.world, self.emu)
        self.tmp = Path(tempfile.mkdtemp(prefix="ddz-sandbox-"))
        if args.keep:
            KEEP_DIR.mkdir(parents=True, exist_ok=True)
        self.db_path = (KEEP_DIR if args.keep else self.tmp) / "sandbox.sqlite3"
        self.log_path = (KEEP_DIR if args.keep else self.tmp) / "bot.log"
        self.bot: asyncio.subprocess.Process | None = None
        self.runner: web.AppRunner | None = None
        self.stopping = asyncio.Event()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.sock.getsockname()[1]}/"

    async def run(self) -> int:
        loop = asyncio.get_running_loop()
        hangup = getattr(signal, "SIGHUP", None)  # a closed terminal (POSIX)
        for sig in (signal.SIGINT, signal.SIGTERM, *([hangup] if hangup else [])):
            with contextlib.suppress(NotImplementedError):
                loop.add_signal_handler(sig, self.stopping.set)
        try:
            await self.emu.start()
            self.runner = web.AppRunner(self.web.app, access_log=None, shutdown_timeout=1.0)
            await self.runner.setup()
            await web.SockSite(self.runner, self.sock).start()
            if not await self.start_bot():
                return 0 if self.stopping.is_set() else 1
            print(f"ddz-sandbox: open {self.url}  (Ctrl-C to stop)", flush=True)
            if not self.args.no_browser:
                webbrowser.open(self.url)
            assert self.bot is not None
            bot_exit = asyncio.ensure_future(self.bot.wait())
            stop = asyncio.ensure_future(self.stopping.wait())
            await asyncio.wait({bot_exit, stop}, return_when=asyncio.FIRST_COMPLETED)
            stop.cancel()
            if bot_exit.done():
                print(f"ddz-sandbox: the bot stopped (exit {bot_exit.result()}); its log:\n"
                      f"{self.log_tail()}", file=sys.stderr)
                return 1
            return 0
        finally:
            await self.close()

    async def start_bot(self) -> bool:
        """Start ``python -m bot`` and wait until it is logged in with commands synced."""
        with self.log_path.open("ab") as log:
            self.bot = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "bot", cwd=str(self.tmp),
                env=child_env(self.emu, self.db_path), stdin=asyncio.subprocess.DEVNULL,
                stdout=log, stderr=asyncio.subprocess.STDOUT,
                start_new_session=True,  # its own group: the terminal's Ctrl-C is ours to pass on
                preexec_fn=die_with_parent())  # SIGTERM to it should we be killed
        print(f"ddz-sandbox: started python -m bot (pid {self.bot.pid}; log {self.log_path},"
              f" database {self.db_path})", flush=True)
        deadline = time.monotonic() + START_TIMEOUT
        while not (self.emu.gateway.ready_count and self.emu.commands.sync_count):
            if self.bot.returncode is not None or self.stopping.is_set():
                break
            if time.monotonic() > deadline:
                print(f"ddz-sandbox: the bot did not log in within {START_TIMEOUT:.0f} s",
                      file=sys.stderr)
                return False
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.stopping.wait(), 0.1)
        if self.bot.returncode is not None:
            print(f"ddz-sandbox: the bot exited with code {self.bot.returncode} at start; its log:"
                  f"\n{self.log_tail()}", file=sys.stderr)
            return False
        return not self.stopping.is_set()

    def log_tail(self, lines: int = 20) -> str:
        with contextlib.suppress(OSError):
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        return ""

    async def stop_bot(self) -> None:
        """SIGTERM to the bot; after ``STOP_WAIT`` s (or once it exited) SIGKILL to
        whatever is left of its process group (its worker processes)."""
        proc = self.bot
        if proc is None:
            return
        if proc.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                proc.terminate()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(proc.wait(), STOP_WAIT)
        if hasattr(os, "killpg"):  # POSIX: the bot leads its own process group
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(proc.pid, signal.SIGKILL)
        with contextlib.suppress(ProcessLookupError):
            await proc.wait()

    async def close(self) -> None:
        await self.stop_bot()
        if self.runner is not None:
            await self.runner.cleanup()
        await self.emu.close()
        self.sock.close()
        shutil.rmtree(self.tmp, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``ddz-sandbox``; the exit code (see the module docstring)."""
    args = parse_args(argv)
    try:
        sock = listen(args.port)
    except OSError as error:
        why = "is in use" if error.errno == errno.EADDRINUSE else f"cannot be opened ({error})"
        print(f"ddz-sandbox: port {args.port} on 127.0.0.1 {why}; choose another with --port",
              file=sys.stderr)
        return 2
    return asyncio.run(Sandbox(args, sock).run())
