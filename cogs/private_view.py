"""The member's hand view at a private table (a feature's private deal, ``Table.private``):
kept current like any hand view, and drawn once more with the result when the hand ends.
Shared by the features that deal private tables (their wings' ``cog.py``, ``Wing.private``)."""

from __future__ import annotations

from collections.abc import Callable

from bot.game.seat import Event
from bot.game.table import Table
from cogs.components import Components
from cogs.hand_screens import HandScreens


async def private_table_changed(hands: HandScreens, table: Table, events: list[Event], *,
                                seat: int, finished: str,
                                notice: Callable[[Table, str], str],
                                buttons: Callable[[str], Components | None] | None = None
                                ) -> bool:
    """Refresh the member's view of ``table`` (the member in ``seat``); when ``events``
    hold ``finished`` (the service's event of the hand's end), draw it once more with
    ``notice(table, lang)`` (and ``buttons(lang)``, when given and not None, under it) and
    stop tracking it. True when the hand ended."""
    user_id = table.seats[seat].user_id
    if user_id is None:
        return False
    if not any(event.kind == finished for event in events):
        await hands.views.refresh(table)
        return False
    key = (table.id, user_id)
    async with hands.views.lock(*key):
        entry = hands.views.views.get(key)
        if entry is not None and table.hand is not None and table.hand.result is not None:
            await hands.views.redraw(table, user_id, entry.state, notice=notice(table, entry.lang),
                                   buttons=buttons(entry.lang) if buttons is not None else None)
    hands.views.forget_table(table.id)
    return True
