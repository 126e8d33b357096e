"""After a finished hand: ``/ddz score scope:rating`` and ``/ddz stats`` with its chart
(image + alt text), in English and Spanish, through the loopback emulator (issue 15 §3-4)."""

from __future__ import annotations

import io
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass

import pytest
import pytest_asyncio
from PIL import Image

from bot.game.rating import RatedSeat, SkillRating, computer_key, member_key, rate_hand
from sandbox.loopback.emulator import Emulator, SimMember, SimMessage
from tests.support.ddz_driver import finished, reply_text
from tests.support.solo import NAMES, check_result, solo_session

pytestmark = pytest.mark.asyncio(loop_scope="module")


@dataclass
class Played:
    emu: Emulator
    alice: SimMember
    changes: dict[str, int]
    landlord: str
    rating: SkillRating
    computer: SkillRating


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def played(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Played]:
    async with solo_session(tmp_path_factory.mktemp("ratings")) as solo:
        changes = check_result(solo.result.text)
        text = solo.result.text
        (landlord,) = [n for n in NAMES if re.search(rf"^{n} \([^)]*landlord", text, re.M)]
        # The test's own account: Alice and the "normal" level, one rated game (docs/RATINGS.md).
        keys = {"Alice": member_key(solo.alice.id), "Bot 2": computer_key("normal"),
                "Bot 3": computer_key("normal")}
        seats = [RatedSeat(keys[n], n == landlord) for n in NAMES]
        after = rate_hand(seats, landlord_won=changes[landlord] > 0, current={})
        yield Played(solo.emu, solo.alice, changes, landlord, after[keys["Alice"]],
                     after[computer_key("normal")])


def numbers(r: SkillRating, mark: str = ".") -> str:
    """A rating as the board writes it: one decimal, ``mark`` as the decimal separator
    (``","`` in Spanish, docs/RULES.md §Ratings), no sign on a value that rounds to 0."""
    def one(value: float) -> str:
        text = f"{value:.1f}"
        return (text[1:] if text == "-0.0" else text).replace(".", mark)
    return f"{one(r.ordinal)} (μ {one(r.mu)} ± σ {one(r.sigma)})"


def chart_of(message: SimMessage) -> tuple[Image.Image, str]:
    (attachment,) = message.attachments
    assert attachment.filename == "stats.png"
    image = Image.open(io.BytesIO(attachment.data))
    image.load()
    return image, attachment.description or ""


async def test_rating_leaderboard_after_a_hand_in_english(played: Played) -> None:
    ix = await finished(await played.alice.slash("ddz score", scope="rating"))
    board = reply_text(ix)
    assert ix.message is not None and not ix.message.ephemeral
    assert "Dou Dizhu skill ratings" in board and "Provisional: fewer than 5 hands" in board
    assert f"Alice: {numbers(played.rating)} · 1 hand" in board, board
    # With a computer as landlord the "normal" level sat on both sides: it stays unrated.
    hands = 1 if played.landlord == "Alice" else 0
    noun = "hand" if hands == 1 else "hands"
    assert f"🤖 Computer (normal): {numbers(played.computer)} · {hands} {noun}" in board, board
    won = played.changes["Alice"] > 0
    assert (played.rating.mu > 25) is won
    assert (played.computer.mu > 25) is (not won and hands == 1)
    assert played.emu.errors == []


async def test_stats_chart_image_and_alt_text_in_english(played: Played) -> None:
    ix = await finished(await played.alice.slash("ddz stats"))
    message = ix.message
    assert message is not None and not message.ephemeral
    text = message.text
    assert f"**{played.rating.ordinal:.1f}** (μ {played.rating.mu:.1f} ± σ" in text, text
    image, alt = chart_of(message)
    assert image.format == "PNG" and image.size == (800, 640)
    change = played.changes["Alice"]
    signed = f"+{change}" if change > 0 else f"\u2212{-change}"
    assert alt.startswith(f"Chart of Alice, most recent hands: 1. Match total after the first of"
                          f" them {signed}, after the last {signed}"), alt
    assert f"Rating now {numbers(played.rating)}." in alt, alt
    role = "landlord" if played.landlord == "Alice" else "peasant"
    wins = int(change > 0)
    assert f"Wins as {role}: {100 * wins}% ({wins} of 1 hand)." in alt, alt
    assert played.emu.errors == [] and played.emu.late_interactions() == []


async def test_rating_leaderboard_and_stats_chart_in_spanish(played: Played) -> None:
    # public answers follow the server's language: an admin sets Spanish, then restores it
    admin = played.emu.member(name="dora", locale="es-ES", manage_guild=True)
    saved = await finished(await admin.slash("ddz config", idioma="es"))
    assert "Ajustes guardados." in reply_text(saved), reply_text(saved)
    try:
        await spanish_board_and_chart(played)
    finally:
        await finished(await admin.slash("ddz config", idioma="server"))


async def spanish_board_and_chart(played: Played) -> None:
    bea = played.emu.member(name="bea", locale="es-ES")
    board = reply_text(await finished(await bea.slash("ddz puntuacion", alcance="rating")))
    assert "Valoraciones de Dou Dizhu" in board and "Provisionales: menos de 5 manos" in board
    assert f"Alice: {numbers(played.rating, ',')} · 1 mano" in board, board
    assert "🤖 Ordenador (normal)" in board, board
    ix = await finished(await bea.slash("ddz estadisticas", miembro=played.alice))
    assert ix.message is not None
    rank = 1 if played.rating.ordinal > played.computer.ordinal else 2
    ordinal, mu = numbers(played.rating, ",").split(" (μ ")
    assert f"Valoración: **{ordinal}** (μ {mu.split(' ')[0]}" in ix.message.text, ix.message.text
    assert f"n.º {rank} de 2 aquí" in ix.message.text, ix.message.text
    image, alt = chart_of(ix.message)
    assert image.size == (800, 640)
    assert alt.startswith("Gráfico de Alice, manos más recientes: 1. Total de la partida"), alt
    assert f"Valoración actual {numbers(played.rating, ',')}." in alt, alt
    assert played.emu.errors == [] and played.emu.late_interactions() == []
