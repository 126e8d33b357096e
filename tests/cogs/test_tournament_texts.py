"""What bot/features/tournaments/cog.py writes (docs/RULES.md §Tournaments): the standings' lines with
match points to one decimal (Spanish with a comma), the sign-up's count and buttons, the
web page's link only when the server turned the page on."""

from __future__ import annotations

from fractions import Fraction

from bot.features.tournaments.cog import signup_id, signup_message, standings_lines, web_line
from bot.features.tournaments.scoring import StandingRow
from bot.features.tournaments.values import TournamentEntrant, TournamentInfo
from bot.features.tournaments.web import tournament_url
from bot.service.links import WebLinks

INFO = TournamentInfo(tournament_id="ab" * 16, guild_id=1, number=3, channel_id=2, name="Cup",
                      rounds=2, hands=1, level="easy", created_by=9, created_at=0.0, seed=7)
ENTRANTS = [TournamentEntrant(user_id=11, name="Ana", joined_at=1.0),
            TournamentEntrant(user_id=12, name="Ben", joined_at=2.0, status="withdrawn")]
ROWS = [StandingRow(place=1, user_id=11, match_points=Fraction(4, 3), points=6,
                    buchholz=Fraction(1, 2), tables=2),
        StandingRow(place=2, user_id=12, match_points=Fraction(1, 2), points=-6,
                    buchholz=Fraction(4, 3), tables=1)]


def test_standings_lines_show_one_decimal_and_who_withdrew() -> None:
    assert standings_lines(ROWS, ENTRANTS, "en") == [
        "🥇 **Ana**: match points 1.3 · points +6 · Buchholz 0.5 · tables played: 2",
        "🥈 **Ben** (withdrew): match points 0.5 · points -6 · Buchholz 1.3 · tables played: 1"]
    assert standings_lines(ROWS, ENTRANTS, "es-ES")[0] == (
        "🥇 **Ana**: puntos de torneo 1,3 · puntos +6 · Buchholz 0,5 · mesas jugadas: 2")


def test_the_sign_up_counts_entrants_and_keeps_its_buttons_once_closed() -> None:
    open_ = signup_message(INFO, 1, "en")
    assert "1 entrant\n" in open_["content"] and "the organiser starts it" in open_["content"]
    ids = [c["custom_id"] for row in open_["view"].to_components() for c in row["components"]]
    assert ids == [signup_id(INFO.tournament_id, "join"), signup_id(INFO.tournament_id, "leave")]
    closed = signup_message(INFO, 4, "es-ES", closed=True)
    assert "4 inscritos" in closed["content"] and "La inscripción está cerrada" in closed["content"]


def test_the_web_link_only_when_the_page_runs_and_the_server_turned_it_on() -> None:
    links = WebLinks("s" * 16, "https://ddz.example")
    line = web_line(INFO, links, True, "en")
    assert line is not None and line.endswith(tournament_url(links, 1, 3))
    assert line.startswith("Standings and each round's tables")
    assert web_line(INFO, links, False, "en") is None
    assert web_line(INFO, None, True, "en") is None


def _tied(place: int, user: int, shared: int) -> StandingRow:
    return StandingRow(place=place, user_id=user, match_points=Fraction(3), points=4,
                       buchholz=Fraction(1, 2), tables=1, shared=shared)


def test_members_equal_on_every_measure_share_the_place_shown() -> None:
    # playtest: fully tied members got 🥇 and 🥈 by join order
    entrants = [TournamentEntrant(user_id=u, name=n, joined_at=float(u))
                for u, n in ((11, "Ana"), (12, "Ben"), (13, "Cal"), (14, "Dee"), (15, "Eve"))]
    rows = [_tied(1, 11, 1), _tied(2, 12, 1),
            StandingRow(place=3, user_id=13, match_points=Fraction(1), points=0,
                        buchholz=Fraction(0), tables=1),
            _tied(4, 14, 4), _tied(5, 15, 4)]
    assert [line.split(" **")[0] for line in standings_lines(rows, entrants, "en")] == [
        "🥇", "🥇", "🥉", "=4.", "=4."]
    assert standings_lines(rows, entrants, "es-ES")[1].startswith("🥇 **Ben**:")
    assert standings_lines(rows, entrants, "zh-CN")[4].startswith("=4. **Eve**：")
