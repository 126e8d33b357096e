"""A hand-view custom_id forged onto the PUBLIC table message must never edit it.

Found by this suite: the hand view answered by editing "its" message (deferred
update + ``edit_original_response``), so the public board was overwritten for
everyone, with the clicker's hand on it. Fixed in cogs/ddz.py ``on_hand_click``,
which now refuses a hand-view id on a non-ephemeral message."""

from __future__ import annotations

from bot.rules import show_cards, spaced_cards
from tests.support.fake_discord import FakeDiscord
from tests.support.fake_game import comp
from tests.support.forge import forge_click, playing_hand, snapshot, table_of

CAUSE = ("cogs/ddz.py on_hand_click: defer() is a deferred UPDATE of the clicked message and "
         "respond(edit=True) edits it, without checking that the message is the clicker's "
         "ephemeral hand view")


async def test_an_outsider_cannot_wipe_the_public_board(fake: FakeDiscord) -> None:
    ana, _, cy = await playing_hand(fake)
    view = (await ana.click(fake.table_message(), "My hand")).last
    board = fake.table_message()
    content, buttons = board.content, board.custom_ids()
    before = await snapshot(fake)
    await forge_click(cy, board, comp(view, "hr0"))
    assert await snapshot(fake) == before
    assert fake.messages[board.id].content == content
    assert fake.messages[board.id].custom_ids() == buttons


async def test_a_hand_view_is_never_drawn_on_the_public_board(fake: FakeDiscord) -> None:
    ana, _, _ = await playing_hand(fake)
    view = (await ana.click(fake.table_message(), "My hand")).last
    board = fake.table_message()
    held = table_of(fake).hand.hand_of(0)
    secrets = (show_cards(held), spaced_cards(held))  # as a text, as an alt text writes it
    await forge_click(ana, board, comp(view, "hr0"))
    public = fake.messages[board.id]
    assert not public.ephemeral
    assert "Your hand" not in public.content
    assert not any(secret in alt for alt in public.alt_texts for secret in secrets)
