"""``/ddz play cards:`` as players type (issue 27 §5): the input that showed it,
full-width ``４４`` refused as "I can't read the card ４", now plays 44."""

from __future__ import annotations

from tests.support.fake_discord import FakeDiscord
from tests.support.fake_game import seated_hand


async def test_full_width_cards_play_and_a_bare_joker_asks_which(fake: FakeDiscord) -> None:
    ana, _, _ = await seated_hand(fake)
    await ana.click(fake.table_message(), "Bid 3")  # Ana: 3334445566778899T + 2XD
    assert (await ana.slash("play", cards="joker")).text == (
        "Which joker? Type small joker (X) or big joker (D), or jokers for both.")
    assert (await ana.slash("play", cards="3\u200bZ")).text.startswith(
        "I can't read the card “Z”.")
    assert (await ana.slash("play", cards="４４")).text == "You played 44."
