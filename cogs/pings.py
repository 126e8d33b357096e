"""Turn pings on Discord: the ``PingSender`` of ``bot/service/pings.py``.

The service decides when a member whose turn waits gets a message of their own; here it
is written (the server's public language: "@Ana, your turn to bid …" with the turn's
deadline as a relative timestamp), posted through ``Delivery`` (a follow-up of a live
interaction token of the channel when one is answered and public: never a click in a
hand view, whose own answers are private and need its bucket; else a channel post
within the global budget) with ``allowed_mentions`` that let only that member be notified, and
deleted the same way when the turn ends (docs/RULES.md §Turn pings, docs/DISCORD.md).
"""

from __future__ import annotations

import logging

import discord

from bot.game.table import Table
from bot.i18n import t
from bot.service.budget import TURN
from bot.values import SentPing
from cogs.delivery import Delivery
from cogs.happy_texts import asked_now
from cogs.languages import ServerLanguages

log = logging.getLogger("cogs.ddz")


def ping_text(table: Table, user_id: int, lang: str) -> str:
    """The ping's text: the member's mention, bid or play, and when the turn runs out
    (``<t:…:R>``, shown by each client in its own language and clock)."""
    bidding = table.hand is not None and table.hand.phase == "bidding"
    asked = asked_now(table)  # the Happy rules: "call" / "grab" / "show", not "bid"
    key = (f"ping.turn_{asked}" if asked in ("call", "grab", "show")
           else "ping.turn_bid" if bidding else "ping.turn_play")
    when = f"<t:{int(table.deadline)}:R>" if table.deadline is not None else ""
    return t(key, lang, mention=f"<@{user_id}>", when=when)


def only(user_id: int) -> discord.AllowedMentions:
    """Mentions that notify ``user_id`` and nobody else (no role, no @everyone, no reply)."""
    return discord.AllowedMentions(users=[discord.Object(id=user_id)], roles=False,
                                   everyone=False, replied_user=False)


class TurnPinger:
    """Posts and deletes turn pings (``bot.service.pings.PingSender``) through
    ``delivery``, in each server's language (``languages``)."""

    def __init__(self, delivery: Delivery, languages: ServerLanguages) -> None:
        self.delivery = delivery
        self.languages = languages

    async def send_ping(self, table: Table, user_id: int) -> int | None:
        """Post the ping of ``user_id``'s turn at ``table``; its message id, None when
        Discord refused it (logged: the board still shows whose turn it is)."""
        lang = await self.languages.language(table.guild_id)
        try:
            return await self.delivery.send(table.channel_id, table.guild_id, TURN,
                                            public_only=True,
                                            content=ping_text(table, user_id, lang),
                                            allowed_mentions=only(user_id))
        except discord.HTTPException as error:
            log.info("could not ping the turn at table %s: %s", table.id, error)
            return None

    async def delete_ping(self, ping: SentPing) -> None:
        """Delete a ping (a message already gone is no error)."""
        try:
            await self.delivery.delete(ping.channel_id, ping.message_id, TURN)
        except discord.HTTPException as error:
            log.info("could not delete the turn ping of table %s: %s", ping.table_id, error)
