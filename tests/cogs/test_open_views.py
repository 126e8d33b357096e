"""cogs/open_views.py: tracked hand views expire before their token does, and a refresh
never draws a view from a table older than the view already shows."""

from __future__ import annotations

import asyncio
import itertools
from types import SimpleNamespace
from typing import Any

from bot.game.table import Table
from cogs.hand_view import Screen
from cogs.items import ViewState
from cogs.open_views import OpenViews
from tests.support.fake_tokens import fake_token

_IDS = itertools.count(1)


class Token:
    """Stands for the interaction whose token edits the ephemeral view (answered)."""

    def __init__(self) -> None:
        self.edits: list[dict[str, Any]] = []
        self.id, self.channel_id = next(_IDS), 1
        self.extras: dict[str, Any] = {}  # discord.Interaction.extras (cogs/tokens.py)
        self.response = SimpleNamespace(is_done=lambda: True)
        self.followup = SimpleNamespace()
        fake_token(self)

    async def edit_original_response(self, **kwargs: Any) -> None:
        self.edits.append(kwargs)


def screen(seq: int) -> Screen:
    return Screen(content=f"seq {seq}", alt="", view=None, cards=[], state=ViewState(), seq=seq)


def table_at(seq: int, user: int) -> Table:
    table = Table.open(1, 2, user, "alice", computers=2)
    table.seq = seq
    return table


async def test_a_view_says_it_expired_before_its_token_does_and_is_forgotten() -> None:
    async def render(*args: Any, **kwargs: Any) -> Screen:
        raise AssertionError("an expired view is never redrawn")

    views = OpenViews(render, lifetime=0.3, margin=0.25)
    token = Token()
    views.track("t1", 7, token, screen(3), "en")  # type: ignore[arg-type]
    await asyncio.sleep(0.2)
    assert token.edits and token.edits[-1]["view"] is None
    assert token.edits[-1]["content"].startswith("This view is out of date (Discord allows edits")
    assert views.views == {}
    await views.refresh(table_at(4, 7))  # nothing tracked: nothing drawn
    assert len(token.edits) == 1


async def test_a_refresh_from_an_older_table_leaves_a_newer_view_alone() -> None:
    drawn: list[int] = []

    async def render(table: Table, seat: int, state: ViewState, lang: str, **kw: Any) -> Screen:
        drawn.append(table.seq)
        return screen(table.seq)

    views = OpenViews(render)
    token = Token()
    views.track("t1", 7, token, screen(5), "en")  # type: ignore[arg-type]
    old = table_at(4, 7)
    old.id = "t1"
    await views.refresh(old)  # a redraw that started before the member's click
    assert drawn == [] and token.edits == []
    new = table_at(6, 7)
    new.id = "t1"
    await views.refresh(new)
    assert drawn == [6] and token.edits[-1]["content"] == "seq 6"
    await views.close()


async def test_a_tracked_view_is_edited_through_its_token_alone() -> None:
    async def render(table: Table, seat: int, state: ViewState, lang: str, **kw: Any) -> Screen:
        return screen(table.seq)

    views = OpenViews(render)
    token = Token()
    views.track("t1", 7, token, screen(5), "en")  # type: ignore[arg-type]
    assert views.views[("t1", 7)].token is token.extras["ddz_token"]  # not the interaction
    new = table_at(6, 7)
    new.id = "t1"
    await views.refresh(new)  # the token alone still edits the view
    assert token.edits[-1]["content"] == "seq 6"
    await views.close()


async def test_a_refresh_draws_only_its_tables_views_and_forgotten_ones_never() -> None:
    drawn: list[tuple[str, int]] = []

    async def render(table: Table, seat: int, state: ViewState, lang: str, **kw: Any) -> Screen:
        drawn.append((table.id, table.seq))
        return screen(table.seq)

    views = OpenViews(render)
    tokens = {key: Token() for key in (("t1", 7), ("t2", 7), ("t3", 7))}
    for (table_id, user), token in tokens.items():
        views.track(table_id, user, token, screen(5), "en")  # type: ignore[arg-type]
    views.forget_table("t3")
    for table_id in ("t1", "t2", "t3"):
        table = table_at(6, 7)
        table.id = table_id
        await views.refresh(table)
    assert drawn == [("t1", 6), ("t2", 6)]
    assert tokens[("t3", 7)].edits == []
    assert set(views.views) == {("t1", 7), ("t2", 7)}
    await views.close()
    assert views.views == {} and views._of_table == {}  # noqa: SLF001


async def test_a_first_view_answered_from_an_older_state_catches_up_when_tracked() -> None:
    """Issue 48 (a member playing a tournament table through the hand view): the first view
    of a table, answered at seq 4, was tracked only after the board's refresh of seq 5
    (which found no view to wait for); nothing moved after that (the member's turn), so
    the view said "Waiting for Ben" until the timer ran out. Tracked behind the newest
    refresh, it is refreshed once more."""
    drawn: list[int] = []

    async def render(table: Table, seat: int, state: ViewState, lang: str, **kw: Any) -> Screen:
        drawn.append(table.seq)
        return screen(table.seq)

    views = OpenViews(render)
    newer = table_at(5, 7)
    newer.id = "t1"
    await views.refresh(newer)  # the board's redraw at seq 5: no view of t1 yet
    token = Token()
    views.track("t1", 7, token, screen(4), "en")  # type: ignore[arg-type]  # answered at 4
    for _ in range(20):
        await asyncio.sleep(0)
    assert drawn == [5] and token.edits[-1]["content"] == "seq 5"
    views.track("t1", 7, token, screen(5), "en")  # type: ignore[arg-type]  # current: nothing
    for _ in range(20):
        await asyncio.sleep(0)
    assert drawn == [5]
    await views.close()
