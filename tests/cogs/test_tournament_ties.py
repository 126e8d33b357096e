"""``/ddz tournament standings`` and ``/ddz stats`` show members equal on match points,
points won and Buchholz on a shared place (docs/RULES.md §Tournaments), in each member's
language; the list keeps the join order between them.

Playtest: two members tied on everything read 🥇 and 🥈, by who joined first."""

from __future__ import annotations

import pytest

from bot.features.tournaments.values import TournamentInfo
from tests.support.embeds import embed_text
from tests.support.fake_discord import FakeDiscord, Member
from tests.support.web_tournament import NOW, TIED, stored_tie

NAMES = TIED


async def four_tied(fake: FakeDiscord) -> None:
    await stored_tie(fake.bot.storage, fake.guild_id, fake.channel_id)


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
