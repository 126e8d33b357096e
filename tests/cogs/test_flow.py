"""A whole hand through the real command tree and DynamicItem routing (English)."""

from __future__ import annotations

from bot.rules import show_cards
from tests.support.fake_discord import FakeDiscord
from tests.support.fake_game import comp, deal_for, members


async def test_start_join_add_computer_posts_and_edits_the_public_lobby(fake: FakeDiscord) -> None:
    ana, bo, _ = members(fake)
    reply = await ana.slash("start")
    assert reply.last.ephemeral and reply.text.startswith("Table `") and "is open" in reply.text
    lobby = fake.table_message()
    assert not lobby.ephemeral
    assert lobby.content.splitlines()[1:4] == ["Seat 1: Ana", "Seat 2: — empty —", "Seat 3: — empty —"]
    assert list(lobby.buttons()) == ["Join", "Leave", "Add computer", "Start", "Cancel",
                                     "Seat given up → computer"]
    assert lobby.buttons()["Start"]["disabled"] is True

    assert (await bo.click(lobby, "Join")).messages == []  # a deferred update, no message
    assert "Seat 2: Bo" in fake.messages[lobby.id].content
    await ana.click(fake.messages[lobby.id], "Add computer")
    lobby = fake.messages[lobby.id]
    assert "Seat 3: Bot 3 (computer, normal)" in lobby.content
    assert lobby.buttons()["Start"]["disabled"] is False and lobby.buttons()["Join"]["disabled"]


async def test_a_hand_from_start_to_result_with_bids_plays_and_totals(fake: FakeDiscord) -> None:
    ana, bo, _ = members(fake)
    await ana.slash("start")
    lobby = fake.table_message()
    await bo.click(lobby, "Join")
    await ana.click(fake.messages[lobby.id], "Add computer")
    await bo.click(fake.messages[lobby.id], "Start")

    deal = fake.table_message()
    assert deal.id != lobby.id and fake.messages[lobby.id].components == []
    # issue 48: one number per hand, the server's, once it has one (the result): the deal
    # shows none, so the table's own count never reads as a second number
    assert "` · bidding" in deal.content and "hand #" not in deal.content
    assert "<@11>, your turn to bid" in deal.content
    assert deal.allowed_mentions == {"parse": []}  # the turn ping notifies, not the board
    assert list(deal.buttons()) == ["Pass", "Bid 1", "Bid 2", "Bid 3", "My hand", "Leave"]
    table_id = fake.bot.service.table_in_channel(fake.channel_id).id
    assert deal.alt_texts[0].startswith(f"Ana to bid. Table {table_id}: Ana, 17 cards")
    assert deal.alt_texts[0].endswith(". No bid yet, multiplier ×1."), deal.alt_texts  # not "Bid 0"

    view = (await ana.click(deal, "My hand")).last
    out = "3, 4, 5×2, 6×2, 7×2, 8×2, 9×2, 10×3, J×4, Q×4, K×4, A×4, 2×4"
    assert view.ephemeral and view.alt_texts == [
        f"Your hand: 3 3 3 4 4 4 5 5 6 6 7 7 8 8 9 9 10. Not seen by you yet: {out}, small joker, big joker"]  # the card counter
    assert "It's your turn to bid." in view.content

    await ana.click(fake.messages[deal.id], "Bid 3")
    deal = fake.messages[deal.id]
    assert "Landlord: Ana · bid 3 · multiplier ×1" in deal.content
    assert "Kitty (shown to everyone): 2 small joker big joker" in deal.content
    assert list(deal.buttons()) == ["My hand", "Leave"]
    view = fake.messages[view.id]  # kept current through the stored interaction
    out = out[:-1] + "3"  # the kitty 2XD is turned up: seen by everyone
    assert view.alt_texts == [f"Your hand: 3 3 3 4 4 4 5 5 6 6 7 7 8 8 9 9 10 2 small joker big joker. Not seen by you yet: {out}"]
    assert "you lead" in view.content

    for verb in ("hr0", "hr0", "hr0", "hr1", "hr1"):
        view = (await ana.click(view, comp(view, verb))).last
    assert view.alt_texts == [f"Your hand: 3 3 3 4 4 4 5 5 6 6 7 7 8 8 9 9 10 2 small joker big joker. Not seen by you yet: {out}. Selected: 3 3 3 4 4"]
    assert "Selected: 33344 (trio with a pair: 333 + 44)" in view.content
    view = (await ana.click(view, comp(view, "hplay"))).last
    assert "You played 33344." in view.content
    assert "Ana played 33344 (trio with a pair)." in fake.messages[deal.id].content

    reply = await bo.slash("pass")
    assert reply.last.ephemeral and reply.text == "You passed."
    assert "Bo" not in reply.text and "<@22>" not in fake.messages[deal.id].content

    for member in (ana, bo):
        assert (await member.slash("autoplay", mode="on")).text.startswith("Auto-play is on")
    await fake.idle()
    result = fake.table_message()
    assert result.id == deal.id and "hand #1 · result" in result.content
    assert "P = 3 × 2¹ = 6" in result.content and "match total" in result.content
    assert list(result.buttons()) == ["Play again", "Leave", "Replay", "Review my play"]
    assert "Hand #1 of this server: `/ddz replay 1`" in result.content
    assert result.alt_texts[0].startswith("Result of hand #1:")

    score = await ana.slash("score")
    assert not score.last.ephemeral and score.last.embeds
    fields = score.last.embeds[0]["fields"]
    assert "Ana" in fields[0]["value"] and "Bo" in fields[0]["value"]
    stats = await bo.slash("stats")
    assert stats.last.embeds[0]["title"] == "Dou Dizhu record of Bo"


async def test_hands_never_appear_in_public_messages_while_playing(fake: FakeDiscord) -> None:
    ana, bo, _ = members(fake)
    # an easy computer passes on its hand here, so Bo still gets to bid (normal would bid 3)
    await ana.slash("start", computers=1, level="easy")
    await bo.click(fake.table_message(), "Join")
    await bo.click(fake.table_message(), "Start")
    await ana.click(fake.table_message(), "My hand")
    await ana.click(fake.table_message(), "Bid 1")
    await bo.click(fake.table_message(), "Bid 2")
    for message in fake.public():
        text = message.content + " ".join(message.alt_texts)
        for hand in ("3334445566778899T", "3456789TJJQQKKAA2", "56789TTJJQQKKAA22"):
            assert hand not in text and show_cards(hand) not in text  # either way of writing it


async def test_a_match_win_is_announced_and_play_again_deals_a_new_message(fake: FakeDiscord) -> None:
    fake.deal = {"hands": deal_for("XD2222AAAAKKKKQQQ", "QJJ"), "kitty": "QJJ", "first_bidder": 0}
    ana, _, _ = members(fake)
    ana.admin = True
    await ana.slash("config", target=1)
    await ana.slash("start", computers=2)
    await ana.click(fake.table_message(), "Start")
    deal = fake.table_message()
    assert (await ana.slash("autoplay", mode="on")).last.ephemeral
    await fake.idle()
    announcement = fake.last_public()
    assert announcement.id != deal.id and "won the match" in announcement.content
    assert announcement.content.endswith("A new match starts at zero.")
    assert "hand #1 · result" in fake.messages[deal.id].content
    await ana.click(fake.messages[deal.id], "Play again")
    # the old result keeps only Replay and Review (its hand can be watched later)
    assert list(fake.messages[deal.id].buttons()) == ["Replay", "Review my play"]
    assert fake.table_message().id != deal.id  # hand 2, in a new message


async def test_the_lobby_says_any_seated_player_may_start_as_they_can(fake: FakeDiscord) -> None:
    # Before: "Ana can start once all three seats are filled." while Start works for
    # every seated member (docs/RULES.md §A hand at the table, 1. Lobby).
    ana, bo, _ = members(fake)
    await ana.slash("start")
    await bo.click(fake.table_message(), "Join")
    hint = fake.table_message().content.splitlines()[-1]
    assert hint == ("Press Join to take a seat. Once all three seats are filled, any seated "
                    "player can press Start; Ana opened the table and can Cancel it."), hint
    assert "Ana can start" not in fake.table_message().content
    await bo.click(fake.table_message(), "Add computer")
    await bo.click(fake.table_message(), "Start")
    assert "` · bidding" in fake.table_message().content


async def test_a_message_left_behind_by_a_new_one_says_where_the_game_went(
        fake: FakeDiscord) -> None:
    # Before: the old lobby kept "waiting for players … Press Join" and the bidding
    # message of a redealt hand kept "<@Cy>, your turn to bid … Time runs out", with
    # no buttons, above the live message.
    ana, bo, cy = members(fake)
    await ana.slash("start")
    lobby = fake.table_message()
    await bo.click(lobby, "Join")
    await cy.click(fake.messages[lobby.id], "Join")
    await ana.click(fake.messages[lobby.id], "Start")
    old = fake.messages[lobby.id]
    table_id = fake.bot.service.table_in_channel(fake.channel_id).id
    assert old.content == (f"**Dou Dizhu** · table `{table_id}`\n"
                           "The cards were dealt: the hand goes on in a new message below.")
    assert old.components == []
    bidding = fake.table_message()
    for member in (ana, bo, cy):  # everyone passes: the cards are dealt again
        await member.click(fake.messages[bidding.id], "Pass")
    await fake.idle()
    assert fake.table_message().id != bidding.id
    assert "Everyone passed" in fake.table_message().content
    old = fake.messages[bidding.id]
    assert old.content == (f"**Dou Dizhu** · table `{table_id}`\n"
                           "The hand continues in a new message below."), old.content
    assert old.components == [] and old.attachments == []
