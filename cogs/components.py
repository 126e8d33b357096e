"""Message components built as Discord payload dicts (``Components``), for the hand
view and the public table message (docs/PERFORMANCE.md §Answers)."""

from __future__ import annotations

from typing import Any

import discord

B = discord.ButtonStyle


class Components:
    """Message components as Discord payload dicts: exactly what ``discord.ui.View``
    would send for the same buttons and menu (``to_components``), built without
    discord.ui objects, about 4× cheaper — the hand view is drawn on every click and
    every refresh, the public table message after every move. ``cogs.items.route_click``
    routes the clicks by custom_id, so there is nothing to store (``is_finished`` is True)."""

    __discord_ui_view__ = True
    timeout: float | None = None

    def __init__(self) -> None:
        self.rows: list[list[dict[str, Any]]] = [[] for _ in range(5)]

    def button(self, custom_id: str, label: str, row: int, style: B = B.secondary,
               disabled: bool = False) -> None:
        """A button (label cut to Discord's 80 characters) at the end of ``row`` (0-4)."""
        self.rows[row].append({"type": 2, "style": style.value, "disabled": disabled,
                               "label": label[:80], "custom_id": custom_id})

    def add_item(self, item: discord.ui.Item[Any]) -> Components:
        """``item`` (any discord.ui item, e.g. a Replay button) placed as
        ``discord.ui.View.add_item`` places it: in its ``row`` when it has one, else in
        the first row with room for it (a button takes 1 of a row's 5 places, a menu
        all 5). Raises ValueError when that row (or every row) is full."""
        width = getattr(item, "width", 1)
        rows = self.rows if item.row is None else [self.rows[item.row]]
        for row in rows:
            if sum(5 if c["type"] != 2 else 1 for c in row) + width <= 5:
                row.append(item.to_component_dict())
                return self
        raise ValueError("no room left for another component")

    def select(self, custom_id: str, options: list[dict[str, Any]], placeholder: str,
               row: int, disabled: bool = False, *, min_values: int = 1,
               max_values: int = 1) -> None:
        """A select menu taking ``min_values``..``max_values`` values; ``options`` as
        made by ``option`` (≤ 25; sent as they are, so a cached list can be shared by
        many menus)."""
        self.rows[row].append({
            "type": 3, "custom_id": custom_id, "min_values": min_values, "max_values": max_values,
            "disabled": disabled, "required": True, "placeholder": placeholder[:150],
            "options": options})

    @staticmethod
    def option(label: str, value: str) -> dict[str, Any]:
        """A select menu option (label cut to Discord's 80 characters), as sent."""
        return {"label": label[:80], "value": value, "default": False}

    def to_components(self) -> list[dict[str, Any]]:
        """The action rows, as sent to Discord."""
        return [{"type": 1, "components": row} for row in self.rows if row]

    def is_finished(self) -> bool:
        """True: nothing to listen for, so discord.py never stores it (``send_message``
        stores any view that is not finished, dispatchable or not)."""
        return True

    def is_dispatchable(self) -> bool:
        return False

    def has_components_v2(self) -> bool:
        return False

    def __len__(self) -> int:
        return sum(len(row) for row in self.rows)
