"""What the public table message shows: a pure function of the Table, the server's
language and the hand's Settlement, testable without Discord.

``compose`` returns a ``PublicMessage``: its text, whom it mentions, its buttons,
the image to draw (the table's or the result's model, drawn later by the render
workers) and its alt text, and which message shows it (``message_key``: a new one
for the lobby and each deal). How it reaches Discord (token or channel, budget,
retries, a new message or an edit) is ``cogs/board.py`` and ``cogs/delivery.py``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.game.seat import Event
from bot.game.table import Table
from bot.service.budget import COSMETIC, RESULT, TURN
from bot.values import Settlement
from cogs import texts
from cogs.components import Components
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
