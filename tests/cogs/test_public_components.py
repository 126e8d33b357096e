"""The public table message's buttons are built as payload dicts (``public_view`` with
``cogs.components.Components``) and send exactly what the ``discord.ui.View`` of
``TableButton`` s they replace sent, in every state and language."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from bot.game.table import Table
from bot.i18n import t
from cogs.public_view import public_view
from cogs.replay import result_buttons
from tests.support.fake_game import HANDS, KITTY
from tests.support.ui_items import TableButton

B = discord.ButtonStyle


def ui_view(table: Table, lang: str, hand_no: int | None = None) -> discord.ui.View | None:
    """The public view as discord.ui objects, as the cog built it before."""
    view = discord.ui.View(timeout=None)
    tid, seq = table.id, table.seq

    def add(action: str, key: str, style: B = B.secondary, disabled: bool = False,
            **params: Any) -> None:
        view.add_item(TableButton(tid, seq, action, label=t(key, lang, **params), style=style,
                                  disabled=disabled))

    if table.phase == "lobby":
        full = all(not s.is_empty for s in table.seats)
        add("join", "btn.join", B.primary, disabled=full)
        add("leave", "btn.leave")
        add("cpu", "btn.add_computer", disabled=full)
        add("start", "btn.start", B.success, disabled=not full)
        add("cancel", "btn.cancel", B.danger)
        add("fill", f"btn.fill_{table.fill}")
    elif table.phase == "playing" and table.hand is not None:
        hand = table.hand
        if hand.phase == "bidding" and hand.turn is not None:
            allowed = hand.allowed_bids(hand.turn)
            add("bid0", "btn.bid_pass", disabled=0 not in allowed)
            for amount in (1, 2, 3):
                add(f"bid{amount}", "btn.bid", B.primary, disabled=amount not in allowed, n=amount)
        add("hand", "btn.my_hand", B.success)
        add("leave", "btn.leave")
    elif table.phase == "finished":
        add("again", "btn.play_again", B.primary)
        add("leave", "btn.leave")
        if hand_no is not None:
            result_buttons(view, hand_no, lang)
    else:
        return None
    return view


def states() -> list[tuple[str, Table, int | None]]:
    alone = Table.open(1, 2, 11, "Ana")
    full = Table.open(1, 2, 11, "Ana", computers=2)
    bidding = Table.open(1, 2, 11, "Ana", computers=2)
    bidding.start(11, 0.0, hands=HANDS, kitty=KITTY, first_bidder=0)
    raised = bidding.model_copy(deep=True)
    raised.bid(11, 1, 0.0)  # the next bidder may no longer bid 1
    playing = bidding.model_copy(deep=True)
    playing.bid(11, 3, 0.0)
    finished = playing.model_copy(deep=True)
    finished.phase = "finished"
    closed = full.model_copy(deep=True)
    closed.phase = "closed"
    return [("lobby alone", alone, None), ("lobby full", full, None),
            ("bidding", bidding, None), ("bid raised", raised, None),
            ("playing", playing, None), ("result", finished, 12),
            ("result without a number", finished, None), ("closed", closed, 3)]


@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.parametrize("name,table,hand_no", states(), ids=[s[0] for s in states()])
def test_the_public_buttons_are_the_ones_discord_ui_sent(
    name: str, table: Table, hand_no: int | None, lang: str
) -> None:
    built, expected = public_view(table, lang, hand_no), ui_view(table, lang, hand_no)
    if expected is None:
        assert built is None
        return
    assert built is not None
    assert built.to_components() == expected.to_components()
    assert len(built) == len(expected.children)


def test_bidding_puts_five_buttons_on_the_first_row_and_leave_on_the_second() -> None:
    bidding = next(table for name, table, _ in states() if name == "bidding")
    rows = public_view(bidding, "en").to_components()  # type: ignore[union-attr]
    labels = [[c["label"] for c in row["components"]] for row in rows]
    assert labels == [["Pass", "Bid 1", "Bid 2", "Bid 3", "My hand"], ["Leave"]]
    result = next(table for name, table, _ in states() if name == "result")
    rows = public_view(result, "en", 12).to_components()  # type: ignore[union-attr]
    assert [c["label"] for c in rows[0]["components"]] == [
        "Play again", "Leave", "Replay", "Review my play"]


def test_an_item_with_a_row_goes_to_that_row_as_discord_ui_puts_it() -> None:
    from cogs.components import Components

    built, expected = Components(), discord.ui.View(timeout=None)
    for view in (built, expected):
        view.add_item(TableButton("T1", 3, "join", label="Join"))
        view.add_item(TableButton("T1", 3, "leave", label="Leave", row=2))
        view.add_item(TableButton("T1", 3, "cpu", label="Add"))
    assert built.to_components() == expected.to_components()
    assert [[c["label"] for c in row["components"]] for row in built.to_components()] == [
        ["Join", "Add"], ["Leave"]]
