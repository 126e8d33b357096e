"""``kill -9`` in the middle of a hand, start again on the same database: the old
buttons still work, computer turns resume, the hand finishes and is settled exactly
once (issue 7 suite item 3; docs/ARCHITECTURE.md §Where state lives)."""

from __future__ import annotations

import re

from sandbox.loopback.emulator import Emulator, SimMessage
from tests.support import timing
from tests.support.botproc import BotFactory
from tests.support.ddz_driver import (
    FAST_ENV,
    HAND_RE,
    changes_in_result,
    finished,
    hand_alt,
    open_view,
    reply_text,
    result_total,
    table_message,
)
from tests.support.solo import (
    NAMES,
    SoloLog,
    check_result,
    open_with_computers,
    play_solo,
)


async def test_kill_9_mid_hand_then_restart_finishes_the_hand_and_settles_once(
    emulator: Emulator, bot_factory: BotFactory
) -> None:
    emu = emulator
    bot = await bot_factory(extra_env=FAST_ENV).start(timeout=30)
    alice = emu.member(name="alice")
    await open_with_computers(emu, alice)
    before_kill: dict[str, SimMessage] = {}
    log = SoloLog()

    async def kill_after_first_play(turn: int, table_msg: SimMessage) -> None:
        if before_kill or "bid" in (log.actions[-1] if log.actions else "bid"):
            return
        before_kill["public"], before_kill["view"] = table_msg, log.views[-1]
        old_pid = bot.pid
        await bot.restart(timeout=30)  # kill -9, same database
        assert bot.pid != old_pid and emu.gateway.identify_count == 2
        assert "restored 1 open tables" in bot.log_text().split("start #2")[1], bot.log_tail()

        # The view drawn before the kill: its rank buttons still answer.
        view = before_kill["view"]
        rank = next(c for c in view.custom_ids if (m := HAND_RE.match(c)) and m["verb"][0] == "r"
                    and m["verb"][1:].isdigit())
        edits = len(view.history)
        await finished(await alice.click(view, rank))
        assert len(view.history) > edits and "Selected:" in hand_alt(view), hand_alt(view)
        # The public message posted before the kill: "My hand" still opens a view.
        fresh = await open_view(alice, via_button=before_kill["public"])
        assert "Your hand:" in hand_alt(fresh)

    result, _ = await play_solo(emu, alice, after_turn=kill_after_first_play, log=log)
    assert before_kill, f"the hand ended before a play: {log.actions}"

    changes = check_result(result.text)
    mine = changes["Alice"]
    signed = f"+{mine}" if mine > 0 else str(mine)
    row = rf"Alice: \*\*{re.escape(signed)}\*\* \(1 hand\)"
    board = reply_text(await finished(await alice.slash("ddz score")))
    assert re.search(row, board), board

    drawn = len(result.history)
    await bot.restart(timeout=30)  # a second kill -9 after settlement adds nothing
    board = reply_text(await finished(await alice.slash("ddz score")))
    assert re.search(row, board), board
    await emu.wait_until(lambda: len(result.history) > drawn, timeout=5, what="result redrawn")
    assert table_message(emu) is result and any(c.endswith(":again") for c in result.custom_ids)
    assert changes_in_result(result.text, NAMES) == changes, result.text
    assert re.search(rf"^Alice.*→ match total {result_total(mine)}$", result.text, re.M), \
        result.text
    assert emu.errors == [] and emu.late_interactions() == []
    timing.record(emu)

