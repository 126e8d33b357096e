"""The same forged action sent 20 times at once, and leave/join races: each applies
at most once, every other copy is refused politely, memory and database agree."""

from __future__ import annotations

from collections import Counter

from tests.support.fake_discord import FakeDiscord, Member
from tests.support.fake_game import comp, members
from tests.support.forge import (
    OTHER_CHANNEL,
    assert_polite,
    dispatch,
    playing_hand,
    seated_hand,
    slash_from,
    snapshot,
    table_of,
)

STALE = "That button is out of date: the table has moved on."
TIMES = 20


async def memory_matches_database(fake: FakeDiscord) -> None:
    state = await snapshot(fake)
    assert state["memory"] == state["stored"]


def texts(fake: FakeDiscord, member: Member, tokens: list[str]) -> list[str]:
    return [member._reply(tok).text for tok in tokens]


async def test_twenty_identical_bids_apply_once(fake: FakeDiscord) -> None:
    ana, _, _ = await seated_hand(fake)
    table, message = table_of(fake), fake.table_message()
    tokens = [dispatch(ana, message, f"ddz:{table.id}:{table.seq}:bid1") for _ in range(TIMES)]
    await fake.idle()
    answers = Counter(texts(fake, ana, tokens))
    assert answers == {"": 1, STALE: TIMES - 1}
    for tok in tokens[1:]:
        if ana._reply(tok).messages:
            assert_polite(ana._reply(tok), STALE)
    assert table_of(fake).hand.bids == [(0, 1)]
    await memory_matches_database(fake)


async def test_twenty_identical_plays_from_the_hand_view_play_once(fake: FakeDiscord) -> None:
    ana, _, _ = await playing_hand(fake)
    view = (await ana.click(fake.table_message(), "My hand")).last
    view = (await ana.click(view, comp(view, "hr0"))).last
    held = len(table_of(fake).hand.hand_of(0))
    tokens = [dispatch(ana, view, comp(view, "hplay")) for _ in range(TIMES)]
    await fake.idle()
    hand = table_of(fake).hand
    assert len(hand.hand_of(0)) == held - 1
    assert [p.combo.notation for p in hand.history if p.seat == 0 and p.combo] == ["3"]
    assert all(ana._reply(tok).last.ephemeral for tok in tokens)
    await memory_matches_database(fake)


async def test_twenty_forged_cancels_by_a_non_starter_change_nothing(fake: FakeDiscord) -> None:
    _, bo, cy = await playing_hand(fake)
    table, message = table_of(fake), fake.table_message()
    before = await snapshot(fake)
    tokens = [dispatch(m, message, f"ddz:{table.id}:{table.seq}:cancel")
              for m in (bo, cy) for _ in range(TIMES // 2)]
    await fake.idle()
    for member, tok in zip([bo] * (TIMES // 2) + [cy] * (TIMES // 2), tokens, strict=True):
        assert_polite(member._reply(tok),
                      "Only the player who opened the table (or an admin) can do that.")
    assert await snapshot(fake) == before


async def test_leave_and_join_races_keep_one_seat_per_member(fake: FakeDiscord) -> None:
    ana, bo, cy = members(fake)
    await ana.slash("start")
    table = table_of(fake)
    message = fake.table_message()
    for _ in range(TIMES // 2):
        for member in (bo, cy):
            dispatch(member, message, f"ddz:{table.id}:{table.seq}:join")
            dispatch(member, message, f"ddz:{table.id}:{table.seq}:leave")
    await fake.idle()
    table = table_of(fake)
    ids = [s.user_id for s in table.seats if s.user_id is not None]
    assert len(ids) == len(set(ids)) and ana.id in ids
    await memory_matches_database(fake)


async def test_joining_two_tables_at_once_seats_a_member_once(fake: FakeDiscord) -> None:
    ana, bo, cy = members(fake)
    await ana.slash("start")
    await slash_from(bo, "start", channel_id=OTHER_CHANNEL)
    tables = fake.bot.service.tables()
    assert len(tables) == 2
    message = fake.table_message()
    for _ in range(TIMES // 2):
        for table in tables:
            dispatch(cy, message, f"ddz:{table.id}:{table.seq}:join")
    await fake.idle()
    seats = [t.seat_of(cy.id) for t in fake.bot.service.tables()]
    assert sum(s is not None for s in seats) == 1
    await memory_matches_database(fake)
