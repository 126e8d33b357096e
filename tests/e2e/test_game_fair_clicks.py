"""Fair stale checks through the real bot (issue 12 item 4), in English and Spanish.

Three members (Alice in English, Bob and Carol in Spanish). The member in turn acts
from a hand view drawn before another seat turned auto-play on or off (a view left
behind when they opened a fresh one, so the bot never redrew it): the action is
accepted. A double click on Pass passes once; a select value naming cards the member
does not hold (a modified client) is refused with the reason.
"""

from __future__ import annotations

import asyncio

from bot.rules import DECK, RANKS, format_cards
from sandbox.loopback.emulator import Emulator, SimMember, SimMessage
from tests.support import timing
from tests.support.botproc import BotFactory
from tests.support.ddz_driver import (
    FAST_ENV,
    MENTION_RE,
    cards_in_alt,
    finished,
    hand_component,
    open_view,
    press,
    public_actions,
    reply_text,
    wait_public,
    watch_table,
)
from tests.support.three_members import join_and_start

SPANISH = {"refreshed": "La mesa ha cambiado; esta es la vista actual.",
           "not_held": "No tienes ", "auto_on": "El juego automático está activado",
           "auto_off": "Juego automático desactivado", "passed": "Has pasado."}
ENGLISH = {"refreshed": "The table changed; this is the current view.",
           "not_held": "You don't hold ", "auto_on": "Auto-play is on",
           "auto_off": "Auto-play is off", "passed": "You passed."}


def says(member: SimMember) -> dict[str, str]:
    return SPANISH if member.locale.startswith("es") else ENGLISH


async def autoplay(member: SimMember, on: bool) -> str:
    """``/ddz autoplay`` in the member's own language; returns the answer."""
    if member.locale.startswith("es"):
        ix = await member.slash("ddz autojuego", modo="on" if on else "off")
    else:
        ix = await member.slash("ddz autoplay", mode="on" if on else "off")
    return reply_text(await finished(ix))


async def left_behind_view(member: SimMember) -> SimMessage:
    """A hand view the bot no longer keeps current: the member opened a newer one."""
    old = await open_view(member)
    await open_view(member)
    return old


async def test_the_player_in_turn_acts_from_an_old_view_after_other_seats_toggle_auto_play(
    emulator: Emulator, bot_factory: BotFactory
) -> None:
    emu = emulator
    watch_table(emu)
    await bot_factory(extra_env=FAST_ENV).start(timeout=30)
    members = [emu.member(name="alice"), emu.member(name="bob", locale="es-ES"),
               emu.member(name="carol", locale="es-ES")]
    await join_and_start(emu, members)
    deal = await wait_public(emu, lambda m: "bid1" in public_actions(m), what="the deal")
    ids = [m.id for m in members]
    first = ids.index(int(MENTION_RE.search(deal.content).group(1)))  # type: ignore[union-attr]
    bidder, other = members[first], members[(first + 2) % 3]

    # 1. a bid from a view drawn before another seat turned auto-play on
    old = await left_behind_view(bidder)
    assert says(other)["auto_on"] in await autoplay(other, True)
    await press(bidder, old, "b3")
    assert "3" in old.text and says(bidder)["refreshed"] not in old.text, old.text
    await wait_public(emu, lambda m: "bid1" not in public_actions(m), what="the landlord")

    # 2. a lead from a view drawn (with a card selected) before that seat's Auto button
    view = await open_view(bidder)
    lowest = cards_in_alt(view)[0]
    await press(bidder, view, f"r{lowest.rank.index}")
    await open_view(bidder)  # `view` is now left behind, with the card selected
    other_view = await open_view(other)
    await press(other, other_view, "a0")
    assert says(other)["auto_off"] in other_view.text, other_view.text
    await press(bidder, view, "play")
    assert says(bidder)["refreshed"] not in view.text, view.text
    assert format_cards([lowest]) in view.text, view.text

    # 3. a double click on Pass passes once
    follower = members[(first + 1) % 3]
    fview = await open_view(follower)
    pass_id = hand_component(fview, "pass")["custom_id"]
    data = {"custom_id": pass_id, "component_type": 2}
    clicks = await asyncio.gather(*(
        emu.dispatch_interaction(follower, 3, data, fview.channel, fview) for _ in range(2)))
    for ix in clicks:
        await finished(ix)
    await asyncio.sleep(1.5)  # a second pass would clear the table: the landlord to lead again
    table = await wait_public(emu, lambda m: f"<@{ids[(first + 2) % 3]}>" in m.content,
                              what="the turn after exactly one pass")
    assert f"<@{ids[first]}>" not in table.content, table.text

    # 4. a forged select value naming a card the member does not hold
    nview = await open_view(other)
    held = [c.rank for c in cards_in_alt(nview)]  # suits in the alt text are not the real ones
    menu = hand_component(nview, "cards")
    short = next(r for r in reversed(RANKS) if held.count(r) < (1 if r.index > 12 else 4))
    every = [str(c.index) for c in DECK if c.rank is short]  # all of them: one is not held
    forged = {"custom_id": menu["custom_id"], "component_type": 3, "values": every}
    ix = await finished(await emu.dispatch_interaction(other, 3, forged, nview.channel, nview))
    assert says(other)["not_held"] in nview.text, (nview.text, reply_text(ix))
    assert emu.errors == [] and emu.late_interactions() == []
    timing.record(emu)
