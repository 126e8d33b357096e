"""The shared fixtures of tests/support/fixtures.py give what their docstring promises."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.game.table import Table
from bot.service import TableService
from tests.support import workers
from tests.support.ddz_driver import public_actions, wait_public
from tests.support.fixtures import SoloTable
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
