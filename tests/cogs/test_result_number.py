"""A result names one hand number: the server's, the one ``/ddz replay`` takes (issue 37
§5). The input that showed it: the first hand of a second table in a server read "hand
#1 · result" above "Hand #2 of this server: `/ddz replay 2`"."""

from __future__ import annotations

import pytest

from tests.support.fake_discord import FakeDiscord
from tests.support.fake_game import deal_for, members

CASES = {
    "en-US": ("hand #2 · result", "Hand #2 of this server: `/ddz replay 2`", "Result of hand #2:",
              "hand #1"),
    "es-ES": ("mano n.º 2 · resultado", "Mano n.º 2 de este servidor: `/ddz repeticion 2`",
              "Resultado de la mano n.º 2:", "mano n.º 1"),
}


@pytest.mark.parametrize("locale", list(CASES))
async def test_the_second_tables_first_hand_is_numbered_as_the_server_numbers_it(
        fake: FakeDiscord, locale: str) -> None:
    ana, _, _ = members(fake, locale)
    for table in range(2):  # two tables one after the other: each deals its hand 1
        fake.deal = {"hands": deal_for("XD2222AAAAKKKKQQQ", "QJJ"), "kitty": "QJJ",
                     "first_bidder": 0}
        await ana.slash("start", computers=2)
        await ana.click(fake.table_message(), "Empezar" if locale == "es-ES" else "Start")
        await ana.click(fake.table_message(), "Apostar 3" if locale == "es-ES" else "Bid 3")
        await ana.slash("autoplay", mode="on")
        await fake.idle()
        if not table:  # leaving closes the first table, so a second one can start
            await ana.click(fake.table_message(), "Salir" if locale == "es-ES" else "Leave")
    title, replay, alt, table_number = CASES[locale]
    result = fake.table_message()
    assert title in result.content and replay in result.content, result.content
    assert table_number not in result.content, result.content
    assert result.alt_texts[0].startswith(alt), result.alt_texts


@pytest.mark.parametrize("locale", list(CASES))
async def test_the_hand_view_and_the_bidding_show_no_second_number(
        fake: FakeDiscord, locale: str) -> None:
    # Issue 48: the second table's first hand read "hand #1" in the hand view and the
    # bidding, then "hand #2" in its result: the live views now show no number at all.
    ana, _, _ = members(fake, locale)
    await ana.slash("start", computers=2)
    await ana.click(fake.table_message(), "Empezar" if locale == "es-ES" else "Start")
    bidding = fake.table_message()
    view = (await ana.click(bidding, "Mi mano" if locale == "es-ES" else "My hand")).last
    word = "mano n.º" if locale == "es-ES" else "hand #"
    assert word not in bidding.content and word not in view.content, (bidding.content,
                                                                       view.content)
    assert not any(word in alt for alt in bidding.alt_texts + view.alt_texts)
