"""What the public table message shows: a pure function of the Table, the server's
language and the hand's Settlement, testable without Discord.

``compose`` returns a ``PublicMessage``: its text, whom it mentions, its buttons,
the image to draw (the table's or the result's model, drawn later by the render
workers) and its alt text, and which message shows it (``message_key``: a new one
for the lobby and each deal). ``retired`` says what the previous message keeps once
a new one takes over. The language is the server's (``cogs/languages.py``). How it
reaches Discord (token or channel, budget, retries, a new message or an edit) is
``cogs/board.py`` and ``cogs/delivery.py``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import discord

from bot.game.seat import Event
from bot.game.table import Table
from bot.i18n import t
from bot.service.budget import COSMETIC, RESULT, TURN
from bot.values import Settlement
from cogs import texts
from cogs.components import Components
from cogs.items import result_buttons
from cogs.public_view import message_key, public_view


@dataclass(frozen=True)
class PublicMessage:
    """One state of a table's public message.

    ``image``: ``"table"`` (``model`` a ``texts.table_view``), ``"result"`` (``model``
    a ``texts.result_view``) or None; ``alt`` its alt text. ``ping``: the member whose
    turn it is (mentioned), else None. ``hand_no``: the server hand number of a
    result (its Replay / Review buttons). ``priority``: ``bot.service.budget``'s
    ``RESULT`` for a result or a closed table, ``TURN`` when a member is mentioned,
    else ``COSMETIC``.
    """

    key: tuple[Any, ...]
    content: str
    ping: int | None
    view: Components | None
    image: str | None
    model: Any
    alt: str
    hand_no: int | None
    priority: int

    @property
    def filename(self) -> str:
        return f"{self.image}.png"

    @property
    def mentions(self) -> discord.AllowedMentions:
        """Who the message may notify: nobody. The board names ``ping`` as a mention (a
        highlight), but most of its changes are edits, which never notify; the member is
        notified by their turn ping instead, a message of its own (docs/RULES.md §Turn
        pings, ``bot/service/pings.py``), so that a new board never notifies twice."""
        return discord.AllowedMentions.none()


def compose(table: Table, lang: str, events: Sequence[Event] = (),
            settlement: Settlement | None = None) -> PublicMessage:
    """The public message of ``table`` in ``lang`` (``events``: what just happened, for
    the text; ``settlement``: the finished hand's, when known). Raises nothing."""
    image: str | None = None
    model: Any = None
    alt = ""
    ping: int | None = None
    if table.phase == "closed":
        content, _ = texts.public_text(table, lang)
        return PublicMessage(("closed",), content, None, None, None, None, "", None, RESULT)
    if table.phase == "finished" and table.hand is not None:
        content = texts.result_text(table, lang, settlement)
        if table.hand.result is not None:
            image, model = "result", texts.result_view(table, lang, settlement)
            alt = texts.result_alt(table, lang, settlement)
    else:
        content, ping = texts.public_text(table, lang, events)
        if table.hand is not None and table.phase == "playing":
            image, model = "table", texts.table_view(table, lang)
            alt = texts.table_alt(table, model, lang)
    hand_no = getattr(settlement, "hand_no", None) if table.phase == "finished" else None
    priority = RESULT if table.phase == "finished" else TURN if ping else COSMETIC
    return PublicMessage(message_key(table), content, ping, public_view(table, lang, hand_no),
                         image, model, alt, hand_no, priority)


def retired(table: Table, old: tuple[Any, ...] | None, new: tuple[Any, ...], lang: str,
            result_no: int | None) -> tuple[str | None, Components | None]:
    """What a table message (``message_key`` ``old``) shows once a new one (``new``)
    replaces it: ``(content, buttons)``. ``content``: for the lobby after the deal, or a
    deal after a redeal, the title and where the game went (its image goes); None for
    the rest, e.g. a result, which keeps its text. ``buttons``: a result's Replay /
    Review (server hand number ``result_no``), else None (no buttons)."""
    keep = result_buttons(Components(), result_no, lang) if result_no is not None else None
    if old is None or new[0] != "hand":
        return None, keep
    if old[0] == "lobby":
        notice = t("table.dealt_below", lang)
    elif old[:2] == new[:2]:  # the same hand dealt again
        notice = t("table.new_message", lang)
    else:
        return None, keep
    return t("table.title_playing", lang, table=table.id) + "\n" + notice, keep
