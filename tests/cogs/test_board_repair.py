"""cogs/board_repair.py: after a restart, a table keeps exactly one live public message."""

from __future__ import annotations

from collections.abc import AsyncIterator
from types import SimpleNamespace
from typing import Any

import discord
from discord.components import ActionRow

from bot.game.seat import Seat
from bot.game.table import Table
from bot.service.budget import GlobalBudget
from cogs import board_repair
from cogs.board_repair import kept_buttons, repair, to_adopt
from cogs.delivery import Delivery

ME, OTHER = 900, 901


def message(message_id: int, *custom_ids: str, author: int = ME) -> Any:
    """A channel message as discord.py parses it: buttons in one action row."""
    row = ActionRow({"type": 1, "components": [
        {"type": 2, "style": 2, "label": i, "custom_id": i} for i in custom_ids]})
    return SimpleNamespace(id=message_id, author=SimpleNamespace(id=author),
                           components=[row] if custom_ids else [])


class Channel:
    """The bot's view of one channel: its history (newest first) and the edits made."""

    def __init__(self, messages: list[Any], fail: Exception | None = None) -> None:
        self.messages, self.fail = messages, fail
        self.edits: list[tuple[int, list[str] | None]] = []
        self.limits: list[int] = []

    async def history(self, limit: int) -> AsyncIterator[Any]:
        self.limits.append(limit)
        if self.fail is not None:
            raise self.fail
        for m in sorted(self.messages, key=lambda m: -m.id)[:limit]:
            yield m

    def get_partial_message(self, message_id: int) -> Any:
        async def edit(view: discord.ui.View | None = None, **_: Any) -> None:
            ids = None if view is None else [getattr(c, "custom_id", "") for c in view.children]
            self.edits.append((message_id, ids))
        return SimpleNamespace(edit=edit)


def bot_with(channel: Channel) -> Any:
    return SimpleNamespace(user=SimpleNamespace(id=ME),
                           get_partial_messageable=lambda channel_id, guild_id=None: channel)


def table(message_id: int | None) -> Table:
    return Table(id="t1", guild_id=1, channel_id=2, starter_id=11, message_id=message_id,
                 seats=[Seat(user_id=11, name="Ana"), Seat(), Seat()])


async def run(channel: Channel, current: int | None, saved: int | None,
              budget: GlobalBudget | None = None) -> list[int]:
    adopted: list[int] = []

    async def adopt(message_id: int) -> None:
        adopted.append(message_id)

    await repair(bot_with(channel), Delivery(bot_with(channel), budget), table(saved), current,
                 adopt)
    return adopted


def test_the_newest_own_message_is_adopted_only_when_newer_than_the_saved_one() -> None:
    assert to_adopt([30, 50, 40], 40) == 50
    assert to_adopt([30, 40], 40) is None
    assert to_adopt([30], None) == 30
    assert to_adopt([], 40) is None


def test_a_retired_message_keeps_only_the_buttons_of_other_prefixes() -> None:
    result = message(7, "ddz:t1:9:again", "ddz:t1:9:leave", "ddz:rp:3:0:0:open")
    kept = kept_buttons(result, "t1")
    assert kept is not None
    assert [getattr(c, "custom_id", None) for c in kept.children] == ["ddz:rp:3:0:0:open"]
    assert kept_buttons(message(8, "ddz:t1:9:join"), "t1") is None


async def test_a_message_posted_but_not_saved_before_a_crash_is_adopted_and_the_old_cleared(
) -> None:
    channel = Channel([message(10, "ddz:t1:3:join"),  # the lobby, saved
                       message(20, "ddz:t1:4:hand", "ddz:t1:4:leave"),  # the deal, not saved
                       message(15, "ddz:t2:1:join"),  # another table
                       message(12, "ddz:t1:3:join", author=OTHER),  # not the bot's
                       message(11)])  # no buttons
    budget = GlobalBudget(rate=50)
    assert await run(channel, 10, 10, budget) == [20]
    assert channel.edits == [(10, None)] and channel.limits == [board_repair.SCAN_LIMIT]
    assert budget.taken == 2  # the history read and the clear: both channel requests


async def test_with_the_saved_message_newest_only_the_older_ones_lose_their_buttons() -> None:
    channel = Channel([message(30, "ddz:t1:5:again", "ddz:rp:4:0:0:open"),  # an older result
                       message(40, "ddz:t1:7:hand")])
    assert await run(channel, 40, 40) == []
    assert channel.edits == [(30, ["ddz:rp:4:0:0:open"])]


async def test_a_failed_scan_skips_the_repair_and_raises_nothing() -> None:
    forbidden = discord.Forbidden(SimpleNamespace(status=403, reason="Forbidden"),
                                  {"code": 50001, "message": "Missing Access"})
    for fail in (forbidden, RuntimeError("parsing a message failed")):
        channel = Channel([message(20, "ddz:t1:4:hand")], fail=fail)
        assert await run(channel, 10, 10) == [] and channel.edits == []
