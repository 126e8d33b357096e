"""The web page's settings: off by default, loopback by default, a secret with the port."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest
from pydantic import ValidationError

from bot.__main__ import main, settings_error_line
from bot.settings import Settings

WEB_ENV = ("DDZ_WEB_PORT", "DDZ_WEB_HOST", "DDZ_WEB_BASE_URL", "DDZ_WEB_SECRET")
SECRET = "s" * 16


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for name in WEB_ENV:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("DISCORD_TOKEN", "t")
    monkeypatch.chdir(tmp_path)  # no stray .env


def test_the_web_page_is_off_and_on_loopback_by_default() -> None:
    settings = Settings()
    assert settings.web_port is None and settings.web_secret is None
    assert settings.web_host == "127.0.0.1" and settings.web_base_url is None


def test_a_port_without_a_secret_refuses_to_start_in_one_line(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("DDZ_WEB_PORT", "8088")
    with pytest.raises(ValidationError) as info:
        Settings()
    assert settings_error_line(info.value).startswith(
        "ddz-bot: settings: DDZ_WEB_PORT needs DDZ_WEB_SECRET (at least 16 characters")
    assert main([]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "DDZ_WEB_SECRET" in err and "Traceback" not in err


def test_a_short_secret_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DDZ_WEB_PORT", "8088")
    monkeypatch.setenv("DDZ_WEB_SECRET", "short")
    with pytest.raises(ValidationError):
        Settings()


def test_port_host_url_and_secret_are_read(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DDZ_WEB_PORT", "8088")
    monkeypatch.setenv("DDZ_WEB_SECRET", SECRET)
    monkeypatch.setenv("DDZ_WEB_HOST", " ")
    settings = Settings()
    assert settings.web_url == "http://127.0.0.1:8088"
    assert SECRET not in repr(settings)
    monkeypatch.setenv("DDZ_WEB_BASE_URL", "https://ddz.example.org/")
    monkeypatch.setenv("DDZ_WEB_HOST", "0.0.0.0")
    settings = Settings()
    assert settings.web_url == "https://ddz.example.org" and settings.web_host == "0.0.0.0"


@pytest.mark.parametrize("value", ["0", "70000", "http"])
def test_a_bad_port_is_refused(monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    monkeypatch.setenv("DDZ_WEB_PORT", value)
    monkeypatch.setenv("DDZ_WEB_SECRET", SECRET)
    with pytest.raises(ValidationError):
        Settings()


def test_a_base_url_must_be_http(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DDZ_WEB_BASE_URL", "ddz.example.org")
    with pytest.raises(ValidationError) as info:
        Settings()
    assert settings_error_line(info.value) == (
        "ddz-bot: DDZ_WEB_BASE_URL: must start with http:// or https://")


def test_a_taken_web_port_stops_the_bot_with_one_line(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        tmp_path: Path) -> None:
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        monkeypatch.setenv("DDZ_WEB_PORT", str(port))
        monkeypatch.setenv("DDZ_WEB_SECRET", SECRET)
        monkeypatch.setenv("DDZ_DATABASE_PATH", str(tmp_path / "ddz.sqlite3"))
        assert main([]) == 6
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith(f"ddz-bot: the web page cannot listen on 127.0.0.1:{port}: ")
    assert not (tmp_path / "ddz.sqlite3").exists()  # refused before the database opened
