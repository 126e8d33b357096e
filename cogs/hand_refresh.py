"""The hand-view refresh: after a table's public message is redrawn, the open private
hand views of its players follow (``OpenViews.refresh`` re-renders each one whose
``seq`` is behind).

``Board`` calls its ``after_redraw`` hook, a ``HandRefresh``, once per redraw of a
table: after the message was drawn, after a redraw failed or was given up, and
instead of the redraw while a 403 keeps the bot from the channel (the views travel on
their own interaction tokens and don't need it). So the views move at the board's
pace: at most once per ``cogs.board.MIN_INTERVAL`` per table (longer while the render
workers are behind: ``Renderer.board_interval``), from the latest state, however fast
the computers play.
"""

from __future__ import annotations

import logging

from bot.game.table import Table
from cogs.open_views import OpenViews

log = logging.getLogger("cogs.ddz")


class HandRefresh:
    """``await refresh(table)``: bring ``table``'s open hand views up to date. Raises
    nothing: a failure is logged and the board goes on (a view that fails is dropped
    by ``OpenViews``; "My hand" opens a fresh one)."""

    def __init__(self, views: OpenViews) -> None:
        self.views = views

    async def __call__(self, table: Table | None) -> None:
        """``table``: the state just drawn (None: the table is gone, nothing to do)."""
        if table is None:
            return
        try:
            await self.views.refresh(table)
        except Exception:
            log.exception("refreshing hand views of %s failed", table.id)
