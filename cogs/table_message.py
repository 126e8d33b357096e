"""One state of a table onto its public message (``cogs/board.py`` decides when).

``TableMessages.show(table, shown, events)`` takes the server's language
(``cogs/languages.py``), composes what the message shows (``cogs/public_message.py``,
pure), draws its image in the render workers, and sends it through
``cogs/delivery.py``: an edit of the current message, or, for a new ``message_key``
(the lobby, each deal and redeal), a new message whose id is saved on the table
(``TableService.set_message_id``) before the previous message is retired (``retired``:
its buttons go, a result keeps Replay / Review). A match won is announced after its
result. Discord's errors go up to the board, which retries or backs off; an edit of the
current message that Discord refuses for good (``BoardLost``: deleted, or 30046 for a
message older than an hour) makes the next state a new message.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.game.errors import GameError
from bot.game.seat import Event
from bot.game.table import Table
from bot.service import TableService
from bot.service.budget import RESULT
from bot.service.renderer import Renderer
from bot.values import Settlement
from cogs import texts
from cogs.components import Components
from cogs.delivery import OLD_MESSAGE_EDITS, Delivery
from cogs.languages import ServerLanguages
from cogs.public_message import compose, retired
from cogs.public_view import message_key
from cogs.replies import png_file

log = logging.getLogger("cogs.ddz")


class BoardLost(Exception):
    """The edit of a table's current message was refused for good: ``reason`` "deleted"
    (the channel answered 10008 Unknown Message) or "old" (30046: the message is older
    than an hour and out of edits; docs/DISCORD.md rows 7 and 14)."""

    def __init__(self, message_id: int, reason: str, error: discord.HTTPException) -> None:
        super().__init__(f"message {message_id} {reason}: {error}")
        self.message_id, self.reason, self.error = message_id, reason, error


@dataclass
class Shown:
    """What a table's public message shows on Discord, as far as this process knows."""

    message_id: int | None = None
    key: tuple[Any, ...] | None = None
    """``message_key`` of the state on ``message_id``; ``("closed",)`` once closed."""
    result_no: int | None = None
    """Server hand number of the result the current message shows (its Replay /
    Review buttons stay when a newer message takes over)."""
    settlements: dict[int, Settlement] = field(default_factory=dict)
    """The settled hands' Settlement by table hand number (the result's text)."""
    announce: list[str] = field(default_factory=list)
    """Match announcements due after the next result drawn."""
    lost: set[int] = field(default_factory=set)
    """Ids of this table's messages Discord said are deleted (10008): never edited again,
    even while the service's Table still names one until the new message is saved."""

    def note(self, table: Table, settlement: Settlement | None = None) -> None:
        """A new state of ``table`` (and its hand's ``settlement``) is on its way: take
        the message id saved on the table when none is known (after a restart), keep the
        settlement for the result's text, and a match it ended for the announcement."""
        if (self.message_id is None and self.key is None and table.message_id
                and table.message_id not in self.lost):
            self.message_id, self.key = table.message_id, message_key(table)
        if settlement is not None:
            self.settlements[table.hand_no] = settlement
            if settlement.match_over and not settlement.replayed:
                self.announce.append("match")

    def message_lost(self) -> None:
        """Discord says the message is deleted: the next state goes to a new one."""
        if self.message_id is not None:
            self.lost.add(self.message_id)
        self.message_id, self.key = None, None


class TableMessages:
    """Draws states of tables onto their public messages (see the module docstring)."""

    def __init__(self, service: TableService, renderer: Renderer, delivery: Delivery,
                 languages: ServerLanguages) -> None:
        self.service = service
        self.renderer = renderer
        self.delivery = delivery
        self.languages = languages
        self.crash: Callable[[str], None] | None = None
        """The end-to-end tests' crash points (``bot.faults.crash_hook``): None unless
        ``DDZ_FAULT`` is set."""

    async def show(self, table: Table | None, shown: Shown, events: Sequence[Event] = ()) -> None:
        """Put ``table`` (None: gone from the service) on its message, updating ``shown``.
        Raises discord.HTTPException as Discord answers (a retired message's failure is
        only logged)."""
        if (table is not None and table.phase == "closed" and table.feature_deals
                and table.hand is not None and table.hand.result is not None):
            # A table whose feature deals its hands (``feature_deals``) closes after its last
            # hand: its message keeps showing that hand's result (the close may come before
            # the result was ever drawn).
            await self.show(table.model_copy(update={"phase": "finished"}), shown, events)
            shown.key = ("closed",)
            return
        if table is None or table.phase == "closed":
            if shown.message_id is not None and table is not None:
                lang = await self.languages.language(table.guild_id)
                await self._edit_current(table.channel_id, shown.message_id, RESULT,
                                         content=compose(table, lang).content or None,
                                         view=None, attachments=[])
            shown.key = ("closed",)
            return
        lang = await self.languages.language(table.guild_id)
        settlement = await self._settlement(table, shown)
        now = compose(table, lang, events, settlement)
        files: list[discord.File] = []
        if now.image is not None:
            if now.image == "result":  # the hand's end: ahead of the table images
                png = await self.renderer.result(now.model, locale=lang, urgent=True)
            else:
                png = await self.renderer.table(now.model, locale=lang)
            files.append(png_file(png, now.filename, now.alt))
        if shown.message_id is None or shown.key != now.key:
            old, (left_behind, keep) = shown.message_id, retired(table, shown.key, now.key, lang,
                                                                 shown.result_no)
            kwargs: dict[str, Any] = {"content": now.content, "allowed_mentions": now.mentions,
                                      "files": files}
            if now.view is not None:
                kwargs["view"] = now.view
            message_id = await self.delivery.send(table.channel_id, table.guild_id, RESULT,
                                                  **kwargs)
            if self.crash is not None:
                self.crash("table")
            await self.adopt(table, shown, message_id, now.key)
            if old is not None:
                await self._retire(table.channel_id, old, left_behind, keep)
        else:
            await self._edit_current(table.channel_id, shown.message_id, now.priority,
                                     content=now.content, view=now.view, attachments=files,
                                     allowed_mentions=now.mentions)
        shown.result_no = now.hand_no
        while shown.announce and settlement is not None:
            shown.announce.pop()
            await self.delivery.send(table.channel_id, table.guild_id, RESULT,
                                     content=texts.match_won_text(table, settlement, lang),
                                     allowed_mentions=discord.AllowedMentions.none())
            if self.crash is not None:
                self.crash("announce")

    async def _edit_current(self, channel_id: int, message_id: int, priority: int,
                            **kwargs: Any) -> None:
        """Edit the table's current message; BoardLost when Discord refuses it for good
        (a channel 10008: deleted; 30046: too old to edit), other errors as they are."""
        try:
            await self.delivery.edit(channel_id, message_id, priority, **kwargs)
        except discord.NotFound as error:
            if error.code == 10008:
                raise BoardLost(message_id, "deleted", error) from error
            raise
        except discord.HTTPException as error:
            if error.code == OLD_MESSAGE_EDITS:
                raise BoardLost(message_id, "old", error) from error
            raise

    async def adopt(self, table: Table, shown: Shown, message_id: int,
                    key: tuple[Any, ...] | None = None) -> None:
        """Make ``message_id`` the table's message (showing ``key``, default the table's
        state) and save its id; a failed save is logged (the restart repair finds it)."""
        shown.message_id, shown.key = message_id, key or message_key(table)
        try:
            await self.service.set_message_id(table.id, message_id)
        except GameError as error:  # e.g. the table closed meanwhile: a normal race
            log.debug("message id of table %s not saved: %s", table.id, error.code)
        except Exception:
            log.exception("saving the message id of table %s failed", table.id)

    async def _retire(self, channel_id: int, old: int, content: str | None,
                      keep: Components | None) -> None:
        """Take the table's buttons off ``old`` (and its text and image when ``content``:
        a lobby or a deal); its token is forgotten. A failure is logged."""
        try:
            if content is not None:  # not a result: its text is out of date
                await self.delivery.edit(channel_id, old, content=content, view=keep,
                                         attachments=[])
            else:
                await self.delivery.edit(channel_id, old, view=keep)
        except discord.HTTPException as error:
            log.info("could not clear buttons of old message %s: %s", old, error)
        self.delivery.forget_message(old)

    async def _settlement(self, table: Table, shown: Shown) -> Settlement | None:
        """The Settlement of the table's hand: the one notified, else for a finished hand
        the recorded one (after a restart the notified one is gone); None when storage
        has none or fails (logged)."""
        settlement = shown.settlements.get(table.hand_no)
        if settlement is None and table.phase == "finished" and table.hand is not None:
            try:
                settlement = await self.service.records.settlement_of(table.hand_id)
            except Exception:
                log.exception("reading the settlement of hand %s failed", table.hand_id)
            if settlement is not None:
                shown.settlements[table.hand_no] = settlement
        return settlement
