"""Process settings, read by pydantic-settings from the environment and ``.env``.

Environment names (see ``.env.example``):

* ``DISCORD_TOKEN`` (required, kept as ``SecretStr`` so it never prints),
* ``DDZ_DATABASE_PATH`` (SQLite file, default ``ddz.sqlite3``),
* ``DDZ_DATABASE_URL`` (``postgresql://user:pass@host:port/db``: PostgreSQL instead of
  SQLite, for several processes; kept as ``SecretStr``: it may hold a password),
* ``DDZ_DATABASE_POOL_SIZE`` (PostgreSQL: connections per process; default 10),
* ``DDZ_DATABASE_TIMEOUT`` (seconds a database call may wait: a PostgreSQL statement, a
  pooled connection, SQLite's write lock; default 10),
* ``DDZ_DEV_GUILD_ID`` (sync the commands to this guild at start-up),
* ``DDZ_SYNC_COMMANDS`` (bool: global sync at start-up),
* ``DDZ_LOG_LEVEL`` (``DEBUG`` / ``INFO`` / ``WARNING`` / ``ERROR``; default ``INFO``),
* ``DISCORD_API_BASE`` (REST base incl. version, e.g. ``http://127.0.0.1:8080/api/v10``),
* ``DISCORD_GATEWAY_URL`` (gateway websocket URL, e.g. ``ws://127.0.0.1:8080/gateway``),
* ``DDZ_SHARD_COUNT`` / ``DDZ_SHARD_IDS`` (optional: run as ``AutoShardedBot``;
  ids as ``0,1,2``),
* ``DDZ_COMPUTER_DELAY`` (seconds a computer player waits before acting, ``min,max``;
  default ``0.6,1.2``),
* ``DDZ_RENDER_WORKERS`` (processes that draw the images, off the bot's GIL; 0 =
  threads of the bot process; default 2),
* ``DDZ_HINT_PREFETCH`` (bool: start the Hint's search for a member's turn when it
  begins, while the AI worker is idle; default true),
* ``DDZ_EVENT_LOOP`` (``auto`` / ``uvloop`` / ``asyncio``: the event loop ``python -m
  bot`` runs on; ``auto``, the default, takes uvloop when it is installed),
* ``DDZ_WEB_PORT`` / ``DDZ_WEB_HOST`` / ``DDZ_WEB_BASE_URL`` / ``DDZ_WEB_SECRET`` (the web
  page beside the bot, off unless the port is set; the secret signs its links and is
  required with the port; docs/WEB.md).
* ``DDZ_GLOBAL_RATE`` (requests per second the whole bot token may make on Discord's
  global-limited routes, every process together; default 40, Discord allows 50).
* ``DDZ_BOARD_INTERVAL`` / ``DDZ_TOURNAMENT_HAND_PAUSE`` (seconds at least between two
  redraws of a table's message, default 1; between a tournament table's hands, default
  3): the pacing the end-to-end tests shorten (docs/CONTRIBUTING.md §Pacing).
* ``DDZ_TOURNAMENT_GRACE`` (seconds added to the first bid timer of each table a
  tournament round opens, while its members find the new thread; default 30).
* ``DDZ_TOURNAMENT_THREAD_RETRY`` (seconds before a tournament tries again to open a
  table's thread Discord refused, doubling after each refusal up to 10 minutes; default 30).

Environment variables win over ``.env``. Raises ``pydantic.ValidationError``
when the token is missing or a value is malformed (``python -m bot`` turns
that into one line and exit code 2).
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Annotated, Literal, get_args

from pydantic import AliasChoices, Field, SecretStr, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from bot.values import ShardSet

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
EventLoop = Literal["auto", "uvloop", "asyncio"]
EVENT_LOOPS: tuple[str, ...] = get_args(EventLoop)


def _alias(name: str) -> AliasChoices:
    return AliasChoices(name, name.lower())


class Settings(BaseSettings):
    """Everything ``python -m bot`` needs; build with ``Settings()`` (reads env + ``.env``)."""

    model_config = SettingsConfigDict(
        env_file=".env",
        env_file_encoding="utf-8",
        extra="ignore",
        populate_by_name=True,
        case_sensitive=False,
    )

    discord_token: SecretStr = Field(validation_alias=_alias("DISCORD_TOKEN"))
    database_path: Path = Field(Path("ddz.sqlite3"), validation_alias=_alias("DDZ_DATABASE_PATH"))
    database_url: SecretStr | None = Field(None, validation_alias=_alias("DDZ_DATABASE_URL"))
    database_pool_size: int = Field(10, ge=1, le=100,
                                    validation_alias=_alias("DDZ_DATABASE_POOL_SIZE"))
    """PostgreSQL: the most connections this process opens (plus one holding the shard
    locks, and one for the shared global budget when the bot runs as several processes)."""
    database_timeout: float = Field(10.0, gt=0.0, le=300.0,
                                    validation_alias=_alias("DDZ_DATABASE_TIMEOUT"))
    """Seconds one database call may wait (a PostgreSQL statement, a free pooled
    connection, SQLite's write lock) before it fails; also how often the PostgreSQL
    connection holding the shard locks is checked."""
    dev_guild_id: int | None = Field(None, validation_alias=_alias("DDZ_DEV_GUILD_ID"))
    sync_commands: bool = Field(False, validation_alias=_alias("DDZ_SYNC_COMMANDS"))
    log_level: str = Field("INFO", validation_alias=_alias("DDZ_LOG_LEVEL"))
    api_base: str | None = Field(None, validation_alias=_alias("DISCORD_API_BASE"))
    gateway_url: str | None = Field(None, validation_alias=_alias("DISCORD_GATEWAY_URL"))
    shard_count: int | None = Field(None, ge=1, validation_alias=_alias("DDZ_SHARD_COUNT"))
    shard_ids: Annotated[list[int] | None, NoDecode] = Field(
        None, validation_alias=_alias("DDZ_SHARD_IDS")
    )
    computer_delay: Annotated[tuple[float, float], NoDecode] = Field(
        (0.6, 1.2), validation_alias=_alias("DDZ_COMPUTER_DELAY")
    )
    render_workers: int = Field(2, ge=0, le=16, validation_alias=_alias("DDZ_RENDER_WORKERS"))
    hint_prefetch: bool = Field(True, validation_alias=_alias("DDZ_HINT_PREFETCH"))
    """Start the Hint's search of a member's turn when it begins, for members who asked
    for a Hint before at that table (``bot.service.hints``); off: a search starts at the
    click."""
    autoplay_pace_scale: float = Field(
        1.0, ge=0.0, le=1.0, validation_alias=_alias("DDZ_AUTOPLAY_PACE_SCALE")
    )
    """Factor on the auto-play pace members choose (1 = their seconds; tests use 0)."""
    event_loop: EventLoop = Field(
        "auto", validation_alias=_alias("DDZ_EVENT_LOOP"))
    """The event loop of ``python -m bot``: uvloop (libuv's loop, cheaper per click than
    asyncio's own, docs/PERFORMANCE.md §Loop) for ``auto`` when it is installed
    (a dependency except on Windows) and for ``uvloop``; asyncio's own for ``asyncio``."""
    web_port: int | None = Field(None, ge=1, le=65535, validation_alias=_alias("DDZ_WEB_PORT"))
    """The web page's TCP port (replays, standings, /healthz, /metrics); None = no page."""
    web_host: str = Field("127.0.0.1", validation_alias=_alias("DDZ_WEB_HOST"))
    """The address the web page listens on (a reverse proxy in front for the world)."""
    web_base_url: str | None = Field(None, validation_alias=_alias("DDZ_WEB_BASE_URL"))
    """The public address written in links, e.g. ``https://ddz.example.org``; None =
    ``http://<host>:<port>``."""
    web_secret: SecretStr | None = Field(None, validation_alias=_alias("DDZ_WEB_SECRET"))
    """Key of the HMAC that signs the page's links (at least 16 characters)."""
    global_rate: float = Field(40.0, gt=0.0, le=50.0, validation_alias=_alias("DDZ_GLOBAL_RATE"))
    """Requests per second for the bot token on Discord's global-limited routes (channel
    posts and edits; interaction tokens are exempt), all processes together: on
    PostgreSQL the processes of a sharded bot lease from one shared bucket
    (``bot/storage/shared_budget.py``), on SQLite or while that bucket fails each takes
    its shards' share (``bot.service.budget.share_of``). Set the same value in every
    process. Discord allows 50; the default leaves 10 of head-room (discord.py's own
    requests, a deploy's overlap of two processes)."""
    interaction_rate: float | None = Field(
        None, ge=0.0, validation_alias=_alias("DDZ_INTERACTION_RATE"))
    """Requests per second this process makes at most on interaction routes (callbacks,
    follow-ups, token edits: exempt from the global limit, sent without an Authorization
    header). Set: capped from the start (0: never capped). Unset (the default): metered
    only, until Discord answers a global 429 on one of them; then capped at 45 a second
    (``bot.service.budget.INTERACTION_RATE``), with one warning (docs/SCALING.md §Exempt
    traffic)."""
    tournament_grace: float = Field(
        30.0, ge=0.0, le=600.0, validation_alias=_alias("DDZ_TOURNAMENT_GRACE"))
    """Seconds added to the first bid timer of each table a tournament round opens: its
    members are mentioned in the round's post and in the new thread, and need a moment to
    get there before their turn counts (docs/RULES.md §Tournaments). Its turn ping counts
    from the end of the grace too. 0 = none (tests)."""
    tournament_thread_retry: float = Field(
        30.0, gt=0.0, le=600.0, validation_alias=_alias("DDZ_TOURNAMENT_THREAD_RETRY"))
    """Seconds before a tournament tries again to open a table's thread that Discord
    refused (the server's active-thread limit, a missing permission), doubling after each
    refusal up to 10 minutes (``bot.features.tournaments.service.THREAD_RETRY_MAX``)."""
    board_interval: float = Field(
        1.0, ge=0.0, le=10.0, validation_alias=_alias("DDZ_BOARD_INTERVAL"))
    """Seconds at least between two redraws of a table's public message (last state wins;
    ``cogs/board.py``); a hand's moves wait longer while the render workers are behind
    (``bot.service.renderer.board_interval``, at most 4 s). Discord's edit limits hold whatever it is (the board waits for
    room in the channel's or token's bucket); tests shorten it (docs/CONTRIBUTING.md
    §Pacing)."""
    tournament_hand_pause: float = Field(
        3.0, ge=0.0, le=60.0, validation_alias=_alias("DDZ_TOURNAMENT_HAND_PAUSE"))
    """Seconds at least between a tournament table's hand and its next deal (the pause is
    ``bot.features.tournaments.service.HAND_PAUSE`` times ``DDZ_AUTOPLAY_PACE_SCALE``, at least
    this), so that the board draws the result before the next deal replaces it: three
    board intervals by default; tests shorten both (docs/CONTRIBUTING.md §Pacing)."""
    deal_seed: int | None = Field(None, validation_alias=_alias("DDZ_DEAL_SEED"))
    """Tests only: the shuffles follow this seed (the n-th deal of the process is the
    same on every run, so an end-to-end test never depends on the luck of a deal);
    None (unset or empty) = a fresh random seed per deal."""

    @field_validator("discord_token")
    @classmethod
    def _token_not_blank(cls, value: SecretStr) -> SecretStr:
        if not value.get_secret_value().strip():
            raise ValueError("DISCORD_TOKEN is empty")
        return SecretStr(value.get_secret_value().strip())

    @field_validator("dev_guild_id", "shard_count", "api_base", "gateway_url", "deal_seed",
                     "interaction_rate", "web_port", "web_base_url", "web_secret", mode="before")
    @classmethod
    def _blank_is_none(cls, value: object) -> object:
        return None if isinstance(value, str) and not value.strip() else value

    @field_validator("database_url", mode="before")
    @classmethod
    def _postgres_url(cls, value: object) -> object:
        if isinstance(value, SecretStr):
            value = value.get_secret_value()
        if value is None or (isinstance(value, str) and not value.strip()):
            return None
        text = str(value).strip()
        if not text.startswith(("postgresql://", "postgres://")):
            raise ValueError("must start with postgresql:// (unset it to use SQLite)")
        return text

    @field_validator("log_level", mode="before")
    @classmethod
    def _level_name(cls, value: object) -> str:
        level = str(value or "INFO").strip().upper()
        if level not in LOG_LEVELS:
            raise ValueError(f"DDZ_LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}")
        return level

    @field_validator("event_loop", mode="before")
    @classmethod
    def _loop_name(cls, value: object) -> str:
        name = str(value or "auto").strip().lower() or "auto"
        if name not in EVENT_LOOPS:
            raise ValueError(f"must be one of {', '.join(EVENT_LOOPS)}")
        return name

    @field_validator("web_host", mode="before")
    @classmethod
    def _host_or_loopback(cls, value: object) -> object:
        return "127.0.0.1" if value is None or not str(value).strip() else str(value).strip()

    @field_validator("web_base_url")
    @classmethod
    def _web_url(cls, value: str | None) -> str | None:
        if value is None:
            return None
        text = value.strip().rstrip("/")
        if not text.startswith(("http://", "https://")):
            raise ValueError("must start with http:// or https://")
        return text

    @field_validator("api_base")
    @classmethod
    def _strip_slash(cls, value: str | None) -> str | None:
        return value.strip().rstrip("/") if value else None

    @field_validator("shard_ids", mode="before")
    @classmethod
    def _ids_list(cls, value: object) -> object:
        if isinstance(value, str):
            parts = [p for p in value.replace(" ", "").strip("[]").split(",") if p]
            return [int(p) for p in parts] or None
        return value

    @field_validator("computer_delay", mode="before")
    @classmethod
    def _delay_pair(cls, value: object) -> object:
        if isinstance(value, str):
            parts = [float(p) for p in value.replace(" ", "").split(",") if p]
            if len(parts) == 1:
                parts = parts * 2
            return tuple(parts)
        return value

    @model_validator(mode="after")
    def _check_pairs(self) -> Settings:
        low, high = self.computer_delay
        if not 0 <= low <= high:
            raise ValueError("DDZ_COMPUTER_DELAY must be 'min,max' with 0 <= min <= max")
        if self.shard_ids and self.shard_count is None:
            raise ValueError("DDZ_SHARD_IDS needs DDZ_SHARD_COUNT")
        if self.shard_ids and self.shard_count and max(self.shard_ids) >= self.shard_count:
            raise ValueError("DDZ_SHARD_IDS must be below DDZ_SHARD_COUNT")
        if self.web_port is not None:
            secret = self.web_secret.get_secret_value().strip() if self.web_secret else ""
            if len(secret) < 16:
                raise ValueError("DDZ_WEB_PORT needs DDZ_WEB_SECRET (at least 16 characters,"
                                 " e.g. from: python -c 'import secrets; print(secrets.token_hex())')")
        return self

    @property
    def database_location(self) -> str:
        """Where the data lives: the PostgreSQL URL when set, else the SQLite path."""
        if self.database_url is not None:
            return self.database_url.get_secret_value()
        return str(self.database_path)

    @property
    def shards(self) -> ShardSet:
        """The shards this process serves (all of ``DDZ_SHARD_COUNT`` when no ids are
        given; shard 0 of 1 unsharded)."""
        count = self.shard_count or 1
        return ShardSet(count=count, ids=tuple(self.shard_ids or range(count)))

    @property
    def web_url(self) -> str:
        """The public address of the web page (``DDZ_WEB_BASE_URL``, else its own)."""
        return self.web_base_url or f"http://{self.web_host}:{self.web_port}"

    @property
    def log_level_number(self) -> int:
        """The ``logging`` level number of ``log_level``."""
        level: int = logging.getLevelName(self.log_level)  # a known name: its number
        return level
