"""Settings from the environment and ``.env``, and ``python -m bot`` without a token."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import discord
import pytest
from pydantic import ValidationError

from bot.__main__ import apply_endpoints, loop_factory, main, settings_error_line
from bot.client import DdzBot, DdzBotMixin, ShardedDdzBot, bot_intents, create_bot
from bot.service.budget import GlobalBudget
from bot.settings import Settings
from bot.storage.shared_budget import PgBucket
from bot.values import ShardSet

ROOT = Path(__file__).resolve().parent.parent
ENV_NAMES = (
    "DISCORD_TOKEN", "DDZ_DATABASE_PATH", "DDZ_DEV_GUILD_ID", "DDZ_SYNC_COMMANDS", "DDZ_LOG_LEVEL",
    "DISCORD_API_BASE", "DISCORD_GATEWAY_URL", "DDZ_SHARD_COUNT", "DDZ_SHARD_IDS",
    "DDZ_COMPUTER_DELAY", "DDZ_DATABASE_URL", "DDZ_RENDER_WORKERS", "DDZ_HINT_PREFETCH",
    "DDZ_AUTOPLAY_PACE_SCALE", "DDZ_DEAL_SEED", "DDZ_EVENT_LOOP", "DDZ_WEB_PORT", "DDZ_WEB_HOST",
    "DDZ_WEB_BASE_URL", "DDZ_WEB_SECRET", "DDZ_TOURNAMENT_GRACE",
    "DDZ_TOURNAMENT_THREAD_RETRY", "DDZ_BOARD_INTERVAL", "DDZ_TOURNAMENT_HAND_PAUSE",
)


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for name in ENV_NAMES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)  # no stray .env


def test_defaults_need_only_the_token(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "abc.def")
    settings = Settings()
    assert settings.discord_token.get_secret_value() == "abc.def"
    assert "abc.def" not in repr(settings)
    assert settings.database_path == Path("ddz.sqlite3")
    assert settings.dev_guild_id is None and settings.sync_commands is False
    assert settings.log_level == "INFO" and settings.computer_delay == (0.6, 1.2)
    assert settings.api_base is None and settings.gateway_url is None
    assert settings.deal_seed is None
    assert settings.event_loop == "auto"
    assert settings.tournament_grace == 30.0 and settings.tournament_thread_retry == 30.0
    assert (settings.database_pool_size, settings.database_timeout) == (10, 10.0)
    assert (settings.board_interval, settings.tournament_hand_pause) == (1.0, 3.0)


def test_the_pacing_the_tests_shorten_is_read_and_checked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "t")
    monkeypatch.setenv("DDZ_BOARD_INTERVAL", "0.2")
    monkeypatch.setenv("DDZ_TOURNAMENT_HAND_PAUSE", "0.6")
    settings = Settings()
    assert (settings.board_interval, settings.tournament_hand_pause) == (0.2, 0.6)
    monkeypatch.setenv("DDZ_BOARD_INTERVAL", "-1")
    with pytest.raises(ValidationError, match="DDZ_BOARD_INTERVAL|board_interval"):
        Settings()


def test_database_pool_size_and_timeout_are_read_and_checked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "t")
    monkeypatch.setenv("DDZ_DATABASE_POOL_SIZE", "4")
    monkeypatch.setenv("DDZ_DATABASE_TIMEOUT", "2.5")
    assert (Settings().database_pool_size, Settings().database_timeout) == (4, 2.5)
    monkeypatch.setenv("DDZ_DATABASE_TIMEOUT", "0")
    with pytest.raises(ValidationError) as info:
        Settings()
    assert settings_error_line(info.value) == (
        "ddz-bot: DDZ_DATABASE_TIMEOUT: Input should be greater than 0")


@pytest.mark.parametrize(("value", "loop"), [("", "auto"), (" UVLoop ", "uvloop"),
                                            ("asyncio", "asyncio")])
def test_event_loop_is_auto_uvloop_or_asyncio(
    monkeypatch: pytest.MonkeyPatch, value: str, loop: str
) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "t")
    monkeypatch.setenv("DDZ_EVENT_LOOP", value)
    assert Settings().event_loop == loop


def test_an_unknown_event_loop_is_one_clear_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "t")
    monkeypatch.setenv("DDZ_EVENT_LOOP", "trio")
    with pytest.raises(ValidationError) as info:
        Settings()
    assert settings_error_line(info.value) == (
        "ddz-bot: DDZ_EVENT_LOOP: must be one of auto, uvloop, asyncio")


def test_the_loop_factory_gives_uvloop_unless_asyncio_is_asked_for() -> None:
    uvloop = pytest.importorskip("uvloop")  # not built for Windows

    assert loop_factory("auto") is uvloop.new_event_loop
    assert loop_factory("uvloop") is uvloop.new_event_loop
    assert loop_factory("asyncio") is None  # asyncio.Runner's default: asyncio's own loop


def test_without_uvloop_auto_falls_back_and_uvloop_refuses(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "uvloop", None)  # import uvloop now raises ImportError
    assert loop_factory("auto") is None
    with pytest.raises(ImportError):
        loop_factory("uvloop")


def test_python_m_bot_asked_for_uvloop_without_it_exits_2_with_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "uvloop", None)
    monkeypatch.setenv("DISCORD_TOKEN", "t")
    monkeypatch.setenv("DDZ_EVENT_LOOP", "uvloop")
    assert main([]) == 2
    assert capsys.readouterr().err.splitlines() == [
        "ddz-bot: DDZ_EVENT_LOOP is uvloop but uvloop is not installed"
        " (pip install uvloop, or set DDZ_EVENT_LOOP=auto)"]


@pytest.mark.parametrize(("value", "seed"), [("", None), ("  ", None), ("20261130", 20261130)])
def test_deal_seed_is_a_number_or_empty_for_random_deals(
    monkeypatch: pytest.MonkeyPatch, value: str, seed: int | None
) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "t")
    monkeypatch.setenv("DDZ_DEAL_SEED", value)
    assert Settings().deal_seed == seed


def test_every_variable_is_read_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    values = {
        "DISCORD_TOKEN": "t", "DDZ_DATABASE_PATH": "/tmp/x.db", "DDZ_DEV_GUILD_ID": "42",
        "DDZ_SYNC_COMMANDS": "true", "DDZ_LOG_LEVEL": "debug",
        "DISCORD_API_BASE": "http://127.0.0.1:9/api/v10/", "DISCORD_GATEWAY_URL": "ws://127.0.0.1:9/gw",
        "DDZ_SHARD_COUNT": "4", "DDZ_SHARD_IDS": "0,2", "DDZ_COMPUTER_DELAY": "0.1,0.2",
    }
    for name, value in values.items():
        monkeypatch.setenv(name, value)
    s = Settings()
    assert (s.database_path, s.dev_guild_id, s.sync_commands, s.log_level) == (
        Path("/tmp/x.db"), 42, True, "DEBUG")
    assert s.api_base == "http://127.0.0.1:9/api/v10" and s.gateway_url == "ws://127.0.0.1:9/gw"
    assert (s.shard_count, s.shard_ids, s.computer_delay) == (4, [0, 2], (0.1, 0.2))


def test_database_url_selects_postgresql_and_stays_secret(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "t")
    assert Settings().database_location == "ddz.sqlite3"
    monkeypatch.setenv("DDZ_DATABASE_URL", " postgresql://ddz:hunter2@db:5432/ddz ")
    settings = Settings()
    assert settings.database_location == "postgresql://ddz:hunter2@db:5432/ddz"
    assert "hunter2" not in repr(settings)
    monkeypatch.setenv("DDZ_DATABASE_URL", "mysql://db/ddz")
    with pytest.raises(ValidationError) as error:
        Settings()
    assert settings_error_line(error.value) == (
        "ddz-bot: DDZ_DATABASE_URL: must start with postgresql:// (unset it to use SQLite)"
    )


def test_shards_default_to_all_of_the_count(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "t")
    assert Settings().shards == ShardSet(count=1, ids=(0,))
    monkeypatch.setenv("DDZ_SHARD_COUNT", "3")
    assert Settings().shards == ShardSet(count=3, ids=(0, 1, 2))
    monkeypatch.setenv("DDZ_SHARD_IDS", "2")
    assert Settings().shards == ShardSet(count=3, ids=(2,))


def test_dotenv_file_is_read(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("DISCORD_TOKEN=fromfile\nDDZ_DEV_GUILD_ID=\n")
    settings = Settings()
    assert settings.discord_token.get_secret_value() == "fromfile"
    assert settings.dev_guild_id is None


@pytest.mark.parametrize("token", [None, "", "   "])
def test_missing_or_blank_token_is_one_clear_line(monkeypatch: pytest.MonkeyPatch, token: str | None) -> None:
    if token is not None:
        monkeypatch.setenv("DISCORD_TOKEN", token)
    with pytest.raises(ValidationError) as info:
        Settings()
    line = settings_error_line(info.value)
    assert "\n" not in line and "DISCORD_TOKEN is not set" in line


def test_shard_ids_need_a_shard_count(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "t")
    monkeypatch.setenv("DDZ_SHARD_IDS", "1")
    with pytest.raises(ValidationError):
        Settings()


@pytest.mark.processes
def test_python_m_bot_without_token_exits_2_without_traceback(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ENV_NAMES}
    env["PYTHONPATH"] = str(ROOT)
    proc = subprocess.run([sys.executable, "-m", "bot"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2
    assert proc.stderr.strip().splitlines() == [
        "ddz-bot: DISCORD_TOKEN is not set (copy .env.example to .env and fill it in)"
    ]
    assert "Traceback" not in proc.stderr + proc.stdout


def test_endpoints_point_rest_and_gateway_elsewhere(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(discord.http.Route, "BASE", discord.http.Route.BASE)
    monkeypatch.setattr(discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY",
                        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
    settings = Settings(discord_token="t", api_base="http://127.0.0.1:5/api/v10",
                        gateway_url="ws://127.0.0.1:5/gateway")
    apply_endpoints(settings)
    assert discord.http.Route("GET", "/gateway/bot").url == "http://127.0.0.1:5/api/v10/gateway/bot"
    gateway = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    assert str(gateway) == "ws://127.0.0.1:5/gateway"


def test_bot_uses_no_privileged_intents() -> None:
    intents = bot_intents()
    assert intents.guilds
    assert not (intents.members or intents.presences or intents.message_content)


async def test_shard_count_selects_the_sharded_bot() -> None:
    plain = create_bot(Settings(discord_token="t"))
    sharded = create_bot(Settings(discord_token="t", shard_count=2, shard_ids=[1]))
    assert isinstance(plain, DdzBot) and not isinstance(plain, ShardedDdzBot)
    assert isinstance(sharded, ShardedDdzBot)
    assert sharded.shard_count == 2 and sharded.shard_ids == [1]
    await plain.close()


def test_every_setting_is_documented_for_admins() -> None:
    """Each environment variable ``Settings`` reads has its line in ``.env.example`` and
    its row in the README's table of keys."""
    env = (ROOT / ".env.example").read_text(encoding="utf-8")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    names = [field.validation_alias.choices[0]  # type: ignore[union-attr]
             for field in Settings.model_fields.values()]
    assert {"DDZ_EVENT_LOOP", "DDZ_WEB_SECRET", "DDZ_DATABASE_TIMEOUT",
            "DDZ_DATABASE_POOL_SIZE", "DDZ_GLOBAL_RATE"} <= set(names)
    assert len(names) == 28
    assert [n for n in names if not re.search(rf"^{n}=", env, re.M)] == []
    rows = [line for line in readme.splitlines() if line.startswith("| `")]
    assert [n for n in names if not any(f"`{n}`" in row.split(" | ")[0] for row in rows)] == []


def test_a_sharded_bot_on_postgresql_shares_one_global_budget_else_a_process_has_its_share(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """bot/client.py ``_global_budget``: the shared bucket only when other processes exist
    (some shards elsewhere) and the database is PostgreSQL; its name is the application
    id, never the token; a lease waits at most min(DDZ_DATABASE_TIMEOUT, 1 s)."""
    monkeypatch.setenv("DISCORD_TOKEN", "secret.token")
    monkeypatch.setenv("DDZ_DATABASE_TIMEOUT", "5")
    bot = SimpleNamespace(application_id=77, user=None)

    def budget(**env: str) -> GlobalBudget:
        for name, value in env.items():
            monkeypatch.setenv(name, value)
        return DdzBotMixin._global_budget(SimpleNamespace(settings=Settings()), bot)  # type: ignore[arg-type]

    alone = budget()
    assert (alone.shared, alone.rate) == (None, 40.0)
    half = budget(DDZ_SHARD_COUNT="2", DDZ_SHARD_IDS="0")  # SQLite: the static share
    assert (half.shared, half.rate) == (None, 20.0)
    shared = budget(DDZ_DATABASE_URL="postgresql://ddz@127.0.0.1:1/ddz")
    bucket = shared.shared
    assert isinstance(bucket, PgBucket) and bucket.bucket == "bot:77"
    assert (bucket.rate, bucket.burst, bucket.timeout) == (40.0, 10.0, 1.0)
    assert (shared.rate, shared.fallback_rate) == (40.0, 20.0)
    every = budget(DDZ_SHARD_IDS="0,1")  # one process serving every shard
    assert (every.shared, every.rate) == (None, 40.0)
