"""``/ddz start level:`` picks the computers' level (docs/AI.md)."""

from __future__ import annotations

import discord
from discord import app_commands

from cogs.ddz import DdzCog
from cogs.translator import DdzTranslator
from tests.support.fake_discord import FakeDiscord
from tests.support.fake_game import members


async def test_start_with_level_hard_seats_hard_computers_and_add_computer_adds_hard(
        fake: FakeDiscord) -> None:
    ana, _, _ = members(fake)
    await ana.slash("start", computers=1, level="hard")
    lobby = fake.table_message()
    assert "Seat 2: Bot 2 (computer, hard)" in lobby.content
    assert "Computer level: hard" in lobby.content
    await ana.click(lobby, "Add computer")
    lobby = fake.table_message()
    assert "Seat 3: Bot 3 (computer, hard)" in lobby.content
    table = fake.bot.service.table_in_channel(lobby.channel_id)
    assert [s.computer for s in table.seats] == [None, "hard", "hard"]
    assert table.computer_level == "hard"


async def test_start_without_level_keeps_normal_and_says_so(fake: FakeDiscord) -> None:
    ana, _, _ = members(fake)
    await ana.slash("start")
    await ana.click(fake.table_message(), "Add computer")
    lobby = fake.table_message()
    assert "Seat 2: Bot 2 (computer, normal)" in lobby.content
    assert "Computer level: normal" in lobby.content


async def test_spanish_lobby_names_the_easy_level(fake: FakeDiscord) -> None:
    ana, _, _ = members(fake, "es-ES")
    await ana.slash("start", computers=2, level="easy")
    lobby = fake.table_message()
    assert "Asiento 3: Bot 3 (ordenador, fácil)" in lobby.content
    assert "Nivel del ordenador: fácil" in lobby.content


async def test_the_level_option_and_its_choices_are_named_in_spanish_for_spanish_clients(
        ) -> None:
    param = next(p for p in DdzCog.start.parameters if p.name == "level")
    assert not param.required
    assert [c.value for c in param.choices] == ["easy", "normal", "hard"]
    translator = DdzTranslator()
    spanish = discord.Locale.spain_spanish
    where = app_commands.TranslationContextLocation
    name_ctx = app_commands.TranslationContext(where.parameter_name, None)
    assert await translator.translate(param.locale_name, spanish, name_ctx) == "nivel"
    choice_ctx = app_commands.TranslationContext(where.choice_name, None)
    names = [await translator.translate(c._locale_name, spanish, choice_ctx)  # noqa: SLF001
             for c in param.choices]
    assert names == ["fácil", "normal", "difícil"]


async def test_the_bot_sends_computer_moves_through_the_pooled_decider(fake: FakeDiscord) -> None:
    assert fake.bot.service.decider.pool is fake.bot.ai  # type: ignore[attr-defined]
    assert fake.bot.service.hints.pool is fake.bot.ai
    assert fake.bot.replays.run == fake.bot.ai.run
