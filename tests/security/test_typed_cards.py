"""``/ddz play cards:`` with hostile text: unicode, very long input, cards not held,
too many copies. A polite ephemeral reason, nothing played, nothing stored."""

from __future__ import annotations

import pytest

from tests.support.fake_discord import FakeDiscord
from tests.support.forge import assert_polite, playing_hand, snapshot, table_of

BAD_CARD = "I can't read the card"
FIVE = "That is not a valid selection: the deck has only four cards of each rank."
JOKER_TWICE = "That is not a valid selection: the deck has only one small joker and one big joker."


HOSTILE = [
    ("３３３３３", FIVE), ("🂡", BAD_CARD),  # full width: read as typed
    ("3\u200b3\u200b3\u200b3\u200b3", FIVE), ("ⅩⅩ", JOKER_TWICE),  # NFKC
    ("3\u200bZ", "I can't read the card “Z”"),  # the visible part only, never “”
    ("<@&1> @everyone", BAD_CARD), ("3; DROP TABLE tables", BAD_CARD),
    ("10 10 10 10 10", FIVE), ("JJ", "You don't hold JJ."),
    ("33333", FIVE), ("XX", JOKER_TWICE), ("34", "34 is not a combination."),
    (" ", ""), ("\n", ""),
]


async def test_hostile_card_text_is_refused_politely(fake: FakeDiscord) -> None:
    ana, _, _ = await playing_hand(fake)
    before = await snapshot(fake)
    tokens = [fake.dispatch(ana.slash_payload("play", cards=cards)) for cards, _ in HOSTILE]
    await fake.idle()
    for token, (_, expected) in zip(tokens, HOSTILE, strict=True):
        reply = ana._reply(token)
        assert_polite(reply, expected)
        assert "everyone" not in str(reply.last.allowed_mentions.get("parse", []))
    assert await snapshot(fake) == before


async def test_jokers_not_held_are_refused_on_ones_turn(fake: FakeDiscord) -> None:
    ana, bo, _ = await playing_hand(fake)
    await ana.slash("play", cards="3")
    assert table_of(fake).turn_seat == 1
    before = await snapshot(fake)
    assert_polite(await bo.slash("play", cards="XD"), "You don't hold the rocket.")
    assert_polite(await bo.slash("play", cards="D"), "You don't hold the big joker.")  # named
    assert await snapshot(fake) == before


@pytest.mark.parametrize("cards", ["X" * 5000, "3456789TJQKA2" * 200], ids=["X*5000", "ranks*200"])
async def test_five_thousand_characters_get_a_short_answer(fake: FakeDiscord, cards: str) -> None:
    ana, _, _ = await playing_hand(fake)
    before = await snapshot(fake)
    reply = await ana.slash("play", cards=cards)
    assert await snapshot(fake) == before
    assert_polite(reply)
