"""``/ddz forget``: refused while seated or in the live tournament; asks first; deletes
only on "Delete my data"."""

from __future__ import annotations

from bot.features.tournaments.service import TournamentService
from tests.support.fake_discord import FakeDiscord
from tests.support.fake_game import CHANNEL_ID, GUILD_ID, autoplayed_solo_hand, members


async def finished_hand_then_left(fake: FakeDiscord) -> None:
    """Ana plays one hand against two computers, then leaves the result."""
    ana = await autoplayed_solo_hand(fake)
    assert "hand #1 · result" in fake.table_message().content
    reply = await ana.slash("forget")
    assert reply.last.ephemeral and reply.text.startswith("Leave your table first")
    assert reply.last.components == []
    await ana.click(fake.table_message(), "Leave")


async def test_forget_asks_then_deletes_the_members_scores_and_stats(fake: FakeDiscord) -> None:
    await finished_hand_then_left(fake)
    ana, _, _ = members(fake)
    storage = fake.bot.storage
    assert (await storage.player_stats(GUILD_ID, 11)) is not None
    assert [row.user_id for row in await storage.leaderboard(GUILD_ID)] == [11]
    assert [(r.user_id, r.computer) for r in await storage.rating_board(GUILD_ID)] in (
        [(11, None), (None, "normal")], [(None, "normal"), (11, None)])
    question = (await ana.slash("forget")).last
    assert question.ephemeral and question.content.startswith("Delete your scores")
    assert list(question.buttons()) == ["Delete my data", "Keep it"]
    assert (await storage.player_stats(GUILD_ID, 11)) is not None  # nothing yet
    done = (await ana.click(question, "Delete my data")).last
    assert done.content == "Done: your data in this server is deleted." and done.components == []
    assert (await storage.player_stats(GUILD_ID, 11)) is None
    assert await storage.leaderboard(GUILD_ID) == []
    board = await storage.rating_board(GUILD_ID)  # her rating is gone, the computers' stays
    assert [(r.user_id, r.computer, r.rating.hands) for r in board] == [(None, "normal", 1)]
    assert await storage.hand_history(GUILD_ID, 11) == []


async def test_keep_it_deletes_nothing_and_spanish_is_spanish(fake: FakeDiscord) -> None:
    await finished_hand_then_left(fake)
    ana, _, _ = members(fake, "es-ES")
    question = (await ana.slash("forget")).last
    assert list(question.buttons()) == ["Borrar mis datos", "Conservarlos"]
    kept = (await ana.click(question, "Conservarlos")).last
    assert kept.content == "No se ha borrado nada." and kept.components == []
    assert (await fake.bot.storage.player_stats(GUILD_ID, 11)) is not None


async def test_forget_is_refused_while_in_the_tournament_in_both_languages(
        fake: FakeDiscord) -> None:
    ana, _, _ = members(fake)
    bo = members(fake, "es-ES")[1]
    cups = fake.bot.features.get(TournamentService)
    await cups.create(GUILD_ID, CHANNEL_ID, 99, "Cup", rounds=1, hands=1)
    for member in (ana, bo):
        await cups.join(GUILD_ID, member.id, member.name)
    reply = await ana.slash("forget")
    assert reply.last.ephemeral and reply.text == (
        "You're in this server's tournament: leave it first (`/ddz tournament leave`), then"
        " delete your data. What you played there stays in its standings, without your name.")
    assert reply.last.components == []
    assert (await bo.slash("forget")).text.startswith(
        "Estás en el torneo de este servidor: sal primero (`/ddz torneo salir`)")
    await cups.leave(GUILD_ID, ana.id)
    question = (await ana.slash("forget")).last
    assert question.content.startswith("Delete your scores")


async def test_another_members_click_on_the_question_changes_nothing_and_says_whose_it_is(
        fake: FakeDiscord) -> None:
    # Found by the smoke pass (issue 48): Bo pressing Ana's "Delete my data" was told
    # "You're not seated at this table."
    ana, bo, _ = members(fake)
    question = (await ana.slash("forget")).last
    reply = await bo.click(question, "Delete my data")
    assert reply.text == ("This question is for the member who asked it: to delete your own"
                          " data, use `/ddz forget`.")
    assert fake.messages[question.id].components == question.components  # still asked
