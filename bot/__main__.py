"""``python -m bot``: read settings, set up logging, point discord.py at its servers, run.
(``python -m bot doctor``: check the token, commands and permissions, ``bot/doctor.py``;
``python -m bot storage copy SOURCE DEST``: copy the data with the features' own tables,
docs/SCALING.md.)

Exit codes: 0 after a clean shutdown, 2 when the settings are unusable (e.g. no
``DISCORD_TOKEN``), 3 when another live process already serves one of this process's
shards (``DDZ_SHARD_IDS``, docs/SCALING.md), 4 when the database connection holding
this process's shard locks was lost (a restart claims them again), 5 when the
database cannot be opened (unreachable server, refused credentials, not a
database), 6 when the web page cannot listen on ``DDZ_WEB_HOST:DDZ_WEB_PORT`` (port
taken, address not of this machine) or the open-file limit leaves it no room beside
what the bot needs (docs/WEB.md §Never slows the game), 7 when Discord cannot be
reached (no network, a name that does not resolve, a refused connection; 2 when it
refuses the token, which is called malformed when it is not shaped like one); each
printed as one line on stderr without a traceback. A start that fails before logging
in leaves no SQLite file it created behind (issue 48: a stray ``ddz.sqlite3`` in the
current folder).

The loop is uvloop's when it is installed, else asyncio's own (``DDZ_EVENT_LOOP``,
``loop_factory``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import signal
import socket
import sys
from collections.abc import Callable
from pathlib import Path

import aiohttp
import discord
import yarl
from pydantic import ValidationError

from bot import logsafe
from bot.settings import Settings
from bot.storage.repository import ShardTaken

log = logging.getLogger("bot")


def settings_error_line(error: ValidationError) -> str:
    """One human line for a settings error, naming the environment variables at fault."""
    parts = []
    for item in error.errors():
        name = str(item["loc"][0]).upper() if item["loc"] else "settings"
        if item["type"] == "missing" or name == "DISCORD_TOKEN":
            parts.append(f"{name} is not set (copy .env.example to .env and fill it in)")
        else:
            parts.append(f"{name}: {str(item['msg']).removeprefix('Value error, ')}")
    return "ddz-bot: " + "; ".join(parts)


def apply_endpoints(settings: Settings) -> None:
    """Point discord.py's REST and gateway at ``DISCORD_API_BASE`` / ``DISCORD_GATEWAY_URL``.

    ``Route.BASE`` is shared by REST, webhooks and interaction callbacks. A plain
    (unsharded) client connects to ``DiscordWebSocket.DEFAULT_GATEWAY`` without
    asking ``/gateway/bot``; an ``AutoShardedBot`` given a shard count does too.
    Must run before the bot connects.
    """
    if settings.api_base:
        discord.http.Route.BASE = settings.api_base
    if settings.gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.gateway_url.strip())


def loop_factory(choice: str = "auto") -> Callable[[], asyncio.AbstractEventLoop] | None:
    """What makes the event loop for ``choice`` (``Settings.event_loop``):
    ``uvloop.new_event_loop`` for ``"uvloop"``, and for ``"auto"`` when uvloop is
    installed; None (asyncio's own loop) for ``"asyncio"`` or ``"auto"`` without
    uvloop. Raises ImportError for ``"uvloop"`` when it is not installed."""
    if choice == "asyncio":
        return None
    try:
        import uvloop
    except ImportError:
        if choice == "uvloop":
            raise
        return None
    return uvloop.new_event_loop


def check_web_address(settings: Settings) -> None:
    """Raise WebUnavailable when the web page (if on) could not listen on its address:
    checked before anything connects, so that a wrong port is one line, not a trace."""
    if settings.web_port is None:
        return
    try:
        socket.create_server((settings.web_host, settings.web_port)).close()
    except OSError as error:
        raise WebUnavailable(f"{settings.web_host}:{settings.web_port}:"
                             f" {error.strerror or error}") from error


class WebUnavailable(RuntimeError):
    """The web page's address cannot be listened on (message: host:port and why)."""


TOKEN_SHAPE = re.compile(r"[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{20,}")
"""What a bot token looks like (three base64url parts separated by dots: the bot's id,
a timestamp, an HMAC): a refused token that is not shaped so was mistyped or cut."""


def token_refused_line(token: str) -> str:
    """The one line for a token Discord refused: malformed when it is not shaped like a
    token (``TOKEN_SHAPE``), else refused (reset, or another bot's)."""
    if TOKEN_SHAPE.fullmatch(token) is None:
        return ("ddz-bot: DISCORD_TOKEN is malformed: a bot token is three parts separated by"
                " dots; copy it again from the developer portal (Bot → Reset Token)")
    return ("ddz-bot: Discord rejected DISCORD_TOKEN (login failed): reset it in the developer"
            " portal (Bot → Reset Token) and set the new one")


def created_files(settings: Settings) -> list[Path]:
    """The SQLite files a start would create that are not there yet (the database and
    its shard lock files; none for PostgreSQL): what a start that never logged in
    removes again."""
    if settings.database_url is not None:
        return []
    base = settings.database_path
    paths = [base, *(Path(f"{base}{suffix}") for suffix in ("-wal", "-shm", "-journal")),
             *(Path(f"{base}.shard{s}.lock") for s in settings.shards.ids)]
    return [p for p in paths if not p.exists()]


class DiscordUnreachable(RuntimeError):
    """Discord's API could not be reached to log in (message: where and why)."""


def unreachable_text(error: BaseException) -> str:
    """``discord.com:443 (Name or service not known)`` from a connection error."""
    if isinstance(error, aiohttp.ClientConnectorError):
        why = error.os_error.strerror or str(error.os_error)
        return f"{error.host}:{error.port} ({why})"
    return f"{type(error).__name__}: {error}"


async def run(settings: Settings) -> int:
    """Create the bot and run it until it is closed (Ctrl-C / SIGTERM); its exit code."""
    from bot.client import create_bot, open_storage, web_room_problem

    check_web_address(settings)
    problem = web_room_problem(settings)
    if problem is not None:
        raise WebNoRoom(problem)
    fresh = created_files(settings)

    # Before connecting to Discord: a process whose shards are taken stops here.
    try:
        storage = await open_storage(settings)
    except ShardTaken:
        raise
    except Exception as error:  # the driver's own errors: unreachable, refused, not a db
        raise StorageUnavailable(f"{type(error).__name__}: {error}") from error
    # Logged once start-up can go on: a refusal above stays one line on stderr.
    log.info("event loop: %s", type(asyncio.get_running_loop()).__module__.split(".")[0])
    bot = create_bot(settings, storage)
    with contextlib.suppress(NotImplementedError):  # no signal handlers on Windows
        asyncio.get_running_loop().add_signal_handler(
            signal.SIGTERM, lambda: asyncio.ensure_future(bot.close())
        )
    try:
        async with bot:
            try:  # bot.start, in its two steps: a login that fails is one line
                await bot.login(settings.discord_token.get_secret_value())
            except (aiohttp.ClientConnectionError, OSError, TimeoutError) as error:
                raise DiscordUnreachable(unreachable_text(error)) from error
            await bot.connect(reconnect=True)
    except (discord.LoginFailure, DiscordUnreachable):
        for path in fresh:  # closed with the bot: nothing of this start stays behind
            with contextlib.suppress(OSError):
                path.unlink()
        raise
    return int(getattr(bot, "exit_code", 0))


class WebNoRoom(RuntimeError):
    """The open-file limit is too low for the web page (message: the limit, the need)."""


class StorageUnavailable(RuntimeError):
    """The configured database could not be opened (message: the driver's error)."""


def doctor_settings() -> Settings:
    """The settings for ``python -m bot doctor``, discord.py pointed at them; an unusable
    one is printed as one line and raised (ValidationError)."""
    try:
        settings = Settings()
    except ValidationError as error:
        print(settings_error_line(error), file=sys.stderr)
        raise
    apply_endpoints(settings)
    return settings


def main(argv: list[str] | None = None) -> int:
    """Entry point; returns the process exit code. ``python -m bot doctor …`` checks the
    token, commands and permissions instead of running (``bot/doctor.py``); ``python -m
    bot storage copy|rerate …`` is ``python -m bot.storage`` with the installed features,
    whose own tables ``copy`` copies too (``bot.storage.copy``)."""
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["doctor"]:
        from bot.doctor import main as doctor

        return doctor(args[1:], doctor_settings)
    if args[:1] == ["storage"]:
        from bot.features.installed import FEATURES
        from bot.storage.__main__ import main as storage

        return storage(args[1:], [(f.name, f.migrations()) for f in FEATURES],
                       prog="python -m bot storage")
    try:
        settings = Settings()
    except ValidationError as error:
        print(settings_error_line(error), file=sys.stderr)
        return 2
    try:
        factory = loop_factory(settings.event_loop)
    except ImportError:
        print("ddz-bot: DDZ_EVENT_LOOP is uvloop but uvloop is not installed"
              " (pip install uvloop, or set DDZ_EVENT_LOOP=auto)", file=sys.stderr)
        return 2
    discord.utils.setup_logging(level=settings.log_level_number, root=True)
    logsafe.install()  # no record may carry a hand (bot/logsafe.py)
    apply_endpoints(settings)
    code = 0
    try:
        with asyncio.Runner(loop_factory=factory) as runner:
            code = runner.run(run(settings))
    except KeyboardInterrupt:
        log.info("interrupted; shutting down")
    except discord.LoginFailure:
        print(token_refused_line(settings.discord_token.get_secret_value()), file=sys.stderr)
        return 2
    except DiscordUnreachable as error:
        print(f"ddz-bot: cannot reach Discord at {error}: check the network (or"
              " DISCORD_API_BASE)", file=sys.stderr)
        return 7
    except ShardTaken as refused:
        print(f"ddz-bot: refusing to start: {refused}", file=sys.stderr)
        return 3
    except StorageUnavailable as error:
        print(f"ddz-bot: cannot open the database: {error}", file=sys.stderr)
        return 5
    except WebUnavailable as error:
        print(f"ddz-bot: the web page cannot listen on {error} (DDZ_WEB_PORT, DDZ_WEB_HOST)",
              file=sys.stderr)
        return 6
    except WebNoRoom as error:
        print(f"ddz-bot: the web page cannot start: {error}", file=sys.stderr)
        return 6
    if code == 4:
        print(
            "ddz-bot: stopped: lost the database connection holding this process's shards"
            " (start it again to claim them)",
            file=sys.stderr,
        )
    return code


if __name__ == "__main__":
    sys.exit(main())
