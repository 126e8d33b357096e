"""Auto-play at a chosen pace through the real bot (issue 12 item 1), English and Spanish.

alice turns auto-play on at 3 s: her automatic move comes about 3 s after her turn is
shown (never before), the Auto button shows the pace and, after ``off``, turns it on
again at her last pace. ana (Spanish) picks 5 s; the pace is stored for her in this
server, so her seat at a new table starts at 5 s.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable

from sandbox.loopback.emulator import Emulator, SimChannel, SimMessage
from tests.support import timing
from tests.support.botproc import BotFactory
from tests.support.ddz_driver import (
    FAST_ENV,
    finished,
    hand_component,
    open_view,
    press,
    public_actions,
    reply_text,
    wait_public,
    watch_table,
)
from tests.support.solo_tables import start_solo_in


def in_channel(channel: SimChannel, predicate: Callable[[SimMessage], bool]
               ) -> Callable[[SimMessage], bool]:
    return lambda m: m.channel is channel and predicate(m)


SEAT_RE = re.compile(r"Alice[^,;]*, (\d+) cards, ([^;.]*)")


def alice_state(msg: SimMessage) -> tuple[str, str] | None:
    """(cards left, last action) of alice's seat in the table image's alt text."""
    alts = [a.description or "" for a in msg.attachments if a.filename == "table.png"]
    m = SEAT_RE.search(alts[0]) if alts else None
    return (m.group(1), m.group(2)) if m else None


async def test_auto_play_waits_the_chosen_pace_and_remembers_it(
    emulator: Emulator, bot_factory: BotFactory
) -> None:
    emu = emulator
    watch_table(emu)
    await bot_factory(extra_env=FAST_ENV).start(timeout=30)  # real pace (scale 1)
    first, second = emu.default_guild.channels[:2]
    alice = emu.member(name="alice")
    await start_solo_in(emu, alice, first)

    mention = f"<@{alice.id}>"
    turn = await wait_public(emu, in_channel(first, lambda m: mention in m.content),
                             timeout=15, what="alice's turn")
    before = alice_state(turn)
    ack = await finished(await alice.slash("ddz autoplay", mode="on", pace=3))
    asked = time.monotonic()
    assert reply_text(ack) == ("Auto-play is on: the computer plays for you, one move every"
                               " 3 s, in this hand and the next ones at this table, until you"
                               " turn it off or leave."), reply_text(ack)
    await wait_public(emu, in_channel(first, lambda m: alice_state(m) not in (None, before)),
                      timeout=15, what="alice's automatic move")
    waited = time.monotonic() - asked
    assert 2.4 <= waited <= 9.0, waited  # 3 s after she asked (her turn was already on)

    off = await finished(await alice.slash("ddz autoplay", mode="off"))
    assert reply_text(off).startswith("Auto-play is off"), reply_text(off)
    view = await open_view(alice)
    assert hand_component(view, "a1")["label"] == "Auto: off"
    await press(alice, view, "a1")
    assert hand_component(view, "a0")["label"] == "Auto: on · 3 s · every hand", view.custom_ids
    assert "one move every 3 s" in view.text, view.text
    await finished(await alice.slash("ddz autoplay", mode="off"))

    ana = emu.member(name="ana", locale="es-ES")
    await start_solo_in(emu, ana, second)
    ack = await finished(await ana.slash("ddz autojuego", channel=second, modo="on", ritmo=5))
    assert "una jugada cada 5 s" in reply_text(ack), reply_text(ack)
    await finished(await ana.slash("ddz autojuego", channel=second, modo="off"))
    await finished(await ana.slash("ddz parar", channel=second))
    result = await wait_public(emu, in_channel(second, lambda m: "again" in public_actions(m)),
                               what="the stopped hand")
    await ana.click(result, public_actions(result)["leave"]["custom_id"])  # the table closes
    await emu.wait_until(lambda: "leave" not in public_actions(emu.public_messages()[-1])
                         or emu.public_messages()[-1].channel is not second, timeout=10,
                         what="the table closed")
    await start_solo_in(emu, ana, second)  # a new table: her seat gets her stored pace
    view = await open_view(ana)
    assert hand_component(view, "a1")["label"] == "Auto: no"
    await press(ana, view, "a1")
    assert hand_component(view, "a0")["label"] == "Auto: sí · 5 s · cada mano", view.custom_ids
    assert "una jugada cada 5 s" in view.text, view.text
    assert emu.errors == [] and emu.late_interactions() == []
    timing.record(emu)
