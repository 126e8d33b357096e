"""``/ddz newmatch`` (issue 12 item 3): Manage Server, a confirm button, totals to zero,
the finished match kept (``/ddz score`` scope previous), hands in play settle into the
new match; a second click changes nothing."""

from __future__ import annotations

import copy

from tests.support.fake_discord import FakeDiscord, Member
from tests.support.fake_game import autoplayed_solo_hand, members
from tests.support.forge import table_of


async def one_hand(fake: FakeDiscord) -> Member:
    """A high target (the match goes on), then Ana's auto-played winning hand."""
    await Member(fake, 98, "Root", admin=True).slash("config", target=10000)
    return await autoplayed_solo_hand(fake)


def field(reply) -> tuple[str, str]:  # noqa: ANN001
    f = reply.last.embeds[0]["fields"][0]
    return f["name"], f["value"]


async def test_only_admins_may_start_a_new_match_and_an_empty_one_needs_no_reset(
        fake: FakeDiscord) -> None:
    ana, _, _ = members(fake)
    assert (await ana.slash("newmatch")).text == (
        "Only members with Manage Server can start a new match.")
    ana.admin = True
    assert (await ana.slash("newmatch")).text == (
        "Match #1 has no settled hand yet: the totals are already zero.")


async def test_a_confirmed_new_match_zeroes_the_totals_and_keeps_the_previous_one(
        fake: FakeDiscord) -> None:
    ana = await one_hand(fake)
    points = table_of(fake).hand.result.points[0]
    admin = Member(fake, 99, "Dora", admin=True)
    question = (await admin.slash("newmatch")).last
    assert question.ephemeral and question.content.startswith(
        "Start a new match? Every total of match #1 (1 hand played) goes back to zero.")
    assert list(question.buttons()) == ["Start a new match", "Keep this match"]
    twice = copy.deepcopy(question)
    done = await admin.click(question, "Start a new match")
    assert done.text == "Match #1 is over; match #2 starts at zero."
    assert fake.last_public().content == ("🔄 Dora started a new match: every total is back to"
                                          " zero (match #2). /ddz score shows the previous match #1.")
    again = await admin.click(twice, "Start a new match")
    assert again.text == "Match #1 was already ended; nothing changed."
    head, value = field(await ana.slash("score", scope="match"))
    assert head.startswith("Current match #2 ·") and value == "No hands played yet."
    head, value = field(await ana.slash("score", scope="previous"))
    assert head == "Previous match #1 · 1 hand · ended by /ddz newmatch (no winner)"
    assert value == f"1. Ana: **+{points}** (1 hand)"
    stats = await fake.bot.storage.player_stats(fake.guild_id, 11)
    assert stats.current_total == 0 and stats.matches_won == 0 and stats.net_points == points


async def test_keep_changes_nothing_and_another_member_cannot_confirm(fake: FakeDiscord) -> None:
    ana = await one_hand(fake)
    admin = Member(fake, 99, "Dora", admin=True)
    question = (await admin.slash("newmatch")).last
    other = copy.deepcopy(question)
    assert (await ana.click(other, "Start a new match")).text == (
        "Only members with Manage Server can start a new match.")
    assert (await admin.click(question, "Keep this match")).text == (
        "Nothing changed: match #1 goes on.")
    assert (await fake.bot.storage.match_standings(fake.guild_id)).match_no == 1


async def test_a_hand_being_played_settles_into_the_new_match(fake: FakeDiscord) -> None:
    ana = await one_hand(fake)
    await ana.slash("autoplay", mode="off")
    await ana.click(fake.table_message(), "Play again")  # a random deal, being bid on
    assert table_of(fake).phase == "playing"
    admin = Member(fake, 99, "Dora", admin=True)
    question = (await admin.slash("newmatch")).last
    await admin.click(question, "Start a new match")
    await ana.slash("autoplay", mode="on")
    await fake.idle()
    points = table_of(fake).hand.result.points[0]
    standings = await fake.bot.storage.match_standings(fake.guild_id)
    assert standings.match_no == 2 and [(s.user_id, s.total) for s in standings.standings] == [
        (11, points)]
    assert "→ match total" in fake.table_message().content


async def test_the_question_and_the_previous_match_in_spanish(fake: FakeDiscord) -> None:
    await one_hand(fake)
    admin = Member(fake, 99, "Dora", "es-ES", "es-ES", admin=True)
    question = (await admin.slash("newmatch")).last
    assert question.content.startswith("¿Empezar una partida nueva? Todos los totales de la"
                                       " partida n.º 1 (1 mano jugada) vuelven a cero.")
    done = await admin.click(question, "Empezar partida nueva")
    assert done.text == "La partida n.º 1 ha terminado; la n.º 2 empieza desde cero."
    head, _ = field(await admin.slash("score", scope="previous"))
    assert head == "Partida anterior n.º 1 · 1 mano · terminada con /ddz nuevapartida (sin ganador)"
