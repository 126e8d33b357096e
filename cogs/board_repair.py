"""The restart repair of a table's public message: exactly one live message per table.

A crash between posting a table's new message and saving its id (or between saving it
and clearing the previous one's buttons) leaves two messages with live buttons. When a
table is reloaded after a restart, ``repair`` looks through the channel's last
``SCAN_LIMIT`` messages for the bot's own messages of that table (by the
``ddz:<table>:`` custom_ids of their buttons), adopts the newest when it is newer than
the saved one, and takes the table's buttons off the others (their other buttons, a
result's Replay / Review, stay). Runs once per restored table, before its first redraw
(``cogs/board.py``).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence

import discord

from bot.game.table import Table
from cogs.delivery import Delivery

log = logging.getLogger("cogs.ddz")

SCAN_LIMIT = 50
"""How many of a channel's newest messages a restored table looks through for its own."""


def table_prefix(table_id: str) -> str:
    """The custom_id prefix of a table's public buttons (``cogs/items.py``)."""
    return f"ddz:{table_id}:"


def is_own(message: discord.Message, me: int | None, table_id: str) -> bool:
    """True for a message the bot (user id ``me``) posted with a button of ``table_id``."""
    prefix = table_prefix(table_id)
    ids = [getattr(child, "custom_id", None) or ""
           for row in message.components for child in getattr(row, "children", ())]
    return message.author.id == me and any(i.startswith(prefix) for i in ids)


def to_adopt(found: Sequence[int], saved: int | None) -> int | None:
    """Of the ids of a table's messages ``found`` in its channel, the one to adopt as
    its live message: the newest, when newer than the ``saved`` one; else None."""
    newest = max(found, default=None)
    return newest if newest is not None and (saved is None or newest > saved) else None


def kept_buttons(message: discord.Message, table_id: str) -> discord.ui.View | None:
    """What stays on a retired table message: its buttons of other prefixes (a result's
    Replay / Review), None when nothing stays."""
    prefix = table_prefix(table_id)
    keep = discord.ui.View.from_message(message, timeout=None)
    for item in list(keep.children):
        if (getattr(item, "custom_id", None) or "").startswith(prefix):
            keep.remove_item(item)
    return keep if keep.children else None


async def own_messages(bot: discord.Client, delivery: Delivery,
                       table: Table) -> list[discord.Message] | None:
    """The bot's messages of ``table`` among its channel's last ``SCAN_LIMIT``, newest
    first, after the global budget's ``take(RESULT)`` (reading the history is a channel
    request). None when the scan fails (e.g. no Read Message History): logged."""
    me = bot.user.id if bot.user is not None else None
    try:
        found = await delivery.read_recent(table.channel_id, table.guild_id, SCAN_LIMIT)
        mine = [message for message in found if is_own(message, me, table.id)]
    except discord.HTTPException as error:
        log.warning("could not scan channel %s for table %s: %s", table.channel_id,
                    table.id, error)
        return None
    except Exception:  # the scan is a repair: never let it block the redraw
        log.exception("scanning channel %s for table %s failed", table.channel_id, table.id)
        return None
    return mine


async def repair(bot: discord.Client, delivery: Delivery, table: Table, current: int | None,
                 adopt: Callable[[int], Awaitable[None]]) -> None:
    """Leave ``table`` one live message (see the module docstring). ``current``: the id
    of the message the board holds, None for none (the one saved on ``table`` then
    decides whether a message found is newer); ``adopt(id)`` makes a newer one found the
    board's (and saves it) before the others, all but the board's, lose their buttons.
    Raises nothing for Discord's errors: a failed scan skips the repair, a failed clear
    is logged."""
    mine = await own_messages(bot, delivery, table)
    if mine is None:
        return
    saved = current or table.message_id
    newest = to_adopt([m.id for m in mine], saved)
    if newest is not None:
        log.info("table %s: adopting message %s (saved id was %s)", table.id, newest, saved)
        await adopt(newest)
        current = newest
    for message in mine:
        if message.id != current:
            try:
                await delivery.edit(table.channel_id, message.id,
                                    view=kept_buttons(message, table.id))
            except discord.HTTPException as error:
                log.info("could not clear buttons of old message %s: %s", message.id, error)
