"""``python -m bot.sandbox``'s process handling: Ctrl-C and SIGTERM stop the bot and the
emulator and leave no process behind; a port in use is one clear line and exit code 2."""

from __future__ import annotations

import signal
import socket
import time
import urllib.request

import pytest

from tests.sandbox.running import SandboxRun, process_group_members


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
