"""Gateway RECONNECT / INVALID_SESSION mid-hand and SIGTERM (issue 11): play goes on,
turn timers still fire, a deploy's SIGTERM exits cleanly within 10 s and the hand
continues after the restart, settled exactly once."""

from __future__ import annotations

import os
import time
from pathlib import Path

from sandbox.loopback.emulator import Emulator, SimMember, SimMessage
from tests.support.botproc import BotFactory
from tests.support.ddz_driver import (
    FAST_ENV,
    finished,
    public_actions,
    public_seq,
    reply_text,
    table_message,
)
from tests.support.solo import open_with_computers, play_solo, score_counts_once


def children(pid: int) -> set[int]:
    """Live child processes of ``pid`` (Linux /proc)."""
    out = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid and fields[0] != "Z":
                out.add(int(entry.name))
    return out


async def test_reconnect_and_invalid_session_mid_hand_play_and_timers_go_on(
    emulator: Emulator, bot_factory: BotFactory
) -> None:
    emu, gw = emulator, emulator.gateway
    bot = await bot_factory(extra_env=FAST_ENV).start(timeout=30)
    alice = emu.member(name="alice", manage_guild=True)
    await finished(await alice.slash("ddz config", turn_seconds=10))
    await open_with_computers(emu, alice)
    timed_out: list[int] = []

    async def faults(turn: int, table_msg: SimMessage) -> None:
        if turn == 1:
            await gw.request_reconnect()
            await emu.wait_until(lambda: gw.resume_count == 1 and gw.connected,
                                 timeout=15, what="RESUME after RECONNECT")
        elif turn == 2:
            await gw.invalidate_session(resumable=False)
            await emu.wait_until(lambda: gw.identify_count == 2 and gw.connected,
                                 timeout=15, what="IDENTIFY after INVALID_SESSION")
            # Alice lets her next turn run out: the turn timer must still fire.
            mine = await wait_turn(emu, alice)
            started = time.monotonic()
            await emu.wait_until(lambda: public_seq(table_message(emu)) > mine or
                                 "again" in public_actions(table_message(emu)),
                                 timeout=20, what="the turn timer to act for alice")
            timed_out.append(round(time.monotonic() - started))

    result, log = await play_solo(emu, alice, after_turn=faults, timeout=30)
    assert timed_out and timed_out[0] <= 12, timed_out
    await score_counts_once(alice, result.text)
    assert gw.resume_count == 1 and gw.identify_count == 2
    assert emu.errors == [] and bot.log_text().count("Traceback") == 0


async def wait_turn(emu: Emulator, alice: SimMember) -> int:
    """The seq of the table message that names alice to act next."""
    found: list[int] = []

    def check() -> bool:
        msg = table_message(emu)
        if msg is not None and f"<@{alice.id}>" in msg.content:
            found.append(public_seq(msg))
            return True
        return "again" in public_actions(msg) if msg is not None else False

    await emu.wait_until(check, timeout=20, what="alice's turn")
    return found[-1] if found else 10**9


async def test_sigterm_exits_cleanly_and_the_hand_continues_after_restart(
    emulator: Emulator, bot_factory: BotFactory
) -> None:
    emu = emulator
    bot = await bot_factory(extra_env=FAST_ENV).start(timeout=30)
    alice = emu.member(name="alice")
    ack = await finished(await alice.slash("ddz start", computers=2, level="hard"))
    assert "is open" in reply_text(ack)
    lobby = table_message(emu)
    assert lobby is not None
    await alice.click(lobby, public_actions(lobby)["start"]["custom_id"])
    stopped: list[float] = []

    async def deploy(turn: int, table_msg: SimMessage) -> None:
        if turn != 2:  # the hard computers have moved by now: their worker runs
            return
        assert bot.proc is not None
        pid, seq = bot.proc.pid, public_seq(table_msg)
        await emu.wait_until(lambda: children(pid), timeout=5, what="the AI worker process")
        workers = children(pid)
        names = {w: Path(f"/proc/{w}/cmdline").read_bytes()[:120] for w in workers}
        started = time.monotonic()
        bot.proc.send_signal(15)  # SIGTERM, as a host does on deploy
        code = await bot.proc.wait()
        stopped.append(time.monotonic() - started)
        assert code == 0, bot.log_tail(60)
        assert workers, "the hard computers' AI worker process was not running"
        alive = [w for w in workers if os.path.exists(f"/proc/{w}")]
        await emu.wait_until(lambda: not any(os.path.exists(f"/proc/{w}") for w in alive),
                             timeout=5, what=f"worker processes to end: {names}")
        await emu.wait_until(lambda: not emu.gateway.connected, what="gateway to drop")
        await bot.start(timeout=30)
        assert "restored 1 open tables" in bot.log_text().split("start #2")[1]
        assert public_seq(table_message(emu)) >= seq

    result, log = await play_solo(emu, alice, after_turn=deploy, timeout=30)
    assert stopped and stopped[0] < 10.0, stopped
    await score_counts_once(alice, result.text)
    text = bot.log_text()
    assert text.count("Traceback") == 0, bot.log_tail(80)
    assert [e for e in emu.errors if e.status >= 500] == []
