"""Seats that Play again released while their member was away (docs/RULES.md §Timers):
each is noted for that member, who hears of it once (``TableService.take_release_notes``).
Kept in memory only."""

from __future__ import annotations

from dataclasses import dataclass

from bot.game.seat import Event
from bot.game.table import Table

KEPT = 3
"""Notes kept per member (the last ones)."""


@dataclass(frozen=True)
class ReleaseNote:
    """A member's seat that Play again released (docs/RULES.md §Timers): the table and
    channel, the last hand it played for them, and why (``left`` / ``timeouts``)."""

    table_id: str
    channel_id: int
    hand_no: int
    reason: str


class ReleaseNotes:
    """The notes not yet heard, by (guild id, user id) in ``kept``."""

    def __init__(self) -> None:
        self.kept: dict[tuple[int, int], list[ReleaseNote]] = {}

    def note(self, table: Table, events: list[Event]) -> None:
        """Remember each seat ``events`` released for timeouts, for its absent member
        (a member who pressed Leave knows already); the last ``KEPT`` per member."""
        for event in events:
            if (event.kind == "released" and event.params.get("user")
                    and event.params.get("reason") == "timeouts"):
                key = (table.guild_id, int(event.params["user"]))
                notes = self.kept.setdefault(key, [])
                notes.append(ReleaseNote(table.id, table.channel_id, table.hand_no - (
                    table.phase == "playing"), str(event.params["reason"])))
                del notes[:-KEPT]

    def take(self, guild_id: int, user_id: int) -> list[ReleaseNote]:
        """The member's seats that Play again gave up because they played a whole hand
        on auto-play from timeouts, since the member last heard of it (each said once),
        oldest first."""
        return self.kept.pop((guild_id, user_id), [])
