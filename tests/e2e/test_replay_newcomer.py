"""A member new to the server asks for a replay, a review, their stats and the rating
board before finishing any hand (issue 15): polite answers, in English and Spanish."""

from __future__ import annotations

import re

from sandbox.loopback.emulator import Emulator
from tests.support.botproc import BotFactory
from tests.support.ddz_driver import FAST_ENV, finished, reply_text


async def test_a_newcomer_gets_polite_answers_in_english_and_spanish(
    emulator: Emulator, bot_factory: BotFactory
) -> None:
    emu = emulator
    await bot_factory(extra_env=FAST_ENV).start(timeout=30)
    dana = emu.member(name="dana")
    elena = emu.member(name="elena", locale="es-ES")
    cases = (
        (dana, "ddz replay", {}, "You haven't finished a hand in this server yet."),
        (dana, "ddz review", {}, "You haven't finished a hand in this server yet."),
        (dana, "ddz replay", {"hand": 1}, "There is no finished hand #1 in this server."),
        (elena, "ddz repeticion", {}, "Aún no has terminado ninguna mano en este servidor."),
        (elena, "ddz revisar", {"mano": 3}, "No hay ninguna mano n.º 3 terminada en este servidor."),
    )
    for member, command, options, expected in cases:
        ix = await finished(await member.slash(command, **options), timeout=15)
        assert ix.message is not None and ix.message.visible_to is member, command
        assert reply_text(ix) == expected, (command, reply_text(ix))
        assert not ix.message.attachments and not ix.message.buttons, command

    stats = await finished(await dana.slash("ddz stats"), timeout=15)
    assert stats.message is not None and not stats.message.attachments
    assert re.search(r"dana has not played a hand in this server yet\.", stats.message.text,
                     re.I), stats.message.text
    board = await finished(await dana.slash("ddz score", scope="rating"), timeout=15)
    assert "Dou Dizhu skill ratings" in reply_text(board) and "No rated hands yet." in reply_text(board)
    # public answers follow the server's language (English here), not the asker's
    tabla = await finished(await elena.slash("ddz puntuacion", alcance="rating"), timeout=15)
    assert "No rated hands yet." in reply_text(tabla), reply_text(tabla)
    estad = await finished(await elena.slash("ddz estadisticas"), timeout=15)
    assert estad.message is not None and not estad.message.attachments
    assert re.search(r"elena has not played a hand in this server yet\.", estad.message.text,
                     re.I), estad.message.text
    saved = await finished(await emu.member(name="admin", manage_guild=True).slash(
        "ddz config", language="es"))
    assert "Settings saved." in reply_text(saved), reply_text(saved)
    tabla = await finished(await dana.slash("ddz score", scope="rating"), timeout=15)
    assert "Aún no hay manos valoradas." in reply_text(tabla), reply_text(tabla)
    estad = await finished(await elena.slash("ddz estadisticas"), timeout=15)
    assert estad.message is not None
    assert "aún no ha jugado ninguna mano en este servidor." in estad.message.text
    assert emu.errors == [] and emu.late_interactions() == []
