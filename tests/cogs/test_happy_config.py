"""``/ddz config rules deal cap`` (issue 52): the server's default rule set, deal and cap
for new tables, shown in the settings; a table then plays them, and ``/ddz start``'s own
choice wins over them; a forged cap is refused."""

from __future__ import annotations

from bot.game.happy import HappyHand
from tests.support.fake_discord import FakeDiscord
from tests.support.fake_game import members
from tests.support.forge import table_of


async def test_config_sets_the_happy_rules_and_no_shuffle_for_new_tables(
        fake: FakeDiscord) -> None:
    ana, _, _ = members(fake)
    ana.admin = True
    saved = await ana.slash("config", rules="happy", deal="no-shuffle", cap="0")
    text = saved.last.embeds[0]["description"]
    assert "Rules of new tables: Happy, no cap · deal: no shuffle" in text, text
    await ana.slash("start", computers=2)
    table = table_of(fake)
    assert (table.rules.variant, table.rules.deal, table.rules.cap) == ("happy", "no-shuffle", None)
    assert "Rules: Happy, no cap · deal: no shuffle" in fake.table_message().content
    await ana.click(fake.table_message(), "Start")
    assert isinstance(table_of(fake).hand, HappyHand)


async def test_a_tables_own_choice_wins_over_the_servers(fake: FakeDiscord) -> None:
    ana, _, _ = members(fake)
    ana.admin = True
    await ana.slash("config", rules="happy")
    await ana.slash("start", computers=2, rules="classic")
    table = table_of(fake)
    assert table.rules.variant == "classic" and table.chosen == {"variant": "classic"}
    await ana.click(fake.table_message(), "Start")
    assert type(table_of(fake).hand).__name__ == "Hand"


async def test_a_forged_cap_changes_nothing(fake: FakeDiscord) -> None:
    ana, _, _ = members(fake)
    ana.admin = True
    for forged in ("50", "x"):
        reply = await ana.slash("config", cap=forged)
        assert "nothing was changed" in reply.text, reply.text
    settings = await fake.bot.service.settings(fake.guild_id)
    assert settings.rules.cap == 64



async def test_the_rules_command_has_a_section_for_the_happy_rules_and_no_shuffle(
        fake: FakeDiscord) -> None:
    from tests.support.embeds import embed_text

    ana, _, _ = members(fake)
    text = embed_text((await ana.slash("rules")).last.embeds[0])
    assert "Happy rules" in text and "every grab doubles" in text, text
    assert "No-shuffle deals" in text and "`deal:no shuffle`" in text, text
