"""One member plays a whole hand with two computer players (issue 7 suite item 2),
then presses buttons left over from the finished hand (item 4, stale buttons)."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from dataclasses import dataclass

import pytest
import pytest_asyncio

from bot.rules import format_cards
from sandbox.loopback.emulator import Emulator, SimMember, SimMessage
from tests.support.botproc import BotProcess
from tests.support.ddz_driver import (
    HAND_RE,
    finished,
    hand_component,
    press,
    reply_text,
)
from tests.support.solo import SoloLog, check_result, solo_session

pytestmark = pytest.mark.asyncio(loop_scope="module")


@dataclass
class Solo:
    emu: Emulator
    bot: BotProcess
    alice: SimMember
    result: SimMessage
    log: SoloLog
    stale_reply: str = ""


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def solo(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Solo]:
    async with solo_session(tmp_path_factory.mktemp("game_computers")) as s:
        yield Solo(s.emu, s.bot, s.alice, s.result, s.log)


async def test_one_member_and_two_computers_play_a_whole_hand(solo: Solo) -> None:
    emu, alice = solo.emu, solo.alice
    changes = check_result(solo.result.text)
    bids = [i for i, a in enumerate(solo.log.actions) if a.startswith("bid")]
    assert bids in ([], [0]), solo.log.actions  # at most one bid, before any play
    assert any(a not in ("bid 3", "pass") for a in solo.log.actions), solo.log.actions

    score = await finished(await alice.slash("ddz score"))
    board = reply_text(score)
    total = changes["Alice"]
    signed = f"+{total}" if total > 0 else str(total)
    assert re.search(rf"Alice: \*\*{re.escape(signed)}\*\* \(1 hand\)", board), board
    assert "Bot 2" not in board and "Bot 3" not in board
    log = solo.bot.log_text()
    for hand in solo.log.hands:  # what Alice held on her turns never reaches the log
        assert len(hand) < 5 or format_cards(hand) not in log, format_cards(hand)
    assert emu.errors == [] and emu.late_interactions() == []


async def test_buttons_from_a_finished_hand_answer_politely_and_change_nothing(
    solo: Solo,
) -> None:
    emu, alice, result = solo.emu, solo.alice, solo.result
    before = (result.text, len(result.history))
    frozen = solo.log.frozen
    # the newer view replaced it: it says so (no turn line, no timer), its buttons stay
    assert frozen is not None and frozen.text.startswith(
        "This view is out of date: a newer one is open below."), frozen
    assert not hand_component(frozen, "play").get("disabled"), frozen.custom_ids

    click = await press(alice, frozen, "play")  # Play, from a turn long gone

    assert click.member is alice and frozen.visible_to is alice
    assert "The hand is over." in frozen.text, frozen.text
    assert "You passed." not in frozen.text and "You played" not in frozen.text
    assert not [c for c in frozen.custom_ids if HAND_RE.match(c)], frozen.custom_ids
    solo.stale_reply = frozen.text
    assert (result.text, len(result.history)) == before  # the result stands
    score = await finished(await alice.slash("ddz score"))
    assert "(1 hand)" in reply_text(score), reply_text(score)
    assert emu.errors == [] and emu.late_interactions() == []


async def test_stale_play_button_says_the_view_is_out_of_date(solo: Solo) -> None:
    # docs/RULES.md §Controls: "A button of an old hand or of a finished game answers that it is stale."
    assert solo.stale_reply, "run after the finished-hand button test"
    assert "The table changed; this is the current view." in solo.stale_reply, solo.stale_reply
    assert "Select some cards first." not in solo.stale_reply
