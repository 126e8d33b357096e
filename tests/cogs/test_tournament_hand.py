"""A tournament table's hand view on the fake Discord (docs/RULES.md §Tournaments): My hand
opens, names the round and table, and takes a bid, in English and Spanish. The input that
broke it (issue 48): ``/ddz hand`` at a tournament table answered "Sorry, something went
wrong" (``KeyError: 'tournament'``, the hand view's titles knew daily, event and channel
tables only)."""

from __future__ import annotations

import pytest

from bot.game.seat import Event, Seat, computer_seat
from bot.game.table import Table
from bot.i18n import available_locales, t
from bot.service import TableService
from tests.support.fake_discord import FakeDiscord, Member
from tests.support.fake_game import CHANNEL_ID, GUILD_ID

SORRY = {lang: t("error.internal", lang) for lang in available_locales()}
"""The apology a member reads when a click failed, in each language."""


async def tournament_table(service: TableService, users: tuple[int, int]) -> Table:
    """Round 1, table 2 of a tournament, dealt in the fake's channel: two members and a
    computer, as ``TournamentService`` deals it (``Table.deal_next``)."""
    table = Table(guild_id=GUILD_ID, channel_id=CHANNEL_ID, starter_id=999,
                  tournament="cup:1:2", computer_level="easy")
    for i, user in enumerate(users):
        table.seats[i] = Seat(user_id=user, name=f"u{user}")
    table.seats[2] = computer_seat(2, "easy")
    events = [Event(kind="opened", seat=0), *table.deal_next(service.clock.now(), seed=1)]

    async def claim() -> bool:
        await service.storage.save_table(table)
        return True

    await service.add_private(table, claim, events)
    return table


@pytest.mark.parametrize(("locale", "title", "bid"), [
    ("en-US", "🏆 **Your hand** · round 1, table 2 · hand #1", "You bid"),
    ("es-ES", "🏆 **Tu mano** · ronda 1, mesa 2 · mano n.º 1", "Has apostado"),
])
async def test_my_hand_opens_at_a_tournament_table_and_takes_a_bid(
        fake: FakeDiscord, locale: str, title: str, bid: str) -> None:
    service = fake.bot.service
    table = await tournament_table(service, (11, 12))
    assert service.hand_title(table) == ("tournament.hand_title",
                                         {"round": "1", "table": "2", "hand": 1})
    hand = table.hand  # seed 1: Ana bids first
    assert hand is not None and hand.turn is not None
    assert hand.turn == 0  # the seed's first bidder: Ana
    member = Member(fake, 11, "Ana", locale=locale)
    view = (await member.slash("hand")).last
    assert view.ephemeral and view.content.splitlines()[0] == title, view.content
    assert not any(sorry in view.content for sorry in SORRY.values()), view.content
    reply = await member.click(view, next(c for c in view.custom_ids() if ":hb3." in c))
    shown = reply.last  # the view redrawn, with the same title
    assert shown.content.splitlines()[0] == title, shown.content
    assert f"{bid} 3." in shown.content, shown.content
