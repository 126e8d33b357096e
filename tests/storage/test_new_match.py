"""``/ddz newmatch`` in storage: totals to zero, the finished match kept, hands still
being played settle into the new match; members' auto-play pace (docs/RULES.md §Match)."""

from __future__ import annotations

from bot.rules import RuleSet
from bot.storage.sqlite import SqliteStorage
from bot.values import GuildSettings
from tests.support.storage_fakes import finished_table


async def test_a_new_match_zeroes_the_totals_and_keeps_the_finished_one(
        store: SqliteStorage) -> None:
    await store.settle_hand(finished_table(base=2), "h1")  # landlord 101: +4, others -2
    done = await store.new_match(1, expected=1)
    assert (done.old, done.new, done.hands, done.started) == (1, 2, 1, True)
    current = await store.match_standings(1)
    assert (current.match_no, current.hands_played, current.standings) == (2, 0, [])
    previous = await store.previous_match(1)
    assert previous is not None and previous.ended_by == "newmatch" and previous.winners == []
    assert [(s.user_id, s.total) for s in previous.standings] == [(101, 4), (102, -2), (103, -2)]
    assert previous.match_no == 1 and previous.hands_played == 1
    stats = await store.player_stats(1, 101)
    assert stats is not None and stats.matches_won == 0 and stats.current_total == 0


async def test_a_second_confirm_or_an_empty_match_changes_nothing(store: SqliteStorage) -> None:
    assert (await store.new_match(1)).started is False  # no hand yet: already zero
    await store.settle_hand(finished_table(), "h1")
    assert (await store.new_match(1, expected=1)).started is True
    again = await store.new_match(1, expected=1)  # the same button clicked twice
    assert (again.started, again.old, again.new) == (False, 2, 2)
    assert (await store.match_standings(1)).match_no == 2
    assert (await store.previous_match(1)).match_no == 1  # type: ignore[union-attr]


async def test_a_hand_finishing_after_the_new_match_counts_toward_it(store: SqliteStorage) -> None:
    await store.settle_hand(finished_table(table_id="a"), "a:1")
    await store.new_match(1)
    settlement = await store.settle_hand(finished_table(table_id="b", base=3), "b:1")
    assert settlement.match_no == 2 and [c.total for c in settlement.changes] == [6, -3, -3]
    assert [s.total for s in (await store.match_standings(1)).standings] == [6, -3, -3]


async def test_a_won_match_is_the_previous_one_with_its_winners(store: SqliteStorage) -> None:
    await store.save_settings(1, GuildSettings(rules=RuleSet(match_hands=1)))
    await store.settle_hand(finished_table(winner="peasants"), "h1")
    previous = await store.previous_match(1)
    assert previous is not None and previous.ended_by == "hands" and previous.match_hands == 1
    assert previous.winners == [102, 103]


async def test_a_fixed_hand_match_lost_to_the_computers_ends_without_a_winner(
        store: SqliteStorage) -> None:
    # The input that broke it: member 101 alone with two computers, match_hands=1,
    # loses as landlord (-4): the match must end, with nobody credited a match win.
    await store.save_settings(1, GuildSettings(rules=RuleSet(match_hands=1)))
    settlement = await store.settle_hand(
        finished_table(users=(101, None, None), winner="peasants", base=2), "h1")
    assert settlement.match_over and settlement.winners == []
    assert settlement.final_totals == {101: -4}
    previous = await store.previous_match(1)
    assert previous is not None and previous.ended_by == "hands" and previous.winners == []
    stats = await store.player_stats(1, 101)
    assert stats is not None and stats.matches_won == 0 and stats.current_total == 0
    assert (await store.match_standings(1)).match_no == 2


async def test_the_auto_play_pace_is_kept_per_member_and_server_and_forgotten(
        store: SqliteStorage) -> None:
    assert await store.autoplay_pace(1, 101) is None
    await store.save_autoplay_pace(1, 101, 5.0)
    await store.save_autoplay_pace(2, 101, 3.0)
    await store.save_autoplay_pace(1, 101, 7.5)
    assert (await store.autoplay_pace(1, 101), await store.autoplay_pace(2, 101)) == (7.5, 3.0)
    await store.forget_user(1, 101)
    assert (await store.autoplay_pace(1, 101), await store.autoplay_pace(2, 101)) == (None, 3.0)
