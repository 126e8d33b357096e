"""Buttons and menus that survive restarts: every custom_id carries all the state, and
one router (``route_click``) sends every click of the bot's components to the cog.

The custom_id grammar, for every prefix the bot draws (``<table>`` = table id,
``<seq>`` = the table's sequence number when the component was drawn):

==========================================  ==================================  ===
* ``action``: one of ``join leave cpu start cancel bid0 bid1 bid2 bid3 hand again``.
* hand view: ``verb`` is ``r<0..14>`` (add one card of that rank index), ``play``,
  ``pass``, ``hint``, ``clear``, ``sort``, ``a1`` / ``a0`` (auto-play on / off;
  ``auto``, a toggle, from views drawn by older versions), ``b<0..3>`` (bid; at a Happy
  table ``b1``/``b0`` are Call/Don't call or Grab/Don't grab), ``show<4|2|0>`` (show the
  hand at the deal, as the landlord after the kitty, or keep it hidden), ``dbl<1|2|4>``
  (the Happy rules' doubling),
  ``rd<k>`` (play the k-th reading), ``cards`` (the card menu, a multi-select of the
  cards held: each option's value is one ``Card.index`` in decimal, the values chosen
  are the new selection), ``back`` (Take back: the last card added leaves the
  selection), ``pick`` (the menu of legal plays drawn by older versions;
  each option's value is the play's card mask); ``state`` = ``<mask>.<sort><hint>[m]``:
  ``mask`` = selected ``Card.index`` bits in base 36; ``sort`` = ``r`` (by rank) or
  ``g`` (groups); ``hint`` = how many hints were shown; ``m<ranks>`` = the ranks of
  the selected cards in the order they were added (one digit ``0``-``e`` per card, rank
  index in base 15), what Take back undoes (absent when it is the cards' own order,
  ranks low to high, as after a Hint or a menu choice, and from ids drawn by older
  versions; a bare ``m``, Take back's mode of older versions, reads as that order).
* replay: ``mode`` ``p`` (plain pages) or ``r`` (pages with the review's marks),
  ``verb`` one of ``prev next share gif open rev`` (cogs/replay.py).
* ``<user>``: the member who asked; ``<match no>``: the match a new match would end
  (either above ``ID_MAX``, and a replay's hand number, is answered as stale).

A feature's own components (``ClickRoute``: a template and a kind its wing declares,
``cogs.wing.Wing.routes``) are routed the same way, after these, to its handler
(``Clicks.on_feature_click``); their grammar is the wing's (its ``cog.py``), under a
``ddz:<prefix>:`` of its own.

A ``ddz:`` id that matches no template is answered as stale (``DdzCog.on_interaction``).
Every id stays within Discord's 100 characters. Each handler re-checks guild, table,
seat, turn and cards on the server: a custom_id is only a claim.

``route_click`` parses a click and hands it to the cog's handler of that template
(``Clicks``), which answers and logs every failure itself. The items are plain
discord.ui items that discord.py does not dispatch (``is_dispatchable`` is False): a
DynamicItem made discord.py build a ``View`` of the whole message (~25 items) on every
click only to find the clicked one, and any view sent holding one registered its
template for that route again.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal, Protocol, TypeVar

import discord

from bot.game.errors import GameError
from bot.i18n import t
from bot.rules import Card
from cogs.metering import KIND
from cogs.replies import answer_error

PUBLIC_ACTIONS = ("join", "leave", "cpu", "start", "cancel", "bid0", "bid1", "bid2", "bid3",
                  "hand", "again", "fill")
TABLE_ID = r"[A-Za-z0-9]{1,16}"
PUBLIC_TEMPLATE = rf"ddz:(?P<table>{TABLE_ID}):(?P<seq>\d+):(?P<action>{'|'.join(PUBLIC_ACTIONS)})"
_STATE = r"\.(?P<mask>[0-9a-z]+)\.(?P<sort>[rg])(?P<hint>\d+)(?P<back>(?:m[0-9a-e]{0,20})?)"
HAND_TEMPLATE = (rf"ddz:(?P<table>{TABLE_ID}):(?P<seq>\d+):h(?P<verb>(?!pick\.|cards\.)[a-z]+\d*)"
                 rf"{_STATE}")
SELECT_TEMPLATE = rf"ddz:(?P<table>{TABLE_ID}):(?P<seq>\d+):h(?P<verb>pick|cards){_STATE}"
CARD_VALUES_MAX = 20
"""Most values a card multi-select sends (a landlord's 20 cards); more is forged."""
REPLAY_VERBS = ("prev", "next", "share", "gif", "open", "rev")
REPLAY_TEMPLATE = (r"ddz:rp:(?P<no>[1-9]\d{0,8}):(?P<page>\d{1,3}):(?P<mode>[pr])"
                   rf"(?P<verb>{'|'.join(REPLAY_VERBS)})")
FORGET_TEMPLATE = r"ddzforget:(?P<user>\d+):(?P<answer>yes|no)"
NEWMATCH_TEMPLATE = r"ddznew:(?P<user>\d+):(?P<match>\d+):(?P<answer>yes|no)"
TEMPLATES = (PUBLIC_TEMPLATE, HAND_TEMPLATE, SELECT_TEMPLATE, REPLAY_TEMPLATE, FORGET_TEMPLATE,
             NEWMATCH_TEMPLATE)
"""Every custom_id the core draws (the grammar above; the features' are their ``ClickRoute``s)."""
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
    """A hand view's client-side state: selected card indices, sort mode, hints shown,
    and ``added``: the rank index of each selected card in the order it was added (what
    Take back undoes, last first; always in step with ``selected``: a rank missing from
    it is added in card order, one not selected is dropped)."""

    selected: frozenset[int] = frozenset()
    sort: SortMode = "rank"
    hint: int = 0
    added: tuple[int, ...] = ()

    def encode(self) -> str:
        """``<mask>.<r|g><hint>[m<ranks>]``, the state part of a hand-view custom_id; the
        order is left out when it is the cards' own (ranks low to high)."""
        canonical = self.added == tuple(sorted(self.added))  # what decode gives without it
        order = "" if canonical else "m" + "".join(_RANK_DIGITS[r] for r in self.added)
        return f"{to_base36(cards_to_mask(self.selected))}.{self.sort[0]}{self.hint}{order}"

    def __post_init__(self) -> None:
        # ``added`` keeps, per rank, its first entries up to the cards of that rank
        # selected, then gets the ranks of selected cards it lacks, in card order (cards
        # chosen in the menu or by a Hint, or a forged order).
        want: dict[int, int] = {}
        for index in self.selected:
            rank = Card.from_index(index).rank.index
            want[rank] = want.get(rank, 0) + 1
        kept: list[int] = []
        for rank in self.added:
            if want.get(rank, 0) > 0:
                want[rank] -= 1
                kept.append(rank)
        if want:
            for index in sorted(self.selected):  # Card.index order is card order
                rank = Card.from_index(index).rank.index
                if want.get(rank, 0) > 0:
                    want[rank] -= 1
                    kept.append(rank)
        if tuple(kept) != self.added:
            object.__setattr__(self, "added", tuple(kept))

    def with_selected(self, selected: frozenset[int]) -> ViewState:
        """A copy with these ``Card.index`` values selected (``added`` follows)."""
        return replace(self, selected=frozenset(selected))

    def take_back(self) -> int | None:
        """The rank index of the last card added (Take back's), or None when none is."""
        return self.added[-1] if self.added else None

    @classmethod
    def decode(cls, mask: str, sort: str, hint: str, back: str = "") -> ViewState:
        """The state from custom_id parts (forged masks mean no cards; hint ≤ 999; an
        order that disagrees with the mask is mended)."""
        order = tuple(int(ch, 15) for ch in back[1:]) if back.startswith("m") else ()
        return cls(mask_to_indices(parse_mask(mask)), "groups" if sort == "g" else "rank",
                   min(int(hint), 999), order)


_RANK_DIGITS = "0123456789abcde"
"""A rank index (0..14) as one base-15 digit in ``ViewState.added``'s custom_id part."""


def public_id(table_id: str, seq: int, action: str) -> str:
    """custom_id of a public table-message button."""
    return f"ddz:{table_id}:{seq}:{action}"


def replay_id(hand_no: int, page: int, review: bool, verb: str) -> str:
    """custom_id of a replay button (≤ 100 characters)."""
    return f"ddz:rp:{hand_no}:{page}:{'r' if review else 'p'}{verb}"


def forget_id(user_id: int, answer: str) -> str:
    """custom_id of ``/ddz forget``'s Delete (``yes``) / Keep (``no``) button."""
    return f"ddzforget:{user_id}:{answer}"


def newmatch_id(user_id: int, match_no: int, answer: str) -> str:
    """custom_id of ``/ddz newmatch``'s Start (``yes``) / Keep (``no``) button."""
    return f"ddznew:{user_id}:{match_no}:{answer}"


class RoutedButton(discord.ui.Button[Any]):  # a Button of any View
    """A button whose clicks ``route_click`` routes: discord.py neither stores a view for
    it nor dispatches its clicks (a view holding only these is never stored)."""

    def is_dispatchable(self) -> bool:
        """False: the click goes through ``route_click``."""
        return False


class Items(Protocol):
    """What buttons are added to: a ``discord.ui.View`` or ``cogs.components.Components``."""

    def add_item(self, item: Any, /) -> Any: ...


V = TypeVar("V", bound=Items)
B = discord.ButtonStyle


class ReplayButton(RoutedButton):
    """◀ ▶ Share Animation under a replay page; Replay / Review under a result (clicks:
    ``DdzCog.on_replay_click`` → ``on_click``)."""

    def __init__(self, hand_no: int, page: int, review: bool, verb: str, *, label: str = "",
                 style: B = B.secondary, disabled: bool = False) -> None:
        super().__init__(label=label or verb, style=style, disabled=disabled,
                         custom_id=replay_id(hand_no, page, review, verb))
        self.hand_no, self.page, self.review, self.verb = hand_no, page, review, verb


def result_buttons(view: V, hand_no: int, lang: str) -> V:
    """Add Replay and Review (of one's own play) to a result message's view (a
    ``discord.ui.View`` or ``cogs.components.Components``; the clicks: cogs/replay.py)."""
    view.add_item(ReplayButton(hand_no, 0, False, "open", label=t("btn.replay", lang)))
    view.add_item(ReplayButton(hand_no, 0, True, "rev", label=t("btn.review", lang),
                               style=B.success))
    return view


def named_groups(match: re.Match[str], data: Mapping[str, Any]) -> tuple[Any, ...]:
    """A ``ClickRoute``'s default parse: the template's named groups, as text, in order."""
    return tuple(match.groupdict().values())


@dataclass(frozen=True)
class ClickRoute:
    """A feature's component template, declared by its wing (``cogs.wing.Wing.routes``): a
    feature with buttons edits no core file (docs/ARCHITECTURE.md §add a feature).

    ``kind``: its ``/metrics`` kind (besides ``KINDS``; the cog refuses one of those or
    another feature's); ``template``: a regular expression the whole custom_id matches
    (``ddz:<prefix>:…`` with a prefix of its own; a group named ``user``, ``no`` or
    ``match`` above ``ID_MAX`` is answered as stale); ``parse(match, data)``: the click's
    arguments from the template's match and the component's payload (a menu's
    ``values``); ``handle(interaction, ctx, *arguments)``: the click, with the
    ``CogContext``, answering it itself."""

    kind: str
    template: str
    handle: Callable[..., Awaitable[None]]
    parse: Callable[[re.Match[str], Mapping[str, Any]], tuple[Any, ...]] = named_groups
    pattern: re.Pattern[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "pattern", re.compile(self.template))


class Clicks(Protocol):
    """The handlers ``route_click`` hands a parsed click to (``DdzCog``, which hands
    each the cog's ``CogContext``)."""

    async def on_feature_click(self, interaction: discord.Interaction, route: ClickRoute,
                               arguments: tuple[Any, ...]) -> None: ...

    async def on_public_click(self, interaction: discord.Interaction, table_id: str, seq: int,
                              action: str) -> None: ...

    async def on_hand_click(self, interaction: discord.Interaction, table_id: str, seq: int,
                            verb: str, state: ViewState, value: str | None) -> None: ...

    async def on_replay_click(self, interaction: discord.Interaction, hand_no: int, page: int,
                              review: bool, verb: str) -> None: ...

    async def on_forget_click(self, interaction: discord.Interaction, user_id: int,
                              yes: bool) -> None: ...

    async def on_newmatch_click(self, interaction: discord.Interaction, user_id: int,
                                match_no: int, yes: bool) -> None: ...



_ROUTES = tuple(re.compile(p) for p in TEMPLATES)
HAND_KINDS = frozenset({"r", "play", "pass", "hint", "clear", "sort", "a", "auto", "b", "rd",
                        "back", "pick", "cards"})
"""The verb families of the hand view (``r<k>`` → ``r``, ``a1`` → ``a``, ``b2`` → ``b``)."""
_ROUTE_KINDS = (None, None, None, "replay", "forget", "newmatch")
"""The metrics kind of each of ``TEMPLATES`` (None: the public and hand ones, by verb)."""
KINDS = frozenset({*PUBLIC_ACTIONS, *("h" + verb for verb in HAND_KINDS),
                   *(kind for kind in _ROUTE_KINDS if kind is not None), "other"})
"""Every kind ``click_kind`` answers: the ``kind`` label values of a component in
``/metrics`` (cogs/metering.py)."""
_LETTERS = re.compile(r"[a-z]*")
ID_MAX = 2 ** 63 - 1
"""Largest member id or match number a custom_id may carry (Discord's snowflakes and the
database's integers are 64-bit signed); a larger one is forged."""
_NUMBERS = ("user", "no", "match")


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


def _kind(route: int, match: re.Match[str]) -> str:
    """The metrics kind of a click that matched ``TEMPLATES[route]`` (one of ``KINDS``)."""
    if route == 0:
        return match["action"]
    if route in (1, 2):
        family = _LETTERS.match(match["verb"])
        verb = family.group() if family is not None else ""
        return "h" + verb if verb in HAND_KINDS else "other"
    return _ROUTE_KINDS[route] or "other"


def click_kind(custom_id: str, routes: Sequence[ClickRoute] = ()) -> str:
    """The metrics kind of ``custom_id``: its template's (``KINDS``, or a feature's
    ``routes``), ``other`` for an id that matches none. What ``route_click`` stamps on a
    click."""
    for route, pattern in enumerate(_ROUTES):
        match = pattern.fullmatch(custom_id)
        if match is not None:
            return _kind(route, match)
    return next((r.kind for r in routes if r.pattern.fullmatch(custom_id)), "other")


async def route_click(cog: Clicks, interaction: discord.Interaction,
                      routes: Sequence[ClickRoute] = ()) -> bool:
    """Send a click on any of the bot's components (``TEMPLATES``, then the features'
    ``routes``) straight to its handler of ``cog``; False when ``interaction`` is not one
    (other components and commands: nothing done). Stamps the template's kind on the
    interaction for the metrics (``cogs.metering.KIND``, one of ``KINDS`` or a route's).

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
    public, hand, select, replay, forget, new = (p.fullmatch(custom_id) for p in _ROUTES)
    match = public or hand or select or replay or forget or new
    feature: ClickRoute | None = None
    if match is None:
        for feature in routes:
            match = feature.pattern.fullmatch(custom_id)
            if match is not None:
                break
        else:
            return False
    extras = getattr(interaction, "extras", None)  # a test's stand-in may have none
    if isinstance(extras, dict):  # the one parse of the id: the metrics read it (KIND)
        if feature is not None:
            extras[KIND] = feature.kind
        else:
            route = next(i for i, m in enumerate((public, hand, select, replay, forget, new))
                         if m is not None)
            extras[KIND] = _kind(route, match)
    message = interaction.message
    if message is None or not _in_message(message, data.get("component_type"), custom_id):
        return True
    if any(int(value) > ID_MAX for name, value in match.groupdict().items()
           if name in _NUMBERS and value):
        await answer_error(interaction, GameError("stale"))  # no query with it: forged
        return True
    if feature is not None:
        await cog.on_feature_click(interaction, feature, feature.parse(match, data))
    elif public is not None:
        await cog.on_public_click(interaction, public["table"], int(public["seq"]),
                                  public["action"])
    elif replay is not None:
        await cog.on_replay_click(interaction, int(replay["no"]), int(replay["page"]),
                                  replay["mode"] == "r", replay["verb"])
    elif forget is not None:
        await cog.on_forget_click(interaction, int(forget["user"]), forget["answer"] == "yes")
    elif new is not None:
        await cog.on_newmatch_click(interaction, int(new["user"]), int(new["match"]),
                                    new["answer"] == "yes")
    else:
        state = ViewState.decode(match["mask"], match["sort"], match["hint"], match["back"])
        value = None
        if select is not None:
            values = data.get("values") or []
            if match["verb"] == "cards":  # every value chosen, "" for none (re-checked later)
                value = ",".join(str(v) for v in values[:CARD_VALUES_MAX + 1])
            else:
                value = str(values[0]) if values else None
        await cog.on_hand_click(interaction, match["table"], int(match["seq"]), match["verb"],
                                state, value)
    return True
