"""`/ddz play cards:` as a newcomer types it (issue 48): "pass" answered "I can't read the
card “p”", and a long input came back quoted."""

from __future__ import annotations

from tests.support.fake_discord import FakeDiscord, Member
from tests.support.fake_game import seated_hand
from tests.support.forge import table_of


async def test_the_pass_words_pass_and_point_to_the_pass_button(fake: FakeDiscord) -> None:
    ana, bo, _ = await seated_hand(fake)
    await fake.bot.service.bid(table_of(fake).id, 11, 3)  # Ana is the landlord and leads
    await fake.idle()
    # a lead cannot be passed: the usual refusal, not a card that cannot be read
    assert (await ana.slash("play", cards="pass")).text == (
        "You lead this round, so you can't pass: play any combination.")
    await ana.slash("play", cards="3")
    await fake.idle()
    reply = await bo.slash("play", cards="Pass")
    assert reply.last.ephemeral and reply.text == (
        "You passed. Next time the **Pass** button of your hand view (`/ddz hand`) does it in"
        " one click, or `/ddz pass`.")
    bos = [a for a in table_of(fake).hand.history if a.seat == 1]
    assert [a.kind for a in bos] == ["pass"]


async def test_a_spanish_member_passes_with_paso(fake: FakeDiscord) -> None:
    ana, _, _ = await seated_hand(fake)
    bo = Member(fake, 22, "Bo", "es-ES", "es-ES")  # Bo again, his client in Spanish
    await fake.bot.service.bid(table_of(fake).id, 11, 3)
    await fake.idle()
    await ana.slash("play", cards="3")
    await fake.idle()
    reply = await bo.slash("play", cards="paso")
    assert reply.text.startswith("Has pasado. La próxima vez, el botón **Pasar**"), reply.text


async def test_a_long_input_is_refused_without_being_quoted(fake: FakeDiscord) -> None:
    ana, _, _ = await seated_hand(fake)
    await fake.bot.service.bid(table_of(fake).id, 11, 3)
    await fake.idle()
    for typed in ("p" * 200, "3" * 200):
        reply = await ana.slash("play", cards=typed)
        assert reply.text == ("That is more than a play: type at most 20 cards, e.g. 33344, or"
                              " use your hand view (`/ddz hand`)."), reply.text
    assert len(table_of(fake).hand.history) == 1  # the bid only
