"""``/ddz score scope:rating`` and ``/ddz stats`` with its chart (cogs/records.py)."""

from __future__ import annotations

from bot.game.rating import RatedSeat, computer_key, member_key, rate_hand
from tests.support.fake_discord import FakeDiscord
from tests.support.fake_game import GUILD_ID, autoplayed_solo_hand, members

ANA, NORMAL = member_key(11), computer_key("normal")


def expected() -> dict[str, object]:
    """Ana (landlord) beat two normal computers in her first hand: one rated game."""
    seats = [RatedSeat(ANA, True), RatedSeat(NORMAL, False), RatedSeat(NORMAL, False)]
    return rate_hand(seats, landlord_won=True, current={})


async def test_rating_leaderboard_lists_members_and_computer_levels_apart_when_new(
    fake: FakeDiscord,
) -> None:
    await autoplayed_solo_hand(fake)
    after = expected()
    ana, mu, sigma = after[ANA].ordinal, after[ANA].mu, after[ANA].sigma
    _, bo, _ = members(fake)
    reply = await bo.slash("score", scope="rating")
    embed = reply.last.embeds[0]
    assert not reply.last.ephemeral and embed["title"] == "Dou Dizhu skill ratings"
    ranked, provisional = embed["fields"]
    # Playtest: it said "No rated hands yet." above the provisional ratings of rated hands
    assert ranked["value"] == ("Nobody has played 5 rated hands yet: every rating so far is"
                               " provisional (below).")
    assert provisional["name"] == "Provisional: fewer than 5 hands"
    bot_rating = after[NORMAL]
    assert provisional["value"].split("\n") == [
        f"Ana: {ana:.1f} (μ {mu:.1f} ± σ {sigma:.1f}) · 1 hand",
        f"🤖 Computer (normal): {bot_rating.ordinal:.1f} (μ {bot_rating.mu:.1f}"
        f" ± σ {bot_rating.sigma:.1f}) · 1 hand",
    ]
    assert (f"{ana:.1f}", f"{bot_rating.ordinal:.1f}") == ("2.7", "-1.5")
    assert "uncertainty σ" in embed["footer"]["text"]


async def test_five_rated_hands_move_a_member_to_the_ranked_list(fake: FakeDiscord) -> None:
    await autoplayed_solo_hand(fake)
    storage = fake.bot.storage
    async with storage._write() as db:  # four more rated hands, as if played
        await db.execute("UPDATE ratings SET hands = 5 WHERE player = ?", (ANA,))
    ana, _, _ = members(fake, "es-ES")
    embed = (await ana.slash("score", scope="rating")).last.embeds[0]
    assert embed["title"] == "Valoraciones de Dou Dizhu"
    ranked, provisional = embed["fields"]
    assert ranked["name"] == "Valoración = μ − 3σ (openskill) · ordenadores incluidos"
    # Spanish decimals take a comma (issue 37)
    assert ranked["value"].startswith("1. Ana: **2,7** (μ 27,2 ± σ 8,2) · 5 manos")
    assert provisional["value"].startswith("🤖 Ordenador (normal): -1,5")


async def test_stats_show_the_rating_and_attach_the_chart_with_alt_text(
    fake: FakeDiscord,
) -> None:
    await autoplayed_solo_hand(fake)
    _, bo, _ = members(fake)
    reply = await bo.slash("stats")  # Bo never played: no chart
    assert reply.last.attachments == []
    ana = members(fake)[0]
    reply = await ana.slash("stats")
    message = reply.last
    embed = message.embeds[0]
    rating = embed["fields"][-1]
    assert rating["name"] == "Skill rating"
    assert rating["value"] == "**2.7** (μ 27.2 ± σ 8.2) · #1 of 2 here"
    assert embed["image"]["url"] == "attachment://stats.png"
    assert [a["filename"] for a in message.attachments] == ["stats.png"]
    alt = message.alt_texts[0]
    record = await fake.bot.storage.player_stats(GUILD_ID, 11)
    total = record.net_points  # her first hand: its total is the whole record
    assert alt.startswith("Chart of Ana, most recent hands: 1. Match total after the first of"
                          f" them +{total}, after the last +{total}")
    assert "Rating now 2.7 (μ 27.2 ± σ 8.2)." in alt
    assert "Wins as landlord: 100% (1 of 1 hand). Wins as peasant: — (0 of 0 hands)." in alt


async def test_stats_in_spanish(fake: FakeDiscord) -> None:
    await autoplayed_solo_hand(fake)
    ana, _, _ = members(fake, "es-ES")
    message = (await ana.slash("stats")).last
    assert message.embeds[0]["fields"][-1] == {
        "name": "Valoración", "value": "**2,7** (μ 27,2 ± σ 8,2) · n.º 1 de 2 aquí",
        "inline": False}
    assert message.alt_texts[0].startswith("Gráfico de Ana, manos más recientes: 1.")
