"""A match of a fixed number of hands through the real bot (issue 12 item 2): a Spanish
admin sets ``/ddz config manos:2``; alice plays two hands against computers (auto-play,
paced at 0 s for the test); ``/ddz score`` shows "hand 2 of 2" after the first, and the
match end is announced once after the second, in the server's language (English): alice's
win when her total is at or above zero, else the no-winner message (docs/RULES.md §Match)."""

from __future__ import annotations

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
from tests.support.match_texts import ENDED, fixed_match_end
from tests.support.solo import open_with_computers
from tests.support.solo_tables import auto_played

ENV = {**FAST_ENV, "DDZ_AUTOPLAY_PACE_SCALE": "0"}


async def test_a_two_hand_match_set_in_spanish_ends_after_two_hands(
    emulator: Emulator, bot_factory: BotFactory
) -> None:
    emu = emulator
    watch_table(emu)
    await bot_factory(extra_env=ENV).start(timeout=30)
    dora = emu.member(name="dora", locale="es-ES", manage_guild=True)
    saved = await finished(await dora.slash("ddz config", manos=2))
    assert "Duración de la partida: 2 manos" in reply_text(saved), reply_text(saved)

    alice = emu.member(name="alice")
    await open_with_computers(emu, alice)
    first = await auto_played(emu, alice, 1)
    score = reply_text(await finished(await alice.slash("ddz score", scope="match")))
    assert "Current match #1 · hand 2 of 2 (1 played" in score, score
    # a public answer follows the server's language (English here), not the asker's
    puntos = reply_text(await finished(await dora.slash("ddz puntuacion", alcance="match")))
    assert "Current match #1 · hand 2 of 2 (1 played" in puntos, puntos
    assert not [m for m in emu.public_messages() if "won the match" in m.text]

    table = await wait_public(emu, lambda m: "again" in public_actions(m), what="the result")
    await alice.click(table, public_actions(table)["again"]["custom_id"])
    second = await auto_played(emu, alice, 2)
    # The deals are not chosen by the test: alice may end ahead (she wins the match) or
    # below zero (the computers came out ahead: the match ends without a winner).
    await emu.wait_until(
        lambda: any(e in m.text for m in emu.public_messages() for e in ENDED), timeout=10,
        what="the match announcement")
    announced = [m.text for m in emu.public_messages() if any(e in m.text for e in ENDED)]
    total = first + second
    assert announced == [fixed_match_end("Alice", 2, total)], (total, announced)
    puntos = reply_text(await finished(await dora.slash("ddz puntuacion", alcance="match")))
    assert "Current match #2 · hand 1 of 2 (0 played" in puntos, puntos
    assert emu.errors == [] and emu.late_interactions() == []
    timing.record(emu)
