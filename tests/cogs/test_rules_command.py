"""``/ddz rules`` describes the server's own variants (docs/RULES.md §Deal and bidding,
§Kickers, §Match): what an admin set with ``/ddz config`` is what members read."""

from __future__ import annotations

from tests.support.fake_discord import FakeDiscord
from tests.support.fake_game import members


async def rules_text(member) -> str:  # noqa: ANN001
    return (await member.slash("rules")).last.embeds[0]["description"]


async def test_default_rules_say_each_player_bids_once_and_the_target(fake: FakeDiscord) -> None:
    ana, _, _ = members(fake)
    text = await rules_text(ana)
    assert "Each player bids once: pass, 1, 2 or 3" in text, text
    assert "**Match.** First to 30 points wins the server's match." in text, text
    assert "different ranks" not in text and "hands:" not in text


async def test_a_fixed_length_match_is_not_also_described_as_a_race_to_the_target(
        fake: FakeDiscord) -> None:
    # Before: "First to 50 points wins the server's match." next to "A match here lasts
    # 5 hands: then the highest total wins" — two contradicting match rules.
    ana, _, _ = members(fake)
    ana.admin = True
    await ana.slash("config", hands=5, target=50)
    text = await rules_text(ana)
    assert "**Match.** A match here lasts 5 hands" in text, text
    assert "50 points" not in text and "points wins the server's match" not in text, text


async def test_rules_follow_the_bidding_and_kicker_variants_in_english_and_spanish(
        fake: FakeDiscord) -> None:
    # Before: "Each player bids once" on a server that bids until two passes follow a bid.
    ana, bo, _ = members(fake)
    ana.admin = True
    await ana.slash("config", bidding="until_two_passes", kickers="distinct")
    text = await rules_text(ana)
    assert "Each player bids once" not in text, text
    assert ("Bidding goes round until two players in a row pass after the last bid" in text), text
    assert "Here the single kickers of one play all have different ranks" in text, text
    es, _, _ = members(fake, "es-ES")
    texto = await rules_text(es)
    assert "Cada jugador apuesta una vez" not in texto, texto
    assert "Las apuestas dan la vuelta hasta que dos jugadores seguidos pasan" in texto, texto
    assert "Aquí las acompañantes sueltas de una jugada tienen todas valores distintos" in texto
    assert "**Partida.** Quien llega a 30 puntos gana la partida del servidor." in texto, texto
