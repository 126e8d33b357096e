"""The bot's components rebuilt as discord.ui items, for tests that compare what the cogs
draw (payload dicts, ``cogs.components.Components``) with what discord.py would send.

Test-only: the bot itself never builds these (docs/ARCHITECTURE.md §The path of one click).
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import discord
from discord.components import _component_factory

from cogs.items import ViewState, public_id


class TableButton(discord.ui.Button):  # type: ignore[type-arg]
    """A button of the public table message (clicks: ``cogs.items.route_click``)."""

    def __init__(self, table_id: str, seq: int, action: str, *, label: str = "",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary,
                 disabled: bool = False, row: int | None = None) -> None:
        super().__init__(label=label or action, style=style, disabled=disabled, row=row,
                         custom_id=public_id(table_id, seq, action))
        self.table_id, self.seq, self.action = table_id, seq, action

    def is_dispatchable(self) -> bool:
        """False: discord.py neither stores a view for it nor routes its clicks (a
        view holding only these is never stored; ``cogs.items.route_click`` routes them)."""
        return False


class HandButton(discord.ui.Button):  # type: ignore[type-arg]
    """A button of the private hand view, as a discord.ui item (the cog draws the view
    as payload dicts, ``cogs.components.Components``; clicks: ``cogs.items.route_click``)."""

    def __init__(self, table_id: str, seq: int, verb: str, state: ViewState, *, label: str = "",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary,
                 disabled: bool = False, row: int | None = None) -> None:
        super().__init__(label=label or verb, style=style, disabled=disabled, row=row,
                         custom_id=hand_id(table_id, seq, verb, state))
        self.table_id, self.seq, self.verb, self.state = table_id, seq, verb, state

    def is_dispatchable(self) -> bool:
        """False, as ``TableButton.is_dispatchable``."""
        return False


class HandSelect(discord.ui.Select):  # type: ignore[type-arg]
    """A select menu of the hand view (verb ``cards``, the card menu, or ``pick``, the
    legal-play menu of older versions), as a discord.ui item (see ``HandButton``)."""

    def __init__(self, table_id: str, seq: int, state: ViewState,
                 options: list[discord.SelectOption] | None = None, *, placeholder: str = "",
                 disabled: bool = False, row: int | None = None, verb: str = "pick",
                 min_values: int = 1, max_values: int = 1) -> None:
        super().__init__(
            custom_id=hand_id(table_id, seq, verb, state), placeholder=placeholder or None,
            options=options or [discord.SelectOption(label="-", value="0")],
            disabled=disabled, row=row, min_values=min_values, max_values=max_values)
        self.table_id, self.seq, self.state = table_id, seq, state

    def is_dispatchable(self) -> bool:
        """False, as ``TableButton.is_dispatchable``."""
        return False


def message_with(*items: discord.ui.Item[Any]) -> SimpleNamespace:
    """A message whose components are these items (parsed as discord.py parses them)."""
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    return SimpleNamespace(components=[_component_factory(row) for row in view.to_components()])


def click(message: Any, custom_id: str, component_type: int = 2, values: list[str] | None = None,
          kind: discord.InteractionType = discord.InteractionType.component) -> SimpleNamespace:
    data: dict[str, Any] = {"custom_id": custom_id, "component_type": component_type}
    if values is not None:
        data["values"] = values
    return SimpleNamespace(type=kind, data=data, message=message)


def hand_id(table_id: str, seq: int, verb: str, state: ViewState) -> str:
    """custom_id of a hand-view component (``cogs/items.py``'s grammar; the hand view
    builds its own in ``cogs.hand_view``)."""
    return f"ddz:{table_id}:{seq}:h{verb}.{state.encode()}"
