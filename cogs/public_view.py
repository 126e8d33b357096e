"""The public table message's buttons for a state, and which message shows a state.

``message_key``: a new message is posted for the lobby and for each deal (and
redeal); later states of the same key edit it. ``public_view``: the buttons
(custom_ids ``ddz:<table>:<seq>:<action>``, see ``cogs/items.py``). Under the Happy
rules the bidding's buttons are Call / Don't call, then Grab / Don't grab (``bid1`` /
``bid0``, docs/RULES.md §Happy rules).
"""

from __future__ import annotations

from typing import Any

import discord

from bot.game.happy import HappyHand
from bot.game.table import Table
from bot.i18n import t
from cogs.components import Components
from cogs.happy_texts import button_label
from cogs.items import public_id, result_buttons

B = discord.ButtonStyle


def message_key(table: Table) -> tuple[Any, ...]:
    """Which message shows this state: the lobby after hand N, or deal (N, redeals)."""
    if table.hand is None or table.phase == "lobby":
        return ("lobby", table.hand_no)
    return ("hand", table.hand_no, table.hand.redeals)


def public_view(table: Table, lang: str, hand_no: int | None = None) -> Components | None:
    """The buttons of the public message for this state (None when closed); a result
    with its server ``hand_no`` also gets Replay and Review. Built as payload dicts
    (``Components``: what a ``discord.ui.View`` of ``TableButton`` s would send, placed
    five to a row as it places them), since the message is drawn after every move."""
    view = Components()
    tid, seq = table.id, table.seq

    def add(action: str, key: str, style: B = B.secondary, disabled: bool = False,
            **params: Any) -> None:
        view.button(public_id(tid, seq, action), t(key, lang, **params), len(view) // 5,
                    style, disabled)

    if table.phase == "lobby":
        full = all(not s.is_empty for s in table.seats)
        add("join", "btn.join", B.primary, disabled=full)
        add("leave", "btn.leave")
        add("cpu", "btn.add_computer", disabled=full)
        add("start", "btn.start", B.success, disabled=not full)
        add("cancel", "btn.cancel", B.danger)
        add("fill", f"btn.fill_{table.fill}")  # the starter's choice (docs/RULES.md §Timers)
    elif table.phase == "playing" and table.hand is not None:
        hand = table.hand
        if isinstance(hand, HappyHand) and hand.phase == "bidding" and hand.turn is not None:
            # bid1 / bid0 are Call / Don't call or Grab / Don't grab (HappyHand.bid)
            stage = "grab" if hand.auction.stage == "grab" else "call"
            view.button(public_id(tid, seq, "bid1"), button_label(stage, 1, lang), 0, B.primary)
            view.button(public_id(tid, seq, "bid0"), button_label(stage, 0, lang), 0)
        elif hand.phase == "bidding" and hand.turn is not None:
            allowed = hand.allowed_bids(hand.turn)
            add("bid0", "btn.bid_pass", disabled=0 not in allowed)
            for amount in (1, 2, 3):
                add(f"bid{amount}", "btn.bid", B.primary, disabled=amount not in allowed, n=amount)
        add("hand", "btn.my_hand", B.success)
        add("leave", "btn.leave")  # mid-hand: auto-play takes the seat (docs/RULES.md §Timers)
    elif table.phase == "finished":
        if not table.feature_deals:  # else its feature deals its hands itself
            add("again", "btn.play_again", B.primary)
            add("leave", "btn.leave")
        if hand_no is not None:
            result_buttons(view, hand_no, lang)
    else:
        return None
    return view
