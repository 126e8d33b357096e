"""Forged public table-message custom_ids (``ddz:<table>:<seq>:<action>``): wrong seq,
unknown actions, out-of-range bids, buttons pressed without the right, and
``/ddz config`` without Manage Server. Each answers politely and changes nothing."""

from __future__ import annotations

import asyncio

from tests.support.fake_discord import FakeDiscord, Member
from tests.support.fake_game import members
from tests.support.forge import (
    answered,
    assert_polite,
    dispatch,
    forge_click,
    playing_hand,
    seated_hand,
    snapshot,
    table_of,
)

STALE = "That button is out of date: the table has moved on."
NOT_STARTER = "Only the player who opened the table (or an admin) can do that."


async def test_bids_with_a_forged_seq_are_stale(fake: FakeDiscord) -> None:
    ana, _, _ = await seated_hand(fake)
    before = await snapshot(fake)
    table = table_of(fake)
    tokens = [dispatch(ana, fake.table_message(), f"ddz:{table.id}:{seq}:{action}")
              for seq in (1, table.seq + 1, 10**6, 10**80)
              for action in ("bid1", "bid3", "bid0", "start", "cancel")]
    await fake.idle()
    for token in tokens:
        assert_polite(ana._reply(token), STALE)
    assert await snapshot(fake) == before


MALFORMED = ["bid4", "bid-1", "bid99", "nuke", "BID1", "join ", "stop", "hand\n", "settle"]


async def test_unknown_public_actions_change_nothing(fake: FakeDiscord) -> None:
    ana, _, _ = await seated_hand(fake)
    before = await snapshot(fake)
    table = table_of(fake)
    forged = [f"ddz:{table.id}:{table.seq}:{action}" for action in MALFORMED] + [
        f"ddz:{table.id}:-1:bid1", f"ddz:{table.id}:{table.seq}:bid1:x",
        f"ddz:{table.id}/../x:{table.seq}:bid1", f"ddz::{table.seq}:bid1"]
    for custom_id in forged:
        dispatch(ana, fake.table_message(), custom_id)
    await fake.idle()
    assert await snapshot(fake) == before


async def test_an_unknown_public_action_gets_a_polite_answer(fake: FakeDiscord) -> None:
    ana, _, _ = await seated_hand(fake)
    table = table_of(fake)
    reply = await forge_click(ana, fake.table_message(), f"ddz:{table.id}:{table.seq}:bid4")
    assert_polite(reply)


async def test_a_disabled_bid_button_pressed_anyway_is_refused(fake: FakeDiscord) -> None:
    ana, bo, _ = await seated_hand(fake)
    await ana.click(fake.table_message(), "Bid 2")
    message = fake.table_message()
    assert message.buttons()["Bid 1"]["disabled"] is True
    before = await snapshot(fake)
    reply = await forge_click(bo, message, message.buttons()["Bid 1"]["custom_id"])
    assert_polite(reply, "A bid must be higher than 2; 1 is not.")
    assert await snapshot(fake) == before


async def test_start_cancel_stop_without_the_right_are_refused(fake: FakeDiscord) -> None:
    ana, bo, cy = members(fake)
    await ana.slash("start")
    await bo.click(fake.table_message(), "Join")
    table = table_of(fake)
    lobby = fake.table_message()
    before = await snapshot(fake)
    assert_polite(await forge_click(cy, lobby, f"ddz:{table.id}:{table.seq}:start"),
                  "You're not seated at this table.")
    assert_polite(await forge_click(bo, lobby, f"ddz:{table.id}:{table.seq}:start"),
                  "All three seats must be filled to start.")
    assert_polite(await forge_click(bo, lobby, f"ddz:{table.id}:{table.seq}:cancel"), NOT_STARTER)
    assert_polite(await forge_click(cy, lobby, f"ddz:{table.id}:{table.seq}:cancel"), NOT_STARTER)
    assert_polite(await forge_click(cy, lobby, f"ddz:{table.id}:{table.seq}:cpu"),
                  "You're not seated at this table.")
    assert_polite(await cy.slash("stop"), "That can't be done at this point of the hand.")
    assert await snapshot(fake) == before
    await ana.click(fake.table_message(), "Add computer")
    await bo.click(fake.table_message(), "Start")
    before = await snapshot(fake)
    assert_polite(await bo.slash("stop"), NOT_STARTER)
    assert_polite(await cy.slash("stop"), NOT_STARTER)
    assert await snapshot(fake) == before


async def test_config_without_manage_server_is_refused_even_if_the_client_shows_it(
        fake: FakeDiscord) -> None:
    _, _, cy = members(fake)
    before = await fake.bot.storage.get_settings(fake.guild_id)
    for options in ({"target": 1}, {"turn_seconds": 10, "bid_seconds": 10},
                    {"target": 10000}, {}):
        reply = await cy.slash("config", **options)
        assert_polite(reply, "Only members with Manage Server can change the settings.")
        assert not reply.last.embeds
    assert await fake.bot.storage.get_settings(fake.guild_id) == before
    assert await fake.bot.service.settings(fake.guild_id) == before


async def test_nobody_can_act_for_a_computer_seat(fake: FakeDiscord) -> None:
    """While the computer (seat 3) thinks, members' bids are not its move."""
    ana, bo, cy = await seated_hand(fake)
    await ana.click(fake.table_message(), "Bid 1")
    service = fake.bot.service
    service.ai_delay = 600.0  # the computer thinks until the hand is stopped
    table = table_of(fake)
    try:
        dispatch(bo, fake.table_message(), f"ddz:{table.id}:{table.seq}:bid0")
        for _ in range(250):
            await asyncio.sleep(0.02)  # Bo's pass, then the board redraw
            if table_of(fake).turn_seat == 2 and fake.table_message().buttons()["Bid 2"][
                    "custom_id"].split(":")[2] == str(table_of(fake).seq):
                break
        table = table_of(fake)
        assert table.turn_seat == 2 and table.seats[2].computer is not None
        before = await snapshot(fake)
        message = fake.table_message()
        who = [m for m in (ana, bo, cy) for _ in range(3)]
        tokens = [dispatch(m, message, f"ddz:{table.id}:{table.seq}:bid{n}")
                  for m, n in zip(who, [0, 2, 3] * 3, strict=True)]
        await answered(fake, tokens)
        answers = [m._reply(tok) for m, tok in zip(who, tokens, strict=True)]
        for reply in answers[:6]:
            assert_polite(reply, "It's not your turn.")
        for reply in answers[6:]:
            assert_polite(reply, "You're not seated at this table.")
        assert await snapshot(fake) == before
    finally:
        await service.stop_hand(table.id, ana.id)
        await fake.idle()


async def test_play_again_from_a_stopped_hand_by_an_outsider_is_refused(fake: FakeDiscord) -> None:
    ana, _, cy = await playing_hand(fake)
    await ana.slash("stop")
    table = table_of(fake)
    before = await snapshot(fake)
    reply = await forge_click(cy, fake.table_message(), f"ddz:{table.id}:{table.seq}:again")
    assert_polite(reply, "You're not seated at this table.")
    assert await snapshot(fake) == before


async def test_an_admin_who_is_not_seated_may_cancel(fake: FakeDiscord) -> None:
    """The allowed path the attacks above are measured against."""
    await playing_hand(fake)
    table = table_of(fake)
    di = Member(fake, 44, "Di", admin=True)
    await forge_click(di, fake.table_message(), f"ddz:{table.id}:{table.seq}:cancel")
    assert fake.bot.service.get(table.id) is None
