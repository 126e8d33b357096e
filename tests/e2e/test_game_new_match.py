"""``/ddz newmatch`` through the real bot (issue 12 item 3): a member without Manage
Server is refused; a Spanish admin confirms (a double click starts one new match); the
totals are back to zero and ``/ddz score`` shows the previous match, in English and
Spanish; a hand being played when the new match starts settles into it."""

from __future__ import annotations

import asyncio
import re

from sandbox.loopback.emulator import Emulator
from tests.support import timing
from tests.support.botproc import BotFactory
from tests.support.ddz_driver import (
    FAST_ENV,
    finished,
    public_actions,
    reply_text,
    wait_public,
    watch_table,
)
from tests.support.solo import open_with_computers
from tests.support.solo_tables import auto_played

ENV = {**FAST_ENV, "DDZ_AUTOPLAY_PACE_SCALE": "0"}


async def test_an_admin_starts_a_new_match_after_confirming(
    emulator: Emulator, bot_factory: BotFactory
) -> None:
    emu = emulator
    watch_table(emu)
    await bot_factory(extra_env=ENV).start(timeout=30)
    dora = emu.member(name="dora", locale="es-ES", manage_guild=True)
    await finished(await dora.slash("ddz config", objetivo=10000))  # the match goes on
    alice = emu.member(name="alice")
    refused = await finished(await alice.slash("ddz newmatch"))
    assert reply_text(refused) == "Only members with Manage Server can start a new match."

    await open_with_computers(emu, alice)
    first = await auto_played(emu, alice, 1)
    table = await wait_public(emu, lambda m: "again" in public_actions(m), what="the result")
    await alice.click(table, public_actions(table)["again"]["custom_id"])  # hand 2 in play
    await wait_public(emu, lambda m: "hand" in public_actions(m), what="hand 2")

    ask = await finished(await dora.slash("ddz nuevapartida"))
    question = ask.message
    assert question is not None and question.ephemeral
    assert question.text.startswith("¿Empezar una partida nueva? Todos los totales de la partida"
                                    " n.º 1 (1 mano jugada) vuelven a cero."), question.text
    yes = next(b for b in question.buttons if b["label"] == "Empezar partida nueva")
    data = {"custom_id": yes["custom_id"], "component_type": 2}
    clicks = await asyncio.gather(*(
        emu.dispatch_interaction(dora, 3, data, question.channel, question) for _ in range(2)))
    for ix in clicks:
        await finished(ix)
    # both clicks edit the question; whichever came second says nothing changed
    assert question.text in ("La partida n.º 1 ha terminado; la n.º 2 empieza desde cero.",
                             "La partida n.º 1 ya había terminado; no ha cambiado nada."), question.text
    await emu.wait_until(lambda: any(m.text.startswith("🔄") for m in emu.public_messages()),
                         timeout=10, what="the public notice")
    await asyncio.sleep(0.5)  # a second notice would come now
    notices = [m.text for m in emu.public_messages() if m.text.startswith("🔄")]
    assert notices == ["🔄 Dora started a new match: every total is back to zero (match #2)."
                       " /ddz score shows the previous match #1."], notices

    previous = reply_text(await finished(await alice.slash("ddz score", scope="previous")))
    assert "Previous match #1 · 1 hand · ended by /ddz newmatch (no winner)" in previous
    total = f"+{first}" if first > 0 else str(first)
    assert re.search(rf"1\. Alice: \*\*{re.escape(total)}\*\* \(1 hand\)", previous), previous
    second = await auto_played(emu, alice, 2)  # hand 2 settles into match #2
    # dora reads Spanish, but a public answer follows the server's language (English)
    current = reply_text(await finished(await dora.slash("ddz puntuacion", alcance="match")))
    assert "Current match #2" in current, current
    total = f"+{second}" if second > 0 else str(second)
    assert re.search(rf"1\. Alice: \*\*{re.escape(total)}\*\* \(1 hand\)", current), current
    assert emu.errors == [] and emu.late_interactions() == []
    timing.record(emu)
