"""Leaderboard, stats and forgetting a user."""

from __future__ import annotations

from bot.storage.base import SqlRepository
from tests.support.storage_fakes import finished_table


async def test_stats_count_springs_bombs_roles_and_best_hand(store: SqlRepository) -> None:
    await store.settle_hand(finished_table(spring=True, bombs_by=(0,)), "a")  # P=4: +8
    await store.settle_hand(finished_table(landlord=1, winner="peasants"), "b")  # 101 +1
    stats = await store.player_stats(1, 101)
    assert stats is not None
    assert (stats.hands, stats.hands_landlord, stats.wins_landlord, stats.wins_peasant) == (
        2,
        1,
        1,
        1,
    )
    assert (stats.springs, stats.bombs, stats.net_points, stats.best_hand) == (1, 1, 9, 8)
    assert stats.current_total == 9 and stats.name == "user101"
    assert await store.player_stats(1, 999) is None
    assert await store.player_stats(2, 101) is None


async def test_leaderboard_orders_by_matches_then_net_points(store: SqlRepository) -> None:
    await store.settle_hand(finished_table(landlord=2, base=3), "a")
    await store.remember_name(1, 103, "Renamed")
    board = await store.leaderboard(1, limit=2)
    assert [(r.user_id, r.name, r.net_points) for r in board] == [
        (103, "Renamed", 6),
        (101, "user101", -3),
    ]


async def test_forget_user_removes_their_rows_and_anonymizes_hands(store: SqlRepository) -> None:
    await store.settle_hand(finished_table(), "a")
    await store.settle_hand(finished_table(guild_id=2), "b")
    touched = await store.forget_user(1, 102)
    assert touched >= 4
    assert await store.player_stats(1, 102) is None
    assert await store.player_stats(2, 102) is not None
    assert 102 not in {s.user_id for s in (await store.match_standings(1)).standings}
    recorded = await store.finished_hand("a")
    assert recorded is not None
    assert [c.user_id for c in recorded[1].changes] == [101, None, 103]
    assert recorded[1].changes[1].name == "?"
    await store.forget_user(None, 102)
    assert await store.player_stats(2, 102) is None


FORGOTTEN_BEFORE = {"player_stats", "ledger", "match_winners", "display_names", "ratings",
                    "member_prefs", "member_pings", "daily_plays", "event_entries",
                    "event_plays", "puzzle_attempts", "puzzle_players"}
"""The member's tables ``/ddz forget`` deleted when ``ops.USER_TABLES`` named them all."""


def test_forget_deletes_the_same_tables_the_core_and_the_wings_each_their_own() -> None:
    """The core's ``ops.USER_TABLES`` and each wing's ``MEMBER_TABLES`` (deleted by its
    forget step) together are the tables deleted before the features' steps did it."""
    from bot.features.daily import queries as daily
    from bot.features.events import queries as events
    from bot.features.puzzles import queries as puzzles
    from bot.storage import ops

    wings = (*daily.MEMBER_TABLES, *events.MEMBER_TABLES, *puzzles.MEMBER_TABLES)
    assert set(ops.USER_TABLES).isdisjoint(wings)
    assert {*ops.USER_TABLES, *wings} == FORGOTTEN_BEFORE


async def test_each_wings_forget_step_deletes_its_rows_of_the_member(
        store: SqlRepository) -> None:
    """Through the steps (``FeatureStores.forget_user``: every feature's, as the service
    asks it), on both backends: the member's rows of every wing's table are gone, and only
    in the server named."""
    from bot.features.daily import queries as daily
    from bot.features.events import queries as events
    from bot.features.puzzles import queries as puzzles
    from tests.support.every_row import fill

    tables = (*daily.MEMBER_TABLES, *events.MEMBER_TABLES, *puzzles.MEMBER_TABLES)

    async def rows_of(user_id: int) -> dict[str, int]:
        async with store.reading() as db:
            return {name: int((await db.fetch(
                f"SELECT COUNT(*) FROM {name} WHERE user_id = ?", (user_id,)))[0][0])
                for name in tables}

    await fill(store)
    before = await rows_of(101)
    assert all(before.values()), before  # fill wrote a row of 101 in each
    await store.forget_user(2 << 22, 101)  # another server: nothing of these
    assert await rows_of(101) == before
    await store.forget_user(1, 101)
    assert await rows_of(101) == dict.fromkeys(tables, 0)
