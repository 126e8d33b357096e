"""Buttons and menus that survive restarts: every custom_id carries all the state.

custom_id formats (``<table>`` = table id, ``<seq>`` = the table's sequence number
when the component was drawn):

* public table message: ``ddz:<table>:<seq>:<action>`` with action one of
  ``join leave cpu start cancel bid0 bid1 bid2 bid3 hand again``;
* private hand view: ``ddz:<table>:<seq>:h<verb>.<mask>.<sort><hint>`` where
  ``verb`` is ``r<0..14>`` (add one card of that rank index), ``play``, ``pass``,
  ``hint``, ``clear``, ``sort``, ``a1`` / ``a0`` (auto-play on / off; ``auto``, a
  toggle, from views drawn by older versions), ``b<0..3>`` (bid), ``rd<k>`` (play the
  k-th reading), ``pick`` (the select menu of legal plays; each option's value is
  the play's card mask); ``mask`` = selected ``Card.index`` bits in base 36;
  ``sort`` = ``r`` (by rank) or ``g`` (groups); ``hint`` = how many hints were shown.

``route_click`` parses a click and delegates to the cog (``DdzCog.on_public_click`` /
``DdzCog.on_hand_click``), which answers and logs every failure itself. The items are
plain discord.ui items that discord.py does not dispatch (``is_dispatchable`` is
False): a DynamicItem made discord.py build a ``View`` of the whole message (~25 items)
on every click only to find the clicked one, and any view sent holding one registered
its template for that route again.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Literal, cast

import discord

from bot.rules import Card

if TYPE_CHECKING:  # annotations only: cogs.ddz imports this module
    from discord.ext import commands

    from cogs.ddz import DdzCog

PUBLIC_ACTIONS = ("join", "leave", "cpu", "start", "cancel", "bid0", "bid1", "bid2", "bid3",
                  "hand", "again")
TABLE_ID = r"[A-Za-z0-9]{1,16}"
PUBLIC_TEMPLATE = rf"ddz:(?P<table>{TABLE_ID}):(?P<seq>\d+):(?P<action>{'|'.join(PUBLIC_ACTIONS)})"
_STATE = r"\.(?P<mask>[0-9a-z]+)\.(?P<sort>[rg])(?P<hint>\d+)"
HAND_TEMPLATE = rf"ddz:(?P<table>{TABLE_ID}):(?P<seq>\d+):h(?P<verb>(?!pick)[a-z]+\d*){_STATE}"
SELECT_TEMPLATE = rf"ddz:(?P<table>{TABLE_ID}):(?P<seq>\d+):h(?P<verb>pick){_STATE}"
SortMode = Literal["rank", "groups"]


def cards_to_mask(cards: Any) -> int:
    """Bit mask of ``Card.index`` values (an iterable of Cards or of ints)."""
    mask = 0
    for card in cards:
        mask |= 1 << (card.index if card.__class__ is Card else int(card))
    return mask


def parse_mask(text: str) -> int:
    """A base-36 card mask from a custom_id or select value; a forged or malformed
    one (not base 36, or longer than any 54-card mask) means no cards: 0."""
    if len(text) > 11 or not text.isalnum() or not text.isascii():
        return 0
    return int(text, 36) & ((1 << 54) - 1)


def mask_to_indices(mask: int) -> frozenset[int]:
    """The ``Card.index`` values in ``mask``."""
    return frozenset(i for i in range(54) if mask >> i & 1)


@functools.lru_cache(maxsize=8192)
def to_base36(value: int) -> str:
    """A non-negative int in lowercase base 36 (``parse_mask`` reads it back); the same
    masks come back on every redraw of a menu (up to 25 per view), so answers are kept."""
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while True:
        value, rest = divmod(value, 36)
        out = digits[rest] + out
        if not value:
            return out


@dataclass(frozen=True)
class ViewState:
    """A hand view's client-side state: selected card indices, sort mode, hints shown."""

    selected: frozenset[int] = frozenset()
    sort: SortMode = "rank"
    hint: int = 0

    def encode(self) -> str:
        """``<mask>.<r|g><hint>``, the state part of a hand-view custom_id."""
        return f"{to_base36(cards_to_mask(self.selected))}.{self.sort[0]}{self.hint}"

    def with_selected(self, selected: frozenset[int]) -> ViewState:
        """A copy with these ``Card.index`` values selected."""
        return replace(self, selected=frozenset(selected))

    @classmethod
    def decode(cls, mask: str, sort: str, hint: str) -> ViewState:
        """The state from custom_id parts (forged masks mean no cards; hint ≤ 999)."""
        return cls(mask_to_indices(parse_mask(mask)), "groups" if sort == "g" else "rank",
                   min(int(hint), 999))


def public_id(table_id: str, seq: int, action: str) -> str:
    """custom_id of a public table-message button."""
    return f"ddz:{table_id}:{seq}:{action}"


def hand_id(table_id: str, seq: int, verb: str, state: ViewState) -> str:
    """custom_id of a hand-view component (≤ 100 characters)."""
    return f"ddz:{table_id}:{seq}:h{verb}.{state.encode()}"


def ddz_cog(interaction: discord.Interaction) -> DdzCog:
    """The ``/ddz`` cog of the bot that received ``interaction``. Raises RuntimeError
    when it is not loaded."""
    cog = cast("commands.Bot", interaction.client).get_cog("ddz")
    if cog is None:
        raise RuntimeError("the ddz cog is not loaded")
    return cast("DdzCog", cog)


class TableButton(discord.ui.Button):  # type: ignore[type-arg]
    """A button of the public table message (clicks: ``route_click``)."""

    def __init__(self, table_id: str, seq: int, action: str, *, label: str = "",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary,
                 disabled: bool = False, row: int | None = None) -> None:
        super().__init__(label=label or action, style=style, disabled=disabled, row=row,
                         custom_id=public_id(table_id, seq, action))
        self.table_id, self.seq, self.action = table_id, seq, action

    def is_dispatchable(self) -> bool:
        """False: discord.py neither stores a view for it nor routes its clicks (a
        view holding only these is never stored; ``route_click`` routes them)."""
        return False


class HandButton(discord.ui.Button):  # type: ignore[type-arg]
    """A button of the private hand view, as a discord.ui item (the cog draws the view
    as payload dicts, ``cogs.components.Components``; clicks: ``route_click``)."""

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
    """The select menu of legal plays in the hand view (verb ``pick``), as a discord.ui
    item (see ``HandButton``)."""

    def __init__(self, table_id: str, seq: int, state: ViewState,
                 options: list[discord.SelectOption] | None = None, *, placeholder: str = "",
                 disabled: bool = False, row: int | None = None) -> None:
        super().__init__(
            custom_id=hand_id(table_id, seq, "pick", state), placeholder=placeholder or None,
            options=options or [discord.SelectOption(label="-", value="0")],
            disabled=disabled, row=row, min_values=1, max_values=1)
        self.table_id, self.seq, self.state = table_id, seq, state

    def is_dispatchable(self) -> bool:
        """False, as ``TableButton.is_dispatchable``."""
        return False


_ROUTES = tuple(re.compile(p) for p in (PUBLIC_TEMPLATE, HAND_TEMPLATE, SELECT_TEMPLATE))


def _in_message(message: discord.Message, component_type: object, custom_id: str) -> bool:
    """Whether ``message`` has a component of this type (int) and custom_id, at any
    depth (action rows, or the children of v2 containers)."""
    todo: list[Any] = list(message.components)
    while todo:
        component = todo.pop()
        if (getattr(component, "custom_id", None) == custom_id
                and component.type.value == component_type):
            return True
        todo.extend(getattr(component, "children", ()) or ())
    return False


async def route_click(cog: DdzCog, interaction: discord.Interaction) -> bool:
    """Send a click on a table button, hand button or hand menu straight to
    ``cog.on_public_click`` / ``cog.on_hand_click``; False when ``interaction`` is
    not one (other components and commands: nothing done).

    Same outcome as discord.py's DynamicItem route (``ViewStore.dispatch_dynamic_items``),
    which built a ``View`` of the whole message (~25 items) for each click only to find
    the clicked one: a click whose custom_id matches a template but is not on the
    message it came from (forged) is dropped unanswered, as that route drops it; the
    handlers re-check guild, table, seat, turn and cards as before.
    """
    data: Any = interaction.data or {}
    custom_id = data.get("custom_id")
    if interaction.type is not discord.InteractionType.component or not isinstance(custom_id, str):
        return False
    public, hand, select = (pattern.fullmatch(custom_id) for pattern in _ROUTES)
    match = public or hand or select
    if match is None:
        return False
    message = interaction.message
    if message is None or not _in_message(message, data.get("component_type"), custom_id):
        return True
    if public is not None:
        await cog.on_public_click(interaction, public["table"], int(public["seq"]),
                                  public["action"])
        return True
    state = ViewState.decode(match["mask"], match["sort"], match["hint"])
    value = None
    if select is not None:
        values = data.get("values") or []
        value = str(values[0]) if values else None
    await cog.on_hand_click(interaction, match["table"], int(match["seq"]), match["verb"],
                            state, value)
    return True
