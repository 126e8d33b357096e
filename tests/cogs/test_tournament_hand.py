"""A tournament table's hand view on the fake Discord (docs/RULES.md §Tournaments): My hand
opens, names the round and table, and takes a bid, in English and Spanish. The input that
broke it (issue 48): ``/ddz hand`` at a tournament table answered "Sorry, something went
wrong" (``KeyError: 'tournament'``, the hand view's titles knew daily, event and channel
tables only)."""

from __future__ import annotations

import pytest

from bot.features.tournaments.values import TournamentKey
from bot.game.seat import Event, Seat, computer_seat
from bot.game.table import Table
from bot.i18n import available_locales, t
from bot.service import TableService
from tests.support.fake_discord import FakeDiscord, Member
from tests.support.fake_game import CHANNEL_ID, GUILD_ID

SORRY = {lang: t("error.internal", lang) for lang in available_locales()}
"""The apology a member reads when a click failed, in each language."""


async def tournament_table(service: TableService, users: tuple[int, int],
                           channel_id: int = CHANNEL_ID) -> Table:
    """Round 1, table 2 of a tournament, dealt in ``channel_id`` (its thread; default the
    fake's channel): two members and a computer, as ``TournamentService`` deals it
    (``Table.deal_next``)."""
    table = Table(guild_id=GUILD_ID, channel_id=channel_id, starter_id=999,
                  computer_level="easy")
    TournamentKey(tournament_id="cup", round_no=1, table_no=2).mark(table)
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
    ("en-US", "🏆 **Your hand** · round 1, table 2 · hand 1 of the round", "You bid"),
    ("es-ES", "🏆 **Tu mano** · ronda 1, mesa 2 · mano 1 de la ronda", "Has apostado"),
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


async def test_in_the_thread_autoplay_and_my_hand_take_its_table_not_the_members_other_one(
        fake: FakeDiscord) -> None:
    """Issue 48: a member still seated at a channel's table (a practice hand before the
    tournament) typed ``/ddz autoplay mode:on pace:1`` in the tournament's thread; it
    turned auto-play on at the channel's table (the member's first table in the server),
    and her tournament turns went on waiting through their timers until they timed out."""
    service = fake.bot.service
    ana = Member(fake, 11, "Ana", locale="es-ES")
    opened = await ana.slash("start", computers=2)  # her practice table, in the channel
    assert opened.last.ephemeral, opened.text
    practice = service.table_in_channel(CHANNEL_ID)
    assert practice is not None and practice.holds(11)
    thread = CHANNEL_ID + 1
    cup = await tournament_table(service, (11, 12), channel_id=thread)
    fake.channel_id = thread  # Ana types in the thread from now on
    try:
        ack = await ana.slash("autoplay", mode="on", pace=1)
        assert "El juego automático está activado" in ack.text, ack.text
        playing = service.get(cup.id)
        assert playing is not None and playing.seats[0].autoplay and playing.seats[0].pace == 1
        other = service.get(practice.id)
        assert other is not None and not other.seats[0].autoplay
        view = (await ana.slash("hand")).last
        assert view.content.startswith("🏆 **Tu mano** · ronda 1, mesa 2"), view.content
    finally:
        fake.channel_id = CHANNEL_ID


async def test_the_view_shows_the_last_hands_end_when_the_tournament_closes_the_table_at_once(
        fake: FakeDiscord, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 48 (a member playing a tournament table through the hand view): a tournament
    closes its table right after the last hand; the board's redraw of the settled state
    could come after the close, when the views were already forgotten, so the member's view
    kept saying whose turn it was. The close itself now shows the views the hand's end."""
    service = fake.bot.service
    table = await tournament_table(service, (11, 12))
    ana = Member(fake, 11, "Ana", locale="es-ES")
    view = (await ana.slash("hand")).last
    assert "Te toca apostar" in view.content, view.content
    monkeypatch.setattr(fake.bot.get_cog("ddz").board, "notify", lambda *a, **k: None)
    for user in (11, 12):  # the hand plays itself; no board redraw refreshes the view
        await service.set_autoplay(table.id, user, True)
    for _ in range(400):
        await fake.idle()
        now = service.get(table.id)
        if now is not None and now.settleable:
            break
    else:
        raise AssertionError("the hand never ended")
    assert "La mano ha terminado" not in view.content
    await service._act(table.id, lambda t, now: t.cancel(t.starter_id, True))
    await fake.idle()
    assert "La mano ha terminado." in view.content, view.content
    assert not view.custom_ids()  # nothing left to press
