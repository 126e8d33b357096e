"""cogs/hand_refresh.py: the players' hand views follow each redraw of the public
message, even while a 403 keeps the board from the channel."""

from __future__ import annotations

import asyncio
import logging
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot.game.table import Table
from cogs.hand_refresh import HandRefresh
from tests.support.fake_discord import FakeDiscord
from tests.support.fake_game import CHANNEL_ID, comp, seated_hand


class Views:
    """What HandRefresh uses of OpenViews: ``refresh(table)``."""

    def __init__(self, fail: bool = False) -> None:
        self.fail, self.refreshed = fail, []

    async def refresh(self, table: Table) -> None:
        if self.fail:
            raise RuntimeError("rendering failed")
        self.refreshed.append(table.id)


async def test_a_redraw_refreshes_the_views_of_its_table_and_a_failure_is_only_logged(
        caplog: pytest.LogCaptureFixture) -> None:
    table = Table(id="t1", guild_id=1, channel_id=2, starter_id=11)
    views = Views()
    await HandRefresh(views)(table)  # type: ignore[arg-type]  # the fake above
    await HandRefresh(views)(None)  # type: ignore[arg-type]  # gone: nothing to refresh
    assert views.refreshed == ["t1"]
    with caplog.at_level(logging.ERROR, logger="cogs.ddz"):
        await HandRefresh(Views(fail=True))(table)  # type: ignore[arg-type]  # raises nothing
    assert "refreshing hand views of t1 failed" in caplog.text


async def test_while_a_403_blocks_the_board_the_hand_views_go_on_and_a_click_unblocks_it(
        fake: FakeDiscord) -> None:
    ana, bo, _ = await seated_hand(fake)
    view = (await bo.click(fake.table_message(), "My hand")).last
    deal = fake.table_message()
    board = fake.bot.get_cog("ddz").board
    refused: list[int] = []

    async def forbidden(channel_id: int, message_id: int, *_: Any, **__: Any) -> bool:
        refused.append(message_id)
        raise discord.Forbidden(SimpleNamespace(status=403, reason="Forbidden"),
                                {"code": 50001, "message": "Missing Access"})

    table_id = fake.bot.service.table_in_channel(CHANNEL_ID).id
    bidding = fake.messages[deal.id].content
    board.delivery.edit = forbidden  # a moderator hid the channel
    await ana.click(deal, "Bid 3")
    await fake.idle()
    assert refused == [deal.id] and board.backoff.blocked(table_id)
    assert fake.messages[deal.id].content == bidding  # the board could not say it
    assert "peasant" in fake.messages[view.id].content.lower()  # Bo's view followed the bid
    del board.delivery.edit  # the permission is back; Bo's next click shows it
    await bo.click(fake.messages[view.id], comp(fake.messages[view.id], "hsort"))
    await fake.idle()
    assert fake.messages[deal.id].content != bidding
    assert not board.backoff.blocked(table_id) and board.backoff.until == {}


async def test_moves_made_while_a_403_comes_back_still_reach_the_hand_views(
        fake: FakeDiscord) -> None:
    """A 403 on the board (its token or the channel) whose answer comes after further
    moves: the views follow those moves at once, not at the back-off's next try (30 s).
    Before, the redraw task ended on the 403 and the moves notified meanwhile waited."""
    ana, bo, _ = await seated_hand(fake)
    await bo.click(fake.table_message(), "My hand")
    deal = fake.table_message()
    cog = fake.bot.get_cog("ddz")
    service = fake.bot.service
    table_id = service.table_in_channel(CHANNEL_ID).id
    refused: list[int] = []

    async def forbidden(channel_id: int, message_id: int, *_: Any, **__: Any) -> bool:
        refused.append(message_id)
        if len(refused) == 1:  # Bo bids while this request is on its way
            await service.bid(table_id, bo.id, 2)
            while any(t.computer_to_act for t in service.tables()):  # the computer too
                await asyncio.sleep(0.02)
        raise discord.Forbidden(SimpleNamespace(status=403, reason="Forbidden"),
                                {"code": 50013, "message": "Missing Permissions"})

    cog.board.delivery.edit = forbidden
    await ana.click(deal, "Bid 1")
    await fake.idle()
    table = service.get(table_id)
    assert refused == [deal.id] and cog.board.backoff.blocked(table_id)
    assert cog.views.views[(table_id, bo.id)].seq == table.seq  # Bo's view is current
