"""Fixed-length matches (issue 12 item 2): ``/ddz config hands``, ``/ddz score`` shows
"hand 3 of 8", the match ends after that many settled hands and is announced once."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from bot.values import Settlement
from cogs import texts
from tests.support.embeds import embed_text
from tests.support.fake_discord import FakeDiscord, Member
from tests.support.fake_game import deal_for, members
from tests.support.forge import table_of
from tests.support.match_texts import ENDED, fixed_match_end


def config_text(reply) -> str:  # noqa: ANN001
    return reply.last.embeds[0]["description"]


def score_head(reply) -> str:  # noqa: ANN001
    return reply.last.embeds[0]["fields"][0]["name"]


async def auto_hand(fake: FakeDiscord, ana: Member, first: bool) -> int:
    """Ana lets auto-play bid and play the hand (the first on a winning deal, the next on a
    random one); returns her points."""
    if first:
        await ana.slash("start", computers=2)
        await ana.click(fake.table_message(), "Start")
    else:
        await ana.click(fake.table_message(), "Play again")
    await ana.slash("autoplay", mode="on")
    await fake.idle()
    return table_of(fake).hand.result.points[0]


async def test_a_two_hand_match_ends_after_two_settled_hands_announced_once(
        fake: FakeDiscord) -> None:
    fake.deal = {"hands": deal_for("XD2222AAAAKKKKQQQ", "QJJ"), "kitty": "QJJ", "first_bidder": 0}
    ana, bo, _ = members(fake)
    ana.admin = True
    saved = await ana.slash("config", hands=2)
    assert "Match length: 2 hands (highest total wins" in config_text(saved)
    assert "Match target" not in config_text(saved)
    assert score_head(await bo.slash("score", scope="match")).startswith(
        "Current match #1 · hand 1 of 2 (0 played")
    first = await auto_hand(fake, ana, first=True)
    score = await bo.slash("score", scope="match")
    assert score_head(score).startswith("Current match #1 · hand 2 of 2 (1 played")
    assert score.last.embeds[0]["fields"][0]["value"].startswith(f"1. Ana: **{texts.signed(first)}**")
    announced = [m for m in fake.public() if "won the match" in m.content]
    assert announced == []
    second = await auto_hand(fake, ana, first=False)
    # the second deal is Play again's, not chosen by the test: Ana ends ahead (her win)
    # or below zero (no winner)
    announced = [m.content for m in fake.public() if any(e in m.content for e in ENDED)]
    assert announced == [fixed_match_end("Ana", 2, first + second)], (first, second, announced)
    score = await bo.slash("score", scope="match")
    assert score_head(score).startswith("Current match #2 · hand 1 of 2 (0 played")
    await ana.slash("autoplay", mode="off")
    cog = fake.bot.get_cog("ddz")
    await cog.redraw_restored([table_of(fake).model_copy(deep=True)])  # a restart redraw
    await fake.idle()
    assert len([m for m in fake.public() if "won the match" in m.content]) == 1


async def test_hands_zero_goes_back_to_the_target_and_a_forged_count_is_refused(
        fake: FakeDiscord) -> None:
    ana, _, _ = members(fake)
    ana.admin = True
    await ana.slash("config", hands=5)
    assert "Match length: 5 hands" in config_text(await ana.slash("config"))
    back = await ana.slash("config", hands=0)
    assert "Match target: 30 points" in config_text(back)
    assert score_head(await ana.slash("score", scope="match")).startswith(
        "Current match #1 · target 30 points")
    refused = await ana.slash("config", hands=500)
    assert refused.text in ("That setting is out of range; nothing was changed.",
                            "That option value is not one of the choices; nothing was changed.")
    assert (await fake.bot.service.settings(fake.guild_id)).rules.match_hands is None


async def test_spanish_config_and_score_of_a_fixed_length_match(fake: FakeDiscord) -> None:
    ana, _, _ = members(fake, "es-ES")
    ana.admin = True
    saved = await ana.slash("config", hands=8)
    assert "Duración de la partida: 8 manos (gana el total más alto" in config_text(saved)
    assert score_head(await ana.slash("score", scope="match")).startswith(
        "Partida actual n.º 1 · mano 1 de 8 (0 jugadas")
    rules = embed_text((await ana.slash("rules")).last.embeds[0])
    assert "Aquí una partida dura 8 manos" in rules


@pytest.mark.parametrize("lang,winners,expected", [
    ("en", [11, 22], "🎉 After 8 hands, Ana and Bo share the match win with 6 points each!"
                     " A new match starts at zero."),
    ("es", [11], "🎉 ¡Tras 8 manos, Ana gana la partida con 6 puntos! Empieza una partida"
                 " nueva desde cero."),
])
def test_the_announcement_of_a_fixed_length_match_says_who_shares_it(
        lang: str, winners: list[int], expected: str) -> None:
    settlement = Settlement(
        hand_id="t:8", guild_id=1, table_id="t", match_no=1, winner="peasants",
        changes=[{"seat": 0, "user_id": 11, "name": "Ana", "role": "peasant", "points": 2,
                  "total": 6},
                 {"seat": 1, "user_id": 22, "name": "Bo", "role": "peasant", "points": 2,
                  "total": 6},
                 {"seat": 2, "user_id": 33, "name": "Cy", "role": "landlord", "points": -4,
                  "total": -12}],
        match_over=True, winners=winners, final_totals={11: 6, 22: 6, 33: -12}, match_hands=8)
    assert texts.match_won_text(SimpleNamespace(), settlement, lang) == expected


@pytest.mark.parametrize("lang,expected", [
    ("en", "🏁 After 1 hand the match is over: no member finished at or above zero, the"
           " computers came out ahead. A new match starts at zero."),
    ("es", "🏁 Tras 1 mano la partida ha terminado: ningún miembro acabó en cero o por"
           " encima, los ordenadores quedaron por delante. Empieza una partida nueva desde"
           " cero."),
])
def test_a_fixed_length_match_the_computers_won_is_announced_without_a_winner(
        lang: str, expected: str) -> None:
    settlement = Settlement(
        hand_id="t:1", guild_id=1, table_id="t", match_no=1, winner="peasants",
        changes=[{"seat": 0, "user_id": 11, "name": "Ana", "role": "landlord", "points": -4,
                  "total": -4},
                 {"seat": 1, "user_id": None, "name": "Bot 1", "role": "peasant", "points": 2,
                  "total": None},
                 {"seat": 2, "user_id": None, "name": "Bot 2", "role": "peasant", "points": 2,
                  "total": None}],
        match_over=True, winners=[], final_totals={11: -4}, match_hands=1)
    assert texts.match_won_text(SimpleNamespace(), settlement, lang) == expected
