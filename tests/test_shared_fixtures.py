"""The shared fixtures of tests/support/fixtures.py give what their docstring promises."""

from __future__ import annotations

from bot.game.table import Table
from bot.service import TableService
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
