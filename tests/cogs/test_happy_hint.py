"""The Hint on a Happy table's decisions in the hand view (docs/AI.md §Happy rules): the
seat asked to call gets the hard computer's answer with its numbers, in its language; a
seat asked nothing has the Hint off, and a forged Hint click from it is refused politely
and changes nothing."""

from __future__ import annotations

import pytest

from bot.ai import hint_options
from bot.i18n import t
from cogs.hand_actions import hint_reason
from tests.support.fake_discord import FakeDiscord, Message
from tests.support.fake_game import comp, members


def disabled(view: Message, verb: str) -> bool:
    wanted = comp(view, verb)
    return bool(next(c for row in view.components for c in row.get("components", [])
                     if c.get("custom_id") == wanted).get("disabled"))


@pytest.mark.parametrize("locale", ["en-US", "es-ES"])
async def test_the_seat_asked_to_call_gets_the_computers_answer(fake: FakeDiscord,
                                                                locale: str) -> None:
    ana, bo, _ = members(fake)
    await ana.slash("start", rules="happy")
    await bo.click(fake.table_message(), "Join")
    await ana.click(fake.table_message(), "Add computer")
    await bo.click(fake.table_message(), "Start")
    table = fake.bot.service.table_in_channel(fake.channel_id)
    assert table.hand is not None
    first = table.hand.turn
    asked, idle = (ana, bo) if first == 0 else (bo, ana)
    asked.locale, lang = locale, locale[:2]
    seat = 0 if asked is ana else 1
    assert table.hand.asked(seat) == "call" and table.hand.asked(1 - seat) is None
    expected = hint_options(table.hand.observation(seat), happy="call")[0]

    # the seat asked nothing: the Hint is off, and a forged click changes nothing
    other = (await idle.click(fake.table_message(), "My hand")).last
    assert disabled(other, "hhint")
    seq = table.seq
    other = (await idle.click(other, comp(other, "hhint"))).last
    assert "It's not your turn." in other.content and "💡" not in other.content
    assert fake.bot.service.table_in_channel(fake.channel_id).seq == seq

    view = (await asked.click(fake.table_message(), "My hand")).last
    assert not disabled(view, "hhint")
    view = (await asked.click(view, comp(view, "hhint"))).last
    await fake.idle()
    view = fake.messages[view.id]
    assert t("hand.hint", lang, reason=hint_reason(expected, lang)) in view.content, view.content
    after = fake.bot.service.table_in_channel(fake.channel_id)
    assert after.seq == seq and after.hand.asked(seat) == "call"  # nothing decided
