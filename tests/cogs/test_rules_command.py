"""``/ddz rules`` describes the server's own variants (docs/RULES.md §Deal and bidding,
§Kickers, §Match): what an admin set with ``/ddz config`` is what members read."""

from __future__ import annotations

import discord
import pytest

from bot.features.puzzles.cog import RULES_PARTS as PUZZLE_RULES
from bot.features.tournaments.cog import RULES_PARTS as TOURNAMENT_RULES
from bot.i18n import available_locales, t
from bot.rules import DEFAULT_RULES
from cogs import info
from tests.support.embeds import embed_text
from tests.support.fake_discord import FakeDiscord, Member
from tests.support.fake_game import members


async def rules_text(member) -> str:  # noqa: ANN001
    return embed_text((await member.slash("rules")).last.embeds[0])


async def test_default_rules_say_each_player_bids_once_and_the_target(fake: FakeDiscord) -> None:
    ana, _, _ = members(fake)
    text = await rules_text(ana)
    assert "Each player bids once: pass, 1, 2 or 3" in text, text
    assert "**Match** First to 30 points wins the server's match." in text, text
    assert "different ranks" not in text and "hands:" not in text


async def test_a_fixed_length_match_is_not_also_described_as_a_race_to_the_target(
        fake: FakeDiscord) -> None:
    # Before: "First to 50 points wins the server's match." next to "A match here lasts
    # 5 hands: then the highest total wins" — two contradicting match rules.
    ana, _, _ = members(fake)
    ana.admin = True
    await ana.slash("config", hands=5, target=50)
    text = await rules_text(ana)
    assert "**Match** A match here lasts 5 hands" in text, text
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
    assert "**Partida** Quien llega a 30 puntos gana la partida del servidor." in texto, texto


RULE_VARIANTS = [DEFAULT_RULES,
                 DEFAULT_RULES.model_copy(update={"kickers": "distinct",
                                                  "bidding": "until_two_passes"}),
                 DEFAULT_RULES.model_copy(update={"match_hands": 100, "target_points": 10000}),
                 DEFAULT_RULES.model_copy(update={"match_hands": 1})]


FEATURE_PARTS = (*PUZZLE_RULES, *TOURNAMENT_RULES)
"""The features' parts of ``/ddz rules`` (their ``Wing.rules``), as the cog shows them."""


def embed_problems(embed: discord.Embed) -> list[str]:
    """Each of Discord's embed limits ``embed`` breaks (cogs/info.py EMBED_*)."""
    problems = []
    if len(embed.title or "") > 256:
        problems.append(f"title {len(embed.title or '')}")
    if not 1 <= len(embed.description or "") <= info.EMBED_DESCRIPTION:
        problems.append(f"description {len(embed.description or '')}")
    if len(embed.fields) > info.EMBED_FIELDS:
        problems.append(f"{len(embed.fields)} fields")
    for field in embed.fields:
        if not 1 <= len(field.name or "") <= info.EMBED_FIELD_NAME:
            problems.append(f"field name {field.name!r}")
        if not 1 <= len(field.value or "") <= info.EMBED_FIELD_VALUE:
            problems.append(f"field {field.name!r}: {len(field.value or '')}")
    if len(embed) > info.EMBED_TOTAL:
        problems.append(f"total {len(embed)}")
    return problems


@pytest.mark.parametrize("lang", available_locales())
def test_the_rules_fit_discords_embed_limits_in_every_language_and_variant(lang: str) -> None:
    for rules in RULE_VARIANTS:
        embed = info.rules_embed(lang, rules, FEATURE_PARTS)
        assert embed_problems(embed) == [], (lang, rules)
        assert [f.name for f in embed.fields][:2] == [
            info._HEADING.match(t("rules.score", lang)).group(1).rstrip(".:。："),  # type: ignore[union-attr]
            info._HEADING.match(t("rules.match_target", lang)).group(1).rstrip(".:。："),  # type: ignore[union-attr]
        ], lang


def test_a_part_longer_than_a_field_continues_after_a_sentence() -> None:
    text = "Uno dos tres. " * 100  # 1,400 characters
    chunks = info._chunks(text.strip(), 1024)
    assert [len(c) <= 1024 for c in chunks] == [True, True] and chunks[0].endswith(".")
    assert " ".join(chunks) == text.strip()
    assert info._chunks("长" * 2100, 1024) == ["长" * 1024, "长" * 1024, "长" * 52]
    assert info._chunks("规则。" * 400, 1024)[0].endswith("。")


async def test_a_chinese_member_reads_the_rules_in_their_script(fake: FakeDiscord) -> None:
    for locale, lang in (("zh-CN", "zh_CN"), ("zh-TW", "zh_TW")):
        if lang not in available_locales():
            continue
        ana = Member(fake, 11, "Ana", locale=locale)
        embed = (await ana.slash("rules")).last.embeds[0]
        assert embed["title"] == t("rules.title", lang)
        text = embed_text(embed)
        assert t("rules.play", lang)[:20] in text
        assert t("rules.tournaments", lang).split("**")[-1].strip()[:20] in text
        assert "**Match**" not in text and "Each player bids once" not in text
