"""A stored tournament for the web tests: the worked example of docs/RULES.md
§Tournaments (seven members, seed 12345), round 1 finished with one settled hand per
table, round 2 seated with one table finished."""

from __future__ import annotations

from typing import Any

from bot.features.tournaments.scoring import standings
from bot.features.tournaments.seating import seat_round
from bot.features.tournaments.values import TournamentHand, TournamentInfo
from bot.rules import RuleSet
from tests.support.feature_stores import FeatureStores
from tests.support.storage_fakes import finished_table

MEMBERS = {101: "Ana", 102: "Ben", 103: "Cal", 104: "Dee", 105: "Eve", 106: "Fay", 107: "Gus"}
ROUND1 = {1: (6, -3, -3), 2: (4, -2, -2), 3: (-2, 4, -2)}
"""Points won per seat at round 1's tables (Gus, Eve, Ben | Cal, Ana, C | Fay, Dee, C)."""
NOW = 1_796_126_400.0


async def stored_tournament(storage: Any, guild_id: int, *, settle: bool = True,
                            rules: RuleSet | None = None) -> TournamentInfo:
    """Store the example in ``guild_id`` (``rules``: its tables' rule set, None = the
    classic default); with ``settle``, one settled hand (hand numbers 1, 2, 3 of the
    server) per table of round 1, recorded as the tables' hands."""
    if not isinstance(storage, FeatureStores):  # the tournament's rows: its store's
        storage = FeatureStores(storage)
    info = await storage.create_tournament(TournamentInfo(
        tournament_id="tour1", guild_id=guild_id, channel_id=guild_id * 10, name="Winter Cup",
        rounds=2, hands=1, level="normal", created_by=101, created_at=NOW, seed=12345,
        rules=rules))
    assert info is not None
    for i, (user, name) in enumerate(MEMBERS.items()):
        assert await storage.join_tournament("tour1", user, name, NOW + i) == "joined"
    assert await storage.start_tournament("tour1", NOW + 10)
    field = list(MEMBERS)
    r1 = seat_round(1, field, [], [], info.seed)
    assert await storage.seat_tournament_round("tour1", 1, r1, NOW + 11)
    for table in r1:
        points = ROUND1[table.table_no]
        if settle:
            fake = finished_table(table_id=f"tt{table.table_no}", guild_id=guild_id,
                                  users=table.seats, seq=table.table_no)
            settlement = await storage.settle_hand(fake, f"th{table.table_no}")
            assert await storage.record_tournament_hand("tour1", TournamentHand(
                round_no=1, table_no=table.table_no, hand=1, hand_no=settlement.hand_no,
                points=points))
        assert await storage.finish_tournament_table("tour1", 1, table.table_no, points,
                                                     NOW + 20)
    assert await storage.finish_tournament_round("tour1", 1, NOW + 21)
    tables = await storage.tournament_tables("tour1", 1)
    order = [r.user_id for r in standings(field, tables)]
    r2 = seat_round(2, field, order, [t.seats for t in tables], info.seed)
    assert await storage.seat_tournament_round("tour1", 2, r2, NOW + 22)
    assert await storage.finish_tournament_table("tour1", 2, 2, (4, 4, -8), NOW + 30)
    assert await storage.leave_tournament("tour1", 106, NOW + 31) == "withdrawn"
    for user, name in MEMBERS.items():  # the settled hands named them "user101"…
        await storage.remember_name(guild_id, user, name)
    stored = await storage.tournament("tour1")
    assert stored is not None
    return stored


TIED = {11: "Ana", 22: "Bo", 33: "Cy", 44: "Di"}
"""The members of ``stored_tie``, in join order."""


async def stored_tie(storage: Any, guild_id: int, channel_id: int) -> TournamentInfo:
    """A finished one-round tournament "Tie Cup" of the four ``TIED`` members: two tables
    of two members and a computer, where the first member seated wins (4, −2, −2). The
    two winners are equal on match points, points won and Buchholz, and so are the
    other two (docs/RULES.md §Tournaments: each pair shares its place)."""
    if not isinstance(storage, FeatureStores):
        storage = FeatureStores(storage)
    info = await storage.create_tournament(TournamentInfo(
        tournament_id="tie1", guild_id=guild_id, channel_id=channel_id, name="Tie Cup",
        rounds=1, hands=1, level="normal", created_by=11, created_at=NOW, seed=7))
    assert info is not None
    for i, (user, name) in enumerate(TIED.items()):
        assert await storage.join_tournament("tie1", user, name, NOW + i) == "joined"
    assert await storage.start_tournament("tie1", NOW + 10)
    tables = seat_round(1, list(TIED), [], [], info.seed)
    assert len(tables) == 2 and all(sum(s is not None for s in t.seats) == 2 for t in tables)
    assert await storage.seat_tournament_round("tie1", 1, tables, NOW + 11)
    for table in tables:
        first = next(i for i, s in enumerate(table.seats) if s is not None)
        points = (4 if first == 0 else -2, 4 if first == 1 else -2, 4 if first == 2 else -2)
        assert await storage.finish_tournament_table("tie1", 1, table.table_no, points,
                                                     NOW + 20)
    assert await storage.finish_tournament_round("tie1", 1, NOW + 21)
    assert await storage.finish_tournament("tie1", NOW + 22)
    for user, name in TIED.items():
        await storage.remember_name(guild_id, user, name)
    stored = await storage.tournament("tie1")
    assert stored is not None
    return stored
