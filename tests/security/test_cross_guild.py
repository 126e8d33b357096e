"""A custom_id naming a table of another guild or channel (DEVELOPERS guide: the
server re-checks guild and table on every action). Clicks are forged from guild B
on a message carrying guild A's table id."""

from __future__ import annotations

from tests.support.fake_discord import FakeDiscord, Member
from tests.support.fake_game import members
from tests.support.forge import (
    OTHER_CHANNEL,
    OTHER_GUILD,
    assert_polite,
    forge_click,
    playing_hand,
    slash_from,
    snapshot,
    table_of,
)

ELSEWHERE = {"guild_id": OTHER_GUILD, "channel_id": OTHER_CHANNEL}


async def lobby(fake: FakeDiscord) -> tuple[Member, Member]:
    """Ana's lobby in guild A; Eve administers guild B (Manage Server there)."""
    ana, _, _ = members(fake)
    await ana.slash("start")
    return ana, Member(fake, 55, "Eve", admin=True)


async def test_a_member_of_another_guild_cannot_join_by_forged_id(fake: FakeDiscord) -> None:
    _, eve = await lobby(fake)
    table = table_of(fake)
    before = await snapshot(fake)
    reply = await forge_click(eve, fake.table_message(), f"ddz:{table.id}:{table.seq}:join",
                              **ELSEWHERE)
    assert table_of(fake).seat_of(eve.id) is None
    assert await snapshot(fake) == before
    assert_polite(reply)


async def test_an_admin_of_another_guild_cannot_cancel_by_forged_id(fake: FakeDiscord) -> None:
    _, eve = await lobby(fake)
    table = table_of(fake)
    before = await snapshot(fake)
    reply = await forge_click(eve, fake.table_message(), f"ddz:{table.id}:{table.seq}:cancel",
                              **ELSEWHERE)
    assert fake.bot.service.get(table.id) is not None, "guild A's table was closed from guild B"
    assert await snapshot(fake) == before
    assert_polite(reply)


async def test_outsider_clicks_from_another_guild_change_nothing(fake: FakeDiscord) -> None:
    _, eve = await lobby(fake)
    table = table_of(fake)
    before = await snapshot(fake)
    for action in ("start", "cpu", "leave", "again", "bid1", "hand"):
        reply = await forge_click(eve, fake.table_message(),
                                  f"ddz:{table.id}:{table.seq}:{action}", **ELSEWHERE)
        assert_polite(reply)
    assert await snapshot(fake) == before


async def test_a_player_from_another_guild_plays_only_their_own_seat(fake: FakeDiscord) -> None:
    """A seated member's slash command in another guild finds no table there."""
    ana, _, _ = await playing_hand(fake)
    before = await snapshot(fake)
    for sub, options in [("play", {"cards": "3"}), ("pass", {}), ("stop", {})]:
        reply = await slash_from(ana, sub, **ELSEWHERE, **options)
        assert_polite(reply, "You're not seated at a table in this server.")
    assert await snapshot(fake) == before


async def test_admin_of_another_guild_cannot_stop_by_slash(fake: FakeDiscord) -> None:
    await playing_hand(fake)
    eve = Member(fake, 55, "Eve", admin=True)
    before = await snapshot(fake)
    reply = await slash_from(eve, "stop", **ELSEWHERE)
    assert_polite(reply, "You're not seated at a table in this server.")
    assert await snapshot(fake) == before
