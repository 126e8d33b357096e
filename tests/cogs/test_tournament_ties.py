"""``/ddz tournament standings`` and ``/ddz stats`` show members equal on match points,
points won and Buchholz on a shared place (docs/RULES.md §Tournaments), in each member's
language; the list keeps the join order between them.

Playtest: two members tied on everything read 🥇 and 🥈, by who joined first."""

from __future__ import annotations

import pytest

from bot.features.tournaments.seating import seat_round
from bot.features.tournaments.values import TournamentInfo
from tests.support.embeds import embed_text
from tests.support.fake_discord import FakeDiscord, Member
from tests.support.feature_stores import FeatureStores

NOW = 1_796_126_400.0
NAMES = {11: "Ana", 22: "Bo", 33: "Cy", 44: "Di"}


async def four_tied(fake: FakeDiscord) -> None:
    """A finished one-round tournament of four members: two tables of two members and a
    computer; the first seated at each wins it (4, −2, −2): the two winners are equal on
    every measure, and so are the two others."""
    storage = FeatureStores(fake.bot.storage)
    info = await storage.create_tournament(TournamentInfo(
        tournament_id="tie1", guild_id=fake.guild_id, channel_id=fake.channel_id,
        name="Tie Cup", rounds=1, hands=1, level="normal", created_by=11, created_at=NOW,
        seed=7))
    assert info is not None
    for i, (user, name) in enumerate(NAMES.items()):
        assert await storage.join_tournament("tie1", user, name, NOW + i) == "joined"
    assert await storage.start_tournament("tie1", NOW + 10)
    tables = seat_round(1, list(NAMES), [], [], info.seed)
    assert len(tables) == 2 and all(sum(s is not None for s in t.seats) == 2 for t in tables)
    assert await storage.seat_tournament_round("tie1", 1, tables, NOW + 11)
    for table in tables:
        first = next(i for i, s in enumerate(table.seats) if s is not None)
        points = tuple(4 if i == first else -2 for i in range(3))
        assert await storage.finish_tournament_table("tie1", 1, table.table_no, points,
                                                     NOW + 20)
    assert await storage.finish_tournament_round("tie1", 1, NOW + 21)
    assert await storage.finish_tournament("tie1", NOW + 22)


@pytest.mark.parametrize(("locale", "shared"), [("en-US", "shared place 1 of 4"),
                                                 ("es-ES", "puesto 1 compartido de 4"),
                                                 ("zh-CN", "并列第 1 名，共 4 人")])
async def test_the_standings_show_a_full_tie_as_a_shared_place(
        fake: FakeDiscord, locale: str, shared: str) -> None:
    await four_tied(fake)
    ana = Member(fake, 11, "Ana", locale, locale)
    board = (await ana.slash("tournament standings")).last
    text = embed_text(board.embeds[0])
    medals = [line.split(" ")[0] for line in text.splitlines() if "**" in line]
    assert medals == ["🥇", "🥇", "🥉", "🥉"], text
    assert "🥈" not in text
    stats = (await ana.slash("stats")).last
    everything = stats.content + "".join(embed_text(e) for e in stats.embeds)
    assert shared in everything, everything


async def test_the_web_page_marks_a_shared_place() -> None:
    from bot.features.tournaments.values import TournamentEntrant, TournamentTable
    from bot.features.tournaments.web import tournament_view

    entrants = [TournamentEntrant(user_id=u, name=n, joined_at=NOW + u)
                for u, n in NAMES.items()]
    tables = [TournamentTable(tournament_id="tie1", round_no=1, table_no=n, seats=seats,
                              points=(4, -2, -2))
              for n, seats in ((1, (11, 33, None)), (2, (22, 44, None)))]
    info = TournamentInfo(tournament_id="tie1", guild_id=1, channel_id=2, name="Tie Cup",
                          rounds=1, hands=1, level="normal", created_by=11, created_at=NOW,
                          seed=7, status="finished")
    view = tournament_view(info, entrants, tables, [], lambda n: f"/r/{n}", "en")
    assert [(line.name, line.place, line.shared) for line in view.lines] == [
        ("Ana", 1, True), ("Bo", 1, True), ("Cy", 3, True), ("Di", 3, True)]
