"""A Repository stand-in holding settled hands, what ``ReplayService`` reads: one copy for
the replay service's tests and the web page's."""

from __future__ import annotations

from bot.values import FinishedHand


class Records:
    """Settled hands in a list (``records``); answers ``numbered_hand`` and ``last_hand_of``
    like the storage does."""

    def __init__(self, *records: FinishedHand) -> None:
        self.records = list(records)

    async def numbered_hand(self, guild_id: int, hand_no: int) -> FinishedHand | None:
        return next((r for r in self.records if (r.guild_id, r.hand_no) == (guild_id, hand_no)),
                    None)

    async def last_hand_of(self, guild_id: int, user_id: int) -> FinishedHand | None:
        mine = [r for r in self.records if r.guild_id == guild_id and user_id in r.user_ids]
        return max(mine, key=lambda r: r.hand_no, default=None)
