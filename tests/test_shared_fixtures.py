"""The shared fixtures of tests/support/fixtures.py give what their docstring promises."""

from __future__ import annotations

from pathlib import Path
from typing import Any, cast

import pytest

from bot.game.table import Table
from bot.service import TableService
from sandbox.loopback.model import SimMessage
from tests.support import workers
from tests.support.ddz_driver import public_actions, wait_public
from tests.support.fixtures import SoloTable
from tests.support.hand_player import Words, shown_since
from tests.support.service_clock import ALICE, BOB, CARL, FakeClock


async def test_seated_is_a_dealt_hand_of_three_members_on_the_service(
        seated: Table, service: TableService, clock: FakeClock) -> None:
    assert service.get(seated.id) is seated
    assert [s.user_id for s in seated.seats] == [ALICE, BOB, CARL]
    assert seated.hand is not None and seated.hand.phase == "bidding"
    assert seated.deadline == clock.now() + seated.turn_seconds_bid


async def test_solo_table_is_alices_dealt_table_with_two_computers(solo_table: SoloTable) -> None:
    dealt = await wait_public(solo_table.emu, lambda m: "bid1" in public_actions(m) or
                              "Bot 2" in m.text and "bid" in m.text.lower(), what="the deal")
    assert "Bot 2" in dealt.text and "Bot 3" in dealt.text
    assert solo_table.bot.running


def test_the_fast_loop_leaves_exactly_the_end_to_end_files_uncollected(
        pytestconfig: pytest.Config, monkeypatch: pytest.MonkeyPatch) -> None:
    root = pytestconfig.rootpath
    e2e = [root / "tests" / "e2e", root / "tests" / "e2e" / "test_game_hand.py",
           root / "tests" / "sandbox", root / "tests" / "web" / "test_browser.py",
           root / "tests" / "test_startup.py"]
    kept = [root / "tests" / "web", root / "tests" / "web" / "test_pages.py",
            root / "tests" / "cogs", root / "tests" / "test_shared_fixtures.py"]
    for expression, skipped in [("not e2e", True), ("  not   e2e ", True), ("e2e", False),
                                ("not e2e and not processes", True),
                                ("not e2e and not slow", False), ("", False), (None, False)]:
        monkeypatch.setattr(pytestconfig.option, "markexpr", expression)
        assert [workers.skipped_by_fast_loop(p, pytestconfig) for p in e2e] == [skipped] * 5
        assert [workers.skipped_by_fast_loop(p, pytestconfig) for p in kept] == [False] * 4
    assert not workers.skipped_by_fast_loop(Path("/elsewhere/tests/e2e"), pytestconfig)


def test_shown_since_sees_an_answer_the_next_edit_replaced() -> None:
    """The input that broke it (clean-clone CI, load ~8): Dee's "Has pasado." was replaced
    by the computers' next move before the test looked, so the driver counted her Pass as
    stale and passed at every turn after it until she lost the daily deal."""
    view = SimMessage(id=1, channel=cast(Any, None), author_id=2, content="Te toca: Bot 2 jugó 5.")
    edits = len(view.history)
    for content in ("Has pasado.", "Bot 3 jugó 7. Te toca."):  # the answer, then a move
        view.history.append(view.snapshot())
        view.content = content
    words = Words("es")
    assert words.passed == "Has pasado." and words.passed not in view.text
    assert shown_since(view, edits, words.passed)
    assert not shown_since(view, edits + 1, words.passed)  # said before, not since
    assert not shown_since(view, edits, words.played)
