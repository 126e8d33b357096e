"""A moderator deletes the live table message (docs/RELIABILITY.md): the bot's next
edit gets Discord's 10008 Unknown Message on its token (which only drops the token),
then once more on the channel (which says the message is deleted: docs/DISCORD.md row 7),
it posts the table again, and never edits the deleted message again, whatever table
changes arrive meanwhile."""

from __future__ import annotations

from tests.support.fake_discord import FakeDiscord
from tests.support.fake_game import members


async def test_a_deleted_table_message_is_tried_once_then_posted_again(fake: FakeDiscord) -> None:
    # Redraws paced and computers pausing as in the bot (shorter): a computer's move
    # lands while the board, told the message is gone, waits for its next redraw. It
    # used to take the old id back from the service's Table and edit it again (an
    # e2e run hit a second 10008 this way).
    fake.bot.get_cog("ddz").board.interval = 0.2
    fake.bot.service.ai_delay = 0.1
    ana, _, _ = members(fake)
    await ana.slash("start", computers=2)
    await ana.click(fake.table_message(), "Start")
    deal = fake.table_message()
    await ana.click(deal, "Bid 3")
    await fake.idle()
    fake.deleted.add(deal.id)  # a moderator deletes it
    assert (await ana.slash("play", cards="3")).text == "You played 3."
    await fake.idle()
    assert fake.refused_edits == [deal.id, deal.id]  # on the token, then on the channel
    live = fake.table_message()
    assert live.id != deal.id and "<@11>, your turn" in live.content, live.content
    await ana.slash("autoplay", mode="on")
    await fake.idle()
    assert fake.refused_edits == [deal.id, deal.id]
    assert "· result" in fake.table_message().content
    assert [m.id for m in fake.public() if m.components and m.id != deal.id] == [live.id]


async def test_a_table_message_out_of_edits_is_replaced_at_once_without_retries(
        fake: FakeDiscord) -> None:
    # A message older than an hour answers 30046 to edits (docs/DISCORD.md row 14): it
    # used to be retried 5 times (1, 2, 4, 8 s apart) like any error, the table frozen.
    fake.bot.get_cog("ddz").board.interval = 0.2
    ana, _, _ = members(fake)
    await ana.slash("start", computers=2)
    await ana.click(fake.table_message(), "Start")
    deal = fake.table_message()
    await ana.click(deal, "Bid 3")
    await fake.idle()
    fake.old.add(deal.id)
    assert (await ana.slash("play", cards="3")).text == "You played 3."
    await fake.idle()
    assert fake.refused_edits == [deal.id]  # once, on its token: no retry, no channel repeat
    live = fake.table_message()
    assert live.id != deal.id and "<@11>, your turn" in live.content, live.content
    await ana.slash("autoplay", mode="on")
    await fake.idle()
    assert fake.refused_edits == [deal.id] and "· result" in fake.table_message().content
