"""A member whose Discord is in Spanish (locale ``es-ES``) gets Spanish replies and
Spanish command names; an English member in the same server gets English; public
messages follow the server (English) until an admin sets ``/ddz config idioma:es``
(issue 7 suite item 6; docs/ARCHITECTURE.md §Languages)."""

from __future__ import annotations

from sandbox.loopback.emulator import Emulator
from tests.support import timing
from tests.support.botproc import BotFactory
from tests.support.ddz_driver import (
    FAST_ENV,
    cards_in_alt,
    finished,
    hand_alt,
    hand_component,
    open_view,
    public_actions,
    reply_text,
    wait_public,
    watch_table,
)


async def test_spanish_member_sees_spanish_replies_and_english_member_english(
    emulator: Emulator, bot_factory: BotFactory
) -> None:
    emu = emulator
    watch_table(emu)
    await bot_factory(extra_env=FAST_ENV).start(timeout=30)
    ana = emu.member(name="ana", locale="es-ES")
    bob = emu.member(name="bob", locale="en-US")

    opened = await finished(await ana.slash("ddz empezar", ordenadores=2))
    assert opened.ephemeral and reply_text(opened).startswith("La mesa `"), reply_text(opened)
    assert reply_text(opened).endswith("está abierta en este canal."), reply_text(opened)
    lobby = await wait_public(emu, lambda m: "start" in public_actions(m), what="the lobby")
    assert "waiting for players" in lobby.text, lobby.text  # the server's language
    await ana.click(lobby, public_actions(lobby)["start"]["custom_id"])
    deal = await wait_public(emu, lambda m: "hand" in public_actions(m), what="the deal")

    view = await open_view(ana, via_button=deal)
    assert view.text.startswith("**Tu mano** · mesa `"), view.text
    assert hand_alt(view).startswith("Tu mano: ") and len(cards_in_alt(view)) == 17
    labels = {c.get("label") for c in view.buttons}
    assert "Pista" in labels and labels & {"Jugar", "Apostar 1"}, labels  # Play only after bidding
    assert hand_component(view, "hint")["label"] == "Pista"
    mano = await finished(await ana.slash("ddz mano"))
    assert mano.message is not None and mano.message.text.startswith("**Tu mano**")

    bad = await finished(await ana.slash("ddz jugar", cartas="33Z"))
    assert reply_text(bad).startswith("No entiendo la carta «Z»") or reply_text(bad) == (
        "Eso no se puede hacer en este momento de la mano."  # still bidding
    ), reply_text(bad)
    hand_button = public_actions(deal)["hand"]["custom_id"]
    outsider_en = await finished(await bob.click(deal, hand_button))
    assert reply_text(outsider_en) == "You're not seated at this table.", reply_text(outsider_en)
    carla = emu.member(name="carla", locale="es-ES")
    outsider_es = await finished(await carla.click(deal, hand_button))
    assert reply_text(outsider_es) == "No estás sentado en esta mesa.", reply_text(outsider_es)

    admin = emu.member(name="dora", locale="es-ES", manage_guild=True)
    saved = await finished(await admin.slash("ddz config", idioma="es"))
    assert "Ajustes guardados." in reply_text(saved), reply_text(saved)
    stop = await finished(await ana.slash("ddz parar"))
    assert reply_text(stop) == "La mano se ha abandonado; no suma puntos.", reply_text(stop)
    result = await wait_public(emu, lambda m: "again" in public_actions(m), what="the result")
    assert "· resultado" in result.text and "no suma puntos" in result.text, result.text
    score = await finished(await bob.slash("ddz score"))
    # bob reads English, but a public answer follows the server's language (now Spanish)
    assert "Puntuaciones de Dou Dizhu" in reply_text(score), reply_text(score)
    assert emu.errors == [] and emu.late_interactions() == []
    timing.record(emu)
