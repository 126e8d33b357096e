"""Leaving during a hand from the table message (docs/RULES.md §Timers: the seat goes to
auto-play, the hand still counts for the member, and they may take the seat back)."""

from __future__ import annotations

from tests.support.fake_discord import FakeDiscord
from tests.support.fake_game import members
from tests.support.forge import table_of


async def test_a_member_leaves_mid_hand_with_the_leave_button_and_takes_the_seat_back(
        fake: FakeDiscord) -> None:
    # Before: the table message of a hand offered only "My hand" (and the bids): the
    # documented way out of a hand could be reached only with a forged custom_id.
    ana, bo, _ = members(fake)
    await ana.slash("start")
    await bo.click(fake.table_message(), "Join")
    await ana.click(fake.table_message(), "Add computer")
    await ana.click(fake.table_message(), "Start")
    deal = fake.table_message()
    assert list(deal.buttons()) == ["Pass", "Bid 1", "Bid 2", "Bid 3", "My hand", "Leave"]
    left = await bo.click(deal, "Leave")
    assert left.messages == [] or "not" not in left.text, left.text
    seat = table_of(fake).seats[1]
    assert seat.user_id == 22 and seat.away and seat.autoplay
    assert ("Bo left the hand; the computer plays for them until it ends, and the result"
            " counts for them.") in (
        fake.table_message().content)
    view = (await bo.slash("hand")).last  # the seat is still Bo's: the view says how back
    assert ("You left this hand: the computer plays the rest of it for you" in view.content
            and "Press Auto or make a move to take your seat back." in view.content)
    es, _, _ = members(fake, "es-ES")
    assert (await es.slash("hand")).last.content.startswith("**Tu mano**")  # same member 11
    await ana.click(fake.table_message(), "Bid 3")
    await fake.idle()
    playing = fake.table_message()
    assert list(playing.buttons()) == ["My hand", "Leave"]
    assert "Cy" not in playing.content
    outsider = await members(fake)[2].click(playing, "Leave")
    assert outsider.text == "You're not seated at this table."
    await bo.slash("autoplay", mode="off")  # back in the seat
    seat = table_of(fake).seats[1]
    assert not seat.away and not seat.autoplay
