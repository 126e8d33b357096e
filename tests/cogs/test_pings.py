"""Turn pings on the fake Discord (docs/RULES.md §Turn pings): the message that mentions
the member to act, allowed to notify only them, posted on a live token (else through the
channel) and deleted when their turn ends; ``/ddz notify`` and ``/ddz config turn_ping``."""

from __future__ import annotations

import asyncio

from tests.support.embeds import embed_text
from tests.support.fake_discord import FakeDiscord, Member, Message
from tests.support.fake_game import members

ANA, BO = 11, 22


def pings(fake: FakeDiscord) -> list[Message]:
    """Every turn ping posted so far (deleted ones included), oldest first."""
    return [m for m in fake.messages.values()
            if not m.ephemeral and "turn to" in m.content and not m.components
            and m.allowed_mentions and m.allowed_mentions.get("users")]


async def deal(fake: FakeDiscord, ana: Member, bo: Member) -> None:
    """Ana and Bo with a computer; Bo presses Start: Ana bids first."""
    await ana.slash("start")
    lobby = fake.table_message()
    await bo.click(lobby, "Join")
    await ana.click(fake.messages[lobby.id], "Add computer")
    await bo.click(fake.messages[lobby.id], "Start")


async def test_now_pings_the_first_bidder_on_a_token_and_her_bid_deletes_it(
        fake: FakeDiscord) -> None:
    ana, bo, _ = members(fake)
    ana.admin = True
    reply = await ana.slash("config", turn_ping="now")
    assert "Turn pings: as the turn begins" in reply.last.embeds[0]["description"]
    before = len(fake.requests)
    await deal(fake, ana, bo)
    [ping] = pings(fake)
    assert ping.content.startswith(f"<@{ANA}>, your turn to bid at the Dou Dizhu table")
    assert "(time runs out <t:" in ping.content
    assert ping.allowed_mentions == {"parse": [], "users": [ANA]}  # her, nobody else
    assert ("POST", "/webhooks/{webhook_id}/{webhook_token}") in fake.requests[before:]
    assert ping.id not in fake.deleted
    table = fake.table_message()
    assert table.allowed_mentions == {"parse": []}  # the board notifies nobody
    await ana.click(table, "Bid 1")
    assert ping.id in fake.deleted
    assert ("DELETE", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}") \
        in fake.requests
    [_, second] = pings(fake)  # Bo's turn now (the computer is not pinged)
    assert second.content.startswith(f"<@{BO}>, your turn to bid")
    assert second.allowed_mentions == {"parse": [], "users": [BO]}


async def test_after_a_second_without_a_token_the_ping_goes_through_the_channel(
        fake: FakeDiscord) -> None:
    ana, bo, _ = members(fake)
    ana.admin = True
    await ana.slash("config", turn_ping_after=1)
    await deal(fake, ana, bo)
    assert pings(fake) == []  # she is not pinged at once
    delivery = fake.bot.get_cog("ddz").board.delivery
    delivery.posters.clear()  # no live token (a restart, or 15 minutes without a click)
    delivery.editors.clear()
    limited = fake.global_limited
    await asyncio.sleep(1.3)
    await fake.idle()
    [ping] = pings(fake)
    assert ping.content.startswith(f"<@{ANA}>, your turn to bid")
    assert fake.global_limited == limited + 1  # the post, within the global budget
    await ana.click(fake.table_message(), "Pass")
    assert ping.id in fake.deleted
    assert ("DELETE", "/channels/{channel_id}/messages/{message_id}") in fake.requests


async def test_notify_off_spares_her_and_turn_ping_off_spares_everyone(
        fake: FakeDiscord) -> None:
    ana, bo, _ = members(fake)
    ana.admin = True
    await ana.slash("config", turn_ping="now")
    reply = await ana.slash("notify", mode="off")
    assert reply.last.ephemeral and reply.text.startswith("Turn pings are off for you")
    await deal(fake, ana, bo)
    assert pings(fake) == []
    await ana.click(fake.table_message(), "Bid 1")
    assert [p.content[:8] for p in pings(fake)] == [f"<@{BO}>, y"]  # Bo still is pinged
    reply = await ana.slash("config", turn_ping="off")
    assert "Turn pings: off" in reply.last.embeds[0]["description"]
    await bo.click(fake.table_message(), "Pass")
    assert len(pings(fake)) == 1  # nobody new
    reply = await ana.slash("notify", mode="on")
    assert reply.text.startswith("Turn pings are on for you") and "Turn pings: off" in reply.text


async def test_the_answers_and_the_rules_speak_spanish(fake: FakeDiscord) -> None:
    ana, _, _ = members(fake, "es-ES")
    ana.admin = True
    reply = await ana.slash("config", turn_ping_after=20)
    assert "Avisos de turno: tras 20 segundos de espera" in reply.last.embeds[0]["description"]
    reply = await ana.slash("notify", mode="off")
    assert reply.text.startswith("Los avisos de turno están desactivados para ti")
    rules = embed_text((await ana.slash("rules")).last.embeds[0])
    assert "**Avisos de turno** Cuando tu turno espera" in rules
