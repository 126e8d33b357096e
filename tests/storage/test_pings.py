"""Turn pings in storage (docs/RULES.md §Turn pings): the server's setting, each
member's ``/ddz notify`` choice (deleted by ``/ddz forget``), and the pings sent and not
yet deleted, on both backends."""

from __future__ import annotations

from bot.storage.base import SqlRepository
from bot.values import GuildSettings, SentPing, ShardSet


async def test_the_turn_ping_setting_defaults_to_after_ten_seconds_and_round_trips(
        store: SqlRepository) -> None:
    assert (await store.get_settings(1)).ping_delay() == 10.0
    await store.save_settings(1, GuildSettings().with_changes(turn_ping_after=25))
    await store.save_settings(2, GuildSettings().with_changes(turn_ping="off"))
    await store.save_settings(3, GuildSettings().with_changes(turn_ping="now"))
    one, two, three = [await store.get_settings(g) for g in (1, 2, 3)]
    assert (one.turn_ping, one.turn_ping_after, one.ping_delay()) == ("after", 25, 25.0)
    assert (two.turn_ping, two.ping_delay()) == ("off", None)
    assert (three.turn_ping, three.ping_delay()) == ("now", 0.0)


async def test_notify_is_on_until_turned_off_per_server_and_forget_deletes_it(
        store: SqlRepository) -> None:
    assert await store.notify(1, 101) is True
    await store.save_notify(1, 101, False)
    await store.save_notify(2, 101, True)
    assert (await store.notify(1, 101), await store.notify(2, 101)) == (False, True)
    await store.save_notify(1, 101, True)
    await store.save_notify(1, 101, False)
    assert await store.notify(1, 101) is False
    assert await store.forget_user(1, 101) >= 1
    assert await store.notify(1, 101) is True  # forgotten: the default again
    assert await store.notify(2, 101) is True


async def test_sent_pings_are_kept_one_per_table_until_deleted(store: SqlRepository) -> None:
    first = SentPing(table_id="t1", guild_id=1 << 22, channel_id=10, user_id=101,
                     move_seq=3, message_id=900)
    other = SentPing(table_id="t2", guild_id=2 << 22, channel_id=20, user_id=102,
                     move_seq=5, message_id=901)
    await store.save_sent_ping(first)
    await store.save_sent_ping(other)
    newer = first.model_copy(update={"move_seq": 4, "message_id": 902})
    await store.save_sent_ping(newer)  # the table's next ping replaces the row
    assert await store.sent_pings() == [newer, other]
    assert await store.sent_pings(ShardSet(count=2, ids=(1,))) == [newer]
    await store.delete_sent_ping("t1", 900)  # an older message of the table: nothing
    assert await store.sent_pings() == [newer, other]
    await store.delete_sent_ping("t1", 902)
    assert await store.sent_pings() == [other]
