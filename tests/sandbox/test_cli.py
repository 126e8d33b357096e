"""``python -m sandbox``'s process handling: Ctrl-C and SIGTERM stop the bot and the
emulator and leave no process behind; a port in use is one clear line and exit code 2."""

from __future__ import annotations

import json
import re
import signal
import socket
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from sandbox import cli
from tests.support.sandbox_running import SandboxRun, process_group_members


def test_the_bot_it_starts_is_the_one_beside_it() -> None:
    """``python -m sandbox`` from a checkout ran the bot of whatever checkout was installed
    (``PACKAGE_ROOT`` named the checkout's parent folder, e.g. /work/wt, after the sandbox
    moved to the top level): the folder first on the bot's PYTHONPATH holds ``bot``."""
    assert (cli.PACKAGE_ROOT / "bot" / "__init__.py").is_file(), cli.PACKAGE_ROOT
    assert (cli.PACKAGE_ROOT / "sandbox" / "cli.py").resolve() == Path(cli.__file__).resolve()


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_a_signal_stops_the_bot_and_leaves_no_process_behind(sig: signal.Signals) -> None:
    run = SandboxRun()
    try:
        url = run.wait_ready()
        with urllib.request.urlopen(url + "api/world", timeout=5) as answer:
            assert b"Dou Dizhu sandbox" in answer.read()
        bot = run.bot_pid
        assert process_group_members(bot)  # the bot leads its own process group
    finally:
        code = run.stop(sig)
    assert code == 0, run.output
    deadline = time.monotonic() + 5
    while process_group_members(bot) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert process_group_members(bot) == [], run.output
    with pytest.raises(OSError):
        urllib.request.urlopen(url, timeout=2)


def test_a_port_in_use_is_one_clear_line_and_exit_code_2() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        run = SandboxRun(port=port)
        code = run.proc.wait(30)
        run.stop()
    assert code == 2
    assert run.lines == [
        f"ddz-sandbox: port {port} on 127.0.0.1 is in use; choose another with --port"]


def test_keep_lang_and_members(tmp_path: Path) -> None:
    """Without --keep the run's folder goes; with it the database stays in ~/.ddz-sandbox
    (HOME is ``tmp_path`` here); --lang and --members shape the server."""
    run = SandboxRun("--members", "5", "--lang", "es", env={"HOME": str(tmp_path)})
    try:
        url = run.wait_ready()
        with urllib.request.urlopen(url + "api/world", timeout=5) as answer:
            world = json.load(answer)
        folder = Path(re.search(r"database (\S+)\)", run.output).group(1)).parent
        assert folder.is_dir()
    finally:
        assert run.stop() == 0, run.output
    assert [(m["name"], m["locale"]) for m in world["members"]] == [
        ("Alice", "es-ES"), ("Bob", "es-ES"), ("Carol", "es-ES"), ("Dave", "es-ES"),
        ("Erin", "es-ES")]
    assert world["guild"]["locale"] == "es-ES"
    assert not folder.exists()
    kept = SandboxRun("--keep", env={"HOME": str(tmp_path)})
    try:
        kept.wait_ready()
    finally:
        assert kept.stop() == 0, kept.output
    assert (tmp_path / ".ddz-sandbox" / "sandbox.sqlite3").stat().st_size > 0
    assert "has connected to Gateway" in (tmp_path / ".ddz-sandbox" / "bot.log").read_text()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="prctl(PR_SET_PDEATHSIG)")
@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGHUP], ids=["sigkill", "sighup"])
def test_a_killed_or_hung_up_sandbox_leaves_nothing_and_the_next_keep_run_starts(
        sig: signal.Signals, tmp_path: Path) -> None:
    """Issue 36 §10: after SIGHUP (a closed terminal) or SIGKILL of the sandbox, the bot
    and its workers ran on under PID 1 and the next ``--keep`` run was refused ("shard 0
    of 1 is already served")."""
    home = {"HOME": str(tmp_path)}
    run = SandboxRun("--keep", env=home)
    try:
        run.wait_ready()
        bot = run.bot_pid
        assert process_group_members(bot)
    finally:
        code = run.stop(sig)
    assert code == (-signal.SIGKILL if sig == signal.SIGKILL else 0), run.output
    deadline = time.monotonic() + 10
    while process_group_members(bot) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert process_group_members(bot) == [], run.output
    again = SandboxRun("--keep", env=home)
    try:
        again.wait_ready()
    finally:
        assert again.stop() == 0, again.output
