"""A tournament's web page, ``/t/<token>`` (docs/WEB.md §Pages): the tournaments' part of the
web page (``bot.web.routes.WebPart``), mounted by the site like any feature's.

Its link names one tournament of a server: base64url(guild id (8 bytes) ‖ the tournament's
number in the server (4 bytes) ‖ the first 12 bytes of the HMAC), 32 characters, signed in
the HMAC domain ``t`` (``WebLinks.token``). The page — the standings and each round's tables
with the replay links of their hands — is shown only while the server's ``/ddz config web``
is on (the standings page's rule); ``tournament_view`` is its model (pure), the template
``templates/tournament.html``.
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from bot.features.tournaments.scoring import seat_match_points, standings
from bot.features.tournaments.service import TournamentService
from bot.features.tournaments.values import (
    TournamentEntrant,
    TournamentHand,
    TournamentInfo,
    TournamentTable,
)
from bot.i18n import t
from bot.i18n.numbers import decimal
from bot.rules import RuleSet
from bot.service.links import WebLinks
from bot.web.routes import Page, WebHost, WebPart, WebRoute
from bot.web.site import STANDINGS_TTL
from rendering.strings import rules_name

_TOKEN = struct.Struct(">QI")
KIND = b"t"
"""The HMAC domain of a tournament's link."""


def tournament_token(links: WebLinks, guild_id: int, number: int) -> str:
    """The token of tournament ``number`` (1, 2, … per server) of ``guild_id``."""
    return links.token(KIND, _TOKEN.pack(guild_id, number))


def read_tournament(links: WebLinks, token: str) -> tuple[int, int] | None:
    """(guild id, tournament number) of a genuine tournament token, else None."""
    payload = links.read(KIND, token, _TOKEN.size)
    if payload is None:
        return None
    guild_id, number = _TOKEN.unpack(payload)
    return guild_id, number


def tournament_url(links: WebLinks, guild_id: int, number: int) -> str:
    """The public address of a tournament's page."""
    return f"{links.base_url}/t/{tournament_token(links, guild_id, number)}"


@dataclass(frozen=True)
class TournamentLine:
    """One line of a tournament's standings as shown: ``place`` as ranked
    (``StandingRow.shown``; ``shared``: equal with another member on every measure, shown
    "=1"), ``match_points`` and ``buchholz`` with one decimal in the page's language,
    ``points`` signed, ``left``: ``""``, ``"withdrawn"`` or ``"dropped"``."""

    place: int
    user_id: int
    name: str
    match_points: str
    points: int
    buchholz: str
    tables: int
    left: str
    shared: bool = False


@dataclass(frozen=True)
class TournamentSeat:
    """A seat of a table as shown: ``name`` (a member's, or the computer's label),
    ``computer``, and once the table finished ``points`` won and ``match_points``
    (None for a computer: ranked, never listed)."""

    name: str
    computer: bool
    points: int | None
    match_points: str | None


@dataclass(frozen=True)
class TournamentTableView:
    """A table of a round: its seats, whether it finished, and its hands' replay
    links as (hand at the table, address)."""

    table_no: int
    seats: list[TournamentSeat]
    finished: bool
    hands: list[tuple[int, str]]


@dataclass(frozen=True)
class TournamentView:
    """A tournament's page: ``info``, ``lines`` (the standings, docs/RULES.md
    §Tournaments), ``rounds`` (round number, its tables), the latest round first, and
    ``rules``: its tables' rule set named as the sign-up names it ("Happy, cap ×64")."""

    info: TournamentInfo
    lines: list[TournamentLine]
    rounds: list[tuple[int, list[TournamentTableView]]]
    rules: str = ""


def tournament_view(info: TournamentInfo, entrants: Sequence[TournamentEntrant],
                    tables: Sequence[TournamentTable], hands: Sequence[TournamentHand],
                    replay_link: Callable[[int], str], lang: str) -> TournamentView:
    """The page of a tournament from what storage holds: standings over the finished
    tables (``bot.features.tournaments.scoring.standings``) and each round's tables with the replay
    address of each settled hand (``replay_link(hand number in the server)``), in
    ``lang``."""
    names = {e.user_id: e.name or "?" for e in entrants}
    left = {e.user_id: "" if e.status == "in" else e.status for e in entrants}
    rows = standings([e.user_id for e in entrants], tables)
    lines = [TournamentLine(place=r.shown, shared=bool(r.shared), user_id=r.user_id,
                            name=names[r.user_id],
                            match_points=decimal(float(r.match_points), lang),
                            points=r.points, buchholz=decimal(float(r.buchholz), lang),
                            tables=r.tables, left=left[r.user_id])
             for r in rows]
    links: dict[tuple[int, int], list[tuple[int, str]]] = {}
    for hand in hands:
        links.setdefault((hand.round_no, hand.table_no), []).append(
            (hand.hand, replay_link(hand.hand_no)))
    computer = t("web.computer", lang)
    rounds: dict[int, list[TournamentTableView]] = {}
    for table in tables:
        shares = (seat_match_points(table.seats, table.points)
                  if table.points is not None else {})
        seats = []
        for seat, user in enumerate(table.seats):
            won = None if table.points is None else table.points[seat]
            share = shares.get(user) if user is not None else None
            seats.append(TournamentSeat(
                name=computer if user is None else names.get(user, "?"),
                computer=user is None, points=won,
                match_points=None if share is None else decimal(float(share), lang)))
        rounds.setdefault(table.round_no, []).append(TournamentTableView(
            table_no=table.table_no, seats=seats, finished=table.points is not None,
            hands=links.get((table.round_no, table.table_no), [])))
    return TournamentView(info=info, lines=lines,
                          rounds=sorted(rounds.items(), reverse=True),
                          rules=t("tournament.rules", lang,
                                  rules=rules_name(info.rules or RuleSet(), lang)))


async def tournament_page(host: WebHost, match: Mapping[str, str], lang: str) -> Page | None:
    """A tournament's page in ``lang``; None (→ 404) for a tampered token, an unknown
    tournament or a server whose ``/ddz config web`` is off."""
    read = read_tournament(host.links, match["token"])
    if read is None:
        return None
    guild_id, number = read
    if not await host.public(guild_id):
        return None
    store = host.feature(TournamentService).store
    links = host.links

    async def build() -> Page | None:
        info = await store.tournament_by_number(guild_id, number)
        if info is None:
            return None
        entrants = await store.tournament_entrants(info.tournament_id)
        tables = await store.tournament_tables(info.tournament_id)
        hands = await store.tournament_hands(info.tournament_id)
        view = tournament_view(
            info, entrants, tables, hands,
            lambda hand_no: f"/r/{links.replay_token(guild_id, hand_no)}?lang={lang}", lang)
        body = await host.render("tournaments/tournament.html", lang=lang, view=view,
                                 page_url=f"{links.base_url}/t/{match['token']}")
        return Page(body, "text/html; charset=utf-8")

    return await host.cached(("tournament", guild_id, number, lang), guild_id, STANDINGS_TTL,
                             build)


WEB = WebPart(routes=(WebRoute("/t/{token:[A-Za-z0-9_-]{1,48}}", "tournament",
                               tournament_page),),
              templates=Path(__file__).with_name("templates"))
"""The tournaments' part of the web page."""
