"""Refused clicks answer ephemerally with the reason and change nothing."""

from __future__ import annotations

import copy

from bot.rules import format_cards
from tests.support.fake_discord import FakeDiscord, Member
from tests.support.fake_game import comp, deal_for, members, seated_hand


async def test_a_member_who_is_not_seated_is_refused(fake: FakeDiscord) -> None:
    _, _, cy = await seated_hand(fake)
    before = fake.table_message().content
    reply = await cy.click(fake.table_message(), "Bid 1")
    assert reply.last.ephemeral and reply.text == "You're not seated at this table."
    assert fake.table_message().content == before
    assert (await cy.click(fake.table_message(), "My hand")).text == "You're not seated at this table."


async def test_a_click_out_of_turn_is_refused(fake: FakeDiscord) -> None:
    _, bo, _ = await seated_hand(fake)
    reply = await bo.click(fake.table_message(), "Bid 2")
    assert reply.last.ephemeral and reply.text == "It's not your turn."
    assert "Bids: none yet" in fake.table_message().content
    assert (await bo.slash("play", cards="3")).text == (
        "That can't be done at this point of the hand.")
    await fake.bot.service.bid(fake.bot.service.table_in_channel(fake.channel_id).id, 11, 3)
    await fake.idle()
    assert (await bo.slash("play", cards="3")).text == "It's not your turn."


async def test_a_stale_button_says_so(fake: FakeDiscord) -> None:
    ana, bo, _ = await seated_hand(fake)
    old = copy.deepcopy(fake.table_message())
    await ana.click(fake.table_message(), "Bid 1")
    reply = await bo.click(old, "Bid 2")
    assert reply.text == "That button is out of date: the table has moved on."
    assert "Bids: Ana: 1" in fake.table_message().content


async def test_a_double_click_applies_once(fake: FakeDiscord) -> None:
    ana, _, _ = await seated_hand(fake)
    message = fake.table_message()
    tokens = [fake.dispatch(ana.click_payload(message, message.buttons()["Bid 1"]["custom_id"]))
              for _ in range(2)]
    await fake.idle()
    answers = [[fake.messages[i].content for i in fake.replies.get(tok, [])] for tok in tokens]
    assert sorted(answers) == [[], ["That button is out of date: the table has moved on."]]
    table = fake.bot.service.table_in_channel(fake.channel_id)
    assert table.hand.bids == [(0, 1)]


async def test_an_invalid_selection_is_refused_and_kept(fake: FakeDiscord) -> None:
    ana, _, _ = await seated_hand(fake)
    view = (await ana.click(fake.table_message(), "My hand")).last
    await ana.click(fake.table_message(), "Bid 3")
    view = fake.messages[view.id]
    view = (await ana.click(view, comp(view, "hr0"))).last
    view = (await ana.click(view, comp(view, "hr1"))).last
    view = (await ana.click(view, comp(view, "hplay"))).last
    assert "⚠️ 34 is not a combination." in view.content
    assert view.alt_texts[0].endswith("Selected: 3 4")
    assert ".r0" in comp(view, "hplay") and comp(view, "hplay").split(":")[3] != "hplay.0.r0"


async def test_several_readings_ask_which_one(fake: FakeDiscord) -> None:
    fake.deal = {"hands": deal_for("33344455566678899"), "kitty": "2XD", "first_bidder": 0}
    ana, _, _ = await seated_hand(fake)
    await ana.click(fake.table_message(), "Bid 3")
    view = (await ana.click(fake.table_message(), "My hand")).last
    for verb in ["hr0"] * 3 + ["hr1"] * 3 + ["hr2"] * 3 + ["hr3"] * 3:
        view = (await ana.click(view, comp(view, verb))).last
    view = (await ana.click(view, comp(view, "hplay"))).last
    assert "can be played several ways" in view.content
    labels = [b["label"] for b in view.components[0]["components"]]
    assert labels == ["airplane: 333444555666", "airplane with single wings: 444555666 + 333",
                      "airplane with single wings: 333444555 + 666"]
    view = (await ana.click(view, comp(view, "hrd1"))).last
    assert "You played 333444555666." in view.content
    assert "Ana played 333444555666 (airplane with single wings)." in fake.table_message().content


async def test_hint_selects_a_play_and_says_why_then_cycles(fake: FakeDiscord) -> None:
    ana, _, _ = await seated_hand(fake)
    await ana.click(fake.table_message(), "Bid 3")
    view = (await ana.click(fake.table_message(), "My hand")).last
    view = (await ana.click(view, comp(view, "hhint"))).last
    assert "💡" in view.content and "Selected: " in view.content
    assert comp(view, "hplay").endswith(".r1")
    view = (await ana.click(view, comp(view, "hhint"))).last
    assert comp(view, "hplay").endswith(".r2")


async def test_the_card_menu_selects_every_card_ticked_in_one_interaction(
        fake: FakeDiscord) -> None:
    ana, _, _ = await seated_hand(fake)
    await ana.click(fake.table_message(), "Bid 3")
    view = (await ana.click(fake.table_message(), "My hand")).last
    menu = view.components[0]["components"][0]
    held = fake.bot.service.table_in_channel(fake.channel_id).hand.hand_of(0)
    assert menu["type"] == 3 and len(menu["options"]) == len(held) == 20
    assert menu["min_values"] == 0 and menu["max_values"] == 20
    lowest = [c for c in held if c.rank == held[0].rank]  # every card of one rank: a play
    chosen = [str(c.index) for c in lowest]  # ticked at once
    view = (await ana.click(view, menu["custom_id"], values=chosen)).last
    assert f"Selected: {format_cards(lowest)}" in view.content
    menu = view.components[0]["components"][0]
    assert sorted(o["value"] for o in menu["options"] if o["default"]) == sorted(chosen)
    view = (await ana.click(view, comp(view, "hplay"))).last
    assert f"You played {format_cards(lowest)}" in view.content


async def test_commands_outside_a_table_explain_what_to_do(fake: FakeDiscord) -> None:
    _, _, cy = members(fake)
    assert (await cy.slash("pass")).text == "You're not seated at a table in this server."
    reply = await cy.slash("config", target=40)
    assert reply.text == "Only members with Manage Server can change the settings."
    admin = Member(fake, 44, "Di", admin=True)
    reply = await admin.slash("config", target=40)
    assert reply.last.embeds and "Match target: 40 points" in reply.last.embeds[0]["description"]
    assert (await cy.slash("rules")).last.ephemeral


async def test_clicks_are_answered_concurrently_without_losing_any(fake: FakeDiscord) -> None:
    ana, bo, cy = members(fake)
    await ana.slash("start")
    message = fake.table_message()
    for member in (bo, cy):
        fake.dispatch(member.click_payload(message, message.buttons()["Join"]["custom_id"]))
    await fake.idle()
    table = fake.bot.service.table_in_channel(fake.channel_id)
    assert sorted(s.name for s in table.seats) == ["Ana", "Bo", "Cy"]


async def test_forged_config_values_are_refused_and_change_nothing(fake: FakeDiscord) -> None:
    admin = Member(fake, 44, "Di", admin=True)
    before = await fake.bot.service.settings(fake.guild_id)
    for options in ({"target": 0}, {"turn_seconds": 1}, {"bid_seconds": 100_000}):
        reply = await admin.slash("config", **options)
        assert reply.last.ephemeral, options
        assert reply.text == "That setting is out of range; nothing was changed.", (options, reply.text)
    for options in ({"language": "xx"}, {"kickers": "any"}):
        reply = await admin.slash("config", **options)
        assert reply.last.ephemeral, options
        assert reply.text == "That option value is not one of the choices; nothing was changed.", (
            options, reply.text)
    assert await fake.bot.service.settings(fake.guild_id) == before


async def test_a_member_already_seated_is_told_which_table_and_channel(fake: FakeDiscord) -> None:
    # Before: "You're already seated at a table in this server." without saying where,
    # so a member who never pressed Leave after a hand elsewhere could not find it.
    ana, _, _ = members(fake)
    await ana.slash("start")
    table = fake.bot.service.table_in_channel(fake.channel_id)
    expected = f"You're already seated at table `{table.id}` in <#{fake.channel_id}>."
    assert (await ana.click(fake.table_message(), "Join")).text == expected
    assert (await ana.slash("start")).text in (expected, BUSY)
    es, _, _ = members(fake, "es-ES")
    assert (await es.click(fake.table_message(), "Join")).text == (
        f"Ya estás sentado en la mesa `{table.id}` de <#{fake.channel_id}>.")


BUSY = ("This channel already has an open table: press **Join** on its message while a seat is"
        " free, or open your own in another channel with `/ddz start`. The table closes once"
        " its players press **Leave**.")


async def test_a_busy_channel_says_how_to_sit_down_or_where_to_start(fake: FakeDiscord) -> None:
    # Issue 48: "This channel already has an open table." and nothing more.
    ana, bo, _ = members(fake)
    await ana.slash("start")
    reply = await bo.slash("start")
    assert reply.last.ephemeral and reply.text == BUSY
    es = Member(fake, 22, "Bo", "es-ES", "es-ES")
    assert (await es.slash("start")).text.startswith(
        "Este canal ya tiene una mesa abierta: pulsa **Unirse** en su mensaje")
    assert "Join" in fake.table_message().buttons()  # the way forward it names is there
