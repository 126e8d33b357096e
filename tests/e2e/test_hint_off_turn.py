"""The Hint of a classic table's hand view against the real ``python -m bot``: off while
another seat is to act, on at the member's turn (docs/RULES.md §Controls), in the
member's language; off-turn the card menu counts no plays.

Playtest: Bob, waiting, pressed Hint and was told what would beat the play on the table;
his card menu said "0 legal plays" against a play he would never have to beat."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest

from sandbox.loopback.emulator import Emulator, SimMember, SimMessage
from tests.support.botproc import BotFactory
from tests.support.ddz_driver import (
    FAST_ENV,
    MENTION_RE,
    hand_component,
    hand_verbs,
    open_view,
    press,
    public_actions,
    wait_public,
    watch_table,
)
from tests.support.three_members import join_and_start

WAITING = {"en-US": "Choose cards for your turn…", "es-ES": "Elige cartas para tu turno…"}


async def until(check: Callable[[], bool], what: str, timeout: float = 15.0) -> None:
    for _ in range(int(timeout / 0.05)):
        if check():
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"timed out: {what}")


def hint_off(view: SimMessage) -> bool:
    return bool(hand_component(view, "hint").get("disabled"))


def menu_placeholder(view: SimMessage) -> str:
    return str(hand_component(view, "cards").get("placeholder"))


async def hint_then_act(member: SimMember, view: SimMessage) -> None:
    """The member's turn: Hint, then Play what it picked (or Pass when it says pass)."""
    assert not hint_off(view)
    await press(member, view, "hint")
    await until(lambda: "💡" in view.content, "the Hint's answer")
    picked = any(o.get("default") for o in hand_component(view, "cards").get("options") or [])
    await press(member, view, "play" if picked else "pass")  # a pick, or the Hint's pass


@pytest.mark.parametrize("locale", ["en-US", "es-ES"])
async def test_the_hint_is_on_only_at_the_members_turn(
        emulator: Emulator, bot_factory: BotFactory, locale: str) -> None:
    emu = emulator
    watch_table(emu)
    await bot_factory(extra_env=FAST_ENV).start(timeout=30)
    members = [emu.member(name="alice"), emu.member(name="bob", locale=locale),
               emu.member(name="carol", locale=locale)]
    await join_and_start(emu, members)
    deal = await wait_public(emu, lambda m: "bid1" in public_actions(m), what="the deal")
    ids = [m.id for m in members]
    first = ids.index(int(MENTION_RE.search(deal.content).group(1)))  # type: ignore[union-attr]
    bidder, second, third = (members[(first + k) % 3] for k in range(3))

    # bidding: only the bidder's Hint is on
    waiting = await open_view(third)
    assert hint_off(waiting)
    view = await open_view(bidder)
    assert not hint_off(view)
    await press(bidder, view, "hint")
    await until(lambda: "💡" in view.content, "the bid Hint")
    await press(bidder, view, "b3")  # the bidder takes the landlord's seat and leads
    await until(lambda: "cards" in hand_verbs(waiting), "the waiting view redrawn for the play")

    # the play: the member waiting reads a Hint that is off and a menu that counts nothing
    assert hint_off(waiting) and menu_placeholder(waiting) == WAITING[third.locale], waiting.content
    await until(lambda: not hint_off(view), "the landlord's Hint on")
    await hint_then_act(bidder, view)

    nxt = await open_view(second)  # now the second seat is to act
    await until(lambda: not hint_off(nxt), "the second seat's Hint on")
    assert WAITING[second.locale] not in menu_placeholder(nxt)
    await hint_then_act(second, nxt)
    await until(lambda: hint_off(nxt), "his Hint off once he acted")
    assert menu_placeholder(nxt) == WAITING[second.locale], nxt.content
